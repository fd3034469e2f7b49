/**
 * Alerts that follow their sources: labels and annotations from the opening event (REST, GraphQL, label
 * filters), events that acknowledge and resolve alerts (`event_action` + `dedup_key`), rules that resolve
 * their own alerts (resolve_type_glob / resolve_conditions, auto_resolve_after_seconds), and starter rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { createTenant } from '../src/tenants/tenants.js';
import { starterRulesSeed } from '../src/rules/suggestions.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let memberToken: string;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
});
afterAll(async () => {
  await s?.stop();
});

async function ingest(body: Record<string, unknown>, key = t.ingestKey): Promise<string> {
  const r = await rest(s.url).post('/events', body, { headers: { 'x-service-key': key } });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body.id;
}

async function rule(body: Record<string, unknown>): Promise<string> {
  const r = await rest(s.url, t.adminToken).post('/alert-rules', body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

async function alertsOf(ruleId: string) {
  const r = await rest(s.url, t.adminToken).get(`/alerts?rule=${ruleId}`);
  expect(r.status).toBe(200);
  return r.body.items as Array<Record<string, any>>;
}

describe('labels and annotations on alerts', () => {
  let alertId: string;
  let dedupKey: string;

  it('an alert opened from an event with labels {service: checkout} shows them and the annotations in REST and GraphQL', async () => {
    const ruleId = await rule({ name: 'Checkout errors', type_glob: 'checkout.error', alert_severity: 'critical' });
    await ingest({
      type: 'checkout.error',
      source: 'shop',
      labels: { service: 'checkout', env: 'prod' },
      payload: {
        description: 'Payments failing',
        runbook_url: 'https://runbooks.example/checkout',
        annotations: { team: 'payments' },
      },
    });
    const [alert] = await eventually(async () => ((await alertsOf(ruleId)).length ? alertsOf(ruleId) : null));
    expect(alert!.labels).toEqual({ service: 'checkout', env: 'prod' });
    expect(alert!.annotations).toEqual({
      team: 'payments',
      description: 'Payments failing',
      runbook_url: 'https://runbooks.example/checkout',
    });
    alertId = alert!.id;
    dedupKey = alert!.dedup_key;
    const detail = await rest(s.url, memberToken).get(`/alerts/${alertId}`);
    expect(detail.body).toMatchObject({
      labels: { service: 'checkout' },
      annotations: { runbook_url: 'https://runbooks.example/checkout' },
    });
    const g = await gql(s.url, memberToken, 'query($id: ID!) { alert(id: $id) { labels annotations } }', {
      id: alertId,
    });
    expect(g.data.alert).toEqual({ labels: { service: 'checkout', env: 'prod' }, annotations: alert!.annotations });
  });

  it('GET /alerts?label=service:checkout finds it; every repeated label must match; GraphQL filters the same way', async () => {
    const found = await rest(s.url, memberToken).get('/alerts?label=service:checkout');
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.items.map((a: { id: string }) => a.id)).toEqual([alertId]);
    expect(
      (await rest(s.url, memberToken).get('/alerts?label=service:checkout&label=env:prod')).body.items,
    ).toHaveLength(1);
    expect((await rest(s.url, memberToken).get('/alerts?label=service:checkout&label=env:staging')).body.items).toEqual(
      [],
    );
    expect((await rest(s.url, memberToken).get('/alerts?label=service:cart')).body.items).toEqual([]);
    // Another tenant's label filter never sees this tenant's alert.
    expect((await rest(s.url, other.adminToken).get('/alerts?label=service:checkout')).body.items).toEqual([]);
    const g = await gql(
      s.url,
      memberToken,
      'query($f: AlertFilter) { alerts(first: 10, filter: $f) { edges { node { id } } } }',
      { f: { labels: { service: 'checkout' } } },
    );
    expect(g.data.alerts.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([alertId]);
  });

  it('a label filter that is not key:value is a 422 naming the parameter; a GraphQL label filter must map strings to strings', async () => {
    const bad = await rest(s.url, memberToken).get('/alerts?label=checkout');
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('label');
    const g = await gql(
      s.url,
      memberToken,
      'query($f: AlertFilter) { alerts(first: 10, filter: $f) { edges { node { id } } } }',
      { f: { labels: { service: 5 } } },
    );
    expect(g.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('an event {event_action: "resolve", dedup_key: <its key>} resolves it, and the timeline names the event as actor', async () => {
    const eventId = await ingest({
      type: 'checkout.recovered',
      source: 'shop',
      event_action: 'resolve',
      dedup_key: dedupKey,
    });
    const resolved = await eventually(async () => {
      const r = await rest(s.url, memberToken).get(`/alerts/${alertId}`);
      return r.body.status === 'resolved' ? r.body : null;
    });
    const entry = resolved.timeline.at(-1);
    expect(entry).toMatchObject({
      action: 'resolved',
      from_status: 'open',
      to_status: 'resolved',
      actor: null,
      actor_event_id: eventId,
    });
    expect(entry.note).toMatch(/checkout\.recovered from shop/);
    expect(resolved.events.map((e: { id: string }) => e.id)).toContain(eventId);
    const g = await gql(
      s.url,
      memberToken,
      'query($id: ID!) { alert(id: $id) { timeline { action actorEvent { id type } } } }',
      { id: alertId },
    );
    expect(g.data.alert.timeline.at(-1)).toEqual({
      action: 'resolved',
      actorEvent: { id: eventId, type: 'checkout.recovered' },
    });
    // Stored with its directives as the reserved labels.
    const events = await rest(s.url, memberToken).get('/events');
    expect(events.body.find((e: { id: string }) => e.id === eventId).labels).toEqual({
      event_action: 'resolve',
      dedup_key: dedupKey,
    });
  });

  it('a resolve event that matches no open alert is stored on the timeline and changes nothing', async () => {
    const before = (await rest(s.url, memberToken).get('/alerts')).body.items;
    const eventId = await ingest({
      type: 'checkout.recovered',
      source: 'shop',
      event_action: 'resolve',
      dedup_key: 'no-such-alert',
    });
    await eventually(
      async () =>
        (await s.app.rt.prisma.event.findFirst({ where: { id: eventId, evaluatedAt: { not: null } } })) ?? null,
    );
    const events = await rest(s.url, memberToken).get('/events');
    expect(events.body.map((e: { id: string }) => e.id)).toContain(eventId);
    expect((await rest(s.url, memberToken).get('/alerts')).body.items).toEqual(before);
  });

  it('rejects an unknown event_action, an over-long dedup_key and the reserved label keys with 422s naming the field', async () => {
    const r = await rest(s.url).post(
      '/events',
      { type: 'x.y', source: 'a', event_action: 'close', dedup_key: 'k'.repeat(256), labels: { dedup_key: 'x' } },
      { headers: { 'x-service-key': t.ingestKey } },
    );
    expect(r.status).toBe(422);
    const text = JSON.stringify(r.body);
    expect(text).toContain('event_action');
    expect(text).toContain('dedup_key');
  });
});

describe('events and rules own their alerts', () => {
  it('a trigger with a dedup_key opens the alert under that key; acknowledge then resolve events move it', async () => {
    const ruleId = await rule({ name: 'Job failures', type_glob: 'job.failed' });
    await ingest({ type: 'job.failed', source: 'cron', dedup_key: 'job-42', payload: { job: 42 } });
    const [alert] = await eventually(async () => ((await alertsOf(ruleId)).length ? alertsOf(ruleId) : null));
    expect(alert).toMatchObject({ dedup_key: 'job-42', status: 'open' });
    const ack = await ingest({ type: 'job.seen', source: 'cron', event_action: 'acknowledge', dedup_key: 'job-42' });
    const acked = await eventually(async () =>
      (await alertsOf(ruleId))[0]!.status === 'acknowledged'
        ? (await rest(s.url, memberToken).get(`/alerts/${alert!.id}`)).body
        : null,
    );
    expect(acked.timeline.at(-1)).toMatchObject({ action: 'acknowledged', actor_event_id: ack });
    expect(acked.assignee).toBeNull();
    await ingest({ type: 'job.ok', source: 'cron', event_action: 'resolve', dedup_key: 'job-42' });
    await eventually(async () => (await alertsOf(ruleId))[0]!.status === 'resolved');
  });

  it('resolve_type_glob with resolve_conditions resolves the rule alert with the same dedup key, only that one', async () => {
    const ruleId = await rule({
      name: 'Link down',
      type_glob: 'link.down',
      dedup_key_template: '{{rule.id}}:{{labels.port}}',
      resolve_type_glob: 'link.up',
      resolve_conditions: [{ path: 'stable', op: 'eq', value: true }],
    });
    const got = await rest(s.url, memberToken).get(`/alert-rules/${ruleId}`);
    expect(got.body).toMatchObject({
      resolve_type_glob: 'link.up',
      resolve_conditions: [{ path: 'stable', op: 'eq', value: true }],
      auto_resolve_after_seconds: null,
    });
    await ingest({ type: 'link.down', source: 'sw1', labels: { port: '1' } });
    await ingest({ type: 'link.down', source: 'sw1', labels: { port: '2' } });
    await eventually(async () => (await alertsOf(ruleId)).length === 2);
    const flapping = await ingest({
      type: 'link.up',
      source: 'sw1',
      labels: { port: '1' },
      payload: { stable: false },
    });
    await eventually(
      async () =>
        (await s.app.rt.prisma.event.findFirst({ where: { id: flapping, evaluatedAt: { not: null } } })) ?? null,
    );
    expect((await alertsOf(ruleId)).every((a) => a.status === 'open')).toBe(true);
    const up = await ingest({ type: 'link.up', source: 'sw1', labels: { port: '1' }, payload: { stable: true } });
    const alerts = await eventually(async () => {
      const list = await alertsOf(ruleId);
      return list.some((a) => a.status === 'resolved') ? list : null;
    });
    expect(alerts.find((a) => a.labels.port === '1')).toMatchObject({ status: 'resolved' });
    expect(alerts.find((a) => a.labels.port === '2')).toMatchObject({ status: 'open' });
    const detail = await rest(s.url, memberToken).get(`/alerts/${alerts.find((a) => a.labels.port === '1')!.id}`);
    expect(detail.body.timeline.at(-1)).toMatchObject({ action: 'resolved', actor_event_id: up });
  });

  it('auto_resolve_after_seconds resolves an alert once no matching event arrives for that long', async () => {
    const g = await gql(
      s.url,
      t.adminToken,
      'mutation($i: CreateAlertRuleInput!) { createAlertRule(input: $i) { id autoResolveAfterSeconds } }',
      { i: { name: 'Flaky probe', typeGlob: 'probe.failed', autoResolveAfterSeconds: 1 } },
    );
    const ruleId = g.data.createAlertRule.id;
    expect(g.data.createAlertRule.autoResolveAfterSeconds).toBe(1);
    await ingest({ type: 'probe.failed', source: 'blackbox' });
    const resolved = await eventually(
      async () => {
        const [a] = await alertsOf(ruleId);
        return a?.status === 'resolved' ? a : null;
      },
      30_000,
      200,
    );
    const detail = await rest(s.url, memberToken).get(`/alerts/${resolved.id}`);
    expect(detail.body.timeline.at(-1)).toMatchObject({ action: 'resolved', actor: null, actor_event_id: null });
    expect(detail.body.timeline.at(-1).note).toMatch(/auto-resolve/);
  });

  it('rejects resolve settings on an absence rule, resolve conditions without a glob and a bad delay (422 per field); members may not create rules', async () => {
    const r = await rest(s.url, t.adminToken).post('/alert-rules', {
      name: 'hb',
      kind: 'absence',
      window_seconds: 60,
      resolve_type_glob: 'x.up',
      auto_resolve_after_seconds: 60,
    });
    expect(r.status).toBe(422);
    const text = JSON.stringify(r.body);
    expect(text).toContain('["body","resolve_type_glob"]');
    expect(text).toContain('["body","auto_resolve_after_seconds"]');
    const r2 = await rest(s.url, t.adminToken).post('/alert-rules', {
      name: 'x',
      type_glob: 'a.b',
      resolve_conditions: [{ path: 'a', op: 'eq', value: 1 }],
    });
    expect(r2.status).toBe(422);
    expect(JSON.stringify(r2.body)).toContain('["body","resolve_conditions"]');
    const r3 = await rest(s.url, t.adminToken).post('/alert-rules', {
      name: 'x',
      type_glob: 'a.b',
      auto_resolve_after_seconds: 0,
    });
    expect(r3.status).toBe(422);
    expect(JSON.stringify(r3.body)).toContain('auto_resolve_after_seconds');
    expect((await rest(s.url, memberToken).post('/alert-rules', { name: 'x', resolve_type_glob: 'a.b' })).status).toBe(
      403,
    );
  });
});

describe('suggested starter rules', () => {
  it('GET /alert-rules/suggestions offers gpu.xid with the rule it would create; a heartbeat sender gets its own', async () => {
    await ingest({ type: 'heartbeat', source: 'backup-job' });
    const r = await eventually(async () => {
      const res = await rest(s.url, memberToken).get('/alert-rules/suggestions');
      return res.body.items.some((x: { key: string }) => x.key === 'heartbeat.backup-job') ? res : null;
    });
    const xid = r.body.items.find((x: { key: string }) => x.key === 'gpu.xid');
    expect(xid).toMatchObject({
      name: 'Critical GPU XID',
      kind: 'match',
      enabled: false,
      rule_id: null,
      input: { type_glob: 'gpu.xid', severities: ['critical'], alert_severity: 'critical' },
    });
    expect(r.body.items.map((x: { key: string }) => x.key)).toEqual(
      expect.arrayContaining(['gpu.thermal', 'gpu.missing', 'integration.failing', 'budget.exceeded']),
    );
    const hb = r.body.items.find((x: { key: string }) => x.key === 'heartbeat.backup-job');
    expect(hb).toMatchObject({
      kind: 'absence',
      input: { kind: 'absence', type_glob: 'heartbeat', source: 'backup-job', window_seconds: 300 },
    });
    // Suggestions are per tenant: the other tenant never sent a heartbeat.
    const theirs = await rest(s.url, other.adminToken).get('/alert-rules/suggestions');
    expect(theirs.body.items.some((x: { key: string }) => x.key.startsWith('heartbeat.'))).toBe(false);
  });

  it('an admin enables one in one step (idempotent); members get 403; an unknown key is 404', async () => {
    expect((await rest(s.url, memberToken).post('/alert-rules/suggestions/gpu.xid/enable')).status).toBe(403);
    expect((await rest(s.url, t.adminToken).post('/alert-rules/suggestions/gpu.nope/enable')).status).toBe(404);
    const first = await rest(s.url, t.adminToken).post('/alert-rules/suggestions/gpu.xid/enable');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      name: 'Critical GPU XID',
      enabled: true,
      type_glob: 'gpu.xid',
      suggestion_key: 'gpu.xid',
    });
    const again = await rest(s.url, t.adminToken).post('/alert-rules/suggestions/gpu.xid/enable');
    expect(again.body.id).toBe(first.body.id);
    const g = await gql(s.url, memberToken, '{ suggestedAlertRules { key enabled ruleId input } }');
    expect(g.data.suggestedAlertRules.find((x: { key: string }) => x.key === 'gpu.xid')).toMatchObject({
      enabled: true,
      ruleId: first.body.id,
      input: { typeGlob: 'gpu.xid', severities: ['CRITICAL'] },
    });
    const hb = await gql(
      s.url,
      t.adminToken,
      'mutation { enableSuggestedAlertRule(key: "heartbeat.backup-job") { kind source windowSeconds suggestionKey } }',
    );
    expect(hb.data.enableSuggestedAlertRule).toEqual({
      kind: 'ABSENCE',
      source: 'backup-job',
      windowSeconds: 300,
      suggestionKey: 'heartbeat.backup-job',
    });
  });

  it('the enabled gpu.xid rule pages on a critical XID, one alert per GPU', async () => {
    const xidRule = (await rest(s.url, t.adminToken).get('/alert-rules')).body.items.find(
      (r: { suggestion_key: string }) => r.suggestion_key === 'gpu.xid',
    );
    await ingest({
      type: 'gpu.xid',
      source: 'gpu/node-1',
      severity: 'critical',
      labels: { node: 'node-1', gpu: '0', uuid: 'GPU-aaa' },
      summary: 'XID 79 on GPU 0 on node-1',
    });
    await ingest({
      type: 'gpu.xid',
      source: 'gpu/node-1',
      severity: 'critical',
      labels: { node: 'node-1', gpu: '1', uuid: 'GPU-bbb' },
      summary: 'XID 79 on GPU 1 on node-1',
    });
    const alerts = await eventually(async () =>
      (await alertsOf(xidRule.id)).length === 2 ? alertsOf(xidRule.id) : null,
    );
    expect(alerts.map((a) => a.summary).sort()).toEqual(['XID 79 on GPU 0 on node-1', 'XID 79 on GPU 1 on node-1']);
    expect(alerts.every((a) => a.severity === 'critical')).toBe(true);
  });

  it('a tenant created with a chosen set of starter rules has them enabled; an unknown key is refused', async () => {
    const created = await createTenant(
      s.app.rt.prisma,
      { name: `starter-${Date.now()}`, adminEmail: 'a@starter.test', adminPassword: 'pw-starter-123456' },
      starterRulesSeed(['gpu.xid', 'integration.failing'], ['starterRules']),
    );
    const rules = await s.app.rt.prisma.alertRule.findMany({
      where: { tenantId: created.tenant.id },
      orderBy: { suggestionKey: 'asc' },
    });
    expect(rules.map((r) => [r.suggestionKey, r.enabled, r.typeGlob, r.resolveTypeGlob])).toEqual([
      ['gpu.xid', true, 'gpu.xid', null],
      ['integration.failing', true, 'integration.degraded', 'integration.recovered'],
    ]);
    expect(() => starterRulesSeed(['gpu.nope'], ['starterRules'])).toThrow(/unknown starter rule gpu\.nope/);
  });
});
