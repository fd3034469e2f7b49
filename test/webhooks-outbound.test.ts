import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestServer } from './helpers/server.js';
import { untilSubscribed } from './helpers/pubsub.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, subscribe, wsClient } from './helpers/http.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { dispatchOutbox, writeOutbox, type OutboxTopic } from '../src/outbox/outbox.js';
import { runRetention } from '../src/history/retention.js';
import { fanOutOutboxMessage } from '../src/deliveries/fanout.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let memberToken: string;
const receivers: Receiver[] = [];
/** A server and a tenant on it; most tests use `main`, a few start one with the settings they need. */
interface Site {
  s: TestServer;
  t: BuiltTenant;
}
let main: Site;
const sites: Site[] = [];

/**
 * Fast retries (40 ms doubling to 150 ms) so multi-attempt tests are quick, but a generous send timeout
 * (20 s) and retry window (2 min): no test here depends on how fast a loaded machine answers. The two
 * tests about the timeout and the window start their own server with just that setting short.
 */
const DELIVERY_ENV = {
  WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
  WEBHOOK_RETRY_BASE_MS: '40',
  WEBHOOK_RETRY_MAX_DELAY_MS: '150',
  WEBHOOK_RETRY_WINDOW_MS: '120000',
  WEBHOOK_TIMEOUT_MS: '20000',
  WEBHOOK_SWEEP_AFTER_MS: '30000',
};

/**
 * A fresh tenant on the main server, for tests that count deliveries or changes: announcements of
 * earlier tests (re-dispatched by the sweeper on a busy machine) reach every matching webhook of their
 * tenant, so a count on the shared tenant could include them.
 */
async function ownTenant(): Promise<Site> {
  return { s, t: await buildTenant(s.app.rt) };
}

/** A server of its own with DELIVERY_ENV plus `env`, and a tenant on it; stopped after the file. */
async function siteWith(env: Record<string, string>): Promise<Site> {
  const server = await startTestServer({ env: { ...DELIVERY_ENV, ...env } });
  const site = { s: server, t: await buildTenant(server.app.rt) };
  sites.push(site);
  return site;
}

const WEBHOOK_FIELDS = 'id name url enabled triggers { on severities kinds typeGlob labels payloadConditions { path op value } } previousSecretValidUntil lastFailureError lastFailure { id status lastError }';
const CREATE = `mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id secret webhook { ${WEBHOOK_FIELDS} } } }`;
const WEBHOOK = `query($id: ID!, $first: Int) { webhook: outboundWebhook(id: $id) { ${WEBHOOK_FIELDS} deliveries(first: $first) { id status attemptCount lastError body attempts { number responseStatus responseBody durationMs error requestHeaders } } } }`;

beforeAll(async () => {
  s = await startTestServer({ env: DELIVERY_ENV });
  t = await buildTenant(s.app.rt);
  main = { s, t };
  other = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId, { role: 'member' }));
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  for (const site of sites) await site.s.stop();
  await s?.stop();
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

async function createWebhook(url: string, triggers: unknown[] = [{ on: 'ALERT_OPENED' }], token = t.adminToken, name = 'receiver', at: Site = main) {
  const r = await gql(at.s.url, token, CREATE, { input: { name, url, triggers } });
  expect(r.errors).toBeUndefined();
  return r.data.createOutboundWebhook as { id: string; secret: string; webhook: any };
}

/** Announces a change the way the alerts and proposals areas do: an outbox row, then dispatch. */
async function announce(topic: OutboxTopic, body: Record<string, unknown>, tenantId = t.tenantId, at: Site = main): Promise<string> {
  const id = await writeOutbox(at.s.app.rt.prisma, { tenantId, topic, subjectId: crypto.randomUUID(), body: body as never });
  await dispatchOutbox(at.s.app.rt, [id]);
  return id;
}

const alertBody = (severity = 'critical') => ({ source: 'rules', kind: 'alert.opened', severity, labels: { team: 'core' }, payload: { alertId: 'a1', summary: 'disk full' } });

async function webhookView(id: string, first?: number, at: Site = main) {
  const r = await gql(at.s.url, at.t.adminToken, WEBHOOK, { id, first });
  expect(r.errors).toBeUndefined();
  return r.data.webhook;
}

/** Waits until `n` deliveries of the webhook reached a final state (delivered or failed). */
async function settled(id: string, n = 1, at: Site = main) {
  return eventually(async () => {
    const w = await webhookView(id, undefined, at);
    const done = w.deliveries.filter((d: any) => d.status === 'DELIVERED' || d.status === 'FAILED');
    return done.length >= n ? w : null;
  }, 30_000);
}

describe('outbound webhook management', () => {
  it('createOutboundWebhook returns the id and a whsec_ secret that admins can reveal later', async () => {
    const rcv = await receiver();
    const created = await createWebhook(rcv.url, [{ on: 'ALERT_OPENED', severities: ['CRITICAL'] }]);
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.webhook).toMatchObject({ url: rcv.url, enabled: true, triggers: [{ on: 'ALERT_OPENED', severities: ['CRITICAL'], kinds: null }] });
    const revealed = await gql(s.url, t.adminToken, 'mutation($id: ID!) { revealOutboundWebhookSecret(id: $id) { webhookId secret } }', { id: created.id });
    expect(revealed.data.revealOutboundWebhookSecret).toEqual({ webhookId: created.id, secret: created.secret });
    const list = await gql(s.url, memberToken, '{ outboundWebhooks { id name } }');
    expect(list.data.outboundWebhooks.map((w: any) => w.id)).toContain(created.id);
  });

  it('stores the secret sealed, never in clear', async () => {
    const created = await createWebhook((await receiver()).url);
    const row = await s.app.rt.prisma.outboundWebhook.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.secretCiphertext).not.toContain(created.secret.slice(6, 20));
    expect(s.app.rt.secretBox.open(row.secretCiphertext)).toBe(created.secret);
  });

  it('updates name, triggers and enabled; deletes', async () => {
    const created = await createWebhook((await receiver()).url);
    const upd = await gql(s.url, t.adminToken, `mutation($id: ID!, $input: UpdateOutboundWebhookInput!) { updateOutboundWebhook(id: $id, input: $input) { ${WEBHOOK_FIELDS} } }`, {
      id: created.id,
      input: { name: 'renamed', enabled: false, triggers: [{ on: 'PROPOSAL_APPROVED', kinds: ['firmware'] }, { on: 'EVENT', typeGlob: 'deploy.*', labels: { env: 'prod' }, payloadConditions: [{ path: 'build.status', op: 'EQ', value: 'failed' }] }] },
    });
    expect(upd.errors).toBeUndefined();
    expect(upd.data.updateOutboundWebhook).toMatchObject({
      name: 'renamed',
      enabled: false,
      triggers: [
        { on: 'PROPOSAL_APPROVED', kinds: ['firmware'] },
        { on: 'EVENT', typeGlob: 'deploy.*', labels: { env: 'prod' }, payloadConditions: [{ path: 'build.status', op: 'EQ', value: 'failed' }] },
      ],
    });
    const del = await gql(s.url, t.adminToken, 'mutation($id: ID!) { deleteOutboundWebhook(id: $id) }', { id: created.id });
    expect(del.data.deleteOutboundWebhook).toBe(created.id);
    const gone = await gql(s.url, t.adminToken, 'query($id: ID!) { webhook: outboundWebhook(id: $id) { id } }', { id: created.id });
    expect(gone.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('returns 401 without a credential and 403 to members on every write', async () => {
    const anon = await gql(s.url, undefined, CREATE, { input: { name: 'x', url: 'http://127.0.0.1:1/', triggers: [{ on: 'ALERT_OPENED' }] } });
    expect(anon.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const created = await createWebhook((await receiver()).url);
    const attempts = [
      [CREATE, { input: { name: 'x', url: 'http://127.0.0.1:1/', triggers: [{ on: 'ALERT_OPENED' }] } }],
      ['mutation($id: ID!) { updateOutboundWebhook(id: $id, input: { name: "m" }) { id } }', { id: created.id }],
      ['mutation($id: ID!) { deleteOutboundWebhook(id: $id) }', { id: created.id }],
      ['mutation($id: ID!) { revealOutboundWebhookSecret(id: $id) { secret } }', { id: created.id }],
      ['mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }', { id: created.id }],
      ['mutation($id: ID!) { redeliver(deliveryId: $id) { id } }', { id: created.id }],
    ] as const;
    for (const [q, v] of attempts) {
      const r = await gql(s.url, memberToken, q, v);
      expect(r.errors?.[0].extensions?.code, q).toBe('FORBIDDEN');
    }
  });

  it("returns NOT_FOUND for another tenant's webhook and delivery", async () => {
    const mine = await createWebhook((await receiver()).url);
    await announce('alert.opened', alertBody());
    const w = await settled(mine.id);
    const deliveryId = w.deliveries[0].id;
    const ops = [
      ['query($id: ID!) { webhook: outboundWebhook(id: $id) { id } }', { id: mine.id }],
      ['query($id: ID!) { delivery(id: $id) { id } }', { id: deliveryId }],
      ['mutation($id: ID!) { updateOutboundWebhook(id: $id, input: { name: "x" }) { id } }', { id: mine.id }],
      ['mutation($id: ID!) { deleteOutboundWebhook(id: $id) }', { id: mine.id }],
      ['mutation($id: ID!) { revealOutboundWebhookSecret(id: $id) { secret } }', { id: mine.id }],
      ['mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }', { id: mine.id }],
      ['mutation($id: ID!) { redeliver(deliveryId: $id) { id } }', { id: deliveryId }],
    ] as const;
    for (const [q, v] of ops) {
      const r = await gql(s.url, other.adminToken, q, v);
      expect(r.errors?.[0].extensions?.code, q).toBe('NOT_FOUND');
    }
    const list = await gql(s.url, other.adminToken, '{ outboundWebhooks { id } }');
    expect(list.data.outboundWebhooks).toEqual([]);
  });

  it('rejects private addresses, bad URLs and filters that do not fit the trigger with field-level 422s', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ name: 'x', url: 'http://10.0.0.1/hook', triggers: [{ on: 'ALERT_OPENED' }] }, ['input', 'url']],
      [{ name: 'x', url: 'http://169.254.169.254/latest/meta-data', triggers: [{ on: 'ALERT_OPENED' }] }, ['input', 'url']],
      [{ name: 'x', url: 'http://127.0.0.2:9/hook', triggers: [{ on: 'ALERT_OPENED' }] }, ['input', 'url']],
      [{ name: 'x', url: 'file:///etc/passwd', triggers: [{ on: 'ALERT_OPENED' }] }, ['input', 'url']],
      [{ name: '', url: 'http://127.0.0.1:9/', triggers: [{ on: 'ALERT_OPENED' }] }, ['input', 'name']],
      [{ name: 'x', url: 'http://127.0.0.1:9/', triggers: [] }, ['input', 'triggers']],
      [{ name: 'x', url: 'http://127.0.0.1:9/', triggers: [{ on: 'ALERT_OPENED', kinds: ['x'] }] }, ['input', 'triggers', '0', 'kinds']],
      [{ name: 'x', url: 'http://127.0.0.1:9/', triggers: [{ on: 'PROPOSAL_OPENED', severities: ['CRITICAL'] }] }, ['input', 'triggers', '0', 'severities']],
      [{ name: 'x', url: 'http://127.0.0.1:9/', triggers: [{ on: 'EVENT', labels: { env: 1 } }] }, ['input', 'triggers', '0', 'labels']],
      [{ name: 'x', url: 'http://127.0.0.1:9/', triggers: [{ on: 'EVENT', payloadConditions: [{ path: 'a..b', op: 'EQ', value: 1 }] }] }, ['input', 'triggers', '0', 'payloadConditions', '0', 'path']],
    ];
    for (const [input, loc] of cases) {
      const r = await gql(s.url, t.adminToken, CREATE, { input });
      expect(r.errors?.[0].extensions?.code, JSON.stringify(input)).toBe('BAD_USER_INPUT');
      expect((r.errors?.[0].extensions?.fields as any[]).map((f) => f.loc), JSON.stringify(input)).toContainEqual(loc);
    }
    const created = await createWebhook((await receiver()).url);
    const upd = await gql(s.url, t.adminToken, 'mutation($id: ID!) { updateOutboundWebhook(id: $id, input: { url: "http://192.168.1.10/" }) { id } }', { id: created.id });
    expect(upd.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('outbound deliveries', () => {
  it('never delivers a change announced before the webhook existed, even when its message is fanned out again', async () => {
    const fresh = await buildTenant(s.app.rt);
    const early = await createWebhook((await receiver()).url, undefined, fresh.adminToken, 'early');
    const id = await writeOutbox(s.app.rt.prisma, { tenantId: fresh.tenantId, topic: 'alert.opened', subjectId: crypto.randomUUID(), body: alertBody() as never });
    const late = await createWebhook((await receiver()).url, undefined, fresh.adminToken, 'late');
    // The first fan-out and a re-drive (the sweeper's, or a crashed run's) create the early webhook's delivery only.
    expect(await fanOutOutboxMessage(s.app.rt, id)).toBe(1);
    expect(await fanOutOutboxMessage(s.app.rt, id)).toBe(0);
    expect(await s.app.rt.prisma.delivery.count({ where: { outboxId: id, webhookId: early.id } })).toBe(1);
    expect(await s.app.rt.prisma.delivery.count({ where: { outboxId: id, webhookId: late.id } })).toBe(0);
  });

  it('POSTs the inbound-shaped body, verifiable with node crypto and with the standardwebhooks library', async () => {
    const rcv = await receiver();
    const hook = await createWebhook(rcv.url);
    await announce('alert.opened', alertBody());
    await settled(hook.id);
    expect(rcv.requests).toHaveLength(1);
    const req = rcv.requests[0];
    // Plain node crypto, as a receiver would write it.
    const expected = crypto.createHmac('sha256', hook.secret).update(req.body).digest('hex');
    expect(crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(String(req.headers['x-service-signature'])))).toBe(true);
    // The Standard Webhooks library.
    const payload = new Webhook(hook.secret).verify(req.body, req.headers as Record<string, string>);
    expect(payload).toMatchObject({ id: req.headers['webhook-id'], topic: 'alert.opened', source: 'rules', kind: 'alert.opened', severity: 'critical', labels: { team: 'core' }, payload: { alertId: 'a1' } });
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-service-event']).toBe('alert.opened');
    const w = await webhookView(hook.id);
    expect(w.deliveries[0]).toMatchObject({ id: req.headers['webhook-id'], status: 'DELIVERED', attemptCount: 1, body: req.body });
    expect(w.deliveries[0].attempts[0]).toMatchObject({ number: 1, responseStatus: 200, responseBody: 'ok', error: null });
    expect(w.deliveries[0].attempts[0].requestHeaders['x-service-signature']).toBe(req.headers['x-service-signature']);
  });

  it('a receiver that fails twice then recovers gets the delivery on the third attempt, with three attempts in history', async () => {
    const rcv = await receiver((_r, i) => (i < 2 ? { status: 500, body: 'boom' } : { status: 204 }));
    const hook = await createWebhook(rcv.url);
    await announce('alert.opened', alertBody());
    const w = await settled(hook.id);
    const d = w.deliveries[0];
    expect(d.status).toBe('DELIVERED');
    expect(d.attempts.map((a: any) => a.responseStatus)).toEqual([500, 500, 204]);
    expect(d.attempts[0].error).toContain('HTTP 500');
    expect(new Set(rcv.requests.map((r) => r.body)).size).toBe(1); // identical bytes every time
    expect(rcv.uniqueIds().size).toBe(1); // the same webhook-id every time
  });

  it('a receiver that always fails ends failed once the retry window is spent, shown as the webhook\'s last failure', async () => {
    const at = await siteWith({ WEBHOOK_RETRY_WINDOW_MS: '2000' });
    const rcv = await receiver(() => ({ status: 503, body: 'down' }));
    const hook = await createWebhook(rcv.url, undefined, at.t.adminToken, 'receiver', at);
    await announce('alert.opened', alertBody(), at.t.tenantId, at);
    await settled(hook.id, 1, at);
    // The webhook's last failure is written after the delivery's final state: wait for it too.
    const w = await eventually(async () => {
      const v = await webhookView(hook.id, undefined, at);
      return v.lastFailure ? v : null;
    }, 30_000);
    const d = w.deliveries[0];
    expect(d.status).toBe('FAILED');
    expect(d.attempts.length).toBeGreaterThan(1); // it was retried inside the window
    expect(d.attempts.length).toBe(rcv.requests.length);
    expect(d.lastError).toMatch(/retry window .* exhausted .* HTTP 503/);
    expect(w.lastFailure).toMatchObject({ id: d.id, status: 'FAILED', lastError: d.lastError });
    expect(w.lastFailureError).toBe(d.lastError);
  });

  it('410 Gone and other 4xx stop retries at once; 429 and 408 are retried', async () => {
    for (const [status, attempts, final] of [
      [410, 1, 'FAILED'],
      [400, 1, 'FAILED'],
      [429, 2, 'DELIVERED'],
      [408, 2, 'DELIVERED'],
    ] as const) {
      const rcv = await receiver((_r, i) => (i === 0 ? { status } : { status: 200 }));
      const hook = await createWebhook(rcv.url);
      await announce('alert.opened', alertBody());
      const d = (await settled(hook.id)).deliveries[0];
      expect([status, d.status, d.attempts.length]).toEqual([status, final, attempts]);
      if (final === 'FAILED') expect(d.lastError).toMatch(/retries stopped/);
    }
  });

  it('does not follow redirects: a 302 is a failed attempt', async () => {
    const target = await receiver();
    const rcv = await receiver((_r, i) => (i === 0 ? { status: 302, headers: { location: target.url } } : { status: 200 }));
    const hook = await createWebhook(rcv.url);
    await announce('alert.opened', alertBody());
    const d = (await settled(hook.id)).deliveries[0];
    expect(d.attempts.map((a: any) => a.responseStatus)).toEqual([302, 200]);
    expect(target.requests).toHaveLength(0);
  });

  it('times out a slow receiver and keeps 4 KiB of a large response', async () => {
    const at = await siteWith({ WEBHOOK_TIMEOUT_MS: '1000' });
    // The first request is never answered, so the first attempt times out however busy the machine is.
    const rcv = await receiver((_r, i) => (i === 0 ? { status: 200, hold: true } : { status: 500, body: 'x'.repeat(10_000) }));
    const hook = await createWebhook(rcv.url, undefined, at.t.adminToken, 'receiver', at);
    await announce('alert.opened', alertBody(), at.t.tenantId, at);
    await eventually(async () => ((await webhookView(hook.id, undefined, at)).deliveries[0]?.attempts.length >= 2 ? true : null), 30_000);
    const [first, second] = (await webhookView(hook.id, undefined, at)).deliveries[0].attempts;
    expect(first).toMatchObject({ responseStatus: null });
    expect(first.error).toMatch(/timed out/);
    expect(second.responseStatus).toBe(500);
    expect(second.responseBody).toHaveLength(4096);
  });

  it('checks the address again at send time: a receiver now on a private address fails without retries', async () => {
    const hook = await createWebhook((await receiver()).url);
    // As if DNS had been re-pointed after the URL was validated.
    await s.app.rt.prisma.outboundWebhook.update({ where: { id: hook.id }, data: { url: 'http://10.255.255.1:9/hook' } });
    await announce('alert.opened', alertBody());
    const d = (await settled(hook.id)).deliveries[0];
    expect(d.status).toBe('FAILED');
    expect(d.attempts).toHaveLength(1);
    expect(d.lastError).toMatch(/private\/loopback\/link-local/);
  });

  it('sends only what the triggers select', async () => {
    const rcv = await receiver();
    const hook = await createWebhook(rcv.url, [{ on: 'ALERT_OPENED', severities: ['CRITICAL'] }, { on: 'PROPOSAL_APPROVED', kinds: ['firmware'] }]);
    await announce('alert.opened', alertBody('warning'));
    await announce('alert.resolved', alertBody('critical'));
    await announce('proposal.approved', { source: 'sot', kind: 'proposal.approved', labels: {}, payload: { kind: 'config' } });
    await announce('proposal.approved', { source: 'sot', kind: 'proposal.approved', labels: {}, payload: { kind: 'firmware' } });
    await announce('alert.opened', alertBody('critical'));
    await announce('alert.opened', alertBody('critical'), other.tenantId);
    const w = await settled(hook.id, 2);
    expect(w.deliveries.map((d: any) => JSON.parse(d.body).topic).sort()).toEqual(['alert.opened', 'proposal.approved']);
    expect(rcv.requests).toHaveLength(2);
  });

  it('does not deliver to a disabled webhook', async () => {
    const rcv = await receiver();
    const off = await createWebhook(rcv.url);
    await gql(s.url, t.adminToken, 'mutation($id: ID!) { updateOutboundWebhook(id: $id, input: { enabled: false }) { id } }', { id: off.id });
    const on = await createWebhook((await receiver()).url);
    await announce('alert.opened', alertBody());
    await settled(on.id);
    expect((await webhookView(off.id)).deliveries).toEqual([]);
  });

  it('after rotation deliveries verify with the new and, for 24 hours, the old secret in both schemes', async () => {
    const rcv = await receiver();
    const hook = await createWebhook(rcv.url);
    const rot = await gql(s.url, t.adminToken, 'mutation($id: ID!) { rotateWebhookSecret(id: $id) { webhookId secret previousSecretValidUntil } }', { id: hook.id });
    const { secret: newSecret, previousSecretValidUntil } = rot.data.rotateWebhookSecret;
    expect(newSecret).not.toBe(hook.secret);
    expect(new Date(previousSecretValidUntil).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    await announce('alert.opened', alertBody());
    await settled(hook.id);
    const req = rcv.requests[0];
    const hex = (secret: string) => crypto.createHmac('sha256', secret).update(req.body).digest('hex');
    // A receiver still configured with the old secret keeps verifying.
    expect(req.headers['x-service-signature-previous']).toBe(hex(hook.secret));
    expect(new Webhook(hook.secret).verify(req.body, req.headers as Record<string, string>)).toBeTruthy();
    // One already switched verifies with the new one.
    expect(req.headers['x-service-signature']).toBe(hex(newSecret));
    expect(new Webhook(newSecret).verify(req.body, req.headers as Record<string, string>)).toBeTruthy();
    // After the window the old secret stops signing.
    await s.app.rt.prisma.outboundWebhook.update({ where: { id: hook.id }, data: { previousValidUntil: new Date(Date.now() - 1000) } });
    await announce('alert.opened', alertBody());
    await settled(hook.id, 2);
    const later = rcv.requests[1];
    expect(later.headers['x-service-signature-previous']).toBeUndefined();
    expect(() => new Webhook(hook.secret).verify(later.body, later.headers as Record<string, string>)).toThrow();
  });

  it('redeliver sends a failed delivery again with the same webhook-id; CONFLICT while it is in progress', async () => {
    const rcv = await receiver((_r, i) => (i === 0 ? { status: 400 } : { status: 200 }));
    const hook = await createWebhook(rcv.url);
    await announce('alert.opened', alertBody());
    const failed = (await settled(hook.id)).deliveries[0];
    expect(failed.status).toBe('FAILED');
    // The receiver holds the redelivery until the test has tried to redeliver again.
    let release!: () => void;
    const released = new Promise<void>((ok) => (release = ok));
    rcv.setHandler(async () => {
      await released;
      return { status: 200 };
    });
    const r = await gql(s.url, t.adminToken, 'mutation($id: ID!) { redeliver(deliveryId: $id) { id status } }', { id: failed.id });
    expect(r.data.redeliver).toEqual({ id: failed.id, status: 'PENDING' });
    const again = await gql(s.url, t.adminToken, 'mutation($id: ID!) { redeliver(deliveryId: $id) { id } }', { id: failed.id });
    release();
    expect(again.errors?.[0].extensions?.code).toBe('CONFLICT');
    const d = await eventually(async () => {
      const x = (await webhookView(hook.id)).deliveries[0];
      return x.status === 'DELIVERED' ? x : null;
    });
    expect(d.attempts.map((a: any) => a.number)).toEqual([1, 2]);
    expect(rcv.uniqueIds()).toEqual(new Set([failed.id]));
  });

  it('shows the 100 latest deliveries of a webhook', async () => {
    const own = await ownTenant();
    const rcv = await receiver();
    const hook = await createWebhook(rcv.url, undefined, own.t.adminToken, 'receiver', own);
    const ids = [];
    for (let i = 0; i < 102; i++) ids.push(await writeOutbox(s.app.rt.prisma, { tenantId: own.t.tenantId, topic: 'alert.opened', subjectId: String(i), body: alertBody() as never }));
    await dispatchOutbox(s.app.rt, ids);
    // All 102 delivered (the view shows at most 100, so the server's records are counted).
    await eventually(async () => (await s.app.rt.prisma.delivery.count({ where: { webhookId: hook.id, status: 'delivered' } })) === 102, 90_000);
    const w = await webhookView(hook.id, 500, own);
    expect(w.deliveries).toHaveLength(100);
    const total = await s.app.rt.prisma.delivery.count({ where: { webhookId: hook.id } });
    expect(total).toBe(102);
  }, 120_000);

  it('publishes deliveryChanged to subscribers of the tenant', async () => {
    const [own, theirSite] = [await ownTenant(), await ownTenant()];
    const rcv = await receiver();
    const hook = await createWebhook(rcv.url, undefined, own.t.adminToken, 'receiver', own);
    const client = wsClient(s.url, own.t.adminToken);
    const sub = subscribe(client, 'subscription($w: ID) { deliveryChanged(webhookId: $w) { id webhookId status attemptCount delivery { id topic } } }', { w: hook.id });
    const otherClient = wsClient(s.url, theirSite.t.adminToken);
    const otherSub = subscribe(otherClient, 'subscription { deliveryChanged { id webhookId } }');
    await untilSubscribed(s, 'deliveryChanged', own.t.tenantId);
    await untilSubscribed(s, 'deliveryChanged', theirSite.t.tenantId);
    await announce('alert.opened', alertBody(), own.t.tenantId, own);
    const first = (await sub.next()).data.deliveryChanged;
    expect(first).toMatchObject({ webhookId: hook.id, status: 'PENDING', attemptCount: 0, delivery: { topic: 'alert.opened' } });
    const second = (await sub.next()).data.deliveryChanged;
    expect(second).toMatchObject({ id: first.id, status: 'DELIVERED', attemptCount: 1 });
    // The other tenant's subscriber hears its own tenant's delivery first, none of ours.
    const theirs = await createWebhook((await receiver()).url, undefined, theirSite.t.adminToken, 'theirs', theirSite);
    await announce('alert.opened', alertBody(), theirSite.t.tenantId, theirSite);
    expect((await otherSub.next()).data.deliveryChanged.webhookId).toBe(theirs.id);
    sub.dispose();
    otherSub.dispose();
    await client.dispose();
    await otherClient.dispose();
  });

  it('purges delivery history older than 30 days', async () => {
    const own = await ownTenant();
    const rcv = await receiver();
    const hook = await createWebhook(rcv.url, undefined, own.t.adminToken, 'receiver', own);
    await announce('alert.opened', alertBody(), own.t.tenantId, own);
    await announce('alert.opened', alertBody(), own.t.tenantId, own);
    const w = await settled(hook.id, 2, own);
    const old = w.deliveries[1].id;
    // Age the delivery and its attempts together (an attempt carries its delivery's time, their partition key).
    const aged = new Date(Date.now() - 31 * 24 * 3600_000);
    await s.app.rt.prisma.delivery.update({ where: { id: old }, data: { createdAt: aged } });
    await s.app.rt.prisma.deliveryAttempt.updateMany({ where: { deliveryId: old }, data: { deliveryCreatedAt: aged } });
    const purged = await runRetention(s.app.rt);
    expect(purged.tables.find((t) => t.table === 'Delivery')!.rowsDeleted).toBeGreaterThanOrEqual(1);
    const left = (await webhookView(hook.id, undefined, own)).deliveries.map((d: any) => d.id);
    expect(left).toEqual([w.deliveries[0].id]);
    expect(await s.app.rt.prisma.deliveryAttempt.count({ where: { deliveryId: old } })).toBe(0);
  });
});
