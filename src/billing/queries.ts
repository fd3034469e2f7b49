/**
 * Billing reads: usage rows × effective-dated prices, summed exactly in Postgres `numeric`
 * (current month, breakdown, daily series; local GPU versus cloud is src/billing/local-gpu.ts). Days and
 * months are the tenant's time zone; a window belongs to the day its start falls in.
 */
import type { Ctx } from '../context.js';
import { ValidationFailed } from '../errors.js';
import { FORECAST_DESCRIPTION, FORECAST_METHOD, forecastMonthEnd, percentOf } from './forecast.js';
import { Decimal, money, quantity, sum, type Money } from './money.js';
import { lastDays, monthOf, parseBoundary, type Period } from './periods.js';
import {
  loadSettings,
  priceSegments,
  scopeOf,
  tenantSkus,
  type BillingScope,
  type Settings,
  type SkuView,
} from './prices.js';
import { pendingWindows } from './metering.js';
import { readWithRecoveryRetry } from '../reports-replica.js';

interface PricedRow {
  g: string[];
  quantity: Decimal;
  amount: Decimal;
}

/**
 * Sums usage × price over [from, to) for the given SKUs, grouped by SQL expressions over `u` (usage)
 * and `p` (price segment). `$9` is the tenant's time zone (for day expressions).
 */
export async function priced(
  scope: BillingScope,
  skus: SkuView[],
  from: Date,
  to: Date,
  groups: string[],
  tz: string,
): Promise<PricedRow[]> {
  if (!skus.length) return [];
  const seg = priceSegments(skus);
  const cols = groups.map((g, i) => `${g} AS g${i}`).join(', ');
  // Billing scans read on the reports database (a replica when REPORTS_DATABASE_URL is set).
  const rows = await readWithRecoveryRetry(scope.rt, () =>
    scope.rt.reportsPrisma.$queryRawUnsafe<Array<Record<string, string>>>(
      `WITH p AS (SELECT * FROM unnest($2::text[], $3::text[], $4::timestamp[], $5::timestamp[], $6::numeric[]) AS p(sku, meter, pfrom, pto, price))
     SELECT ${cols}, sum(u.quantity)::text AS quantity, sum(u.quantity * p.price)::text AS amount
     FROM "BillingUsage" u JOIN p ON p.meter = u.meter AND u."windowStart" >= p.pfrom AND u."windowStart" < p.pto
     WHERE u."tenantId" = $1 AND u."windowStart" >= $7::timestamp AND u."windowStart" < $8::timestamp AND $9::text IS NOT NULL
     GROUP BY ${groups.map((_, i) => i + 1).join(', ')}`,
      scope.tenantId,
      seg.sku,
      seg.meter,
      seg.from,
      seg.to,
      seg.price,
      from.toISOString(),
      to.toISOString(),
      tz,
    ),
  );
  return rows.map((r) => ({
    g: groups.map((_, i) => r[`g${i}`] ?? ''),
    quantity: new Decimal(r.quantity ?? 0),
    amount: new Decimal(r.amount ?? 0),
  }));
}

/** The local day (YYYY-MM-DD) of a window start, in the zone given as $9. */
export const DAY_EXPR = `to_char((u."windowStart" AT TIME ZONE 'UTC') AT TIME ZONE $9, 'YYYY-MM-DD')`;

const billable = (skus: SkuView[]) => skus.filter((s) => s.kind === 'metered');

export interface SkuLine {
  skuId: string;
  name: string;
  unit: string;
  quantity: string;
  unitPrice: Money;
  amount: Money;
}

export interface PeriodView {
  start: Date;
  end: Date;
  timeZone: string;
}

export interface BudgetStatus {
  amount: Money;
  forecastPercent: string;
  firedThresholds: number[];
}

export interface CurrentView {
  period: PeriodView;
  asOf: Date;
  currency: string;
  total: Money;
  skus: SkuLine[];
  forecast: { amount: Money; method: string; description: string };
  budget: BudgetStatus | null;
  metering: { pendingWindows: number; lastComputedAt: Date | null };
}

function lines(rows: PricedRow[], skus: SkuView[], currency: string): SkuLine[] {
  const byId = new Map(skus.map((s) => [s.id, s]));
  return rows
    .map((r) => {
      const s = byId.get(r.g[0]!)!;
      return {
        skuId: s.id,
        name: s.name,
        unit: s.unit,
        quantity: quantity(r.quantity),
        unitPrice: money(s.currentPrice, currency),
        amount: money(r.amount, currency),
        _amount: r.amount,
      };
    })
    .sort((a, b) => b._amount.comparedTo(a._amount) || a.skuId.localeCompare(b.skuId))
    .map(({ _amount, ...l }) => l);
}

/** The month to date in the tenant's zone, with the forecast and the budget. */
export async function currentSpendFor(
  scope: BillingScope,
  now = scope.rt.clock.now(),
): Promise<CurrentView & { exactTotal: Decimal; exactForecast: Decimal; monthLabel: string }> {
  const settings = await loadSettings(scope);
  const month = monthOf(now, settings.timeZone);
  const skus = billable(await tenantSkus(scope, now));
  const rows = await priced(scope, skus, month.start, month.end, ['p.sku'], settings.timeZone);
  const exactTotal = sum(rows.map((r) => r.amount));
  const exactForecast = forecastMonthEnd(exactTotal, month.start, month.end, now).toDecimalPlaces(
    6,
    Decimal.ROUND_HALF_UP,
  );
  const [budget, fired, pending, last] = await Promise.all([
    scope.db.billingBudget.findUnique({ where: { tenantId: scope.tenantId } }),
    scope.db.billingBudgetAlert.findMany({
      where: { tenantId: scope.tenantId, month: month.label },
      orderBy: { threshold: 'asc' },
    }),
    pendingWindows(scope.rt, scope.tenantId),
    scope.db.billingWindow.findFirst({
      where: { tenantId: scope.tenantId, computedAt: { not: null } },
      orderBy: { computedAt: 'desc' },
      select: { computedAt: true },
    }),
  ]);
  return {
    period: { start: month.start, end: month.end, timeZone: settings.timeZone },
    asOf: now,
    currency: settings.currency,
    total: money(exactTotal, settings.currency),
    skus: lines(rows, skus, settings.currency),
    forecast: {
      amount: money(exactForecast, settings.currency),
      method: FORECAST_METHOD,
      description: FORECAST_DESCRIPTION,
    },
    budget: budget
      ? {
          amount: money(budget.amount, settings.currency),
          forecastPercent: percentOf(exactForecast, new Decimal(budget.amount)),
          firedThresholds: fired.map((f) => f.threshold),
        }
      : null,
    metering: { pendingWindows: pending, lastComputedAt: last?.computedAt ?? null },
    exactTotal,
    exactForecast,
    monthLabel: month.label,
  };
}

export async function currentSpend(ctx: Ctx): Promise<CurrentView> {
  return currentSpendFor(scopeOf(ctx));
}

export interface PeriodArgs {
  period?: string | null;
  from?: string | null;
  to?: string | null;
}

const MAX_PERIOD_MS = 367 * 86400_000;

/** A period from `period` (YYYY-MM) or `from`/`to` (ISO dates or date-times); default: the current month. */
export function resolvePeriod(args: PeriodArgs, settings: Settings, now: Date, base: string[] = []): Period {
  const problems = [];
  if (args.period != null) {
    if (args.from != null || args.to != null)
      problems.push({ loc: [...base, 'period'], msg: 'give either `period` or `from`/`to`, not both' });
    const m = typeof args.period === 'string' ? /^(\d{4})-(\d{2})$/.exec(args.period) : null;
    const d = m ? parseBoundary(`${args.period}-01`, settings.timeZone) : null;
    if (!d || Number(m![2]) < 1 || Number(m![2]) > 12)
      problems.push({ loc: [...base, 'period'], msg: 'must be a calendar month, YYYY-MM (in the billing time zone)' });
    if (problems.length) throw new ValidationFailed(problems);
    const month = monthOf(d!, settings.timeZone);
    return { start: month.start, end: month.end };
  }
  const month = monthOf(now, settings.timeZone);
  const from = args.from != null ? parseBoundary(args.from, settings.timeZone) : month.start;
  const to = args.to != null ? parseBoundary(args.to, settings.timeZone) : args.from != null ? now : month.end;
  if (!from)
    problems.push({
      loc: [...base, 'from'],
      msg: 'must be an ISO date (YYYY-MM-DD, midnight in the billing time zone) or date-time with offset',
    });
  if (!to)
    problems.push({
      loc: [...base, 'to'],
      msg: 'must be an ISO date (YYYY-MM-DD, midnight in the billing time zone) or date-time with offset',
    });
  if (from && to && to.getTime() <= from.getTime())
    problems.push({ loc: [...base, 'to'], msg: 'must be after `from`' });
  if (from && to && to.getTime() - from.getTime() > MAX_PERIOD_MS)
    problems.push({ loc: [...base, 'to'], msg: 'the period may span at most 366 days' });
  if (problems.length) throw new ValidationFailed(problems);
  return { start: from!, end: to! };
}

export const GROUP_BYS = ['source', 'module', 'sku', 'meter'] as const;
export type GroupBy = (typeof GROUP_BYS)[number];

const GROUP_EXPR: Record<GroupBy, string> = { source: 'u.source', module: 'u.module', sku: 'p.sku', meter: 'u.meter' };

export interface BreakdownRow {
  key: string;
  skuId: string;
  quantity: string;
  unit: string;
  amount: Money;
}

export interface BreakdownView {
  groupBy: GroupBy;
  period: PeriodView;
  currency: string;
  total: Money;
  rows: BreakdownRow[];
}

/** Spend over a period by source, module, SKU or meter: one row per key and SKU (a quantity has one unit). */
export async function breakdown(ctx: Ctx, groupBy: GroupBy, args: PeriodArgs): Promise<BreakdownView> {
  if (!GROUP_BYS.includes(groupBy))
    throw new ValidationFailed([{ loc: ['groupBy'], msg: `must be one of ${GROUP_BYS.join(', ')}` }]);
  const scope = scopeOf(ctx);
  const settings = await loadSettings(scope);
  const now = ctx.rt.clock.now();
  const period = resolvePeriod(args, settings, now);
  const skus = billable(await tenantSkus(scope, now));
  const byId = new Map(skus.map((s) => [s.id, s]));
  const rows = await priced(scope, skus, period.start, period.end, [GROUP_EXPR[groupBy], 'p.sku'], settings.timeZone);
  rows.sort(
    (a, b) => b.amount.comparedTo(a.amount) || a.g[0]!.localeCompare(b.g[0]!) || a.g[1]!.localeCompare(b.g[1]!),
  );
  return {
    groupBy,
    period: { ...period, timeZone: settings.timeZone },
    currency: settings.currency,
    total: money(sum(rows.map((r) => r.amount)), settings.currency),
    rows: rows.map((r) => ({
      key: r.g[0]!,
      skuId: r.g[1]!,
      quantity: quantity(r.quantity),
      unit: byId.get(r.g[1]!)!.unit,
      amount: money(r.amount, settings.currency),
    })),
  };
}

export interface DailyView {
  days: number;
  timeZone: string;
  currency: string;
  total: Money;
  series: Array<{ date: string; total: Money; skus: Array<{ skuId: string; quantity: string; amount: Money }> }>;
}

export const MAX_DAYS = 366;

/** The last `days` local days (today included): per day, the spend per SKU. */
export async function dailySeries(ctx: Ctx, daysArg?: number | null): Promise<DailyView> {
  const days = daysArg ?? 30;
  if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS)
    throw new ValidationFailed([{ loc: ['days'], msg: `must be an integer from 1 to ${MAX_DAYS}` }]);
  const scope = scopeOf(ctx);
  const settings = await loadSettings(scope);
  const now = ctx.rt.clock.now();
  const range = lastDays(now, days, settings.timeZone);
  const skus = billable(await tenantSkus(scope, now));
  const rows = await priced(scope, skus, range.start, range.end, [DAY_EXPR, 'p.sku'], settings.timeZone);
  const byDay = new Map<string, PricedRow[]>();
  for (const r of rows) byDay.set(r.g[0]!, [...(byDay.get(r.g[0]!) ?? []), r]);
  return {
    days,
    timeZone: settings.timeZone,
    currency: settings.currency,
    total: money(sum(rows.map((r) => r.amount)), settings.currency),
    series: range.labels.map((date) => {
      const rs = (byDay.get(date) ?? []).sort((a, b) => a.g[1]!.localeCompare(b.g[1]!));
      return {
        date,
        total: money(sum(rs.map((r) => r.amount)), settings.currency),
        skus: rs.map((r) => ({
          skuId: r.g[1]!,
          quantity: quantity(r.quantity),
          amount: money(r.amount, settings.currency),
        })),
      };
    }),
  };
}
