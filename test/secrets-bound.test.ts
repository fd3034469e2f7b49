/**
 * Issue 40, items 5 and 6: JSON inputs without prototype tricks, and secrets bound to their target.
 *
 * - `__proto__`, `constructor` and `prototype` keys are refused at any depth of any JSON input (REST bodies
 *   and query strings: 422 naming the key's path; GraphQL variables and literals: BAD_USER_INPUT).
 * - Integration configs keep only the provider's fields (422 naming an unknown one); a bearer token with
 *   CR/LF is a 422; secrets are sealed and masked whatever path set them.
 * - Changing an integration's or outbound webhook's URL to another origin keeps no stored secret unless the
 *   request gives it again (`********` does not count): the answer says so, and the next probe or delivery
 *   to the new host carries nothing of the old secret. The remote systems are real HTTP servers in this file
 *   (Prometheus' `/-/healthy` probe; a webhook receiver) that record what they get.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, eventually, gql, gqlRaw, rest } from './helpers/http.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

let s: TestServer;
let t: BuiltTenant;
const remotes: Array<{ server: http.Server; url: string; auth: string[] }> = [];

async function startPrometheus() {
  const auth: string[] = [];
  const server = http.createServer((req, res) => {
    auth.push(String(req.headers.authorization ?? ''));
    res.writeHead(req.url === '/-/healthy' ? 200 : 404).end('OK');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const remote = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, auth };
  remotes.push(remote);
  return remote;
}

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  for (const r of remotes) await new Promise((done) => r.server.close(done));
  await s?.stop();
});

const api = () => rest(s.url, t.adminToken);
const postRaw = (path: string, raw: string) =>
  call(s.url + '/api/v1', 'POST', path, { token: t.adminToken, raw, headers: { 'content-type': 'application/json' } });
const locs = (body: { detail: unknown }) => (body.detail as Array<{ loc: string[] }>).map((d) => d.loc.join('.'));

describe('prototype keys', () => {
  it("refuses the probe's __proto__ integration config with 422 naming the key, and stores nothing", async () => {
    const raw = `{"provider":"prometheus","name":"proto","config":{"__proto__":{"url":"http://127.0.0.1:1","bearer_token":"abc\\r\\nX-Injected: yes"}}}`;
    const r = await postRaw('/integrations', raw);
    expect(r.status).toBe(422);
    expect(locs(r.body)).toEqual(['body.config.__proto__']);
    expect(JSON.stringify(r.body.detail)).toMatch(/reserved key/);
    expect(await s.app.rt.prisma.integration.count({ where: { tenantId: t.tenantId } })).toBe(0);
  });

  it('refuses constructor and prototype at any depth of any body, and in a query string', async () => {
    const deep = await call(s.url + '/api/v1', 'POST', '/events', {
      raw: '{"type":"x.y","summary":"s","source":"a","payload":{"a":[{"b":{"constructor":{"prototype":1}}}]}}',
      headers: { 'x-service-key': t.ingestKey, 'content-type': 'application/json' },
    });
    expect(deep.status).toBe(422);
    expect(locs(deep.body)).toEqual(['body.payload.a.0.b.constructor']);
    const query = await api().get('/alerts?prototype=1');
    expect(query.status).toBe(422);
    expect(locs(query.body)).toEqual(['query.prototype']);
  });

  it('answers BAD_USER_INPUT to a reserved key in GraphQL variables and in a JSON literal', async () => {
    const mutation =
      'mutation($c: JSON!) { createIntegration(input: { provider: "prometheus", name: "v", config: $c }) { integration { id } } }';
    const variables = JSON.parse('{"c":{"url":"http://127.0.0.1:1","__proto__":{"bearer_token":"x"}}}');
    const v = await gql(s.url, t.adminToken, mutation, variables);
    expect(v.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(v.errors)).toContain('__proto__');
    const literal = await gqlRaw(
      s.url,
      t.adminToken,
      'mutation { setIntegrationConfig(provider: "prometheus", config: { url: "http://127.0.0.1:1", constructor: { bearer_token: "x" } }) { provider } }',
    );
    expect(literal.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(literal.body.data ?? null).toBeNull();
    expect(await s.app.rt.prisma.integrationProviderConfig.count({ where: { tenantId: t.tenantId } })).toBe(0);
  });
});

describe('integration config fields and secrets', () => {
  it('refuses an unknown key and a bearer token with CR/LF on every path that sets a config', async () => {
    const unknown = await api().post('/integrations', {
      provider: 'prometheus',
      name: 'u',
      config: { url: 'http://127.0.0.1:1', toString: 'x' },
    });
    expect(unknown.status).toBe(422);
    expect(locs(unknown.body)).toEqual(['body.config.toString']);
    const crlf = { url: 'http://127.0.0.1:1', bearer_token: 'abc\r\nX-Injected: yes' };
    const created = await api().post('/integrations', { provider: 'prometheus', name: 'c', config: crlf });
    expect(created.status).toBe(422);
    expect(locs(created.body)).toEqual(['body.config.bearer_token']);
    const dry = await api().post('/integrations?dry_run=true', { provider: 'prometheus', name: 'c', config: crlf });
    expect(dry.status).toBe(422);
    const put = await api().put('/integrations/config/prometheus', { config: crlf });
    expect(put.status).toBe(422);
    expect(locs(put.body)).toEqual(['body.config.bearer_token']);
    const g = await gql(
      s.url,
      t.adminToken,
      'mutation($c: JSON!) { createIntegration(input: { provider: "prometheus", name: "g", config: $c }) { integration { id } } }',
      { c: crlf },
    );
    expect(g.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('seals and masks secrets set by REST create, GraphQL update and the provider config', async () => {
    const prom = await startPrometheus();
    const tokens = ['rest-' + crypto.randomUUID(), 'gql-' + crypto.randomUUID(), 'tenant-' + crypto.randomUUID()];
    const created = await api().post('/integrations', {
      provider: 'prometheus',
      name: 'sealed',
      config: { url: prom.url, bearer_token: tokens[0] },
    });
    expect(created.status).toBe(201);
    expect(created.body.config.bearer_token).toBe('********');
    const updated = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!, $c: JSON!) { updateIntegration(id: $id, input: { config: $c }) { config } }',
      { id: created.body.id, c: { url: prom.url, bearer_token: tokens[1] } },
    );
    expect(updated.data.updateIntegration.config.bearer_token).toBe('********');
    const put = await api().put('/integrations/config/prometheus', { config: { bearer_token: tokens[2] } });
    expect(put.body.config).toEqual({ bearer_token: '********' });
    const rows = JSON.stringify([
      await s.app.rt.prisma.integration.findMany({ where: { tenantId: t.tenantId } }),
      await s.app.rt.prisma.integrationProviderConfig.findMany({ where: { tenantId: t.tenantId } }),
    ]);
    for (const token of tokens) expect(rows).not.toContain(token);
    // The positive control: the sealed token is the one the probe sends.
    await gql(s.url, t.adminToken, 'query($id: ID!) { integrationHealth(id: $id, refresh: true) { status } }', {
      id: created.body.id,
    });
    expect(prom.auth.at(-1)).toBe(`Bearer ${tokens[1]}`);
    await api().delete(`/integrations/${created.body.id}`);
    await api().delete('/integrations/config/prometheus');
  });
});

describe('secrets bound to their target', () => {
  it('drops an integration secret when the URL moves to another host, unless it is given again', async () => {
    const [a, b, c] = [await startPrometheus(), await startPrometheus(), await startPrometheus()];
    const token = 'bound-' + crypto.randomUUID();
    const created = await api().post('/integrations', {
      provider: 'prometheus',
      name: 'moving',
      config: { url: a.url, bearer_token: token },
    });
    const id = created.body.id as string;
    const probe = () =>
      gql(s.url, t.adminToken, 'query($id: ID!) { integrationHealth(id: $id, refresh: true) { status } }', { id });

    // Same origin, another path: the mask keeps the stored token.
    const same = await api().patch(`/integrations/${id}`, {
      config: { url: `${a.url}/prom`, bearer_token: '********' },
    });
    expect(same.status).toBe(200);
    expect(same.body.secrets_cleared).toEqual([]);
    await probe();
    expect(a.auth.at(-1)).toBe(`Bearer ${token}`);

    // Another host with the mask: the token stays behind, the answer says so, and b never sees it.
    const moved = await api().patch(`/integrations/${id}`, { config: { url: b.url, bearer_token: '********' } });
    expect(moved.status).toBe(200);
    expect(moved.body.secrets_cleared).toEqual(['bearer_token']);
    expect(moved.body.config).toEqual({ url: b.url });
    await probe();
    expect(b.auth.length).toBeGreaterThan(0);
    expect(b.auth.every((h) => h === '')).toBe(true);

    // Given again with the new URL, it is kept.
    const again = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!, $c: JSON!) { updateIntegration(id: $id, input: { config: $c }) { secretsCleared } }',
      { id, c: { url: c.url, bearer_token: token } },
    );
    expect(again.data.updateIntegration.secretsCleared).toEqual([]);
    await probe();
    expect(c.auth.at(-1)).toBe(`Bearer ${token}`);
  });

  it("replaces an outbound webhook's secret when its URL moves to another host, unless it is given again", async () => {
    const receivers: Receiver[] = [await startReceiver(), await startReceiver(), await startReceiver()];
    try {
      const [ra, rb, rc] = receivers;
      const created = await api().post('/outbound-webhooks', {
        name: 'moving',
        url: ra!.url,
        triggers: [{ on: 'event.received', type_glob: 'moved.*' }],
      });
      expect(created.status).toBe(201);
      const { id, secret } = created.body as { id: string; secret: string };
      // Rotated once, so a previous secret signs too until it is dropped.
      const rotated = await api().post(`/outbound-webhooks/${id}/rotate-secret`);
      const current = rotated.body.secret as string;

      const wrong = await api().patch(`/outbound-webhooks/${id}`, { url: rb!.url, secret: 'whsec_wrong' });
      expect(wrong.status).toBe(422);
      expect(locs(wrong.body)).toEqual(['body.secret']);
      const masked = await api().patch(`/outbound-webhooks/${id}`, { url: rb!.url, secret: '********' });
      expect(masked.status).toBe(200);
      expect(masked.body.secret_cleared).toBe(true);
      expect(masked.body.previous_secret_valid_until).toBeNull();

      const ingest = await rest(s.url).post(
        '/events',
        { type: 'moved.one', source: 's', summary: 'moved' },
        { headers: { 'x-service-key': t.ingestKey } },
      );
      expect(ingest.status).toBe(202);
      await eventually(async () => rb!.requests.length >= 1, 20_000);
      const got = rb!.requests[0]!;
      for (const old of [secret, current])
        expect(got.headers['x-service-signature']).not.toBe(
          crypto.createHmac('sha256', old).update(got.body).digest('hex'),
        );
      expect(got.headers['x-service-signature-previous']).toBeUndefined();
      expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(1);

      // The current secret given again moves with the URL.
      const newSecret = (await api().post(`/outbound-webhooks/${id}/rotate-secret`)).body.secret as string;
      const kept = await api().patch(`/outbound-webhooks/${id}`, { url: rc!.url, secret: newSecret });
      expect(kept.body.secret_cleared).toBe(false);
      await rest(s.url).post(
        '/events',
        { type: 'moved.two', source: 's', summary: 'moved again' },
        { headers: { 'x-service-key': t.ingestKey } },
      );
      await eventually(async () => rc!.requests.length >= 1, 20_000);
      const kept0 = rc!.requests[0]!;
      expect(kept0.headers['x-service-signature']).toBe(
        crypto.createHmac('sha256', newSecret).update(kept0.body).digest('hex'),
      );
    } finally {
      for (const r of receivers) await r.close();
    }
  });
});
