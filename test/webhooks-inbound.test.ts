import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, gql, rest } from './helpers/http.js';
import { burstUntilLimited } from './helpers/rate.js';

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

const CREATE = 'mutation($name: String!) { createInboundWebhook(input: { name: $name }) { id name slug url secret } }';

async function createHook(token: string, name: string) {
  const r = await gql(s.url, token, CREATE, { name });
  expect(r.errors).toBeUndefined();
  return r.data.createInboundWebhook as { id: string; name: string; slug: string; url: string; secret: string };
}

function sign(secret: string, raw: string): string {
  return crypto.createHmac('sha256', secret).update(raw).digest('hex');
}

function post(slug: string, raw: string, signature?: string) {
  return call(s.url + '/api/v1', 'POST', `/webhooks/${slug}`, {
    raw,
    headers: signature ? { 'x-service-signature': signature } : {},
  });
}

describe('inbound webhooks: management', () => {
  it('creates a webhook with a slug derived from the name, its URL and a secret', async () => {
    const hook = await createHook(t.adminToken, 'Deploy Hooks (prod)');
    expect(hook.slug).toMatch(/^deploy-hooks-prod-[a-z0-9]{6}$/);
    expect(hook.url).toBe(`${s.url}/api/v1/webhooks/${hook.slug}`);
    expect(hook.secret).toMatch(/^whsec_/);
    const list = await gql(s.url, memberToken, '{ inboundWebhooks { id slug url } }');
    expect(list.data.inboundWebhooks.map((h: { id: string }) => h.id)).toContain(hook.id);
    const theirs = await gql(s.url, other.adminToken, '{ inboundWebhooks { id } }');
    expect(theirs.data.inboundWebhooks.map((h: { id: string }) => h.id)).not.toContain(hook.id);
  });

  it('gives two webhooks with the same name different slugs', async () => {
    const a = await createHook(t.adminToken, 'same');
    const b = await createHook(other.adminToken, 'same');
    expect(a.slug).not.toBe(b.slug);
  });

  it('stores the secret sealed, never in the clear', async () => {
    const hook = await createHook(t.adminToken, 'sealed');
    const row = await s.app.rt.prisma.inboundWebhook.findUniqueOrThrow({ where: { id: hook.id } });
    expect(JSON.stringify(row)).not.toContain(hook.secret);
  });

  it('is admin-only for writes: members get FORBIDDEN, anonymous callers UNAUTHENTICATED', async () => {
    expect((await gql(s.url, memberToken, CREATE, { name: 'nope' })).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await gql(s.url, undefined, CREATE, { name: 'nope' })).errors?.[0].extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
    const hook = await createHook(t.adminToken, 'guarded');
    const reveal = await gql(s.url, memberToken, 'mutation($id: ID!) { revealInboundWebhookSecret(id: $id) }', {
      id: hook.id,
    });
    expect(reveal.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('rejects an empty or over-long name', async () => {
    for (const name of ['  ', 'x'.repeat(101)]) {
      const r = await gql(s.url, t.adminToken, CREATE, { name });
      expect(r.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    }
  });

  it("reveals the secret to an admin, and answers NOT_FOUND for another tenant's webhook", async () => {
    const hook = await createHook(t.adminToken, 'reveal me');
    const r = await gql(s.url, t.adminToken, 'mutation($id: ID!) { revealInboundWebhookSecret(id: $id) }', {
      id: hook.id,
    });
    expect(r.data.revealInboundWebhookSecret).toBe(hook.secret);
    const theirs = await gql(s.url, other.adminToken, 'mutation($id: ID!) { revealInboundWebhookSecret(id: $id) }', {
      id: hook.id,
    });
    expect(theirs.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const rotateTheirs = await gql(
      s.url,
      other.adminToken,
      'mutation($id: ID!) { rotateInboundWebhookSecret(id: $id) { secret } }',
      { id: hook.id },
    );
    expect(rotateTheirs.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});

describe('POST /webhooks/:slug', () => {
  let hook: { id: string; slug: string; secret: string };
  beforeAll(async () => {
    hook = await createHook(t.adminToken, 'ci events');
  });

  it('records a correctly signed shape-B call and answers 202 with the recorded event', async () => {
    const raw = JSON.stringify({
      source: 'ci-runner',
      kind: 'deploy.finished',
      severity: 'warning',
      labels: { env: 'prod' },
      payload: { ok: true },
      tenant_id: other.tenantId,
    });
    const r = await post(hook.slug, raw, sign(hook.secret, raw));
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      id: expect.any(String),
      status: 'accepted',
      event: {
        type: 'deploy.finished',
        source: 'ci-runner',
        severity: 'warning',
        labels: { env: 'prod' },
        received_via: 'webhook',
      },
    });
    const list = await rest(s.url, t.adminToken).get('/events');
    expect(list.body.find((e: { id: string }) => e.id === r.body.id)).toMatchObject({
      type: 'deploy.finished',
      received_via: 'webhook',
      payload: { ok: true },
    });
    const theirs = await rest(s.url, other.adminToken).get('/events');
    expect(theirs.body.map((e: { id: string }) => e.id)).not.toContain(r.body.id);
  });

  it('verifies the exact raw bytes (whitespace included) and accepts a sha256= prefix', async () => {
    const raw = '{ "source": "a",   "kind": "x.y" }';
    expect((await post(hook.slug, raw, 'sha256=' + sign(hook.secret, raw))).status).toBe(202);
    expect((await post(hook.slug, raw, sign(hook.secret, JSON.stringify(JSON.parse(raw))))).status).toBe(401);
  });

  it('returns 401 when unsigned or signed with the wrong secret, whatever the body', async () => {
    const raw = JSON.stringify({ source: 'a', kind: 'x.y' });
    const unsigned = await post(hook.slug, raw);
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.detail).toMatch(/X-Service-Signature/);
    expect((await post(hook.slug, raw, sign('whsec_wrong', raw))).status).toBe(401);
    expect((await post(hook.slug, '{"nonsense": 1}', 'deadbeef')).status).toBe(401);
  });

  it('returns 404 for an unknown slug', async () => {
    const raw = JSON.stringify({ source: 'a', kind: 'x.y' });
    expect((await post('no-such-hook', raw, sign(hook.secret, raw))).status).toBe(404);
  });

  it('returns 422 for shape A or a body missing kind', async () => {
    for (const body of [{ source: 'a', type: 'x.y' }, { source: 'a' }]) {
      const raw = JSON.stringify(body);
      const r = await post(hook.slug, raw, sign(hook.secret, raw));
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body.detail)).toMatch(/kind|type/);
    }
  });

  it('returns 413 for a body over 1 MiB', async () => {
    const raw = JSON.stringify({ source: 'a', kind: 'x.y', payload: { blob: 'x'.repeat(1024 * 1024) } });
    expect((await post(hook.slug, raw, sign(hook.secret, raw))).status).toBe(413);
  });

  it('returns 429 with Retry-After past 10 POSTs per second per webhook', async () => {
    const busy = await createHook(t.adminToken, 'busy');
    const raw = JSON.stringify({ source: 'a', kind: 'rate.test' });
    const sig = sign(busy.secret, raw);
    const perSecond = s.config.ingestRatePerSecond;
    const burst = await burstUntilLimited(() => post(busy.slug, raw, sig), { perSecond, acceptedStatus: 202 });
    expect(burst.limited.length).toBeGreaterThan(0);
    for (const r of burst.limited) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(burst.accepted.length).toBeGreaterThanOrEqual(perSecond); // the first window's budget is honoured
    expect(burst.accepted.length).toBeLessThanOrEqual(burst.maxAccepted);
    // The server's own records: as many events as accepted requests, none for the refused ones.
    expect(await s.app.rt.prisma.event.count({ where: { tenantId: t.tenantId, type: 'rate.test' } })).toBe(
      burst.accepted.length,
    );
    expect((await post(hook.slug, raw, sign(hook.secret, raw))).status).toBe(202);
  });

  it('keeps the previous secret verifying after a rotation, next to the new one', async () => {
    const h = await createHook(t.adminToken, 'rotating');
    const r = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!) { rotateInboundWebhookSecret(id: $id) { secret previousSecretValidUntil } }',
      { id: h.id },
    );
    const rotated = r.data.rotateInboundWebhookSecret;
    expect(rotated.secret).not.toBe(h.secret);
    expect(new Date(rotated.previousSecretValidUntil).getTime() - s.app.rt.clock.now().getTime()).toBeGreaterThan(
      23 * 3600_000,
    );
    const raw = JSON.stringify({ source: 'a', kind: 'x.y' });
    expect((await post(h.slug, raw, sign(h.secret, raw))).status).toBe(202);
    expect((await post(h.slug, raw, sign(rotated.secret, raw))).status).toBe(202);
    const reveal = await gql(s.url, t.adminToken, 'mutation($id: ID!) { revealInboundWebhookSecret(id: $id) }', {
      id: h.id,
    });
    expect(reveal.data.revealInboundWebhookSecret).toBe(rotated.secret);
  });

  it('stops accepting calls once the webhook is deleted', async () => {
    const h = await createHook(t.adminToken, 'short-lived');
    const del = await gql(s.url, t.adminToken, 'mutation($id: ID!) { deleteInboundWebhook(id: $id) }', { id: h.id });
    expect(del.data.deleteInboundWebhook).toBe(h.id);
    const raw = JSON.stringify({ source: 'a', kind: 'x.y' });
    expect((await post(h.slug, raw, sign(h.secret, raw))).status).toBe(404);
  });
});
