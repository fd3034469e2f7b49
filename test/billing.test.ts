/**
 * Billing end to end on a real server (workers on): known events and deliveries are metered by the
 * BullMQ jobs and priced with the seeded catalogue; exact amounts from /billing/current, /breakdown and
 * /daily; re-metering changes nothing; prices and their history; a custom meter over `cloud.cost` events
 * adds spend; 401/403/404/422. GPU, budgets and storage: test/billing-gpu-budgets.test.ts. Set-up:
 * test/helpers/billing-suite.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, gqlRaw, rest } from './helpers/http.js';
import { startReceiver } from './helpers/webhook-receiver.js';
import { ingest, meter, receivers, s, usageRows, useBillingSuite } from './helpers/billing-suite.js';

useBillingSuite();

describe('billing: metered amounts', () => {
  let t: BuiltTenant;
  const ids: string[] = [];

  beforeAll(async () => {
    t = await buildTenant(s.app.rt);
    const rcv = await startReceiver();
    receivers.push(rcv);
    const hook = await gql(
      s.url,
      t.adminToken,
      'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }',
      {
        input: { name: 'deploys', url: rcv.url, triggers: [{ on: 'EVENT', typeGlob: 'deploy.*' }] },
      },
    );
    expect(hook.errors).toBeUndefined();
    for (let i = 0; i < 3; i++)
      ids.push(await ingest(t, { type: 'deploy.started', source: 'ci', module: 'cd', payload: { i } }));
    for (let i = 0; i < 2; i++)
      ids.push(await ingest(t, { type: 'metric.sample', source: 'monitoring', payload: { i } }));
    // Three deploy events → three outbound deliveries (the EVENT trigger).
    await eventually(
      async () => (await s.app.rt.prisma.delivery.count({ where: { tenantId: t.tenantId } })) === 3,
      20_000,
    );
    await meter(t);
  });

  it('GET /billing/current: exactly the seeded prices × the metered quantities, a forecast with its method', async () => {
    const r = await rest(s.url, t.adminToken).get('/billing/current');
    expect(r.status).toBe(200);
    // 5 events × 0.00001 + 3 deliveries × 0.0001
    expect(r.body.total).toEqual({ amount: '0.00035', currency: 'USD' });
    expect(r.body.skus).toEqual([
      {
        sku_id: 'ops.deliveries.outbound',
        name: 'Outbound webhook deliveries',
        unit: 'delivery',
        quantity: '3',
        unit_price: { amount: '0.0001', currency: 'USD' },
        amount: { amount: '0.0003', currency: 'USD' },
      },
      {
        sku_id: 'ops.events.ingested',
        name: 'Events ingested',
        unit: 'event',
        quantity: '5',
        unit_price: { amount: '0.00001', currency: 'USD' },
        amount: { amount: '0.00005', currency: 'USD' },
      },
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
      {
        key: 'outbound-webhooks',
        sku_id: 'ops.deliveries.outbound',
        quantity: '3',
        unit: 'delivery',
        amount: { amount: '0.0003', currency: 'USD' },
      },
      {
        key: 'ci',
        sku_id: 'ops.events.ingested',
        quantity: '3',
        unit: 'event',
        amount: { amount: '0.00003', currency: 'USD' },
      },
      {
        key: 'monitoring',
        sku_id: 'ops.events.ingested',
        quantity: '2',
        unit: 'event',
        amount: { amount: '0.00002', currency: 'USD' },
      },
    ]);
    const mod = await rest(s.url, t.adminToken).get('/billing/breakdown?group_by=module');
    expect(mod.body.rows.map((x: any) => [x.key, x.quantity])).toEqual([
      ['event.received', '3'],
      ['cd', '3'],
      ['', '2'],
    ]);
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
    const SET =
      'mutation($input: SetSkuPriceInput!) { setSkuPrice(input: $input) { id unitPrice { amount currency } overridden history { unitPrice { amount } effectiveFrom } } }';
    const denied = await gqlRaw(s.url, memberToken, SET, { input: { skuId: 'ops.events.ingested', unitPrice: '1' } });
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(
      (await gql(s.url, t.adminToken, SET, { input: { skuId: 'no.such.sku', unitPrice: '1' } })).errors![0]!.extensions!
        .code,
    ).toBe('NOT_FOUND');
    const bad = await gql(s.url, t.adminToken, SET, { input: { skuId: 'ops.events.ingested', unitPrice: '0.1.2' } });
    expect(bad.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(bad.errors![0]!.extensions)).toContain('unitPrice');

    const ok = await gql(s.url, t.adminToken, SET, {
      input: { skuId: 'ops.events.ingested', unitPrice: '0.001', effectiveFrom: '2000-01-01T00:00:00Z' },
    });
    expect(ok.errors).toBeUndefined();
    expect(ok.data.setSkuPrice).toMatchObject({
      unitPrice: { amount: '0.001', currency: 'USD' },
      overridden: true,
      history: [{ unitPrice: { amount: '0.001' }, effectiveFrom: '2000-01-01T00:00:00.000Z' }],
    });
    const skus = await rest(s.url, memberToken).get('/billing/skus');
    expect(skus.status).toBe(200);
    expect(skus.body.items.find((x: any) => x.id === 'ops.events.ingested')).toMatchObject({
      unit_price: { amount: '0.001', currency: 'USD' },
      list_price: { amount: '0.00001', currency: 'USD' },
      overridden: true,
      kind: 'metered',
    });
    expect(skus.body.items.find((x: any) => x.id === 'cloud.gpu.a100')).toMatchObject({
      kind: 'reference',
      gpu_model: 'A100',
    });
    // 5 events × 0.001 + 3 deliveries × 0.0001; members read.
    const r = await rest(s.url, memberToken).get('/billing/current');
    expect(r.body.total).toEqual({ amount: '0.0053', currency: 'USD' });
  });

  it('401 without a credential; 422 for out-of-range or malformed parameters', async () => {
    for (const p of [
      '/billing/current',
      '/billing/breakdown',
      '/billing/daily',
      '/billing/local-gpu',
      '/billing/skus',
      '/billing/export',
    ])
      expect((await rest(s.url).get(p)).status).toBe(401);
    const api = rest(s.url, t.adminToken);
    for (const p of [
      '/billing/daily?days=0',
      '/billing/daily?days=367',
      '/billing/breakdown?group_by=planet',
      '/billing/export?format=xml',
    ]) {
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
    const CREATE =
      'mutation($input: CreateMeterInput!) { createMeter(input: $input) { id slug skuId unit unitPrice aggregation } }';
    const input = {
      slug: 'cloud',
      typeGlob: 'cloud.cost',
      valuePath: '$.cost',
      aggregation: 'SUM',
      groupBy: 'provider',
    };
    const member = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
    expect((await gqlRaw(s.url, member, CREATE, { input })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const bad = await gql(s.url, t.adminToken, CREATE, { input: { ...input, valuePath: 'cost[0]' } });
    expect(bad.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(bad.errors![0]!.message).toContain('valuePath');
    const m = await gql(s.url, t.adminToken, CREATE, { input });
    expect(m.errors).toBeUndefined();
    expect(m.data.createMeter).toMatchObject({
      slug: 'cloud',
      skuId: 'custom.cloud',
      unit: 'USD',
      unitPrice: '1',
      aggregation: 'SUM',
    });
    expect((await gql(s.url, t.adminToken, CREATE, { input })).errors![0]!.extensions!.code).toBe('CONFLICT');
    expect(
      (await gql(s.url, other.adminToken, 'mutation($id: ID!) { deleteMeter(id: $id) }', { id: m.data.createMeter.id }))
        .errors![0]!.extensions!.code,
    ).toBe('NOT_FOUND');

    // More aggregations, priced at 0 so the spend below is the SUM meter's alone.
    for (const [slug, aggregation, valuePath] of [
      ['n', 'COUNT', null],
      ['distinct', 'UNIQUE', '$.cost'],
      ['last', 'LATEST', '$.cost'],
      ['mean', 'AVG', '$.cost'],
      ['top', 'MAX', '$.cost'],
      ['low', 'MIN', '$.cost'],
    ] as const) {
      const r = await gql(s.url, t.adminToken, CREATE, {
        input: { slug, typeGlob: 'cloud.*', valuePath, aggregation, unitPrice: '0' },
      });
      expect(r.errors, slug).toBeUndefined();
    }
    expect(
      (await gql(s.url, t.adminToken, CREATE, { input: { slug: 'nopath', typeGlob: 'cloud.*', aggregation: 'SUM' } }))
        .errors![0]!.message,
    ).toContain('valuePath');
    await ingest(t, {
      type: 'cloud.cost',
      source: 'cost-exporter',
      labels: { provider: 'aws' },
      payload: { cost: 12.5 },
    });
    await ingest(t, {
      type: 'cloud.cost',
      source: 'cost-exporter',
      labels: { provider: 'gcp' },
      payload: { cost: 7.25 },
    });
    await ingest(t, {
      type: 'cloud.cost',
      source: 'cost-exporter',
      labels: { provider: 'aws' },
      payload: { cost: 0.3 },
    });
    await ingest(t, { type: 'cloud.usage', source: 'cost-exporter', payload: { cost: 1000 } });
    // Not numbers, or absurdly large: ignored by the value meters (still counted by COUNT), never a failed window.
    await ingest(t, { type: 'cloud.noise', source: 'cost-exporter', payload: { cost: 'lots' } });
    await ingest(t, { type: 'cloud.noise', source: 'cost-exporter', payload: { cost: 1e300 } });
    await meter(t);
    const cur = await rest(s.url, t.adminToken).get('/billing/current');
    // 20.05 from the meter + 6 events × 0.00001
    expect(cur.body.total).toEqual({ amount: '20.05006', currency: 'USD' });
    expect(cur.body.skus[0]).toMatchObject({
      sku_id: 'custom.cloud',
      quantity: '20.05',
      unit: 'USD',
      amount: { amount: '20.05', currency: 'USD' },
    });
    const bySku = await rest(s.url, t.adminToken).get('/billing/breakdown?group_by=sku');
    expect(bySku.body.rows[0]).toMatchObject({ key: 'custom.cloud', amount: { amount: '20.05', currency: 'USD' } });
    const rows = await s.app.rt.prisma.billingUsage.findMany({
      where: { tenantId: t.tenantId, meter: 'custom.cloud' },
    });
    expect(rows.map((r) => [r.label, r.quantity.toString()]).sort()).toEqual([
      ['aws', '12.8'],
      ['gcp', '7.25'],
    ]);
    const others = await s.app.rt.prisma.billingUsage.findMany({
      where: {
        tenantId: t.tenantId,
        meter: { in: ['custom.n', 'custom.distinct', 'custom.last', 'custom.mean', 'custom.top', 'custom.low'] },
      },
    });
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
