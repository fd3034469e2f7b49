/**
 * The first pull of a monitoring system (issue 24, point 10), against a real Prometheus-shaped receiver on
 * 127.0.0.1: a secret that would not survive an HTTP header (docs' literal placeholder "…", a space,
 * a control character, non-ASCII) is refused when saved, with a 422 naming the field, instead of every later
 * pull failing with "Invalid character in header content"; a provider config alone creates no integration,
 * so "pull now" with none says what to do, and so does the config it saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { gql, rest } from './helpers/http.js';
import { buildTenant, buildUser, buildToken, type BuiltTenant } from './factories.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

let s: TestServer;
let t: BuiltTenant;
let memberToken: string;
let prometheus: Receiver;
let promUrl: string;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
  t = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
  // Answers like a Prometheus server with one firing alert and every target up.
  prometheus = await startReceiver((req) => {
    if (req.path.startsWith('/api/v1/alerts')) {
      const alerts = [
        {
          labels: { alertname: 'HighLatency', severity: 'critical', service: 'checkout' },
          annotations: { summary: 'p99 over 2 s' },
          state: 'firing',
          activeAt: '2026-11-25T07:00:00Z',
          value: '2.4',
        },
      ];
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'success', data: { alerts } }),
      };
    }
    if (req.path.startsWith('/api/v1/targets'))
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'success', data: { activeTargets: [] } }),
      };
    return { status: 200, body: 'Prometheus Server is Healthy.' };
  });
  promUrl = new URL(prometheus.url).origin;
}, 120_000);
afterAll(async () => {
  await prometheus?.close();
  await s?.stop();
});

describe('provider config secrets are header-safe when saved', () => {
  const bad: Array<[string, string, RegExp]> = [
    ['the docs placeholder', '…', /placeholder \("…"\), not a token/],
    ['three dots', '...', /placeholder/],
    ['a token with an ellipsis inside', 'abc…def', /placeholder/],
    ['a space', 'abc def', /visible ASCII without spaces.*character 4 is a space/],
    ['a line break', 'abc\ndef', /character 4 is a control character \(U\+000A\)/],
    ['a NUL-free control character', 'abc\u0007', /control character \(U\+0007\)/],
    ['non-ASCII', 'tökén', /character 2 is "ö" \(U\+00F6\)/],
  ];
  for (const [what, token, msg] of bad) {
    it(`PUT /integrations/config/prometheus with ${what} as bearer_token is a 422 naming body.config.bearer_token`, async () => {
      const r = await rest(s.url, t.adminToken).put('/integrations/config/prometheus', {
        config: { url: promUrl, bearer_token: token },
      });
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('VALIDATION_FAILED');
      expect(r.body.detail).toEqual([{ loc: ['body', 'config', 'bearer_token'], msg: expect.stringMatching(msg) }]);
    });
  }

  it('the same check guards an integration of its own (create and update) and the GraphQL mutation', async () => {
    const api = rest(s.url, t.adminToken);
    const created = await api.post('/integrations', {
      provider: 'alertmanager',
      name: 'am-bad',
      config: { url: promUrl, bearer_token: '…' },
    });
    expect(created.status).toBe(422);
    expect(created.body.detail).toEqual([
      { loc: ['body', 'config', 'bearer_token'], msg: expect.stringMatching(/placeholder/) },
    ]);

    const ok = await api.post('/integrations', {
      provider: 'alertmanager',
      name: 'am-ok',
      config: { url: promUrl, bearer_token: 'am-token-1' },
    });
    expect(ok.status).toBe(201);
    const patched = await api.patch(`/integrations/${ok.body.id}`, {
      config: { url: promUrl, bearer_token: 'new token' },
    });
    expect(patched.status).toBe(422);
    expect(patched.body.detail).toEqual([
      { loc: ['body', 'config', 'bearer_token'], msg: expect.stringMatching(/character 4 is a space/) },
    ]);
    // The stored secret sent back masked is kept (and is header-safe).
    expect(
      (await api.patch(`/integrations/${ok.body.id}`, { config: { url: promUrl, bearer_token: '********' } })).status,
    ).toBe(200);
    expect((await api.delete(`/integrations/${ok.body.id}`)).status).toBe(204);

    const g = await gql(
      s.url,
      t.adminToken,
      'mutation($c: JSON!) { setIntegrationConfig(provider: "prometheus", config: $c) { provider } }',
      { c: { url: promUrl, bearer_token: '…' } },
    );
    expect(g.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'VALIDATION_FAILED' });
    expect(JSON.stringify(g.errors?.[0])).toMatch(/bearer_token.*placeholder|placeholder.*bearer_token/);
  });
});

describe('a provider config alone is not pulled: the answers say what to do', () => {
  it(
    'config saved → hint; pull now with no integration → integrations [] and a hint; create one → the pull uses the inherited token',
    { timeout: 60_000 },
    async () => {
      const admin = rest(s.url, t.adminToken);
      const saved = await admin.put('/integrations/config/prometheus', {
        config: { url: promUrl, bearer_token: 'prom-token-1' },
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        provider: 'prometheus',
        integration_count: 0,
        config: { url: promUrl, bearer_token: '********' },
      });
      expect(saved.body.hint).toMatch(
        /No Prometheus integration in this tenant: the provider config holds defaults only/,
      );
      expect(saved.body.hint).toContain('POST /api/v1/integrations {"provider":"prometheus","name":"prod"}');
      expect((await rest(s.url, memberToken).get('/integrations/config/prometheus')).body.hint).toBe(saved.body.hint);

      // Every user may pull now; with nothing to pull the answer says why, and nothing was called.
      const before = prometheus.requests.length;
      const empty = await rest(s.url, memberToken).post('/integrations/prometheus/ingest');
      expect(empty.status).toBe(200);
      expect(empty.body).toMatchObject({ provider: 'prometheus', integrations: [], events: 0 });
      expect(empty.body.hint).toContain('POST /api/v1/integrations {"provider":"prometheus","name":"prod"}');
      expect(prometheus.requests.length).toBe(before);

      // An integration with no config of its own inherits url and bearer_token.
      const created = await admin.post('/integrations', { provider: 'prometheus', name: 'prod' });
      expect(created.status).toBe(201);
      const pulled = await rest(s.url, memberToken).post('/integrations/prometheus/ingest');
      expect(pulled.status).toBe(200);
      expect(pulled.body.hint).toBeNull();
      expect(pulled.body.integrations).toEqual([
        expect.objectContaining({ name: 'prod', ok: true, error: null, alerts_opened: 1 }),
      ]);
      const calls = prometheus.requests.slice(before);
      expect(calls.map((r) => r.path.split('?')[0])).toEqual(expect.arrayContaining(['/api/v1/alerts']));
      expect(new Set(calls.map((r) => r.headers.authorization))).toEqual(new Set(['Bearer prom-token-1']));
      const config = await admin.get('/integrations/config/prometheus');
      expect(config.body).toMatchObject({ integration_count: 1, hint: null });

      // Disabled, it is not pulled, and the hint says how to turn it back on.
      expect((await admin.patch(`/integrations/${created.body.id}`, { enabled: false })).status).toBe(200);
      const off = await admin.post('/integrations/prometheus/ingest');
      expect(off.body.integrations).toEqual([]);
      expect(off.body.hint).toMatch(
        /No enabled Prometheus integration: 1 is disabled \(PATCH \/api\/v1\/integrations\/<id> \{"enabled":true\}\)/,
      );
      expect((await admin.get('/integrations/config/prometheus')).body).toMatchObject({
        integration_count: 1,
        hint: expect.stringContaining('1 is disabled'),
      });
    },
  );
});
