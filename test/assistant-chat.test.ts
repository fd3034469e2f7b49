/**
 * The assistant's conversations with the default `builtin` provider (no model, no network): chat in an
 * alert's conversation, copilot chat, its history and subscription, and the triage settings (change
 * vocabulary). Set-up: test/helpers/assistant-suite.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, gql, rest, subscribe, wsClient } from './helpers/http.js';
import { assistantComplete } from '../src/assistant/complete.js';
import { createCtx } from '../src/context.js';
import { principalOf } from './factories.js';
import {
  ingest,
  memberId,
  memberToken,
  modelHostRequests,
  other,
  raise,
  s,
  secondToken,
  t,
  useAssistantSuite,
} from './helpers/assistant-suite.js';

useAssistantSuite();

describe('chat with the builtin provider', () => {
  let alertId: string;
  let deployId: string;

  // A second alert for the questions about one alert (the first one's conversation is counted below).
  let whyId: string;
  let whyDeployId: string;
  let unrelatedId: string;
  let otherAlertId: string;

  beforeAll(async () => {
    deployId = await ingest(t, { type: 'deploy.started', source: 'api-7', summary: 'deploy api v3' });
    alertId = (await raise(t, { source: 'api-7', summary: 'api-7 errors' })).id;
    otherAlertId = (await raise(t, { source: 'elsewhere-3', summary: 'elsewhere errors' })).id;
    whyDeployId = await ingest(t, { type: 'deploy.started', source: 'api-8', summary: 'deploy api v4' });
    unrelatedId = await ingest(t, { type: 'config.changed', source: 'batch-9', labels: { host: 'batch-9' } });
    whyId = (await raise(t, { source: 'api-8', summary: 'api-8 errors' })).id;
  });

  it("answers 'why is this firing?' about that alert: rule, matching events, first/last seen, related causes", async () => {
    const r = await rest(s.url, memberToken).post(`/alerts/${whyId}/chat`, { message: 'Why is this firing?' });
    expect(r.status).toBe(200);
    const alert = (await rest(s.url, memberToken).get(`/alerts/${whyId}`)).body;
    expect(r.body.reply).toContain('Rule "App errors"');
    expect(r.body.reply).toContain(`First seen ${new Date(alert.first_seen_at).toISOString()}`);
    expect(r.body.reply).toContain(`last seen ${new Date(alert.last_seen_at).toISOString()}`);
    expect(r.body.reply).toMatch(/app\.error from api-8/);
    expect(r.body.reply).toMatch(/Top related causes:\n- deploy\.started from api-8 \(same source api-8/);
    expect(r.body.reply).not.toContain(otherAlertId);
    expect(r.body.reply).not.toContain(unrelatedId);
    expect(r.body.citations).toEqual(expect.arrayContaining([whyId, whyDeployId]));
  });

  it("lists related changes first for 'what changed?', then counts the unrelated ones", async () => {
    const r = await rest(s.url, memberToken).post(`/alerts/${whyId}/chat`, { message: 'what changed?' });
    const reply: string = r.body.reply;
    expect(reply.indexOf(whyDeployId)).toBeGreaterThan(-1);
    expect(reply.indexOf(unrelatedId)).toBeGreaterThan(reply.indexOf(whyDeployId));
    expect(reply).toMatch(/unrelated change\(s\) in the window/);
  });

  it("answers 'what changed?' in the alert's conversation from live data, citing the deploy", async () => {
    const r = await rest(s.url, memberToken).post(`/alerts/${alertId}/chat`, {
      message: 'What changed before this alert?',
    });
    expect(r.status).toBe(200);
    expect(r.body.reply).toContain(deployId);
    expect(r.body.citations).toContain(deployId);
    expect(r.body.actions).toEqual([]);
    const again = await rest(s.url, secondToken).post(`/alerts/${alertId}/chat`, { message: 'similar alerts before?' });
    expect(again.body.conversation_id).toBe(r.body.conversation_id);
  });

  it("shows the alert's conversation to the tenant, each message with its author", async () => {
    const r = await rest(s.url, secondToken).get(`/alerts/${alertId}/chat`);
    expect(r.status).toBe(200);
    expect(r.body.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(r.body.messages[0]).toMatchObject({ content: 'What changed before this alert?', author: { id: memberId } });
    expect(r.body.messages[1].author).toBeNull();
    const fresh = await raise(t, { source: 'quiet-one' });
    expect((await rest(s.url, memberToken).get(`/alerts/${fresh.id}/chat`)).body).toEqual({
      alert_id: fresh.id,
      conversation_id: null,
      messages: [],
    });
  });

  it('proposes what is asked ("snooze it for 30m") without doing it', async () => {
    const r = await rest(s.url, memberToken).post(`/alerts/${alertId}/chat`, { message: 'please snooze it for 30m' });
    expect(r.status).toBe(200);
    expect(r.body.actions).toHaveLength(1);
    expect(r.body.actions[0]).toMatchObject({
      tool: 'snooze_alert',
      status: 'proposed',
      args: { alert_id: alertId, duration: '30m' },
    });
    expect((await rest(s.url, memberToken).get(`/alerts/${alertId}`)).body.status).toBe('open');
    const msgs = (await rest(s.url, memberToken).get(`/alerts/${alertId}/chat`)).body.messages;
    expect(msgs.at(-1).action_ids).toEqual([r.body.actions[0].id]);
  });

  it('answers 422 for an empty or oversized message', async () => {
    expect((await rest(s.url, memberToken).post(`/alerts/${alertId}/chat`, {})).status).toBe(422);
    expect((await rest(s.url, memberToken).post(`/alerts/${alertId}/chat`, { message: 'x'.repeat(4001) })).status).toBe(
      422,
    );
    const blank = await rest(s.url, memberToken).post('/copilot/chat', { message: '   ' });
    expect(blank.status).toBe(422);
    expect(JSON.stringify(blank.body.detail)).toContain('message');
  });
});

describe('copilot', () => {
  it('answers "which alerts are critical right now?" from live data and keeps the conversation in the caller\'s history', async () => {
    const crit = await raise(t, { source: 'db-1', summary: 'db-1 down' });
    const api = rest(s.url, memberToken);
    const r = await api.post('/copilot/chat', { message: 'Which alerts are critical right now?' });
    expect(r.status).toBe(200);
    expect(r.body.reply).toContain(crit.id);
    expect(r.body.citations).toContain(crit.id);
    const theirAlert = await raise(other, { source: 'db-9' });
    expect(r.body.reply).not.toContain(theirAlert.id);

    const next = await api.post('/copilot/chat', {
      message: 'and open proposals?',
      conversation_id: r.body.conversation_id,
    });
    expect(next.body.conversation_id).toBe(r.body.conversation_id);

    const h = await api.get('/copilot/history');
    expect(h.status).toBe(200);
    expect(h.body.items[0].id).toBe(r.body.conversation_id);
    expect(h.body.items[0].messages.map((m: any) => m.content)).toEqual([
      'Which alerts are critical right now?',
      r.body.reply,
      'and open proposals?',
      next.body.reply,
    ]);

    // Another user's history does not show it, and they cannot continue it.
    const theirs = await rest(s.url, secondToken).get('/copilot/history');
    expect(theirs.body.items.map((c: any) => c.id)).not.toContain(r.body.conversation_id);
    expect(
      (await rest(s.url, secondToken).post('/copilot/chat', { message: 'hi', conversation_id: r.body.conversation_id }))
        .status,
    ).toBe(404);
    expect(
      (
        await rest(s.url, other.adminToken).post('/copilot/chat', {
          message: 'hi',
          conversation_id: r.body.conversation_id,
        })
      ).status,
    ).toBe(404);
    expect((await api.get('/copilot/history?limit=51')).status).toBe(422);

    const g = await gql(
      s.url,
      memberToken,
      'query($id: ID!) { copilotConversation(id: $id) { id kind messages { role content author { id } } } }',
      { id: r.body.conversation_id },
    );
    expect(g.data.copilotConversation).toMatchObject({ id: r.body.conversation_id, kind: 'COPILOT' });
    expect(g.data.copilotConversation.messages[0]).toMatchObject({ role: 'USER', author: { id: memberId } });
  });

  it('streams a reply over the assistantChat subscription', async () => {
    const client = wsClient(s.url, memberToken);
    try {
      const sub = subscribe(
        client,
        'subscription($input: AssistantChatInput!) { assistantChat(input: $input) { delta done result { conversation { id } reply { content } } } }',
        { input: { message: 'which alerts are critical right now?' } },
      );
      let text = '';
      for (;;) {
        const m = await sub.next(10_000);
        expect(m.errors).toBeUndefined();
        if (m.data.assistantChat.done) {
          expect(m.data.assistantChat.result.reply.content).toBe(text);
          break;
        }
        text += m.data.assistantChat.delta;
      }
      expect(text).toMatch(/critical alert\(s\)/);
    } finally {
      await client.dispose();
    }
  });

  it("ends the subscription with NOT_FOUND for another tenant's alert", async () => {
    const theirs = await raise(other, { source: 'sub-404' });
    const client = wsClient(s.url, memberToken);
    try {
      const sub = subscribe(
        client,
        'subscription($input: AssistantChatInput!) { assistantChat(input: $input) { delta done } }',
        { input: { message: 'hi', alertId: theirs.id } },
      );
      const errors = await eventually(async () => sub.error as Array<{ extensions?: { code?: string } }> | undefined);
      expect(errors[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(await s.app.rt.prisma.assistantConversation.count({ where: { alertId: theirs.id } })).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  it('offers other areas no completion (null) with the builtin provider', async () => {
    const member = await s.app.rt.prisma.user.findUniqueOrThrow({ where: { id: memberId } });
    expect(
      await assistantComplete(createCtx(s.app.rt, principalOf(member), 'test'), {
        system: 'Translate.',
        user: 'critical alerts',
      }),
    ).toBeNull();
  });

  it('records usage per tenant and never called the network', async () => {
    const rows = await s.app.rt.prisma.assistantUsage.findMany({ where: { tenantId: t.tenantId } });
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.purpose))).toEqual(new Set(['alert_chat', 'copilot_chat'])); // triage: test/assistant-triage.test.ts
    expect(rows.every((r) => r.provider === 'builtin' && r.totalTokens === 0)).toBe(true);
    expect(modelHostRequests).toBe(0);
  });
});

describe('triage settings (change vocabulary)', () => {
  it('shows the defaults to members and lets admins add terms over REST and GraphQL', async () => {
    const r = await rest(s.url, memberToken).get('/assistant/triage-settings');
    expect(r.status).toBe(200);
    expect(r.body.default_change_types).toEqual(
      expect.arrayContaining(['deploy', 'feature-flag', '*.updated', '*.changed']),
    );
    expect(r.body.entity_keys).toEqual(
      expect.arrayContaining(['host', 'node', 'service', 'namespace', 'pod', 'job', 'device', 'gpu']),
    );
    expect(r.body.confidence_thresholds).toEqual({ high: 50, medium: 25 });
    const put = await rest(s.url, t.adminToken).put('/assistant/triage-settings', {
      change_types: ['Canary', '*.toggled', 'deploy'],
    });
    expect(put.status).toBe(200);
    expect(put.body.change_types).toEqual(['canary', '*.toggled']);
    const g = await gql(s.url, memberToken, '{ triageSettings { changeTypes } }');
    expect(g.data.triageSettings.changeTypes).toEqual(['canary', '*.toggled']);
    const theirs = await rest(s.url, other.adminToken).get('/assistant/triage-settings');
    expect(theirs.body.change_types).toEqual([]);
  });

  it('answers 403 to members, 401 without a credential and 422 for a bad term with its field', async () => {
    expect((await rest(s.url, memberToken).put('/assistant/triage-settings', { change_types: ['x1'] })).status).toBe(
      403,
    );
    expect((await rest(s.url).get('/assistant/triage-settings')).status).toBe(401);
    const bad = await rest(s.url, t.adminToken).put('/assistant/triage-settings', {
      change_types: ['ok', 'no spaces'],
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain('change_types');
    const star = await gql(
      s.url,
      t.adminToken,
      'mutation { setTriageChangeTypes(changeTypes: ["**"]) { changeTypes } }',
    );
    expect(star.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(star.errors?.[0]?.message).toMatch(/not only \*/);
  });
});
