/**
 * Billing end to end on a real server (workers on): known events and deliveries are metered by the
 * BullMQ jobs and priced with the seeded catalogue; exact amounts from /billing/current, /breakdown and
 * /daily; re-metering changes nothing; a custom meter over `cloud.cost` events adds spend; local GPU
 * versus cloud from pushed telemetry (and what is missing without it); a budget crossing writes a
 * `billing.budget` event that fires a rule; the FOCUS export parses as CSV; 401/403/404/422.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, gqlRaw, rest } from './helpers/http.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { FOCUS_COLUMNS } from '../src/billing/export.js';
import { money, quantity } from '../src/billing/money.js';

// Metering runs real jobs on a shared 2-core machine: generous limits (facts are awaited, never time).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let s: TestServer;
const receivers: Receiver[] = [];
beforeAll(async () => {
  s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000', WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await s?.stop();
});

const HOUR = 3600_000;
const hourStart = (t: number) => new Date(Math.floor(t / HOUR) * HOUR);
/** Every event of this file is received after this: metering from its hour on covers them all. */
const T0 = Date.now();

async function ingest(t: BuiltTenant, body: Record<string, unknown>): Promise<string> {
  const r = await rest(s.url).post('/events', body, { headers: { 'x-service-key': t.ingestKey } });
  expect(r.status).toBe(202);
  return r.body.id;
}

/** Re-meters the windows from `from` (default: the hour this file started in) to now and waits until none is pending. */
async function meter(t: BuiltTenant, from = hourStart(T0).toISOString()): Promise<void> {
  const r = await gql(s.url, t.adminToken, 'mutation($from: String) { recomputeUsage(from: $from) }', { from });
  expect(r.errors).toBeUndefined();
  expect(r.data.recomputeUsage).toBeGreaterThan(0);
  await eventually(async () => {
    const c = await gql(s.url, t.adminToken, '{ billing { current { metering { pendingWindows } } } }');
    return c.data.billing.current.metering.pendingWindows === 0;
  }, 90_000, 200);
}

async function usageRows(t: BuiltTenant) {
  const rows = await s.app.rt.prisma.billingUsage.findMany({ where: { tenantId: t.tenantId }, orderBy: [{ meter: 'asc' }, { windowStart: 'asc' }, { dimension: 'asc' }] });
  return rows.map((r) => ({ meter: r.meter, windowStart: r.windowStart.toISOString(), dimension: r.dimension, quantity: r.quantity.toString() }));
}

describe('billing: metered amounts', () => {
  let t: BuiltTenant;
  const ids: string[] = [];

  beforeAll(async () => {
    t = await buildTenant(s.app.rt);
    const rcv = await startReceiver();
    receivers.push(rcv);
    const hook = await gql(s.url, t.adminToken, 'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }', {
      input: { name: 'deploys', url: rcv.url, triggers: [{ on: 'EVENT', typeGlob: 'deploy.*' }] },
    });
    expect(hook.errors).toBeUndefined();
    for (let i = 0; i < 3; i++) ids.push(await ingest(t, { type: 'deploy.started', source: 'ci', module: 'cd', payload: { i } }));
    for (let i = 0; i < 2; i++) ids.push(await ingest(t, { type: 'metric.sample', source: 'monitoring', payload: { i } }));
    // Three deploy events → three outbound deliveries (the EVENT trigger).
    await eventually(async () => (await s.app.rt.prisma.delivery.count({ where: { tenantId: t.tenantId } })) === 3, 20_000);
    await meter(t);
  });

  it('GET /billing/current: exactly the seeded prices × the metered quantities, a forecast with its method', async () => {
    const r = await rest(s.url, t.adminToken).get('/billing/current');
    expect(r.status).toBe(200);
    // 5 events × 0.00001 + 3 deliveries × 0.0001
    expect(r.body.total).toEqual({ amount: '0.00035', currency: 'USD' });
    expect(r.body.skus).toEqual([
      { sku_id: 'ops.deliveries.outbound', name: 'Outbound webhook deliveries', unit: 'delivery', quantity: '3', unit_price: { amount: '0.0001', currency: 'USD' }, amount: { amount: '0.0003', currency: 'USD' } },
      { sku_id: 'ops.events.ingested', name: 'Events ingested', unit: 'event', quantity: '5', unit_price: { amount: '0.00001', currency: 'USD' }, amount: { amount: '0.00005', currency: 'USD' } },
    ]);
    expect(r.body.period.time_zone).toBe('UTC');
    expect(r.body.forecast.method).toBe('linear_run_rate');
    expect(Number(r.body.forecast.amount.amount)).toBeGreaterThanOrEqual(0.00035);
    expect(r.body.budget).toBeNull();
    expect(r.body.metering.pending_windows).toBe(0);
  });

  it('GET /billing/breakdown?group_by=source: one row per source and SKU with quantity, unit and amount', async () => {
    const r = await rest(s.url, t.adminToken).get('/billing/breakdown?group_by=source');
    expect(r.status).toBe(200);
    expect(r.body.total).toEqual({ amount: '0.00035', currency: 'USD' });
    expect(r.body.rows).toEqual([
      { key: 'outbound-webhooks', sku_id: 'ops.deliveries.outbound', quantity: '3', unit: 'delivery', amount: { amount: '0.0003', currency: 'USD' } },
      { key: 'ci', sku_id: 'ops.events.ingested', quantity: '3', unit: 'event', amount: { amount: '0.00003', currency: 'USD' } },
      { key: 'monitoring', sku_id: 'ops.events.ingested', quantity: '2', unit: 'event', amount: { amount: '0.00002', currency: 'USD' } },
    ]);
    const mod = await rest(s.url, t.adminToken).get('/billing/breakdown?group_by=module');
    expect(mod.body.rows.map((x: any) => [x.key, x.quantity])).toEqual([['event.received', '3'], ['cd', '3'], ['', '2']]);
    const meterRows = await rest(s.url, t.adminToken).get('/billing/breakdown?group_by=meter');
    expect(meterRows.body.rows.map((x: any) => x.key)).toEqual(['deliveries', 'events_ingested']);
  });

  it('GET /billing/daily: a series per day and SKU; the day of the events carries the whole amount', async () => {
    const r = await rest(s.url, t.adminToken).get('/billing/daily?days=3');
    expect(r.status).toBe(200);
    expect(r.body.series).toHaveLength(3);
    const first = await s.app.rt.prisma.event.findUniqueOrThrow({ where: { id: ids[0]! } });
    const day = r.body.series.find((d: any) => d.date === first.receivedAt.toISOString().slice(0, 10));
    expect(day.total).toEqual({ amount: '0.00035', currency: 'USD' });
    expect(day.skus).toEqual([
      { sku_id: 'ops.deliveries.outbound', quantity: '3', amount: { amount: '0.0003', currency: 'USD' } },
      { sku_id: 'ops.events.ingested', quantity: '5', amount: { amount: '0.00005', currency: 'USD' } },
    ]);
    expect(r.body.total).toEqual({ amount: '0.00035', currency: 'USD' });
    const def = await rest(s.url, t.adminToken).get('/billing/daily');
    expect(def.body.series).toHaveLength(30);
  });

  it('re-running the metering job changes nothing', async () => {
    const before = await usageRows(t);
    // events: (ci, cd) and (monitoring, ''); deliveries: event.received (all in one window unless an hour ended meanwhile).
    expect(before.length).toBeGreaterThanOrEqual(3);
    await meter(t);
    expect(await usageRows(t)).toEqual(before);
    const r = await rest(s.url, t.adminToken).get('/billing/current');
    expect(r.body.total).toEqual({ amount: '0.00035', currency: 'USD' });
  });

  it('a price change applies from its effective time; its history is kept; members get 403, unknown SKUs 404, bad prices 422', async () => {
    const member = await buildUser(s.app.rt, t.tenantId);
    const memberToken = await buildToken(s.app.rt, member);
    const SET = 'mutation($input: SetSkuPriceInput!) { setSkuPrice(input: $input) { id unitPrice { amount currency } overridden history { unitPrice { amount } effectiveFrom } } }';
    const denied = await gqlRaw(s.url, memberToken, SET, { input: { skuId: 'ops.events.ingested', unitPrice: '1' } });
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql(s.url, t.adminToken, SET, { input: { skuId: 'no.such.sku', unitPrice: '1' } })).errors![0]!.extensions!.code).toBe('NOT_FOUND');
    const bad = await gql(s.url, t.adminToken, SET, { input: { skuId: 'ops.events.ingested', unitPrice: '0.1.2' } });
    expect(bad.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(bad.errors![0]!.extensions)).toContain('unitPrice');

    const ok = await gql(s.url, t.adminToken, SET, { input: { skuId: 'ops.events.ingested', unitPrice: '0.001', effectiveFrom: '2000-01-01T00:00:00Z' } });
    expect(ok.errors).toBeUndefined();
    expect(ok.data.setSkuPrice).toMatchObject({ unitPrice: { amount: '0.001', currency: 'USD' }, overridden: true, history: [{ unitPrice: { amount: '0.001' }, effectiveFrom: '2000-01-01T00:00:00.000Z' }] });
    const skus = await rest(s.url, memberToken).get('/billing/skus');
    expect(skus.status).toBe(200);
    expect(skus.body.items.find((x: any) => x.id === 'ops.events.ingested')).toMatchObject({ unit_price: { amount: '0.001', currency: 'USD' }, list_price: { amount: '0.00001', currency: 'USD' }, overridden: true, kind: 'metered' });
    expect(skus.body.items.find((x: any) => x.id === 'cloud.gpu.a100')).toMatchObject({ kind: 'reference', gpu_model: 'A100' });
    // 5 events × 0.001 + 3 deliveries × 0.0001; members read.
    const r = await rest(s.url, memberToken).get('/billing/current');
    expect(r.body.total).toEqual({ amount: '0.0053', currency: 'USD' });
  });

  it('401 without a credential; 422 for out-of-range or malformed parameters', async () => {
    for (const p of ['/billing/current', '/billing/breakdown', '/billing/daily', '/billing/local-gpu', '/billing/skus', '/billing/export']) expect((await rest(s.url).get(p)).status).toBe(401);
    const api = rest(s.url, t.adminToken);
    for (const p of ['/billing/daily?days=0', '/billing/daily?days=367', '/billing/breakdown?group_by=planet', '/billing/export?format=xml']) {
      const r = await api.get(p);
      expect(r.status, p).toBe(422);
    }
    const bad = await api.get('/billing/breakdown?group_by=source&from=yesterday');
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain('from');
    const both = await api.get('/billing/local-gpu?period=2026-13');
    expect(both.status).toBe(422);
    expect(JSON.stringify(both.body.detail)).toContain('period');
    const inverted = await api.get('/billing/export?from=2026-02-01&to=2026-01-01');
    expect(inverted.status).toBe(422);
    expect(JSON.stringify(inverted.body.detail)).toContain('"to"');
  });
});

describe('billing: custom meters', () => {
  it('a SUM meter over cloud.cost events ($.cost, grouped by a label) adds spend; admins only; 422 names the field; 404 for another tenant', async () => {
    const t = await buildTenant(s.app.rt);
    const other = await buildTenant(s.app.rt);
    const CREATE = 'mutation($input: CreateMeterInput!) { createMeter(input: $input) { id slug skuId unit unitPrice aggregation } }';
    const input = { slug: 'cloud', typeGlob: 'cloud.cost', valuePath: '$.cost', aggregation: 'SUM', groupBy: 'provider' };
    const member = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
    expect((await gqlRaw(s.url, member, CREATE, { input })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const bad = await gql(s.url, t.adminToken, CREATE, { input: { ...input, valuePath: 'cost[0]' } });
    expect(bad.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(bad.errors![0]!.message).toContain('valuePath');
    const m = await gql(s.url, t.adminToken, CREATE, { input });
    expect(m.errors).toBeUndefined();
    expect(m.data.createMeter).toMatchObject({ slug: 'cloud', skuId: 'custom.cloud', unit: 'USD', unitPrice: '1', aggregation: 'SUM' });
    expect((await gql(s.url, t.adminToken, CREATE, { input })).errors![0]!.extensions!.code).toBe('CONFLICT');
    expect((await gql(s.url, other.adminToken, 'mutation($id: ID!) { deleteMeter(id: $id) { id } }', { id: m.data.createMeter.id })).errors![0]!.extensions!.code).toBe('NOT_FOUND');

    // More aggregations, priced at 0 so the spend below is the SUM meter's alone.
    for (const [slug, aggregation, valuePath] of [['n', 'COUNT', null], ['distinct', 'UNIQUE', '$.cost'], ['last', 'LATEST', '$.cost'], ['mean', 'AVG', '$.cost'], ['top', 'MAX', '$.cost'], ['low', 'MIN', '$.cost']] as const) {
      const r = await gql(s.url, t.adminToken, CREATE, { input: { slug, typeGlob: 'cloud.*', valuePath, aggregation, unitPrice: '0' } });
      expect(r.errors, slug).toBeUndefined();
    }
    expect((await gql(s.url, t.adminToken, CREATE, { input: { slug: 'nopath', typeGlob: 'cloud.*', aggregation: 'SUM' } })).errors![0]!.message).toContain('valuePath');
    await ingest(t, { type: 'cloud.cost', source: 'cost-exporter', labels: { provider: 'aws' }, payload: { cost: 12.5 } });
    await ingest(t, { type: 'cloud.cost', source: 'cost-exporter', labels: { provider: 'gcp' }, payload: { cost: 7.25 } });
    await ingest(t, { type: 'cloud.cost', source: 'cost-exporter', labels: { provider: 'aws' }, payload: { cost: 0.3 } });
    await ingest(t, { type: 'cloud.usage', source: 'cost-exporter', payload: { cost: 1000 } });
    // Not numbers, or absurdly large: ignored by the value meters (still counted by COUNT), never a failed window.
    await ingest(t, { type: 'cloud.noise', source: 'cost-exporter', payload: { cost: 'lots' } });
    await ingest(t, { type: 'cloud.noise', source: 'cost-exporter', payload: { cost: 1e300 } });
    await meter(t);
    const cur = await rest(s.url, t.adminToken).get('/billing/current');
    // 20.05 from the meter + 6 events × 0.00001
    expect(cur.body.total).toEqual({ amount: '20.05006', currency: 'USD' });
    expect(cur.body.skus[0]).toMatchObject({ sku_id: 'custom.cloud', quantity: '20.05', unit: 'USD', amount: { amount: '20.05', currency: 'USD' } });
    const bySku = await rest(s.url, t.adminToken).get('/billing/breakdown?group_by=sku');
    expect(bySku.body.rows[0]).toMatchObject({ key: 'custom.cloud', amount: { amount: '20.05', currency: 'USD' } });
    const rows = await s.app.rt.prisma.billingUsage.findMany({ where: { tenantId: t.tenantId, meter: 'custom.cloud' } });
    expect(rows.map((r) => [r.label, r.quantity.toString()]).sort()).toEqual([['aws', '12.8'], ['gcp', '7.25']]);
    const others = await s.app.rt.prisma.billingUsage.findMany({ where: { tenantId: t.tenantId, meter: { in: ['custom.n', 'custom.distinct', 'custom.last', 'custom.mean', 'custom.top', 'custom.low'] } } });
    // Over cloud.* : costs 12.5, 7.25, 0.3, 1000 (in this order), then two values that are not usable numbers.
    expect(Object.fromEntries(others.map((r) => [r.meter, r.quantity.toString()]))).toEqual({
      'custom.n': '6',
      'custom.distinct': '6', // UNIQUE counts distinct values of any type (ids are often strings)
      'custom.last': '1000',
      'custom.mean': '255.0125',
      'custom.top': '1000',
      'custom.low': '0.3',
    });
  });
});

describe('billing: local GPU versus cloud', () => {
  it('names every missing input when there is no telemetry', async () => {
    const t = await buildTenant(s.app.rt);
    const r = await rest(s.url, t.adminToken).get('/billing/local-gpu');
    expect(r.status).toBe(200);
    expect(r.body.missing.map((m: any) => m.input)).toEqual(['telemetry', 'price_per_kwh', 'gpu_amortization_per_hour']);
    expect(r.body.missing[0].detail).toContain('/ai-factory/gpu/samples');
    expect(r.body.totals.local_total).toEqual({ amount: '0.00', currency: 'USD' });
    // The billing time zone and currency: the month starts at local midnight; amounts carry the currency.
    const set = await gql(s.url, t.adminToken, 'mutation { updateBillingSettings(input: { timeZone: "Asia/Tokyo", currency: "JPY" }) { timeZone currency } }');
    expect(set.data.updateBillingSettings).toEqual({ timeZone: 'Asia/Tokyo', currency: 'JPY' });
    const cur = await rest(s.url, t.adminToken).get('/billing/current');
    expect(cur.body.period.time_zone).toBe('Asia/Tokyo');
    expect(cur.body.period.start).toBe(DateTime.now().setZone('Asia/Tokyo').startOf('month').toUTC().toISO());
    expect(cur.body.total).toEqual({ amount: '0', currency: 'JPY' });
    const badCurrency = await gql(s.url, t.adminToken, 'mutation { updateBillingSettings(input: { currency: "XXQ" }) { currency } }');
    expect(badCurrency.errors![0]!.message).toContain('currency');
  });

  it('prices pushed telemetry locally (energy × kWh price + amortisation) against the A100 cloud SKU; the FOCUS export has local rows', async () => {
    const t = await buildTenant(s.app.rt);
    const start = hourStart(Date.now() - HOUR);
    // One A100 reporting every minute for a full hour at 400 W: 1 GPU-hour, 0.4 kWh. One GPU of an unknown model: 10 minutes.
    const samples = [];
    for (let i = 0; i < 60; i++) samples.push({ uuid: 'GPU-a100-0', index: 0, model: 'NVIDIA A100-SXM4-80GB', at: new Date(start.getTime() + i * 60_000).toISOString(), power_w: 400, utilization: 90 });
    for (let i = 0; i < 10; i++) samples.push({ uuid: 'GPU-x-1', index: 1, model: 'Acme X1', at: new Date(start.getTime() + i * 60_000).toISOString(), power_w: 100 });
    const push = await rest(s.url).post('/ai-factory/gpu/samples', { node: 'gpu-node-1', samples }, { headers: { 'x-service-key': t.ingestKey } });
    expect(push.status).toBe(202);

    const settings = await gql(s.url, t.adminToken, 'mutation($input: BillingSettingsInput!) { updateBillingSettings(input: $input) { timeZone currency pricePerKwh { amount currency } gpuAmortizationPerHour { amount } } }', {
      input: { pricePerKwh: '0.30', gpuAmortizationPerHour: '1.50' },
    });
    expect(settings.errors).toBeUndefined();
    expect(settings.data.updateBillingSettings).toMatchObject({ timeZone: 'UTC', currency: 'USD', pricePerKwh: { amount: '0.30', currency: 'USD' }, gpuAmortizationPerHour: { amount: '1.50' } });
    const badTz = await gql(s.url, t.adminToken, 'mutation { updateBillingSettings(input: { timeZone: "Mars/Olympus" }) { timeZone } }');
    expect(badTz.errors![0]!.message).toContain('timeZone');
    // The settings apply from the current hour; the telemetry is from the previous one: price it from then on too.
    for (const [skuId, unitPrice] of [['local.gpu.energy', '0.30'], ['local.gpu.amortization', '1.50']]) {
      const r = await gql(s.url, t.adminToken, 'mutation($input: SetSkuPriceInput!) { setSkuPrice(input: $input) { id } }', { input: { skuId, unitPrice, effectiveFrom: start.toISOString() } });
      expect(r.errors).toBeUndefined();
    }
    await meter(t, start.toISOString());

    const q = `from=${encodeURIComponent(start.toISOString())}&to=${encodeURIComponent(new Date(Date.now() + HOUR).toISOString())}`;
    const r = await rest(s.url, t.adminToken).get(`/billing/local-gpu?${q}`);
    expect(r.status).toBe(200);
    const a100 = r.body.models.find((m: any) => m.model === 'NVIDIA A100-SXM4-80GB');
    expect(a100).toEqual({
      model: 'NVIDIA A100-SXM4-80GB',
      gpu_hours: '1',
      energy_kwh: '0.4',
      local_energy: { amount: '0.12', currency: 'USD' },
      local_amortization: { amount: '1.50', currency: 'USD' },
      local_total: { amount: '1.62', currency: 'USD' },
      cloud_sku_id: 'cloud.gpu.a100',
      cloud_unit_price: { amount: '3.00', currency: 'USD' },
      cloud_total: { amount: '3.00', currency: 'USD' },
      saving: { amount: '1.38', currency: 'USD' },
    });
    expect(r.body.price_per_kwh).toEqual({ amount: '0.30', currency: 'USD' });
    expect(r.body.missing.map((m: any) => m.input)).toEqual(['cloud_sku:Acme X1']);
    // Acme X1: 10 minutes at 100 W → 1/6 GPU-hour, 1/60 kWh; no cloud SKU, so outside the comparison.
    expect(r.body.totals).toMatchObject({ compared_gpu_hours: '1', cloud_total: { amount: '3.00', currency: 'USD' }, saving: { amount: '1.38', currency: 'USD' } });
    expect(r.body.totals.gpu_hours).toBe('1.1666666667');

    const csv = await rest(s.url, t.adminToken).get(`/billing/export?format=csv&${q}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('attachment');
    const records = parse(csv.body as unknown as string, { columns: true }) as Array<Record<string, string>>;
    const header = (parse(csv.body as unknown as string, { to_line: 1 }) as string[][])[0];
    for (const c of ['BilledCost', 'EffectiveCost', 'ChargePeriodStart', 'ChargePeriodEnd', 'ChargeCategory', 'BillingCurrency', 'ConsumedQuantity', 'ConsumedUnit', 'SkuId', 'ServiceName', 'ProviderName']) expect(header).toContain(c);
    expect(header).toEqual([...FOCUS_COLUMNS]);
    expect(records.every((x) => x.ChargeCategory === 'Usage' && x.BillingCurrency === 'USD')).toBe(true);
    const local = records.filter((x) => x.ProviderName === 'Self-hosted');
    expect(local.map((x) => x.SkuId).sort()).toEqual(['local.gpu.amortization', 'local.gpu.amortization', 'local.gpu.energy', 'local.gpu.energy']);
    const a100Amort = local.find((x) => x.SkuId === 'local.gpu.amortization' && JSON.parse(x.Tags!).gpu_model === 'NVIDIA A100-SXM4-80GB')!;
    expect(a100Amort).toMatchObject({ BilledCost: '1.50', ConsumedQuantity: '1', ConsumedUnit: 'GPU-hour', ResourceId: 'gpu-node/gpu-node-1' });
    const json = await rest(s.url, t.adminToken).get(`/billing/export?format=json&${q}`);
    expect(json.status).toBe(200);
    expect(json.body).toHaveLength(records.length);
  });
});

describe('billing: budgets', () => {
  it('a forecast crossing 80 % and 100 % writes one billing.budget event per threshold, which fires a rule', async () => {
    const t = await buildTenant(s.app.rt);
    const rule = await gql(s.url, t.adminToken, 'mutation($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }', {
      input: { name: 'Budget', typeGlob: 'billing.budget', alertSeverity: 'CRITICAL' },
    });
    expect(rule.errors).toBeUndefined();
    const rcv = await startReceiver();
    receivers.push(rcv);
    const hook = await gql(s.url, t.adminToken, 'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }', {
      input: { name: 'finance', url: rcv.url, triggers: [{ on: 'EVENT', typeGlob: 'billing.*' }] },
    });
    expect(hook.errors).toBeUndefined();
    for (let i = 0; i < 4; i++) await ingest(t, { type: 'app.request', source: 'api', payload: { i } });
    await meter(t);
    const member = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
    const SET = 'mutation($amount: String!) { setBudget(input: { amount: $amount }) { amount { amount currency } month firedThresholds } }';
    expect((await gqlRaw(s.url, member, SET, { amount: '1' })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql(s.url, t.adminToken, SET, { amount: '-5' })).errors![0]!.message).toContain('amount');
    // A budget far above the forecast: nothing fires.
    const high = await gql(s.url, t.adminToken, SET, { amount: '1000000' });
    expect(high.data.setBudget.firedThresholds).toEqual([]);
    // Spend is 0.00004; any forecast ≥ spend crosses both thresholds of a 0.00001 budget.
    const low = await gql(s.url, t.adminToken, SET, { amount: '0.00001' });
    expect(low.errors).toBeUndefined();
    expect(low.data.setBudget.firedThresholds).toEqual([80, 100]);
    const alerts = await eventually(async () => {
      const r = await rest(s.url, t.adminToken).get('/alerts');
      return r.body.items.length > 0 ? r.body.items : null;
    }, 20_000);
    expect(alerts.map((a: any) => a.rule_id)).toEqual([rule.data.createAlertRule.id]);
    expect(alerts[0]).toMatchObject({ status: 'open', source: 'billing' });
    // …and the outbound webhook with an EVENT trigger receives both.
    await eventually(async () => rcv.requests.length >= 2, 20_000);
    expect(rcv.requests.map((r) => JSON.parse(r.body)).map((b) => [b.topic, b.kind, b.labels.threshold]).sort()).toEqual([
      ['event.received', 'billing.budget', '100'],
      ['event.received', 'billing.budget', '80'],
    ]);
    // Metering again does not write them twice.
    await meter(t);
    const events = await s.app.rt.prisma.event.findMany({ where: { tenantId: t.tenantId, type: 'billing.budget' }, orderBy: { receivedAt: 'asc' } });
    expect(events.map((e) => [e.labels, e.severity])).toEqual([
      [expect.objectContaining({ threshold: '80' }), 'warning'],
      [expect.objectContaining({ threshold: '100' }), 'critical'],
    ]);
    expect(events[1]!.payload).toMatchObject({ threshold_percent: 100, budget: { amount: '0.00001', currency: 'USD' }, spend_to_date: { amount: '0.00004', currency: 'USD' } });
    const cur = await rest(s.url, t.adminToken).get('/billing/current');
    expect(cur.body.budget).toMatchObject({ amount: { amount: '0.00001', currency: 'USD' }, fired_thresholds: [80, 100] });
    // billing.budget events are the service's own: not metered as ingested events.
    expect(cur.body.skus.find((l: any) => l.sku_id === 'ops.events.ingested')).toMatchObject({ quantity: '4' });
  });
});

describe('billing: stored events', () => {
  it('the 00:00 UTC window takes the daily GB-month snapshot of the events stored before it, priced per GB-month', async () => {
    const t = await buildTenant(s.app.rt);
    const midnight = new Date(Math.floor(Date.now() / 86400_000) * 86400_000);
    // Two events stored yesterday (written as ingest commits them); nothing of today counts in the snapshot.
    for (let i = 0; i < 2; i++) {
      await s.app.rt.prisma.event.create({ data: { tenantId: t.tenantId, type: 'old.thing', source: 'archive', receivedVia: 'ingest', receivedAt: new Date(midnight.getTime() - (i + 1) * HOUR), evaluatedAt: new Date(), payload: { blob: 'x'.repeat(500) } } });
    }
    for (const h of [2, 0]) await meter(t, new Date(midnight.getTime() - h * HOUR).toISOString()); // windows record their stored bytes (00:00 redoes 23:00)
    const [{ bytes }] = await s.app.rt.prisma.$queryRawUnsafe<Array<{ bytes: string }>>(`SELECT sum(pg_column_size(e.*))::text AS bytes FROM "Event" e WHERE e."tenantId" = $1`, t.tenantId);
    const row = await s.app.rt.prisma.billingUsage.findFirstOrThrow({ where: { tenantId: t.tenantId, meter: 'events_stored' } });
    expect(row.windowStart.toISOString()).toBe(midnight.toISOString());
    // bytes / 10^9 GB × 24 h / 730 h, rounded to 10 decimals
    const expected = ((Number(bytes) / 1e9) * 24) / 730;
    expect(Number(row.quantity.toString())).toBeCloseTo(expected, 10);
    const r = await rest(s.url, t.adminToken).get(`/billing/breakdown?group_by=meter&from=${encodeURIComponent(midnight.toISOString())}&to=${encodeURIComponent(new Date(midnight.getTime() + 86400_000).toISOString())}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.rows).toEqual([{ key: 'events_stored', sku_id: 'ops.storage.events', quantity: quantity(row.quantity), unit: 'GB-month', amount: { amount: expect.any(String), currency: 'USD' } }]);
    // 0.10 per GB-month, exact
    expect(r.body.rows[0].amount.amount).toBe(money(row.quantity.times('0.10'), 'USD').amount);
  });
});
