/**
 * A real Prometheus (Debian's prometheus) scrapes this service's /metrics and evaluates a rule that
 * fires; the `prometheus` provider pulls its firing alerts (/api/v1/alerts) and target health
 * (/api/v1/targets) on demand. A second scrape target points at a closed port, so one target is down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, rest } from './helpers/http.js';
import { freePort, startPrometheus, type Peer } from './helpers/peers.js';

let s: TestServer;
let t: BuiltTenant;
let memberToken: string;
let prom: Peer;
let closedPort: number;

beforeAll(async () => {
  s = await startTestServer({
    env: {
      WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
      INTEGRATION_INGEST_PER_MINUTE: '100',
      INTEGRATION_HEALTH_INTERVAL_MS: '500',
    },
  });
  t = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
  const ours = new URL(s.url).host;
  closedPort = await freePort();
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    "rule_files: ['rules.yml']",
    'scrape_configs:',
    '  - job_name: ops',
    `    static_configs: [{ targets: ['${ours}'] }]`,
    '  - job_name: gone',
    `    static_configs: [{ targets: ['127.0.0.1:${closedPort}'] }]`,
    '',
  ].join('\n');
  const rules = [
    'groups:',
    '  - name: ops',
    '    rules:',
    '      - alert: OpsServiceScraped',
    '        expr: up{job="ops"} == 1 and on() http_request_duration_seconds_count{job="ops"} >= 0',
    '        labels: { severity: critical }',
    "        annotations: { summary: 'ops service metrics are scraped' }",
    '',
  ].join('\n');
  prom = await startPrometheus(config, rules);
});
afterAll(async () => {
  await prom?.stop();
  await s?.stop();
});

describe('prometheus integration with a real Prometheus', () => {
  it('pulls the firing alert of a rule over our /metrics and the target health, and opens our alerts', async () => {
    const created = await rest(s.url, t.adminToken).post('/integrations', {
      provider: 'prometheus',
      name: 'prom',
      config: { url: prom.url },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ push_url: null, push_token: null });
    const id = created.body.id;

    const pulled = await eventually(
      async () => {
        const r = await rest(s.url, memberToken).post('/integrations/prometheus/ingest');
        expect(r.status).toBe(200);
        const mine = r.body.integrations[0];
        return mine.summary.firing >= 1 && mine.summary.targets_down >= 1 ? r.body : null;
      },
      60_000,
      500,
    );
    expect(pulled.integrations[0]).toMatchObject({ integration_id: id, ok: true, error: null });
    expect(pulled.integrations[0].summary.targets_up).toBeGreaterThanOrEqual(1);

    const alerts = (await rest(s.url, t.adminToken).get('/alerts?source=prometheus%2Fprom')).body.items;
    expect(alerts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          status: 'open',
          severity: 'critical',
          summary: `ops service metrics are scraped (${new URL(s.url).host})`,
        }),
        expect.objectContaining({
          status: 'open',
          severity: 'warning',
          summary: `Target down: http://127.0.0.1:${closedPort}/metrics`,
        }),
      ]),
    );
    const events = (await rest(s.url, t.adminToken).get('/events?module=integrations')).body;
    expect(events.find((e: { type: string }) => e.type === 'prometheus.firing')).toMatchObject({
      labels: { alertname: 'OpsServiceScraped', job: 'ops', integration_id: id },
    });
    expect(events.find((e: { type: string }) => e.type === 'prometheus.target_down').payload.last_error).toMatch(
      /refused/,
    );

    const health = await rest(s.url, memberToken).get(`/integrations/${id}/health?refresh=true`);
    expect(health.body).toMatchObject({
      status: 'healthy',
      checks: { reachable: { ok: true }, errors: { ok: true, count: 0 } },
    });
    const integ = await rest(s.url, memberToken).get(`/integrations/${id}`);
    expect(integ.body.last_pull_at).not.toBeNull();
  });

  it('records a failed pull on the integration and says why in its health', async () => {
    const created = await rest(s.url, t.adminToken).post('/integrations', {
      provider: 'prometheus',
      name: 'wrong-port',
      config: { url: `http://127.0.0.1:${closedPort}` },
    });
    const r = await rest(s.url, memberToken).post('/integrations/prometheus/ingest');
    const mine = r.body.integrations.find((x: { integration_id: string }) => x.integration_id === created.body.id);
    expect(mine).toMatchObject({ ok: false, events: 0 });
    expect(mine.error).toMatch(/^pull failed: .*ECONNREFUSED/);
    const health = await rest(s.url, memberToken).get(`/integrations/${created.body.id}/health?refresh=true`);
    expect(health.body.status).toBe('degraded');
    expect(health.body.checks.errors).toMatchObject({ ok: false, count: 1 });
    expect(health.body.checks.errors.last_error).toMatch(/ECONNREFUSED/);
    expect(health.body.reason).toMatch(/unreachable: .*ECONNREFUSED/);
  });

  it('checks the health of every enabled integration periodically (BullMQ job scheduler) and keeps a history', async () => {
    const created = await rest(s.url, t.adminToken).post('/integrations', {
      provider: 'prometheus',
      name: 'periodic',
      config: { url: prom.url },
    });
    const checked = await eventually(
      async () => {
        const r = await rest(s.url, memberToken).get(`/integrations/${created.body.id}/health?history=5`);
        return r.body.history.length >= 2 ? r.body : null;
      },
      30_000,
      250,
    );
    expect(checked.status).toBe('healthy');
    expect(checked.checked_at).not.toBeNull();
    expect(
      checked.history.every(
        (h: { status: string; checks: { reachable: { ok: boolean } } }) =>
          h.status === 'healthy' && h.checks.reachable.ok,
      ),
    ).toBe(true);
    const disabled = await rest(s.url, t.adminToken).post('/integrations', {
      provider: 'prometheus',
      name: 'disabled',
      enabled: false,
      config: { url: prom.url },
    });
    // Enabled ones keep being checked meanwhile; the disabled one never is.
    const before = checked.history[0].checked_at;
    await eventually(
      async () =>
        (await rest(s.url, memberToken).get(`/integrations/${created.body.id}/health`)).body.checked_at > before,
      30_000,
      250,
    );
    const untouched = await rest(s.url, memberToken).get(`/integrations/${disabled.body.id}/health`);
    expect(untouched.body).toMatchObject({ status: 'unknown', checks: null, checked_at: null, history: [] });
  });
});
