/**
 * GPU thermal events follow the temperature (issue 44, point 4): through the `dcgm` integration against
 * the stand-in dcgm-exporter on 127.0.0.1 (test/helpers/dcgm-exporter.ts, NVIDIA's exporter needs a GPU),
 * on the injected clock (each scrape one interval later), a GPU that warms past the warning limit, then
 * past the critical limit, raises a critical `gpu.thermal` and the starter rule's alert; back under the
 * critical limit the alert resolves (`gpu.thermal_recovered`); over it again a new alert opens.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { testClock } from './helpers/clock.js';
import { exporterText, type FakeGpu } from './helpers/dcgm-exporter.js';

const GPU = 'GPU-99999999-2222-3333-4444-555555555550';
const gpu: FakeGpu = { index: 0, uuid: GPU, util: 90, temp: 60, xid: 0, powerLimit: '700.000000', eccDbe: '0' };
const clock = testClock();
let exporter: http.Server;
let s: TestServer;
let t: BuiltTenant;
let ruleId: string;

beforeAll(async () => {
  exporter = http.createServer((req, res) => {
    if (req.url !== '/metrics') return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(exporterText('hot-node', [gpu]));
  });
  await new Promise<void>((r) => exporter.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(exporter.address() as AddressInfo).port}/metrics`;
  s = await startTestServer({
    env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1', INTEGRATION_INGEST_PER_MINUTE: '1000' },
    start: { clock },
  });
  t = await buildTenant(s.app.rt);
  const created = await rest(s.url, t.adminToken).post('/integrations', {
    provider: 'dcgm',
    name: 'hot-node',
    config: { targets: [url] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const rule = await gql(s.url, t.adminToken, 'mutation { enableSuggestedAlertRule(key: "gpu.thermal") { id } }');
  expect(rule.errors).toBeUndefined();
  ruleId = rule.data.enableSuggestedAlertRule.id;
}, 180_000);

afterAll(async () => {
  await s?.stop();
  await new Promise((r) => exporter?.close(r));
});

/** One scrape at `temp` °C, one sample interval after the last. */
async function scrapeAt(temp: number) {
  gpu.temp = temp;
  clock.advance(15_000);
  const r = await rest(s.url, t.adminToken).post('/integrations/dcgm/ingest');
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

const thermalEvents = async () =>
  ((await rest(s.url, t.adminToken).get('/ai-factory/gpu/events?node=hot-node')).body.items as any[])
    .filter((e) => e.type.startsWith('gpu.thermal'))
    .map((e) => [e.type, e.severity, e.payload.temperature_c]);

const alerts = async () => (await rest(s.url, t.adminToken).get(`/alerts?rule=${ruleId}`)).body.items as any[];

describe('a GPU warming past the critical limit and cooling', () => {
  it('raises a critical event and alert at the crossing, resolves it back under, and raises again', async () => {
    await scrapeAt(60);
    await scrapeAt(84);
    expect(await thermalEvents()).toEqual([['gpu.thermal', 'warning', 84]]);
    await scrapeAt(96);
    // Newest first: the excursion is now critical at 96 °C, not only "warning at 84 °C".
    expect(await thermalEvents()).toEqual([
      ['gpu.thermal', 'critical', 96],
      ['gpu.thermal', 'warning', 84],
    ]);
    const opened = await eventually(async () => (await alerts()).find((a) => a.status === 'open') ?? null, 30_000);
    expect(opened).toMatchObject({ severity: 'critical', source: 'gpu/hot-node' });
    expect(opened.summary).toMatch(/96 °C/);
    await scrapeAt(97); // still over: nothing new
    expect(await thermalEvents()).toHaveLength(2);

    await scrapeAt(86); // back under the critical limit, still warm
    expect((await thermalEvents())[0]).toEqual(['gpu.thermal_recovered', 'info', 86]);
    await eventually(
      async () => ((await alerts()).find((a) => a.id === opened.id)?.status === 'resolved' ? true : null),
      30_000,
    );

    await scrapeAt(93); // over it again: a new alert
    const again = await eventually(async () => (await alerts()).find((a) => a.status === 'open') ?? null, 30_000);
    expect(again.id).not.toBe(opened.id);
    await scrapeAt(70); // cooled: the excursion ends, the alert resolves
    expect((await thermalEvents())[0]).toEqual(['gpu.thermal_recovered', 'info', 70]);
    await eventually(async () => ((await alerts()).every((a) => a.status === 'resolved') ? true : null), 30_000);
    const summary = await rest(s.url, t.adminToken).get('/ai-factory/gpu/summary?node=hot-node');
    expect(summary.body.gpus[0]).toMatchObject({ health: 'healthy' });
  });
});
