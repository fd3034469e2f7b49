/**
 * Billing of local GPUs versus cloud from pushed telemetry (and what is missing without it), the FOCUS
 * export parsed as CSV, a budget crossing that writes a `billing.budget` event which fires a rule, and
 * the daily GB-month snapshot of stored events. Set-up: test/helpers/billing-suite.ts.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import { buildTenant, buildToken, buildUser } from './factories.js';
import { eventually, gql, gqlRaw, rest } from './helpers/http.js';
import { startReceiver } from './helpers/webhook-receiver.js';
import { FOCUS_COLUMNS } from '../src/billing/export.js';
import { money, quantity } from '../src/billing/money.js';
import { HOUR, hourStart, ingest, meter, now, receivers, s, useBillingSuite } from './helpers/billing-suite.js';

useBillingSuite();

describe('billing: local GPU versus cloud', () => {
  it('names every missing input when there is no telemetry', async () => {
    const t = await buildTenant(s.app.rt);
    const r = await rest(s.url, t.adminToken).get('/billing/local-gpu');
    expect(r.status).toBe(200);
    expect(r.body.missing.map((m: any) => m.input)).toEqual([
      'telemetry',
      'price_per_kwh',
      'gpu_amortization_per_hour',
    ]);
    expect(r.body.missing[0].detail).toContain('/ai-factory/gpu/samples');
    expect(r.body.totals.local_total).toEqual({ amount: '0.00', currency: 'USD' });
    // The billing time zone and currency: the month starts at local midnight; amounts carry the currency.
    const set = await gql(
      s.url,
      t.adminToken,
      'mutation { updateBillingSettings(input: { timeZone: "Asia/Tokyo", currency: "JPY" }) { timeZone currency } }',
    );
    expect(set.data.updateBillingSettings).toEqual({ timeZone: 'Asia/Tokyo', currency: 'JPY' });
    const cur = await rest(s.url, t.adminToken).get('/billing/current');
    expect(cur.body.period.time_zone).toBe('Asia/Tokyo');
    expect(cur.body.period.start).toBe(
      DateTime.fromMillis(now()).setZone('Asia/Tokyo').startOf('month').toUTC().toISO(),
    );
    expect(cur.body.total).toEqual({ amount: '0', currency: 'JPY' });
    const badCurrency = await gql(
      s.url,
      t.adminToken,
      'mutation { updateBillingSettings(input: { currency: "XXQ" }) { currency } }',
    );
    expect(badCurrency.errors![0]!.message).toContain('currency');
  });

  it('prices pushed telemetry locally (energy × kWh price + amortisation) against the A100 cloud SKU; the FOCUS export has local rows', async () => {
    const t = await buildTenant(s.app.rt);
    const start = hourStart(now() - HOUR);
    // One A100 reporting every minute for a full hour at 400 W: 1 GPU-hour, 0.4 kWh. One GPU of an unknown model: 10 minutes.
    const samples = [];
    for (let i = 0; i < 60; i++)
      samples.push({
        uuid: 'GPU-a100-0',
        index: 0,
        model: 'NVIDIA A100-SXM4-80GB',
        at: new Date(start.getTime() + i * 60_000).toISOString(),
        power_w: 400,
        utilization: 90,
      });
    for (let i = 0; i < 10; i++)
      samples.push({
        uuid: 'GPU-x-1',
        index: 1,
        model: 'Acme X1',
        at: new Date(start.getTime() + i * 60_000).toISOString(),
        power_w: 100,
      });
    const push = await rest(s.url).post(
      '/ai-factory/gpu/samples',
      { node: 'gpu-node-1', samples },
      { headers: { 'x-service-key': t.ingestKey } },
    );
    expect(push.status).toBe(202);

    const settings = await gql(
      s.url,
      t.adminToken,
      'mutation($input: BillingSettingsInput!) { updateBillingSettings(input: $input) { timeZone currency pricePerKwh { amount currency } gpuAmortizationPerHour { amount } } }',
      {
        input: { pricePerKwh: '0.30', gpuAmortizationPerHour: '1.50' },
      },
    );
    expect(settings.errors).toBeUndefined();
    expect(settings.data.updateBillingSettings).toMatchObject({
      timeZone: 'UTC',
      currency: 'USD',
      pricePerKwh: { amount: '0.30', currency: 'USD' },
      gpuAmortizationPerHour: { amount: '1.50' },
    });
    const badTz = await gql(
      s.url,
      t.adminToken,
      'mutation { updateBillingSettings(input: { timeZone: "Mars/Olympus" }) { timeZone } }',
    );
    expect(badTz.errors![0]!.message).toContain('timeZone');
    // The settings apply from the current hour; the telemetry is from the previous one: price it from then on too.
    for (const [skuId, unitPrice] of [
      ['local.gpu.energy', '0.30'],
      ['local.gpu.amortization', '1.50'],
    ]) {
      const r = await gql(
        s.url,
        t.adminToken,
        'mutation($input: SetSkuPriceInput!) { setSkuPrice(input: $input) { id } }',
        { input: { skuId, unitPrice, effectiveFrom: start.toISOString() } },
      );
      expect(r.errors).toBeUndefined();
    }
    await meter(t, start.toISOString());

    const q = `from=${encodeURIComponent(start.toISOString())}&to=${encodeURIComponent(new Date(now() + HOUR).toISOString())}`;
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
    expect(r.body.totals).toMatchObject({
      compared_gpu_hours: '1',
      cloud_total: { amount: '3.00', currency: 'USD' },
      saving: { amount: '1.38', currency: 'USD' },
    });
    expect(r.body.totals.gpu_hours).toBe('1.1666666667');

    const csv = await rest(s.url, t.adminToken).get(`/billing/export?format=csv&${q}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('attachment');
    const records = parse(csv.body as unknown as string, { columns: true }) as Array<Record<string, string>>;
    const header = (parse(csv.body as unknown as string, { to_line: 1 }) as string[][])[0];
    for (const c of [
      'BilledCost',
      'EffectiveCost',
      'ChargePeriodStart',
      'ChargePeriodEnd',
      'ChargeCategory',
      'BillingCurrency',
      'ConsumedQuantity',
      'ConsumedUnit',
      'SkuId',
      'ServiceName',
      'ProviderName',
    ])
      expect(header).toContain(c);
    expect(header).toEqual([...FOCUS_COLUMNS]);
    expect(records.every((x) => x.ChargeCategory === 'Usage' && x.BillingCurrency === 'USD')).toBe(true);
    const local = records.filter((x) => x.ProviderName === 'Self-hosted');
    expect(local.map((x) => x.SkuId).sort()).toEqual([
      'local.gpu.amortization',
      'local.gpu.amortization',
      'local.gpu.energy',
      'local.gpu.energy',
    ]);
    const a100Amort = local.find(
      (x) => x.SkuId === 'local.gpu.amortization' && JSON.parse(x.Tags!).gpu_model === 'NVIDIA A100-SXM4-80GB',
    )!;
    expect(a100Amort).toMatchObject({
      BilledCost: '1.50',
      ConsumedQuantity: '1',
      ConsumedUnit: 'GPU-hour',
      ResourceId: 'gpu-node/gpu-node-1',
    });
    const json = await rest(s.url, t.adminToken).get(`/billing/export?format=json&${q}`);
    expect(json.status).toBe(200);
    expect(json.body).toHaveLength(records.length);
  });
});

describe('billing: budgets', () => {
  it('a forecast crossing 80 % and 100 % writes one billing.budget event per threshold, which fires a rule', async () => {
    const t = await buildTenant(s.app.rt);
    const rule = await gql(
      s.url,
      t.adminToken,
      'mutation($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }',
      {
        input: { name: 'Budget', typeGlob: 'billing.budget', alertSeverity: 'CRITICAL' },
      },
    );
    expect(rule.errors).toBeUndefined();
    const rcv = await startReceiver();
    receivers.push(rcv);
    const hook = await gql(
      s.url,
      t.adminToken,
      'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }',
      {
        input: { name: 'finance', url: rcv.url, triggers: [{ on: 'EVENT', typeGlob: 'billing.*' }] },
      },
    );
    expect(hook.errors).toBeUndefined();
    for (let i = 0; i < 4; i++) await ingest(t, { type: 'app.request', source: 'api', payload: { i } });
    await meter(t);
    const member = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
    const SET =
      'mutation($amount: String!) { setBudget(input: { amount: $amount }) { amount { amount currency } month firedThresholds } }';
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
    // One alert per threshold (each event's labels name its threshold: two problems, two alerts), all the rule's.
    expect(new Set(alerts.map((a: any) => a.rule_id))).toEqual(new Set([rule.data.createAlertRule.id]));
    expect(alerts[0]).toMatchObject({ status: 'open', source: 'billing' });
    // …and the outbound webhook with an EVENT trigger receives both.
    await eventually(async () => rcv.requests.length >= 2, 20_000);
    expect(
      rcv.requests
        .map((r) => JSON.parse(r.body))
        .map((b) => [b.topic, b.kind, b.labels.threshold])
        .sort(),
    ).toEqual([
      ['event.received', 'billing.budget', '100'],
      ['event.received', 'billing.budget', '80'],
    ]);
    // Metering again does not write them twice.
    await meter(t);
    const events = await s.app.rt.prisma.event.findMany({
      where: { tenantId: t.tenantId, type: 'billing.budget' },
      orderBy: { receivedAt: 'asc' },
    });
    expect(events.map((e) => [e.labels, e.severity])).toEqual([
      [expect.objectContaining({ threshold: '80' }), 'warning'],
      [expect.objectContaining({ threshold: '100' }), 'critical'],
    ]);
    expect(events[1]!.payload).toMatchObject({
      threshold_percent: 100,
      budget: { amount: '0.00001', currency: 'USD' },
      spend_to_date: { amount: '0.00004', currency: 'USD' },
    });
    const cur = await rest(s.url, t.adminToken).get('/billing/current');
    expect(cur.body.budget).toMatchObject({
      amount: { amount: '0.00001', currency: 'USD' },
      fired_thresholds: [80, 100],
    });
    // billing.budget events are the service's own: not metered as ingested events.
    expect(cur.body.skus.find((l: any) => l.sku_id === 'ops.events.ingested')).toMatchObject({ quantity: '4' });
  });
});

describe('billing: stored events', () => {
  it('the 00:00 UTC window takes the daily GB-month snapshot of the events stored before it, priced per GB-month', async () => {
    const t = await buildTenant(s.app.rt);
    const midnight = new Date(Math.floor(now() / 86400_000) * 86400_000);
    // Two events stored yesterday (written as ingest commits them); nothing of today counts in the snapshot.
    for (let i = 0; i < 2; i++) {
      await s.app.rt.prisma.event.create({
        data: {
          tenantId: t.tenantId,
          type: 'old.thing',
          source: 'archive',
          receivedVia: 'ingest',
          receivedAt: new Date(midnight.getTime() - (i + 1) * HOUR),
          evaluatedAt: new Date(now()),
          payload: { blob: 'x'.repeat(500) },
        },
      });
    }
    for (const h of [2, 0]) await meter(t, new Date(midnight.getTime() - h * HOUR).toISOString()); // windows record their stored bytes (00:00 redoes 23:00)
    const [{ bytes }] = await s.app.rt.prisma.$queryRawUnsafe<Array<{ bytes: string }>>(
      `SELECT sum(pg_column_size(e.*))::text AS bytes FROM "Event" e WHERE e."tenantId" = $1`,
      t.tenantId,
    );
    const row = await s.app.rt.prisma.billingUsage.findFirstOrThrow({
      where: { tenantId: t.tenantId, meter: 'events_stored' },
    });
    expect(row.windowStart.toISOString()).toBe(midnight.toISOString());
    // bytes / 10^9 GB × 24 h / 730 h, rounded to 10 decimals
    const expected = ((Number(bytes) / 1e9) * 24) / 730;
    expect(Number(row.quantity.toString())).toBeCloseTo(expected, 10);
    const r = await rest(s.url, t.adminToken).get(
      `/billing/breakdown?group_by=meter&from=${encodeURIComponent(midnight.toISOString())}&to=${encodeURIComponent(new Date(midnight.getTime() + 86400_000).toISOString())}`,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.rows).toEqual([
      {
        key: 'events_stored',
        sku_id: 'ops.storage.events',
        quantity: quantity(row.quantity),
        unit: 'GB-month',
        amount: { amount: expect.any(String), currency: 'USD' },
      },
    ]);
    // 0.10 per GB-month, exact
    expect(r.body.rows[0].amount.amount).toBe(money(row.quantity.times('0.10'), 'USD').amount);
  });
});
