/**
 * Issue 40, item 8: replay protection for inbound webhooks. By default SPEC's body-only
 * `X-Service-Signature` works unchanged (the same signed body twice is two events). A webhook may require
 * the Standard Webhooks form (webhook-id, webhook-timestamp within 5 minutes, webhook-signature), each id
 * accepted once in 24 hours, remembered in Redis so a second API node refuses the replay too; or reject a
 * repeated X-Service-Signature within 5 minutes. Timestamps come from the service clock.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, gql, rest } from './helpers/http.js';
import { hmacHex } from '../src/signing.js';

let s: TestServer;
let node2: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  // A second API node on the same database and Redis prefix.
  node2 = await startTestServer({ db: s.db, env: { REDIS_PREFIX: s.config.redisPrefix } });
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await node2?.stop();
  await s?.stop();
});

const api = () => rest(s.url, t.adminToken);

async function createHook(body: Record<string, unknown> = {}) {
  const r = await api().post('/inbound-webhooks', { name: 'replay', ...body });
  expect(r.status).toBe(201);
  return r.body as { id: string; slug: string; secret: string };
}

function post(base: string, slug: string, raw: string, headers: Record<string, string>) {
  return call(base + '/api/v1', 'POST', `/webhooks/${slug}`, {
    raw,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Standard Webhooks headers for `raw`, signed at `atSeconds` (default: the service clock's now). */
function standard(secret: string, raw: string, id = 'msg_' + crypto.randomUUID(), atSeconds?: number) {
  const timestamp = String(atSeconds ?? Math.floor(s.app.rt.clock.now().getTime() / 1000));
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const sig = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${raw}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${sig}` };
}

const body = (n: string) => JSON.stringify({ source: 'ci', kind: 'deploy.finished', payload: { n } });
const eventsOf = async (n: string) =>
  (await s.app.rt.prisma.event.findMany({ where: { tenantId: t.tenantId } })).filter(
    (e) => (e.payload as { n?: string }).n === n,
  ).length;

describe('inbound webhook replay protection', () => {
  it("keeps SPEC's body-only signature working unchanged by default", async () => {
    const hook = await createHook();
    expect(hook).toMatchObject({ require_standard_webhooks: false, reject_repeated_signature: false });
    const raw = body('default');
    for (let i = 0; i < 2; i++)
      expect((await post(s.url, hook.slug, raw, { 'x-service-signature': hmacHex(hook.secret, raw) })).status).toBe(
        202,
      );
    expect(await eventsOf('default')).toBe(2);
  });

  it('refuses a replayed Standard Webhooks delivery when the webhook requires the form, on any node', async () => {
    const hook = await createHook();
    const patched = await api().patch(`/inbound-webhooks/${hook.id}`, { require_standard_webhooks: true });
    expect(patched.status).toBe(200);
    expect(patched.body.require_standard_webhooks).toBe(true);

    const raw = body('standard');
    const headers = standard(hook.secret, raw);
    expect((await post(s.url, hook.slug, raw, headers)).status).toBe(202);
    for (const base of [s.url, node2.url]) {
      const replay = await post(base, hook.slug, raw, headers);
      expect(replay.status).toBe(409);
      expect(replay.body.code).toBe('WEBHOOK_REPLAYED');
      expect(replay.body.detail).toContain(headers['webhook-id']);
    }
    expect(await eventsOf('standard')).toBe(1);
    // A fresh delivery of the same body (a new id) is accepted.
    expect((await post(node2.url, hook.slug, raw, standard(hook.secret, raw))).status).toBe(202);
    expect(await eventsOf('standard')).toBe(2);
  });

  it('answers 401 naming what is wrong: the SPEC form alone, a stale timestamp, a wrong signature', async () => {
    const hook = await createHook({ require_standard_webhooks: true });
    const raw = body('refused');
    const spec = await post(s.url, hook.slug, raw, { 'x-service-signature': hmacHex(hook.secret, raw) });
    expect(spec.status).toBe(401);
    expect(spec.body.detail).toMatch(/requires the Standard Webhooks form/);
    const now = Math.floor(s.app.rt.clock.now().getTime() / 1000);
    for (const at of [now - 6 * 60, now + 6 * 60]) {
      const stale = await post(s.url, hook.slug, raw, standard(hook.secret, raw, undefined, at));
      expect(stale.status).toBe(401);
      expect(stale.body.detail).toMatch(/within 5 minutes/);
    }
    // Just inside the tolerance is fine.
    expect((await post(s.url, hook.slug, raw, standard(hook.secret, raw, undefined, now - 4 * 60))).status).toBe(202);
    const wrong = await post(s.url, hook.slug, raw, standard('whsec_' + 'A'.repeat(43), raw));
    expect(wrong.status).toBe(401);
    expect(wrong.body.detail).toBe('Invalid webhook-signature.');
    // A refused delivery does not burn its id: signed right, the same id is then accepted once.
    const id = 'msg_retry';
    expect((await post(s.url, hook.slug, raw, { ...standard('whsec_' + 'A'.repeat(43), raw, id) })).status).toBe(401);
    expect((await post(s.url, hook.slug, raw, standard(hook.secret, raw, id))).status).toBe(202);
  });

  it('rejects a repeated X-Service-Signature within 5 minutes when turned on (GraphQL)', async () => {
    const hook = await createHook();
    const on = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!) { updateInboundWebhook(id: $id, input: { rejectRepeatedSignature: true }) { rejectRepeatedSignature requireStandardWebhooks } }',
      { id: hook.id },
    );
    expect(on.data.updateInboundWebhook).toEqual({ rejectRepeatedSignature: true, requireStandardWebhooks: false });
    const raw = body('repeat');
    const signed = { 'x-service-signature': hmacHex(hook.secret, raw) };
    expect((await post(s.url, hook.slug, raw, signed)).status).toBe(202);
    const again = await post(node2.url, hook.slug, raw, signed);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('WEBHOOK_REPLAYED');
    const other = body('repeat-2');
    expect((await post(s.url, hook.slug, other, { 'x-service-signature': hmacHex(hook.secret, other) })).status).toBe(
      202,
    );
    expect(await eventsOf('repeat')).toBe(1);
  });

  it("is an admin setting: 403 to members, 404 for another tenant's webhook", async () => {
    const hook = await createHook();
    const other = await buildTenant(s.app.rt);
    const member = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId, { role: 'member' }));
    expect((await rest(s.url, member).patch(`/inbound-webhooks/${hook.id}`, { name: 'x' })).status).toBe(403);
    expect(
      (await rest(s.url, other.adminToken).patch(`/inbound-webhooks/${hook.id}`, { require_standard_webhooks: true }))
        .status,
    ).toBe(404);
  });
});
