/**
 * The `dcgm` integration against a local HTTP server on 127.0.0.1 that stands in for NVIDIA
 * dcgm-exporter (which needs a GPU): it answers GET /metrics with Prometheus text written the way the
 * exporter's template writes it (HELP/TYPE lines, labels gpu, UUID, pci_bus_id, device, modelName,
 * Hostname; DCGM's blank sentinels for fields a GPU does not support). First a healthy node, then a
 * scrape where GPU 0 reports XID 79 and GPU 1 a temperature excursion. Everything goes through REST
 * and GraphQL as an admin; the scrape runs through the integrations' SSRF guard (127.0.0.1 allowed by
 * WEBHOOK_URL_ALLOWLIST).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { exporterText, FP64_BLANK, INT64_NOT_SUPPORTED, type FakeGpu } from './helpers/dcgm-exporter.js';

const GPU0 = 'GPU-11111111-2222-3333-4444-555555555550';
const GPU1 = 'GPU-11111111-2222-3333-4444-555555555551';
let state: FakeGpu[] = [];
let requests: Array<{ accept: string | undefined }> = [];
let exporter: http.Server;
let exporterUrl: string;

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let memberToken: string;
let integrationId: string;

beforeAll(async () => {
  exporter = http.createServer((req, res) => {
    requests.push({ accept: req.headers.accept });
    if (req.url !== '/metrics') return void res.writeHead(404).end('not found');
    res
      .writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' })
      .end(exporterText('h100-node-1', state));
  });
  await new Promise<void>((r) => exporter.listen(0, '127.0.0.1', r));
  exporterUrl = `http://127.0.0.1:${(exporter.address() as AddressInfo).port}/metrics`;
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1', INTEGRATION_INGEST_PER_MINUTE: '100' } });
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
}, 180_000);

afterAll(async () => {
  await s?.stop();
  await new Promise((r) => exporter?.close(r));
});

const healthy = (): FakeGpu[] => [
  { index: 0, uuid: GPU0, util: 71, temp: 58, xid: 0, powerLimit: '700.000000', eccDbe: '0' },
  { index: 1, uuid: GPU1, util: 64, temp: 61, xid: 0, powerLimit: FP64_BLANK, eccDbe: INT64_NOT_SUPPORTED },
];

async function ingest(token = t.adminToken) {
  const r = await rest(s.url, token).post('/integrations/dcgm/ingest');
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

describe('dcgm integration (a stand-in dcgm-exporter on 127.0.0.1)', () => {
  it('is admin-only to create, and every target passes the SSRF guard', async () => {
    const member = await rest(s.url, memberToken).post('/integrations', {
      provider: 'dcgm',
      name: 'nope',
      config: { targets: [exporterUrl] },
    });
    expect(member.status).toBe(403);
    const metadata = await rest(s.url, t.adminToken).post('/integrations', {
      provider: 'dcgm',
      name: 'meta',
      config: { targets: [exporterUrl, 'http://169.254.169.254/metrics'] },
    });
    expect(metadata.status).toBe(422);
    expect(JSON.stringify(metadata.body.detail)).toMatch(/targets.*1/);
    const bad = await rest(s.url, t.adminToken).post('/integrations', {
      provider: 'dcgm',
      name: 'bad',
      config: { targets: [], interval_seconds: 1 },
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toMatch(/targets/);
    expect(JSON.stringify(bad.body.detail)).toMatch(/interval_seconds/);
  });

  it('scrapes on ingest: the GPUs show in the summary with a verdict, sentinels stored as null', async () => {
    state = healthy();
    const created = await rest(s.url, t.adminToken).post('/integrations', {
      provider: 'dcgm',
      name: 'h100-node-1',
      config: { targets: [exporterUrl], interval_seconds: 3600 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      provider: 'dcgm',
      push_url: null,
      push_token: null,
      config: { targets: [exporterUrl], interval_seconds: 3600 },
    });
    integrationId = created.body.id;

    const r = await ingest(memberToken); // on-demand ingest is open to every user, like other pull providers
    expect(r.integrations).toEqual([
      expect.objectContaining({
        integration_id: integrationId,
        ok: true,
        error: null,
        summary: expect.objectContaining({ targets_up: 1, targets_down: 0, gpus: 2 }),
      }),
    ]);
    expect(requests.every((q) => q.accept === 'text/plain')).toBe(true);

    const summary = (await rest(s.url, memberToken).get('/ai-factory/gpu/summary')).body;
    expect(summary.fleet).toMatchObject({ gpus: 2, nodes: 1 });
    const g0 = summary.gpus.find((g: any) => g.uuid === GPU0);
    const g1 = summary.gpus.find((g: any) => g.uuid === GPU1);
    expect(g0).toMatchObject({
      node: 'h100-node-1',
      index: 0,
      model: 'NVIDIA H100 80GB HBM3',
      source: 'dcgm',
      health: 'healthy',
      latest: {
        utilization: 71,
        temperature_c: 58,
        power_w: 250.125,
        power_limit_w: 700,
        memory_used_mib: 20000,
        memory_total_mib: 81000,
        ecc_dbe: 0,
        xid: 0,
      },
    });
    expect(g1).toMatchObject({ health: 'healthy', latest: { power_limit_w: null, ecc_dbe: null, temperature_c: 61 } });

    // In the stored rows too: missing, not 2^47 or 9.2e18.
    const rows = await s.app.rt.prisma.gpuSample.findMany({ where: { gpu: { uuid: GPU1, tenantId: t.tenantId } } });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.eccDbe).toBeNull();
      expect(row.powerLimitW).toBeNull();
      expect(row.temperatureC).toBe(61);
    }
    // Another tenant sees none of it.
    expect((await rest(s.url, other.adminToken).get('/ai-factory/gpu/summary')).body.gpus).toEqual([]);

    const integ = await rest(s.url, memberToken).get(`/integrations/${integrationId}`);
    expect(integ.body.last_event_at).not.toBeNull(); // samples count as the integration's events for freshness
    const health = await rest(s.url, memberToken).get(`/integrations/${integrationId}/health?refresh=true`);
    expect(health.body.checks.reachable).toMatchObject({ ok: true });
    expect(health.body.checks.reachable.message).toMatch(/^2 GPU\(s\) on 1 target\(s\)/);
  });

  it('turns an XID change into a critical gpu.xid event on the timeline that fires an alert rule, and a hot GPU into gpu.thermal', async () => {
    const rule = await gql(
      s.url,
      t.adminToken,
      'mutation { createAlertRule(input: { name: "GPU XID", typeGlob: "gpu.xid", alertSeverity: CRITICAL }) { id } }',
    );
    expect(rule.errors).toBeUndefined();
    const ruleId = rule.data.createAlertRule.id;

    state = healthy();
    state[0]!.xid = 79;
    state[1]!.temp = 95;
    const r = await ingest();
    expect(r.integrations[0]).toMatchObject({ ok: true, summary: { gpu_events: 2 } });

    const events = (await rest(s.url, memberToken).get('/ai-factory/gpu/events')).body.items;
    const xid = events.find((e: any) => e.type === 'gpu.xid');
    expect(xid).toMatchObject({
      severity: 'critical',
      node: 'h100-node-1',
      gpu_uuid: GPU0,
      gpu_index: 0,
      payload: { xid: 79, meaning: 'GPU has fallen off the bus', source: 'dcgm' },
    });
    expect(xid.payload.action).toMatch(/Drain the node/);
    expect(events.find((e: any) => e.type === 'gpu.thermal')).toMatchObject({
      gpu_uuid: GPU1,
      severity: 'critical',
      payload: { temperature_c: 95 },
    });

    const timeline = (await rest(s.url, memberToken).get('/events?module=gpu')).body;
    expect(timeline.find((e: any) => e.type === 'gpu.xid')).toMatchObject({
      severity: 'critical',
      module: 'gpu',
      labels: { uuid: GPU0, node: 'h100-node-1', gpu: '0' },
    });

    const alert = await eventually(
      async () => (await rest(s.url, t.adminToken).get(`/alerts?rule=${ruleId}`)).body.items[0],
      30_000,
      100,
    );
    expect(alert).toMatchObject({ status: 'open', severity: 'critical' });

    const summary = (await rest(s.url, memberToken).get('/ai-factory/gpu/summary')).body;
    const g0 = summary.gpus.find((g: any) => g.uuid === GPU0);
    const g1 = summary.gpus.find((g: any) => g.uuid === GPU1);
    expect(g0).toMatchObject({ health: 'critical', last_xid: 79 });
    expect(g0.health_reasons.join(' ')).toMatch(/XID 79/);
    expect(g1.health).toBe('critical');
    expect(g1.health_reasons.join(' ')).toMatch(/temperature 95 °C/);

    // The gauge keeps reporting 79: no second event for the same value.
    await ingest();
    const again = (await rest(s.url, memberToken).get('/ai-factory/gpu/events?type=gpu.xid')).body.items;
    expect(again).toHaveLength(1);
  });

  it('reports a failing target on the integration and its health, keeping what the others gave', async () => {
    const closed = http.createServer();
    await new Promise<void>((res) => closed.listen(0, '127.0.0.1', res));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/metrics`;
    await new Promise((res) => closed.close(res));
    const patched = await rest(s.url, t.adminToken).patch(`/integrations/${integrationId}`, {
      config: { targets: [exporterUrl, deadUrl], interval_seconds: 3600 },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    state = healthy();
    const r = await ingest();
    expect(r.integrations[0]).toMatchObject({ ok: false, summary: { targets_up: 1, targets_down: 1, gpus: 2 } });
    expect(r.integrations[0].error).toMatch(
      new RegExp(`^pull partly failed: ${deadUrl.replace(/[.]/g, '\\.')}: .*ECONNREFUSED`),
    );
    const health = await rest(s.url, memberToken).get(`/integrations/${integrationId}/health?refresh=true`);
    expect(health.body.status).toBe('degraded');
    expect(health.body.checks.reachable.message).toMatch(/1 of 2 target\(s\) failed/);
  });

  it('scrapes on its own every interval_seconds (the integration-pull task)', async () => {
    const before = requests.length;
    const created = await rest(s.url, other.adminToken).post('/integrations', {
      provider: 'dcgm',
      name: 'scheduled',
      config: { targets: [exporterUrl], interval_seconds: 5 },
    });
    expect(created.status).toBe(201);
    // Two scheduled pulls, with no ingest call: the GPUs appear and last_pull_at moves.
    const first = await eventually(
      async () => (await rest(s.url, other.adminToken).get(`/integrations/${created.body.id}`)).body.last_pull_at,
      30_000,
      200,
    );
    const summary = await eventually(
      async () => {
        const b = (await rest(s.url, other.adminToken).get('/ai-factory/gpu/summary')).body;
        return b.gpus.length === 2 ? b : null;
      },
      30_000,
      200,
    );
    expect(summary.gpus.every((g: any) => g.source === 'dcgm')).toBe(true);
    await eventually(
      async () =>
        (await rest(s.url, other.adminToken).get(`/integrations/${created.body.id}`)).body.last_pull_at > first,
      30_000,
      250,
    );
    expect(requests.length).toBeGreaterThan(before + 1);
  });
});
