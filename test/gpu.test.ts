/**
 * GPU telemetry over the real service: samples pushed with the ingest key (what the collector sends),
 * the fleet summary with health verdicts, hardware events derived from the change between samples
 * (on the timeline, firing an alert rule), downsampled time series over 24 h, GPUs that stop
 * reporting, and the permission and tenant rules.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, eventually, gql, rest } from './helpers/http.js';
import { rollUpRecent } from '../src/gpu/rollups.js';
import { STALE_MS, backfillRollupsIdle, noteBackfill, rollUpStaleBackfills } from '../src/gpu/backfill-rollups.js';
import { markMissingGpus } from '../src/gpu/missing.js';
import { testClock } from './helpers/clock.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let memberToken: string;

const uuid = () => `GPU-${crypto.randomUUID()}`;

function push(key: string, body: unknown) {
  return call(s.url + '/api/v1', 'POST', '/ai-factory/gpu/samples', { body, headers: { 'x-service-key': key } });
}

function sample(id: string, overrides: Record<string, unknown> = {}) {
  return {
    uuid: id,
    index: 0,
    model: 'NVIDIA A100-SXM4-80GB',
    utilization: 50,
    memory_used_mib: 1000,
    memory_total_mib: 81920,
    temperature_c: 60,
    power_w: 200,
    power_limit_w: 400,
    ecc_dbe: 0,
    xid: 0,
    ...overrides,
  };
}

const clock = testClock();

beforeAll(async () => {
  // "Missing" comes from the service's clock, which the missing-GPU test moves forward: no test depends
  // on how long the machine takes between a push and a read.
  s = await startTestServer({
    env: { GPU_SAMPLE_INTERVAL_MS: '10000', GPU_MISSING_AFTER_INTERVALS: '6', INGEST_RATE_PER_SECOND: '1000' },
    start: { clock },
  });
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
});
afterAll(async () => {
  await s?.stop();
});

describe('pushed samples', () => {
  it('shows each GPU in the summary with its latest values and a health verdict, readable by a member', async () => {
    const [a, b] = [uuid(), uuid()];
    const r = await push(t.ingestKey, {
      node: 'node-a',
      samples: [sample(a), sample(b, { index: 1, temperature_c: 85, memory_used_mib: null, sm_clock_mhz: null })],
    });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ status: 'accepted', gpus: 2, samples: 2, events: 1 }); // the 85 °C GPU starts a thermal excursion
    const summary = await rest(s.url, memberToken).get('/ai-factory/gpu/summary?node=node-a');
    expect(summary.status).toBe(200);
    const gpus = summary.body.gpus as Array<Record<string, any>>;
    const ga = gpus.find((g) => g.uuid === a)!;
    const gb = gpus.find((g) => g.uuid === b)!;
    expect(ga).toMatchObject({
      node: 'node-a',
      index: 0,
      model: 'NVIDIA A100-SXM4-80GB',
      source: 'nvidia-smi',
      health: 'healthy',
      health_reasons: [],
    });
    expect(ga.latest).toMatchObject({ utilization: 50, memory_used_mib: 1000, temperature_c: 60, power_w: 200 });
    expect(gb.health).toBe('warning');
    expect(gb.health_reasons.join(' ')).toMatch(/temperature 85 °C ≥ 83 °C/);
    // Not reported is null, not a number.
    expect(gb.latest.memory_used_mib).toBeNull();
    expect(gb.latest.sm_clock_mhz).toBeNull();
    expect(summary.body.fleet).toMatchObject({ nodes: 1, gpus: 2, by_health: { healthy: 1, warning: 1 } });
    // The other tenant sees none of it.
    const theirs = await rest(s.url, other.adminToken).get('/ai-factory/gpu/summary?node=node-a');
    expect(theirs.body.gpus).toEqual([]);
  });

  it('stores a repeated push once', async () => {
    const id = uuid();
    const at = new Date(clock.now().getTime() - 5000).toISOString();
    const body = { node: 'node-r', samples: [sample(id, { at })] };
    expect((await push(t.ingestKey, body)).body.samples).toBe(1);
    expect((await push(t.ingestKey, body)).body.samples).toBe(0);
    expect(await s.app.rt.prisma.gpuSample.count({ where: { gpu: { uuid: id } } })).toBe(1);
  });

  it('refuses a bad push with 401 or 422 naming the field, and stores nothing of it', async () => {
    expect((await push('sik_wrong', { node: 'n', samples: [sample(uuid())] })).status).toBe(401);
    const id = uuid();
    const bad = await push(t.ingestKey, { node: 'node-bad', samples: [sample(id), { uuid: uuid(), index: -1 }] });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain('index');
    const future = await push(t.ingestKey, {
      node: 'node-bad',
      samples: [sample(id, { at: new Date(clock.now().getTime() + 3600_000).toISOString() })],
    });
    expect(future.status).toBe(422);
    expect(JSON.stringify(future.body.detail)).toMatch(/future/);
    expect(await s.app.rt.prisma.gpu.count({ where: { uuid: id } })).toBe(0);
  });
});

describe('hardware events', () => {
  it('turns an XID change into a critical gpu.xid event on the timeline that fires a matching alert rule', async () => {
    const rule = await gql(
      s.url,
      t.adminToken,
      'mutation { createAlertRule(input: { name: "GPU XIDs", typeGlob: "gpu.xid", alertSeverity: CRITICAL }) { id } }',
    );
    expect(rule.errors).toBeUndefined();
    const id = uuid();
    const now = clock.now().getTime();
    await push(t.ingestKey, { node: 'node-x', samples: [sample(id, { at: new Date(now - 2000).toISOString() })] });
    const r = await push(t.ingestKey, {
      node: 'node-x',
      samples: [sample(id, { xid: 79, at: new Date(now - 1000).toISOString() })],
    });
    expect(r.body.events).toBe(1);
    // The same XID value again is not a new event (the gauge keeps its last value).
    expect((await push(t.ingestKey, { node: 'node-x', samples: [sample(id, { xid: 79 })] })).body.events).toBe(0);

    const events = await rest(s.url, memberToken).get('/ai-factory/gpu/events?node=node-x&type=gpu.xid');
    expect(events.status).toBe(200);
    expect(events.body.items).toHaveLength(1);
    expect(events.body.items[0]).toMatchObject({
      type: 'gpu.xid',
      severity: 'critical',
      node: 'node-x',
      gpu_uuid: id,
      gpu_index: 0,
      payload: { xid: 79, meaning: 'GPU has fallen off the bus' },
    });
    expect(events.body.items[0].payload.action).toMatch(/Drain the node/);

    const timeline = await rest(s.url, memberToken).get('/events?module=gpu');
    expect(timeline.body.some((e: any) => e.id === events.body.items[0].id && e.type === 'gpu.xid')).toBe(true);

    const alert = await eventually(async () => {
      const list = await rest(s.url, memberToken).get('/alerts?status=open');
      return list.body.items.find((a: any) => a.rule_id === rule.data.createAlertRule.id);
    });
    expect(alert).toMatchObject({ severity: 'critical', source: 'gpu/node-x' });

    const summary = await rest(s.url, memberToken).get('/ai-factory/gpu/summary?node=node-x');
    expect(summary.body.gpus[0]).toMatchObject({ health: 'critical', last_xid: 79 });
    expect(summary.body.gpus[0].health_reasons.join(' ')).toMatch(/XID 79/);
  });

  it('reports a rising ECC double-bit counter, and a thermal excursion once until it ends', async () => {
    const id = uuid();
    const base = clock.now().getTime() - 10_000;
    const at = (i: number) => new Date(base + i * 1000).toISOString();
    const r = await push(t.ingestKey, {
      node: 'node-e',
      samples: [
        sample(id, { at: at(0) }),
        sample(id, { at: at(1), temperature_c: 91 }),
        sample(id, { at: at(2), temperature_c: 93 }),
        sample(id, { at: at(3), temperature_c: 70, ecc_dbe: 2 }),
      ],
    });
    expect(r.body.events).toBe(3);
    const events = await rest(s.url, t.adminToken).get('/ai-factory/gpu/events?node=node-e');
    expect(events.body.items.map((e: any) => [e.type, e.severity])).toEqual([
      ['gpu.ecc', 'critical'],
      ['gpu.thermal_recovered', 'info'],
      ['gpu.thermal', 'critical'],
    ]);
  });

  it('marks a GPU that stops reporting as missing, once, with a gpu.missing event', async () => {
    const id = uuid();
    await push(t.ingestKey, { node: 'node-m', samples: [sample(id)] });
    expect((await rest(s.url, t.adminToken).get('/ai-factory/gpu/summary?node=node-m')).body.gpus[0].health).toBe(
      'healthy',
    );
    // Six expected 10 s samples missed: the service's clock moves on by 61 s.
    clock.advance(61_000);
    try {
      expect((await rest(s.url, t.adminToken).get('/ai-factory/gpu/summary?node=node-m')).body.gpus[0].health).toBe(
        'missing',
      ); // at read time too
      await markMissingGpus(s.app.rt);
      await markMissingGpus(s.app.rt);
    } finally {
      clock.reset();
    }
    const events = await rest(s.url, t.adminToken).get('/ai-factory/gpu/events?node=node-m&type=gpu.missing');
    expect(events.body.items).toHaveLength(1);
    expect((await s.app.rt.prisma.gpu.findFirstOrThrow({ where: { uuid: id } })).health).toBe('missing');
    // Reporting again makes it healthy again.
    await push(t.ingestKey, { node: 'node-m', samples: [sample(id)] });
    expect((await s.app.rt.prisma.gpu.findFirstOrThrow({ where: { uuid: id } })).health).toBe('healthy');
  });
});

describe('time series', () => {
  it('returns downsampled points for 24 h from the rollups, at most ~1,000 per series', async () => {
    const id = uuid();
    const now = clock.now().getTime();
    // A day of 1-minute samples (a backfill: rolled up as it lands), utilization = the UTC hour of the sample.
    const samples = Array.from({ length: 24 * 60 }, (_, i) => {
      const at = new Date(Math.floor(now / 60_000) * 60_000 - (24 * 60 - i) * 60_000);
      return sample(id, { at: at.toISOString(), utilization: at.getUTCHours() });
    });
    for (let i = 0; i < samples.length; i += 500)
      expect((await push(t.ingestKey, { node: 'node-ts', samples: samples.slice(i, i + 500) })).status).toBe(202);
    // History is rolled up after the 202, off the push path: wait for this process's roller.
    await backfillRollupsIdle(s.app.rt);
    await rollUpRecent(s.app.rt, clock.now());
    const r = await rest(s.url, memberToken).get(
      `/ai-factory/gpu/timeseries?metric=utilization&gpu=${id}&since_hours=24`,
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ metric: 'utilization', unit: '%', resolution: '1m', step_seconds: 120 });
    const points = r.body.series[0].points as Array<[string, number | null]>;
    expect(points.length).toBeGreaterThan(600);
    expect(points.length).toBeLessThanOrEqual(1000);
    // Averages of what was sent: a 2-minute step never spans two hours, so each point is its hour.
    for (const [t, v] of points)
      if (v !== null)
        expect(
          v,
          `point ${t} of ${points.length}: ${JSON.stringify(points.slice(0, 3))} … ${JSON.stringify(points.slice(-3))}`,
        ).toBe(new Date(t).getUTCHours());
    const hourly = await rest(s.url, memberToken).get(
      `/ai-factory/gpu/timeseries?metric=utilization&node=node-ts&since_hours=24&step=3600`,
    );
    expect(hourly.body).toMatchObject({ resolution: '1h', step_seconds: 3600 });
    const hp = hourly.body.series[0].points as Array<[string, number]>;
    // 24 hours of samples cover 24 or 25 hour buckets; the first may start before the window (23 when the
    // run falls in the first minute of an hour, whose bucket has no sample yet).
    expect(hp.length).toBeGreaterThanOrEqual(23);
    expect(hp.length).toBeLessThanOrEqual(25);
    for (const [t, v] of hp) expect(v).toBe(new Date(t).getUTCHours()); // each hour averages to its hour
  });

  it('rolls up a backfill whose process never did (a stale marker) in the periodic task, and only once it is stale', async () => {
    const id = uuid();
    const base = Math.floor(clock.now().getTime() / 3600_000) * 3600_000 - 30 * 3600_000;
    const samples = [0, 1, 2].map((m) =>
      sample(id, { at: new Date(base + m * 60_000).toISOString(), utilization: 10 * (m + 1) }),
    );
    // The samples land as a push would store them, but their rollup is left to the marker (a process
    // that died between commit and its rollup): push, wait for the roller, then drop the rollups it made.
    expect((await push(t.ingestKey, { node: 'node-stale', samples })).status).toBe(202);
    await backfillRollupsIdle(s.app.rt);
    const gpu = await s.app.rt.prisma.gpu.findFirstOrThrow({ where: { uuid: id } });
    const rollups = () =>
      s.app.rt.prisma.gpuRollup.findMany({
        where: { gpuId: gpu.id },
        orderBy: [{ resolution: 'asc' }, { bucket: 'asc' }],
      });
    expect((await rollups()).map((r) => [r.resolution, r.samples, r.utilization])).toEqual([
      [60, 1, 10],
      [60, 1, 20],
      [60, 1, 30],
      [3600, 3, 20],
    ]);
    await s.app.rt.prisma.gpuRollup.deleteMany({ where: { gpuId: gpu.id } });
    await noteBackfill(s.app.rt, new Date(base), new Date(base + 3 * 60_000));
    expect(await rollUpStaleBackfills(s.app.rt, new Date(clock.now().getTime() + STALE_MS - 60_000))).toBe(0);
    expect(await rollups()).toEqual([]);
    expect(
      await rollUpStaleBackfills(s.app.rt, new Date(clock.now().getTime() + STALE_MS + 60_000)),
    ).toBeGreaterThanOrEqual(1);
    expect((await rollups()).map((r) => [r.resolution, r.samples, r.utilization])).toEqual([
      [60, 1, 10],
      [60, 1, 20],
      [60, 1, 30],
      [3600, 3, 20],
    ]);
    expect(await rollUpStaleBackfills(s.app.rt, new Date(clock.now().getTime() + STALE_MS + 60_000))).toBe(0);
  });

  it("names the bad parameter, and 404s another tenant's GPU", async () => {
    const bad = await rest(s.url, memberToken).get('/ai-factory/gpu/timeseries?metric=nope');
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain('metric');
    const id = uuid();
    await push(t.ingestKey, { node: 'node-404', samples: [sample(id)] });
    const mine = await rest(s.url, memberToken).get(`/ai-factory/gpu/timeseries?metric=power_w&gpu=${id}`);
    expect(mine.status).toBe(200);
    const theirs = await rest(s.url, other.adminToken).get(`/ai-factory/gpu/timeseries?metric=power_w&gpu=${id}`);
    expect(theirs.status).toBe(404);
    const g = await gql(s.url, other.adminToken, 'query($id: ID!) { gpu(id: $id) { id } }', { id });
    expect(g.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('overview', () => {
  it("sums the fleet, idle GPUs and today's energy from the energy counters", async () => {
    const o = await rest(s.url, t.adminToken).get('/ai-factory/overview');
    expect(o.status).toBe(200);
    expect(o.body.fleet.gpus).toBeGreaterThan(0);
    expect(o.body.open_gpu_alerts).toBeGreaterThanOrEqual(1);
    const id = uuid();
    // "Today" is the service's: its clock's UTC day, not the machine's.
    const now = clock.now().getTime();
    const startOfDay = new Date(now);
    startOfDay.setUTCHours(0, 0, 0, 0);
    const a1 = new Date(Math.max(startOfDay.getTime() + 1000, now - 60_000)).toISOString();
    const a2 = new Date(now - 1000).toISOString();
    const before = (await rest(s.url, t.adminToken).get('/ai-factory/overview')).body.energy_today_kwh as number;
    await push(t.ingestKey, {
      node: 'node-energy',
      samples: [sample(id, { at: a1, energy_j: 1_000_000 }), sample(id, { at: a2, energy_j: 1_000_000 + 3.6e6 })],
    });
    const after = (await rest(s.url, t.adminToken).get('/ai-factory/overview')).body.energy_today_kwh as number;
    expect(after - before).toBeCloseTo(1, 6); // 3.6 MJ = 1 kWh
  });
});
