/**
 * GraphQL of billing: `billing { current breakdown daily localGpu skus meters settings budget }` for
 * any user of the tenant; meters, SKU prices, settings, budgets and recomputation for admins. Every
 * amount is a `Money` (exact decimal string + currency), every quantity a decimal string.
 */
import { builder, upperCaseValues, NodeRef } from './builder.js';
import type { Money } from '../src/billing/money.js';
import { money } from '../src/billing/money.js';
import { Decimal } from '../src/billing/money.js';
import {
  breakdown,
  currentSpend,
  dailySeries,
  GROUP_BYS,
  type BreakdownView,
  type CurrentView,
  type DailyView,
} from '../src/billing/queries.js';
import { localGpu, type LocalGpuView } from '../src/billing/local-gpu.js';
import { scopeOf, setSkuPrice, tenantSkus, type PriceRow, type SkuView } from '../src/billing/prices.js';
import { AGGREGATIONS, createMeter, deleteMeter, listMeters, recomputeUsage } from '../src/billing/meters.js';
import { billingSettings, updateBillingSettings, type SettingsView } from '../src/billing/settings.js';
import { deleteBudget, getBudget, setBudget, type BudgetView } from '../src/billing/budget.js';
import { customSkuId } from '../src/billing/catalogue.js';

const MoneyRef = builder.objectRef<Money>('Money').implement({
  description:
    'An exact amount (decimal string, at least the currency’s minor-unit decimals, at most 10) and its ISO 4217 currency.',
  fields: (t) => ({ amount: t.exposeString('amount'), currency: t.exposeString('currency') }),
});

const PeriodRef = builder.objectRef<{ start: Date; end: Date; timeZone: string }>('BillingPeriod').implement({
  description: 'A half-open period [start, end); days and months are taken in `timeZone`.',
  fields: (t) => ({
    start: t.expose('start', { type: 'DateTime' }),
    end: t.expose('end', { type: 'DateTime' }),
    timeZone: t.exposeString('timeZone'),
  }),
});

export const BillingGroupByEnum = builder.enumType('BillingGroupBy', { values: upperCaseValues(GROUP_BYS) });
export const MeterAggregationEnum = builder.enumType('MeterAggregation', { values: upperCaseValues(AGGREGATIONS) });
export const BillingSkuKindEnum = builder.enumType('BillingSkuKind', {
  values: upperCaseValues({
    metered: { description: 'Charged from its meter’s usage.' },
    reference: { description: 'A cloud GPU price for the local-versus-cloud comparison; never charged.' },
  }),
});

const SkuLineRef = builder.objectRef<CurrentView['skus'][number]>('BillingSkuLine').implement({
  fields: (t) => ({
    skuId: t.exposeString('skuId'),
    name: t.exposeString('name'),
    unit: t.exposeString('unit'),
    quantity: t.exposeString('quantity'),
    unitPrice: t.field({ type: MoneyRef, description: 'The price in effect now.', resolve: (l) => l.unitPrice }),
    amount: t.field({ type: MoneyRef, resolve: (l) => l.amount }),
  }),
});

const ForecastRef = builder.objectRef<CurrentView['forecast']>('BillingForecast').implement({
  fields: (t) => ({
    amount: t.field({ type: MoneyRef, resolve: (f) => f.amount }),
    method: t.exposeString('method'),
    description: t.exposeString('description'),
  }),
});

const BudgetStatusRef = builder.objectRef<NonNullable<CurrentView['budget']>>('BillingBudgetStatus').implement({
  fields: (t) => ({
    amount: t.field({ type: MoneyRef, resolve: (b) => b.amount }),
    forecastPercent: t.exposeString('forecastPercent', { description: 'The forecast as a percentage of the budget.' }),
    firedThresholds: t.exposeIntList('firedThresholds', {
      description: 'Thresholds (80, 100) whose `billing.budget` event was written this month.',
    }),
  }),
});

const MeteringStatusRef = builder.objectRef<CurrentView['metering']>('BillingMeteringStatus').implement({
  fields: (t) => ({
    pendingWindows: t.exposeInt('pendingWindows', { description: 'Hourly windows requested and not computed since.' }),
    lastComputedAt: t.expose('lastComputedAt', { type: 'DateTime', nullable: true }),
  }),
});

const CurrentRef = builder.objectRef<CurrentView>('BillingCurrent').implement({
  description: 'The calendar month to date in the billing time zone.',
  fields: (t) => ({
    period: t.field({ type: PeriodRef, resolve: (c) => c.period }),
    asOf: t.expose('asOf', { type: 'DateTime' }),
    currency: t.exposeString('currency'),
    total: t.field({ type: MoneyRef, resolve: (c) => c.total }),
    skus: t.field({ type: [SkuLineRef], resolve: (c) => c.skus }),
    forecast: t.field({ type: ForecastRef, resolve: (c) => c.forecast }),
    budget: t.field({ type: BudgetStatusRef, nullable: true, resolve: (c) => c.budget }),
    metering: t.field({ type: MeteringStatusRef, resolve: (c) => c.metering }),
  }),
});

const BreakdownRowRef = builder.objectRef<BreakdownView['rows'][number]>('BillingBreakdownRow').implement({
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The source, module, SKU or meter.' }),
    skuId: t.exposeString('skuId'),
    quantity: t.exposeString('quantity'),
    unit: t.exposeString('unit'),
    amount: t.field({ type: MoneyRef, resolve: (r) => r.amount }),
  }),
});

const BreakdownRef = builder.objectRef<BreakdownView>('BillingBreakdown').implement({
  fields: (t) => ({
    groupBy: t.field({ type: BillingGroupByEnum, resolve: (b) => b.groupBy }),
    period: t.field({ type: PeriodRef, resolve: (b) => b.period }),
    currency: t.exposeString('currency'),
    total: t.field({ type: MoneyRef, resolve: (b) => b.total }),
    rows: t.field({ type: [BreakdownRowRef], resolve: (b) => b.rows }),
  }),
});

const DaySkuRef = builder.objectRef<DailyView['series'][number]['skus'][number]>('BillingDaySku').implement({
  fields: (t) => ({
    skuId: t.exposeString('skuId'),
    quantity: t.exposeString('quantity'),
    amount: t.field({ type: MoneyRef, resolve: (s) => s.amount }),
  }),
});

const DayRef = builder.objectRef<DailyView['series'][number]>('BillingDay').implement({
  fields: (t) => ({
    date: t.exposeString('date', { description: 'YYYY-MM-DD in the billing time zone.' }),
    total: t.field({ type: MoneyRef, resolve: (d) => d.total }),
    skus: t.field({ type: [DaySkuRef], resolve: (d) => d.skus }),
  }),
});

const DailyRef = builder.objectRef<DailyView>('BillingDaily').implement({
  fields: (t) => ({
    days: t.exposeInt('days'),
    timeZone: t.exposeString('timeZone'),
    currency: t.exposeString('currency'),
    total: t.field({ type: MoneyRef, resolve: (d) => d.total }),
    series: t.field({ type: [DayRef], resolve: (d) => d.series }),
  }),
});

const LocalGpuModelRef = builder.objectRef<LocalGpuView['models'][number]>('BillingLocalGpuModel').implement({
  fields: (t) => ({
    model: t.exposeString('model'),
    gpuHours: t.exposeString('gpuHours'),
    energyKwh: t.exposeString('energyKwh'),
    localEnergy: t.field({ type: MoneyRef, resolve: (m) => m.localEnergy }),
    localAmortization: t.field({ type: MoneyRef, resolve: (m) => m.localAmortization }),
    localTotal: t.field({ type: MoneyRef, resolve: (m) => m.localTotal }),
    cloudSkuId: t.exposeString('cloudSkuId', { nullable: true }),
    cloudUnitPrice: t.field({ type: MoneyRef, nullable: true, resolve: (m) => m.cloudUnitPrice }),
    cloudTotal: t.field({ type: MoneyRef, nullable: true, resolve: (m) => m.cloudTotal }),
    saving: t.field({
      type: MoneyRef,
      nullable: true,
      description: 'Cloud − local (positive: local is cheaper).',
      resolve: (m) => m.saving,
    }),
  }),
});

const LocalGpuTotalsRef = builder.objectRef<LocalGpuView['totals']>('BillingLocalGpuTotals').implement({
  fields: (t) => ({
    gpuHours: t.exposeString('gpuHours'),
    energyKwh: t.exposeString('energyKwh'),
    localEnergy: t.field({ type: MoneyRef, resolve: (m) => m.localEnergy }),
    localAmortization: t.field({ type: MoneyRef, resolve: (m) => m.localAmortization }),
    localTotal: t.field({ type: MoneyRef, resolve: (m) => m.localTotal }),
    cloudTotal: t.field({
      type: MoneyRef,
      description: 'The same GPU-hours on cloud SKUs (models with a cloud SKU only).',
      resolve: (m) => m.cloudTotal,
    }),
    saving: t.field({ type: MoneyRef, resolve: (m) => m.saving }),
    comparedGpuHours: t.exposeString('comparedGpuHours', {
      description: 'GPU-hours of the models with a cloud SKU (what `cloudTotal` and `saving` cover).',
    }),
  }),
});

const MissingRef = builder.objectRef<{ input: string; detail: string }>('BillingMissingInput').implement({
  fields: (t) => ({ input: t.exposeString('input'), detail: t.exposeString('detail') }),
});

const LocalGpuRef = builder.objectRef<LocalGpuView>('BillingLocalGpu').implement({
  fields: (t) => ({
    period: t.field({ type: PeriodRef, resolve: (v) => v.period }),
    currency: t.exposeString('currency'),
    pricePerKwh: t.field({ type: MoneyRef, nullable: true, resolve: (v) => v.pricePerKwh }),
    gpuAmortizationPerHour: t.field({ type: MoneyRef, nullable: true, resolve: (v) => v.gpuAmortizationPerHour }),
    models: t.field({ type: [LocalGpuModelRef], resolve: (v) => v.models }),
    totals: t.field({ type: LocalGpuTotalsRef, resolve: (v) => v.totals }),
    missing: t.field({ type: [MissingRef], resolve: (v) => v.missing }),
  }),
});

const PriceChangeRef = builder.objectRef<PriceRow>('BillingPriceChange').implement({
  fields: (t) => ({
    unitPrice: t.field({ type: MoneyRef, resolve: (p) => money(p.unitPrice, p.currency) }),
    effectiveFrom: t.expose('effectiveFrom', { type: 'DateTime' }),
    changedById: t.exposeString('changedById', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const SkuRef = builder.objectRef<SkuView>('BillingSku').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    unit: t.exposeString('unit'),
    meter: t.exposeString('meter'),
    kind: t.field({ type: BillingSkuKindEnum, resolve: (s) => s.kind }),
    gpuModel: t.string({
      nullable: true,
      description: 'Reference SKUs: the GPU model matched in telemetry model names.',
      resolve: (s) => s.gpuModel ?? null,
    }),
    serviceName: t.exposeString('serviceName'),
    serviceCategory: t.exposeString('serviceCategory'),
    unitPrice: t.field({
      type: MoneyRef,
      description: 'The price in effect now.',
      resolve: (s) => money(s.currentPrice, s.currency),
    }),
    listPrice: t.field({
      type: MoneyRef,
      description: 'The catalogue’s default price.',
      resolve: (s) => money(new Decimal(s.unitPrice), s.currency),
    }),
    overridden: t.exposeBoolean('overridden'),
    custom: t.exposeBoolean('custom'),
    history: t.field({
      type: [PriceChangeRef],
      description: 'The tenant’s price changes, oldest first.',
      resolve: (s) => s.history,
    }),
  }),
});

builder.prismaObject('BillingMeter', {
  interfaces: [NodeRef],
  description: 'A custom meter over timeline events; its SKU is `custom.<slug>`.',
  fields: (t) => ({
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    typeGlob: t.exposeString('typeGlob'),
    valuePath: t.exposeString('valuePath', { nullable: true }),
    aggregation: t.field({ type: MeterAggregationEnum, resolve: (m) => m.aggregation }),
    groupBy: t.exposeString('groupBy', { nullable: true }),
    unit: t.exposeString('unit'),
    unitPrice: t.string({
      description: 'The default price per unit (decimal string).',
      resolve: (m) => new Decimal(m.unitPrice).toFixed(),
    }),
    skuId: t.string({ resolve: (m) => customSkuId(m.slug) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const SettingsRef = builder.objectRef<SettingsView>('BillingSettings').implement({
  fields: (t) => ({
    timeZone: t.exposeString('timeZone'),
    currency: t.exposeString('currency'),
    pricePerKwh: t.field({
      type: MoneyRef,
      nullable: true,
      description: 'Null until set.',
      resolve: (s) => s.pricePerKwh,
    }),
    gpuAmortizationPerHour: t.field({
      type: MoneyRef,
      nullable: true,
      description: 'Null until set.',
      resolve: (s) => s.gpuAmortizationPerHour,
    }),
  }),
});

const BudgetRef = builder.objectRef<BudgetView>('BillingBudget').implement({
  fields: (t) => ({
    amount: t.field({ type: MoneyRef, resolve: (b) => b.amount }),
    month: t.exposeString('month'),
    firedThresholds: t.exposeIntList('firedThresholds'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const BillingRef = builder.objectRef<Record<string, never>>('Billing').implement({
  description: 'Spend and usage of the caller’s tenant.',
  fields: (t) => ({
    current: t.field({ type: CurrentRef, resolve: (_b, _a, ctx) => currentSpend(ctx) }),
    breakdown: t.field({
      type: BreakdownRef,
      args: {
        groupBy: t.arg({ type: BillingGroupByEnum, required: true }),
        period: t.arg.string({ description: 'A month, YYYY-MM.' }),
        from: t.arg.string(),
        to: t.arg.string(),
      },
      description: 'Spend by source, module, SKU or meter over a period (default: the current month).',
      resolve: (_b, a, ctx) => breakdown(ctx, a.groupBy, a),
    }),
    daily: t.field({
      type: DailyRef,
      args: { days: t.arg.int({ description: 'Default 30, at most 366.' }) },
      resolve: (_b, a, ctx) => dailySeries(ctx, a.days),
    }),
    localGpu: t.field({
      type: LocalGpuRef,
      args: { period: t.arg.string(), from: t.arg.string(), to: t.arg.string() },
      resolve: (_b, a, ctx) => localGpu(ctx, a),
    }),
    skus: t.field({ type: [SkuRef], resolve: (_b, _a, ctx) => tenantSkus(scopeOf(ctx)) }),
    meters: t.prismaField({ type: ['BillingMeter'], resolve: (_q, _b, _a, ctx) => listMeters(ctx) }),
    settings: t.field({ type: SettingsRef, resolve: (_b, _a, ctx) => billingSettings(ctx) }),
    budget: t.field({ type: BudgetRef, nullable: true, resolve: (_b, _a, ctx) => getBudget(ctx) }),
  }),
});

builder.queryFields((t) => ({
  billing: t.field({ type: BillingRef, authScopes: { user: true }, resolve: () => ({}) }),
}));

const CreateMeterInput = builder.inputType('CreateMeterInput', {
  fields: (t) => ({
    slug: t.string({ required: true }),
    typeGlob: t.string({ required: true, description: 'Event type glob (`cloud.cost`, `cloud.*`).' }),
    valuePath: t.string({
      description:
        '`$.cost`: a payload value; numbers (beyond ±10^15 ignored) for SUM/AVG/MIN/MAX/LATEST, any value for UNIQUE; optional for COUNT.',
    }),
    aggregation: t.field({ type: MeterAggregationEnum, required: true }),
    groupBy: t.string({ description: 'A label key: one usage row per value.' }),
    unit: t.string({ description: 'Default: the billing currency (the value is money).' }),
    unitPrice: t.string({ description: 'Price per unit, decimal string; default "1".' }),
  }),
});

const SetSkuPriceInput = builder.inputType('SetSkuPriceInput', {
  fields: (t) => ({
    skuId: t.string({ required: true }),
    unitPrice: t.string({ required: true, description: 'Decimal string in the billing currency.' }),
    effectiveFrom: t.field({
      type: 'DateTime',
      description: 'Windows starting at or after it use the price; default: the current hour.',
    }),
  }),
});

const BillingSettingsInput = builder.inputType('BillingSettingsInput', {
  fields: (t) => ({
    timeZone: t.string(),
    currency: t.string(),
    pricePerKwh: t.string({ description: 'Local GPU energy price per kWh (decimal string).' }),
    gpuAmortizationPerHour: t.string({ description: 'Local GPU hardware amortisation per GPU-hour (decimal string).' }),
  }),
});

const SetBudgetInput = builder.inputType('SetBudgetInput', {
  fields: (t) => ({ amount: t.string({ required: true, description: 'Monthly budget in the billing currency.' }) }),
});

builder.mutationFields((t) => ({
  createMeter: t.prismaField({
    type: 'BillingMeter',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateMeterInput, required: true }) },
    resolve: (_q, _r, a, ctx) => createMeter(ctx, a.input as never),
  }),
  deleteMeter: t.id({
    authScopes: { admin: true },
    description: 'Deletes the meter and its usage; returns its id.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => (await deleteMeter(ctx, String(a.id))).id,
  }),
  setSkuPrice: t.field({
    type: SkuRef,
    authScopes: { admin: true },
    args: { input: t.arg({ type: SetSkuPriceInput, required: true }) },
    resolve: (_r, a, ctx) => setSkuPrice(ctx, a.input),
  }),
  updateBillingSettings: t.field({
    type: SettingsRef,
    authScopes: { admin: true },
    args: { input: t.arg({ type: BillingSettingsInput, required: true }) },
    resolve: (_r, a, ctx) => updateBillingSettings(ctx, a.input),
  }),
  setBudget: t.field({
    type: BudgetRef,
    authScopes: { admin: true },
    args: { input: t.arg({ type: SetBudgetInput, required: true }) },
    resolve: (_r, a, ctx) => setBudget(ctx, a.input.amount),
  }),
  clearBudget: t.boolean({
    authScopes: { admin: true },
    description: "Removes the tenant's budget (there is one per tenant, with no id); true when there was one.",
    resolve: (_r, _a, ctx) => deleteBudget(ctx),
  }),
  recomputeUsage: t.int({
    authScopes: { admin: true },
    description:
      'Re-meters the hourly windows of [from, to) (default: the current month to now); returns the number of windows queued.',
    args: { from: t.arg.string(), to: t.arg.string() },
    resolve: (_r, a, ctx) => recomputeUsage(ctx, a),
  }),
}));
