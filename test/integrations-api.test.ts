/**
 * The integrations API: who may do what (admin vs member PAT), config validation naming fields,
 * dry runs, the SSRF guard on configured URLs, masked secrets in provider configs, the generic
 * webhook provider, push tokens (401, rotation grace), rate-limited ingest, tenant isolation and
 * GraphQL parity. The remote system pulled here is a real HTTP server in this file speaking
 * Alertmanager's /api/v2/alerts and /-/healthy (the real Alertmanager is in
 * integrations-alertmanager.test.ts); it records the headers it receives.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { gql, rest } from './helpers/http.js';

let s: TestServer;
let guarded: TestServer;
let t: BuiltTenant;
let memberToken: string;
let remote: http.Server;
let remoteUrl: string;
const remoteHeaders: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  remote = http.createServer((req, res) => {
    remoteHeaders.push(req.headers);
    if (req.url === '/-/healthy') return void res.writeHead(200).end('OK');
    if (req.url?.startsWith('/api/v2/alerts')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(
        JSON.stringify([
          {
            labels: { alertname: 'Remote', severity: 'warning' },
            annotations: {},
            fingerprint: 'abc123',
            status: { state: 'active' },
            startsAt: new Date().toISOString(),
          },
        ]),
      );
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => remote.listen(0, '127.0.0.1', r));
  remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
  [s, guarded] = await Promise.all([
    startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1', INTEGRATION_INGEST_PER_MINUTE: '3' } }),
    startTestServer(), // no allowlist: loopback URLs are refused
  ]);
  t = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
});
afterAll(async () => {
  await Promise.all([s?.stop(), guarded?.stop()]);
  await new Promise((r) => remote.close(r));
});

describe('permissions', () => {
  it('a member PAT gets 403 on POST /integrations and on PUT /integrations/config/<provider>, but lists and triggers ingest', async () => {
    const m = rest(s.url, memberToken);
    const denied = await m.post('/integrations', { provider: 'alertmanager', name: 'nope' });
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toMatch(/admin/);
    expect((await m.put('/integrations/config/alertmanager', { config: { url: remoteUrl } })).status).toBe(403);
    expect((await m.delete('/integrations/config/alertmanager')).status).toBe(403);
    const created = await rest(s.url, t.adminToken).post('/integrations', {
      provider: 'alertmanager',
      name: 'am-perm',
      config: { url: remoteUrl },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await m.patch(`/integrations/${id}`, { enabled: false })).status).toBe(403);
    expect((await m.delete(`/integrations/${id}`)).status).toBe(403);
    expect((await m.post(`/integrations/${id}/rotate-token`)).status).toBe(403);

    const listed = await m.get('/integrations');
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((i: { name: string }) => i.name)).toContain('am-perm');
    expect((await m.get(`/integrations/${id}`)).status).toBe(200);
    expect((await m.get(`/integrations/${id}/health?refresh=true`)).body.status).toBe('healthy');
    expect((await m.get('/integrations/config/alertmanager')).status).toBe(200);

    const ingest = await m.post('/integrations/alertmanager/ingest');
    expect(ingest.status).toBe(200);
    expect(ingest.body).toMatchObject({ provider: 'alertmanager', events: 1, alerts_opened: 1 });
    expect(ingest.body.integrations).toEqual([
      expect.objectContaining({ integration_id: id, ok: true, alerts_opened: 1 }),
    ]);
    expect((await rest(s.url, t.adminToken).delete(`/integrations/${id}`)).status).toBe(204);
  });

  it('answers 401 without a credential and 404 for another tenant', async () => {
    expect((await rest(s.url).get('/integrations')).status).toBe(401);
    expect((await rest(s.url).post('/integrations/alertmanager/ingest')).status).toBe(401);
    const created = await rest(s.url, t.adminToken).post('/integrations', { provider: 'webhook', name: 'mine' });
    const other = await buildTenant(s.app.rt);
    const o = rest(s.url, other.adminToken);
    expect((await o.get(`/integrations/${created.body.id}`)).status).toBe(404);
    expect((await o.get(`/integrations/${created.body.id}/health`)).status).toBe(404);
    expect((await o.patch(`/integrations/${created.body.id}`, { enabled: false })).status).toBe(404);
    expect((await o.delete(`/integrations/${created.body.id}`)).status).toBe(404);
    expect((await o.get('/integrations')).body.items).toEqual([]);
  });
});

describe('config validation, dry run and the SSRF guard', () => {
  it('names each offending field with its REST path', async () => {
    const a = rest(s.url, t.adminToken);
    const bad = await a.post('/integrations', {
      provider: 'prometheus',
      name: 'p',
      config: { url: 'ftp://x', targets: 'yes', colour: 'red' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'config', 'url'], msg: 'must be an absolute http or https URL' },
        { loc: ['body', 'config', 'targets'], msg: 'must be true or false' },
        expect.objectContaining({ loc: ['body', 'config', 'colour'] }),
      ]),
    );
    const missing = await a.post('/integrations', { provider: 'prometheus', name: 'p', config: {} });
    expect(missing.body.detail).toEqual([{ loc: ['body', 'config', 'url'], msg: 'is required' }]);
    const unknown = await a.post('/integrations', { provider: 'nagios', name: 'n' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'provider']);
    const fresh = await a.post('/integrations', { provider: 'webhook', name: 'w', freshness_seconds: 0 });
    expect(fresh.status).toBe(422);
    expect(fresh.body.detail[0].loc).toEqual(['body', 'freshness_seconds']);
    await a.post('/integrations', { provider: 'webhook', name: 'dup' });
    expect((await a.post('/integrations', { provider: 'webhook', name: 'dup' })).status).toBe(409);
  });

  it('dry_run=true tests the config and probes the remote without saving', async () => {
    const a = rest(s.url, t.adminToken);
    const before = (await a.get('/integrations')).body.items.length;
    const ok = await a.post('/integrations?dry_run=true', {
      provider: 'alertmanager',
      name: 'try',
      config: { url: remoteUrl },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      dry_run: true,
      provider: 'alertmanager',
      name: 'try',
      checks: { config: { ok: true, problems: [] }, reachable: { ok: true } },
    });
    const down = await a.post('/integrations?dry_run=true', {
      provider: 'alertmanager',
      name: 'try',
      config: { url: 'http://127.0.0.1:1' },
    });
    expect(down.status).toBe(200);
    expect(down.body.checks.reachable.ok).toBe(false);
    expect(down.body.checks.reachable.message).toMatch(/ECONNREFUSED/);
    const invalid = await a.post('/integrations?dry_run=true', {
      provider: 'alertmanager',
      name: 'try',
      config: { url: 42 },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail).toEqual([{ loc: ['body', 'config', 'url'], msg: 'must be a string' }]);
    expect((await a.get('/integrations')).body.items.length).toBe(before);
  });

  it('refuses loopback and private URLs unless allowlisted, as for outbound webhooks', async () => {
    const gt = await buildTenant(guarded.app.rt);
    const g = rest(guarded.url, gt.adminToken);
    for (const url of [remoteUrl, 'http://10.1.2.3:9093', 'http://[::1]:9093', 'http://169.254.169.254/']) {
      const r = await g.post('/integrations', { provider: 'prometheus', name: 'p', config: { url } });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'config', 'url']);
      expect(r.body.detail[0].msg).toMatch(
        /resolves to \S+ \([^)]+\), a private, loopback, link-local or other non-public address/,
      );
    }
    expect((await g.put('/integrations/config/prometheus', { config: { url: remoteUrl } })).status).toBe(422);
    expect(
      (await g.post('/integrations?dry_run=true', { provider: 'alertmanager', name: 'x', config: { url: remoteUrl } }))
        .status,
    ).toBe(422);
  });
});

describe('per-tenant provider config', () => {
  it('stores secrets sealed, shows them masked, keeps them when the mask is sent back, and lets integrations inherit them', async () => {
    const a = rest(s.url, t.adminToken);
    expect((await a.get('/integrations/config/prometheus')).body).toEqual({
      provider: 'prometheus',
      config: {},
      secret_fields: ['bearer_token', 'password'],
      updated_at: null,
      integration_count: 0,
      hint: expect.stringContaining('No Prometheus integration'),
      secrets_cleared: [],
    });
    const put = await a.put('/integrations/config/prometheus', {
      config: { url: remoteUrl, bearer_token: 'prom-bearer-secret-1' },
    });
    expect(put.status).toBe(200);
    expect(put.body.config).toEqual({ url: remoteUrl, bearer_token: '********' });
    const again = await a.put('/integrations/config/prometheus', {
      config: { url: remoteUrl, bearer_token: '********', default_severity: 'critical' },
    });
    expect(again.body.config).toEqual({ url: remoteUrl, bearer_token: '********', default_severity: 'critical' });
    const row = await s.app.rt.prisma.integrationProviderConfig.findFirstOrThrow({
      where: { tenantId: t.tenantId, provider: 'prometheus' },
    });
    expect(JSON.parse(s.app.rt.secretBox.open(row.secretsCiphertext!))).toEqual({
      bearer_token: 'prom-bearer-secret-1',
    });
    expect(JSON.stringify(row)).not.toContain('prom-bearer-secret-1');

    // An integration without its own url inherits the tenant's; its probe carries the inherited secret.
    const created = await a.post('/integrations', { provider: 'prometheus', name: 'inherits' });
    expect(created.status).toBe(201);
    expect(created.body.config).toEqual({});
    remoteHeaders.length = 0;
    const health = await a.get(`/integrations/${created.body.id}/health?refresh=true`);
    expect(health.body.checks.reachable.ok).toBe(true);
    expect(remoteHeaders.map((h) => h.authorization)).toContain('Bearer prom-bearer-secret-1');

    const bad = await a.put('/integrations/config/prometheus', { config: { url: 'nope' } });
    expect(bad.body.detail).toEqual([{ loc: ['body', 'config', 'url'], msg: 'must be an absolute http or https URL' }]);
    expect((await a.put('/integrations/config/nagios', { config: {} })).status).toBe(404);
    expect((await a.delete('/integrations/config/prometheus')).status).toBe(204);
    expect((await a.delete('/integrations/config/prometheus')).status).toBe(404);
    // Without the inherited url the integration's config is invalid: failing, and the check says why.
    const failing = await a.get(`/integrations/${created.body.id}/health?refresh=true`);
    expect(failing.body).toMatchObject({
      status: 'failing',
      checks: { config: { ok: false, problems: [{ field: 'url', message: 'is required' }] } },
    });
  });
});

describe('the generic webhook provider and push tokens', () => {
  it('maps a JSON body with field paths onto an event, opens and resolves an alert; a wrong token is 401', async () => {
    const a = rest(s.url, t.adminToken);
    const created = await a.post('/integrations', {
      provider: 'webhook',
      name: 'ci-system',
      config: {
        paths: {
          type: 'kind',
          summary: 'detail.title',
          severity: 'detail.level',
          labels: 'tags',
          alert_key: 'detail.id',
          status: 'state',
        },
        resolved_values: 'fixed',
      },
    });
    const { id, push_token: token } = created.body;
    const push = (body: unknown, tok = token) => rest(s.url).post(`/integrations/${id}/push`, body, { token: tok });
    expect((await push({ kind: 'ci.failed' }, 'sip_wrong')).status).toBe(401);
    expect((await rest(s.url).post(`/integrations/${id}/push`, {})).status).toBe(401);
    expect((await push([1, 2])).status).toBe(422);
    const fired = await push({
      kind: 'ci.failed',
      state: 'failing',
      tags: { repo: 'ops' },
      detail: { id: 'build-9', title: 'Build 9 failed', level: 'critical' },
    });
    expect(fired.body).toEqual({ events: 1, alerts_opened: 1, alerts_resolved: 0 });
    const alerts = (await a.get('/alerts?source=webhook%2Fci-system')).body.items;
    expect(alerts).toEqual([
      expect.objectContaining({ status: 'open', severity: 'critical', summary: 'Build 9 failed' }),
    ]);
    const fixed = await push({
      kind: 'ci.fixed',
      state: 'fixed',
      detail: { id: 'build-9', title: 'Build 9 fixed', level: 'info' },
    });
    expect(fixed.body).toEqual({ events: 1, alerts_opened: 0, alerts_resolved: 1 });
    const events = (await a.get('/events?module=integrations')).body.filter(
      (e: { source: string }) => e.source === 'webhook/ci-system',
    );
    expect(events.map((e: { type: string }) => e.type).sort()).toEqual(['ci.failed', 'ci.fixed']);
    expect(events.find((e: { type: string }) => e.type === 'ci.failed').labels).toEqual({
      repo: 'ops',
      integration_id: id,
      dedup_key: `integration:${id}:build-9`,
    });

    // Rotation: the new token works at once, the old one for 24 hours.
    const rotated = await a.post(`/integrations/${id}/rotate-token`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.push_token).not.toBe(token);
    expect(rotated.body.previous_push_token_valid_until).not.toBeNull();
    expect((await push({ kind: 'x.old' })).status).toBe(200);
    expect((await push({ kind: 'x.new' }, rotated.body.push_token)).status).toBe(200);
    // A token of another integration does not open this one's URL.
    const other = await a.post('/integrations', { provider: 'webhook', name: 'other-hook' });
    expect((await push({ kind: 'x' }, other.body.push_token)).status).toBe(401);
    // Freshness turned off (no freshness_seconds) and no probe: healthy from its events alone.
    const health = await a.get(`/integrations/${id}/health?refresh=true`);
    expect(health.body).toMatchObject({
      status: 'healthy',
      checks: {
        reachable: { ok: null, message: 'Generic webhook integrations have no probe' },
        freshness: { ok: null, expected_seconds: null, message: 'freshness check turned off' },
      },
    });
    const silent = await a.get(`/integrations/${other.body.id}/health?refresh=true`);
    expect(silent.body.status).toBe('unknown');
    // Pull-only providers have no push token and cannot be pushed to.
    const prom = await a.post('/integrations', { provider: 'prometheus', name: 'no-push', config: { url: remoteUrl } });
    expect(prom.body).toMatchObject({ push_url: null, push_token: null });
    expect((await a.post('/integrations/webhook/ingest')).status).toBe(409);
  });
});

describe('maintenance windows', () => {
  it('suppress alerts an integration opens, like rule alerts', async () => {
    const a = rest(s.url, t.adminToken);
    const created = await a.post('/integrations', {
      provider: 'webhook',
      name: 'maint-hook',
      config: { paths: { alert_key: 'id', summary: 'title' } },
    });
    const window = await gql(
      s.url,
      t.adminToken,
      'mutation($i: CreateMaintenanceWindowInput!) { createMaintenanceWindow(input: $i) { id } }',
      {
        i: {
          name: 'upgrade',
          startsAt: new Date(s.app.rt.clock.now().getTime() - 60_000).toISOString(),
          endsAt: new Date(s.app.rt.clock.now().getTime() + 3600_000).toISOString(),
          source: 'webhook/maint-hook',
        },
      },
    );
    expect(window.errors).toBeUndefined();
    const push = await rest(s.url).post(
      `/integrations/${created.body.id}/push`,
      { id: 'disk', title: 'Disk noisy during upgrade' },
      { token: created.body.push_token },
    );
    expect(push.body.alerts_opened).toBe(1);
    const alerts = (await a.get('/alerts?source=webhook%2Fmaint-hook')).body.items;
    expect(alerts).toEqual([
      expect.objectContaining({ suppressed: true, maintenance_window_id: window.data.createMaintenanceWindow.id }),
    ]);
  });
});

describe('on-demand ingest', () => {
  it('is rate-limited per tenant and provider (429 with Retry-After)', async () => {
    const other = await buildTenant(s.app.rt);
    const o = rest(s.url, other.adminToken);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await o.post('/integrations/prometheus/ingest')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await o.post('/integrations/prometheus/ingest');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await o.post('/integrations/alertmanager/ingest')).status).toBe(200);
    expect((await o.post('/integrations/nagios/ingest')).status).toBe(404);
  });
});

describe('GraphQL parity', () => {
  it('lists providers with their config schema and capabilities, and integrations with health', async () => {
    const r = await gql(
      s.url,
      memberToken,
      '{ integrationProviders { id capabilities { push pull health } secretFields configSchema } integrations { id name provider health { status } } }',
    );
    expect(r.errors).toBeUndefined();
    const byId = Object.fromEntries(r.data.integrationProviders.map((p: { id: string }) => [p.id, p]));
    expect(Object.keys(byId).sort()).toEqual(['alertmanager', 'dcgm', 'pagerduty', 'prometheus', 'webhook']);
    expect(byId.dcgm.capabilities).toEqual({ push: false, pull: true, health: true });
    expect(byId.dcgm.configSchema.properties.targets).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: { type: 'string', format: 'uri' },
    });
    expect(byId.alertmanager.capabilities).toEqual({ push: true, pull: true, health: true });
    expect(byId.prometheus.capabilities).toEqual({ push: false, pull: true, health: true });
    expect(byId.alertmanager.configSchema.properties.bearer_token['x-secret']).toBe(true);
    expect(r.data.integrations.length).toBeGreaterThan(0);
    const denied = await gql(
      s.url,
      memberToken,
      'mutation { createIntegration(input: { provider: "webhook", name: "g" }) { pushToken } }',
    );
    expect(denied.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const made = await gql(
      s.url,
      t.adminToken,
      'mutation { createIntegration(input: { provider: "webhook", name: "gql" }) { pushToken integration { id pushUrl health { status } } } }',
    );
    expect(made.data.createIntegration.pushToken).toMatch(/^sip_/);
    expect(made.data.createIntegration.integration.pushUrl).toBe(
      `${s.url}/api/v1/integrations/${made.data.createIntegration.integration.id}/push`,
    );
    expect(made.data.createIntegration.integration.health.status).toBe('UNKNOWN');
  });
});
