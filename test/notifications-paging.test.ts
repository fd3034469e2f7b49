/**
 * Paging a person, with real peers: a page job (the seam part 1's engine enqueues) becomes an email at a
 * real SMTP server and a push at an ntfy stand-in; the email's acknowledge link shows a confirmation page
 * on GET (changing nothing) and acknowledges as that person on POST; a dead channel retries and is
 * recorded failed while the person's other channel is sent; a rule's delay waits for the service clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { testClock } from './helpers/clock.js';
import { startHttpPeer, startSmtpPeer, type HttpPeer, type SmtpPeer } from './helpers/paging-receivers.js';
import { pageJobId, type PageJob } from '../src/queues.js';

let server: TestServer;
let smtp: SmtpPeer;
let peer: HttpPeer;
let tenant: BuiltTenant;
const clock = testClock();

beforeAll(async () => {
  smtp = await startSmtpPeer();
  peer = await startHttpPeer();
  server = await startTestServer({
    env: {
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Pager <pager@ops.test>',
      WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
      NOTIFY_ATTEMPTS: '3',
      NOTIFY_RETRY_DELAY_MS: '50',
      NOTIFY_SWEEP_INTERVAL_MS: '200',
    },
    start: { clock },
  });
  tenant = await buildTenant(server.app.rt);
});

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  await peer?.close();
});

/** A firing group with one critical alert, as part 1's engine leaves it; then the page job for `userId`. */
async function pageUser(userId: string, summary: string): Promise<{ groupId: string; alertId: string }> {
  const rt = server.app.rt;
  const key = `k-${summary}`;
  const group = await rt.prisma.alertGroup.create({
    data: { tenantId: tenant.tenantId, groupKey: key, liveGroupKey: key, status: 'firing', urgency: 'high' },
  });
  const alert = await rt.prisma.alert.create({
    data: {
      tenantId: tenant.tenantId,
      severity: 'critical',
      summary,
      dedupKey: key,
      liveDedupKey: key,
      groupId: group.id,
      labels: { host: 'db-1' },
      annotations: { runbook_url: 'https://runbooks.example/disk' },
    },
  });
  const job: PageJob = {
    tenantId: tenant.tenantId,
    groupId: group.id,
    userId,
    step: 0,
    round: 0,
    urgency: 'high',
    reason: 'escalation',
  };
  // Twice, as a retried engine step would: one job id, one set of notifications.
  await rt.queues.add('page', job, { jobId: pageJobId(job) });
  await rt.queues.add('page', job, { jobId: pageJobId(job) });
  return { groupId: group.id, alertId: alert.id };
}

const CREATE = `mutation($input: ContactMethodInput!) { createContactMethod(input: $input) { id secret contactMethod { address hasSecret } } }`;
const RULE = `mutation($input: NotificationRuleInput!) { createNotificationRule(input: $input) { id } }`;

async function method(token: string, input: Record<string, unknown>): Promise<string> {
  const r = await gql(server.url, token, CREATE, { input });
  expect(r.errors).toBeUndefined();
  return r.data.createContactMethod.id as string;
}

describe('paging a person', () => {
  it('emails and pushes the person paged; the link confirms on GET and acknowledges only on POST', async () => {
    const rt = server.app.rt;
    const ana = await buildUser(rt, tenant.tenantId, { role: 'member' });
    const token = await buildToken(rt, ana);
    const email = await method(token, { kind: 'EMAIL', name: 'work', address: ana.email });
    const push = await method(token, {
      kind: 'NTFY',
      name: 'phone',
      address: peer.url,
      topic: 'ana-pager',
      token: 'tk_1',
    });
    for (const id of [email, push])
      expect(
        (await gql(server.url, token, RULE, { input: { urgency: 'HIGH', contactMethodId: id } })).errors,
      ).toBeUndefined();

    const { groupId, alertId } = await pageUser(ana.id, 'Disk full on db-1');
    const mail = await eventually(async () => smtp.messages.find((m) => m.subject?.includes('Disk full on db-1')));
    const pushed = await eventually(async () => peer.received.find((r) => r.path === '/ana-pager'));

    expect(mail.subject).toBe('[CRITICAL] Disk full on db-1');
    expect(mail.text).toContain('host=db-1');
    expect(mail.text).toContain('Runbook: https://runbooks.example/disk');
    expect(mail.inReplyTo).toBe(`<group-${groupId}@ops.test>`);
    expect(pushed.headers.authorization).toBe('Bearer tk_1');
    expect(pushed.headers.priority).toBe('5');
    const actions = String(pushed.headers.actions);
    expect(actions).toMatch(/^http, Acknowledge, http:\/\/[^,]+\/actions\/[^,]+, method=POST/);
    expect(actions.split('; ')).toHaveLength(3);

    // Exactly once: the page job added twice made one email, one push and one inbox item.
    const notes = await eventually(async () => {
      const rows = await rt.prisma.notification.findMany({ where: { groupId } });
      return rows.length === 3 && rows.every((n) => n.status === 'sent') ? rows : null;
    });
    expect(notes.map((n) => n.kind).sort()).toEqual(['email', 'inbox', 'ntfy']);
    expect(notes.every((n) => typeof n.latencyMs === 'number')).toBe(true);

    // The inbox shows it with an unread count; the alert lists its notifications (REST).
    const inbox = await rest(server.url, token).get('/users/me/inbox');
    expect(inbox.status).toBe(200);
    expect(inbox.body.unread_count).toBe(1);
    const listed = await rest(server.url, token).get(`/alerts/${alertId}/notifications`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((n: { kind: string }) => n.kind).sort()).toEqual(['email', 'inbox', 'ntfy']);

    // The acknowledge link: a GET shows the confirmation page and changes nothing.
    const link = /Acknowledge: (\S+)/.exec(mail.text ?? '')![1];
    const path = new URL(link).pathname;
    const shown = await fetch(server.url + path);
    const html = await shown.text();
    expect(shown.status).toBe(200);
    expect(html).toContain('<form method="post">');
    expect((await rt.prisma.alertGroup.findUniqueOrThrow({ where: { id: groupId } })).status).toBe('firing');

    // A POST without the page's form token changes nothing either.
    const forged = await fetch(server.url + path, { method: 'POST' });
    expect(forged.status).toBe(403);
    expect((await rt.prisma.alertGroup.findUniqueOrThrow({ where: { id: groupId } })).status).toBe('firing');

    const formToken = /name="form_token" value="([0-9a-f]+)"/.exec(html)![1];
    const acted = await fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `form_token=${formToken}`,
    });
    expect(acted.status).toBe(200);
    const group = await rt.prisma.alertGroup.findUniqueOrThrow({ where: { id: groupId } });
    expect(group.status).toBe('acknowledged');
    const alert = await rt.prisma.alert.findUniqueOrThrow({ where: { id: alertId } });
    expect(alert.status).toBe('acknowledged');
    const audit = await rt.prisma.auditLog.findFirst({ where: { targetId: groupId, actorId: ana.id } });
    expect(audit?.action).toBe('acknowledgeAlertGroup');
  });

  it('retries a dead channel, then records it failed, while the other channel is sent', async () => {
    const rt = server.app.rt;
    const bo = await buildUser(rt, tenant.tenantId);
    const token = await buildToken(rt, bo);
    peer.failWith.set('/bo-dead', 503);
    const dead = await method(token, { kind: 'NTFY', name: 'dead', address: peer.url, topic: 'bo-dead' });
    const slack = await method(token, { kind: 'SLACK', name: 'team', address: `${peer.url}/slack/T1/B1/x` });
    for (const id of [dead, slack])
      await gql(server.url, token, RULE, { input: { urgency: 'HIGH', contactMethodId: id } });
    const { groupId } = await pageUser(bo.id, 'Queue stuck');
    const failed = await eventually(async () =>
      rt.prisma.notification.findFirst({ where: { groupId, kind: 'ntfy', status: 'failed' } }),
    );
    expect(failed.attempts).toBe(3);
    expect(failed.error).toContain('HTTP 503');
    expect(peer.received.filter((r) => r.path === '/bo-dead')).toHaveLength(3);
    const sent = await rt.prisma.notification.findFirstOrThrow({ where: { groupId, kind: 'slack' } });
    expect(sent.status).toBe('sent');
    expect(peer.received.find((r) => r.path === '/slack/T1/B1/x')?.json.blocks[1].elements).toHaveLength(3);
  });

  it('sends a delayed rule when the service clock reaches it, and skips it once the group stops firing', async () => {
    const rt = server.app.rt;
    const cy = await buildUser(rt, tenant.tenantId);
    const token = await buildToken(rt, cy);
    const later = await method(token, { kind: 'MATTERMOST', name: 'mm', address: `${peer.url}/mattermost/hooks/abc` });
    await gql(server.url, token, RULE, { input: { urgency: 'HIGH', contactMethodId: later, delayMinutes: 5 } });
    const { groupId } = await pageUser(cy.id, 'Latency high');
    const row = await eventually(async () =>
      rt.prisma.notification.findFirst({ where: { groupId, kind: 'mattermost' } }),
    );
    expect(row.status).toBe('pending');
    clock.advance(5 * 60_000 + 1000);
    await eventually(async () =>
      (await rt.prisma.notification.findUniqueOrThrow({ where: { id: row.id } })).status === 'sent' ? true : null,
    );
    expect(peer.received.find((r) => r.path === '/mattermost/hooks/abc')?.json.text).toContain('Latency high');

    const second = await pageUser(cy.id, 'Latency high again');
    await eventually(async () =>
      rt.prisma.notification.findFirst({ where: { groupId: second.groupId, kind: 'mattermost', status: 'pending' } }),
    );
    await rt.prisma.alertGroup.update({ where: { id: second.groupId }, data: { status: 'acknowledged' } });
    clock.advance(5 * 60_000 + 1000);
    const skipped = await eventually(async () =>
      rt.prisma.notification.findFirst({ where: { groupId: second.groupId, kind: 'mattermost', status: 'skipped' } }),
    );
    expect(skipped.error).toContain('acknowledged');
  });

  it('refuses an ntfy token that cannot be a header value, and never sends one stored before the rule', async () => {
    const rt = server.app.rt;
    const eve = await buildUser(rt, tenant.tenantId);
    const token = await buildToken(rt, eve);
    const cm = { kind: 'ntfy', name: 'p', address: peer.url, topic: 'eve-pager' };
    for (const bad of ['abc\r\nX-Injected: yes', 'tk\t1', 'tk\u007f', 'tk 1']) {
      const r = await rest(server.url, token).post('/users/me/contact-methods', { ...cm, token: bad });
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body.detail).toEqual([{ loc: ['body', 'token'], msg: expect.stringMatching(/HTTP header/) }]);
    }
    const g = await gql(server.url, token, CREATE, { input: { ...cm, kind: 'NTFY', token: 'a\nb' } });
    expect(g.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const ok = await rest(server.url, token).post('/users/me/contact-methods', { ...cm, token: 'tk_good' });
    expect(ok.status).toBe(201);
    const patched = await rest(server.url, token).patch(`/users/me/contact-methods/${ok.body.id}`, {
      token: 'tk\r\nX-Injected: yes',
    });
    expect(patched.status).toBe(422);
    expect(patched.body.detail[0].loc).toEqual(['body', 'token']);
    const kept = await rt.prisma.contactMethod.findUniqueOrThrow({ where: { id: ok.body.id } });
    expect(rt.secretBox.open(kept.secretSealed!)).toBe('tk_good');

    // A token stored before the rule (sealed as it came) fails the page permanently; nothing is sent.
    await rt.prisma.contactMethod.update({
      where: { id: ok.body.id },
      data: { secretSealed: rt.secretBox.seal('tk\r\nX-Injected: yes') },
    });
    await gql(server.url, token, RULE, { input: { urgency: 'HIGH', contactMethodId: ok.body.id } });
    const { groupId } = await pageUser(eve.id, 'Token check');
    const failed = await eventually(async () =>
      rt.prisma.notification.findFirst({ where: { groupId, kind: 'ntfy', status: 'failed' } }),
    );
    expect(failed.error).toContain('control character');
    expect(failed.error).not.toContain('X-Injected');
    expect(peer.received.filter((x) => x.path === '/eve-pager')).toHaveLength(0);
  });

  it('keeps contact methods to their owner and their secrets sealed', async () => {
    const rt = server.app.rt;
    const dee = await buildUser(rt, tenant.tenantId);
    const token = await buildToken(rt, dee);
    const r = await gql(server.url, token, CREATE, {
      input: { kind: 'DISCORD', name: 'd', address: `${peer.url}/discord/api/webhooks/1/secretpart` },
    });
    expect(r.data.createContactMethod.contactMethod.address).toBe(`${peer.url}/…`);
    expect(r.data.createContactMethod.contactMethod.hasSecret).toBe(true);
    const stored = await rt.prisma.contactMethod.findUniqueOrThrow({ where: { id: r.data.createContactMethod.id } });
    expect(stored.secretSealed).not.toContain('secretpart');
    const hook = await gql(server.url, token, CREATE, {
      input: { kind: 'WEBHOOK', name: 'w', address: `${peer.url}/hook/1` },
    });
    expect(hook.data.createContactMethod.secret).toMatch(/^whsec_/);

    const other = await rest(server.url, tenant.adminToken).patch(`/users/me/contact-methods/${stored.id}`, {
      name: 'x',
    });
    expect(other.status).toBe(404);
    const bad = await rest(server.url, token).post('/users/me/contact-methods', {
      kind: 'email',
      name: 'e',
      address: 'nope',
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('address');
    const unauth = await rest(server.url).get('/users/me/contact-methods');
    expect(unauth.status).toBe(401);

    const test = await rest(server.url, token).post(`/users/me/contact-methods/${stored.id}/test`);
    expect(test.status).toBe(202);
    await eventually(async () => peer.received.find((x) => x.path === '/discord/api/webhooks/1/secretpart'));
  });
});
