/**
 * The FinOps FOCUS export (columns of FOCUS 1.x): one row per local day, SKU and usage dimension
 * (source, module, label) of the period, local GPU rows included (provider "Self-hosted"),
 * ChargeCategory `Usage`. CSV (csv-stringify, RFC 4180, header row) or JSON (an array of row objects).
 */
import { stringify } from 'csv-stringify/sync';
import type { Ctx } from '../context.js';
import { ValidationFailed } from '../errors.js';
import { DateTime } from 'luxon';
import { Decimal, money, quantity } from './money.js';
import { monthOf } from './periods.js';
import { loadSettings, scopeOf, tenantSkus } from './prices.js';
import { DAY_EXPR, priced, resolvePeriod, type PeriodArgs } from './queries.js';

export const FOCUS_COLUMNS = [
  'BilledCost',
  'EffectiveCost',
  'ListCost',
  'ContractedCost',
  'BillingCurrency',
  'BillingAccountId',
  'BillingAccountName',
  'BillingPeriodStart',
  'BillingPeriodEnd',
  'ChargePeriodStart',
  'ChargePeriodEnd',
  'ChargeCategory',
  'ChargeFrequency',
  'ChargeDescription',
  'ConsumedQuantity',
  'ConsumedUnit',
  'PricingQuantity',
  'PricingUnit',
  'ListUnitPrice',
  'ContractedUnitPrice',
  'SkuId',
  'SkuPriceId',
  'ServiceName',
  'ServiceCategory',
  'ProviderName',
  'PublisherName',
  'InvoiceIssuerName',
  'ResourceId',
  'ResourceName',
  'ResourceType',
  'Tags',
] as const;

export type FocusRow = Record<(typeof FOCUS_COLUMNS)[number], string | null>;

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type BillingExportFormat = (typeof EXPORT_FORMATS)[number];

export async function focusRows(ctx: Ctx, args: PeriodArgs, base: string[] = []): Promise<FocusRow[]> {
  const scope = scopeOf(ctx);
  const settings = await loadSettings(scope);
  const now = ctx.rt.clock.now();
  const period = resolvePeriod(args, settings, now, base);
  const skus = (await tenantSkus(scope, now)).filter((s) => s.kind === 'metered');
  const byId = new Map(skus.map((s) => [s.id, s]));
  const rows = await priced(
    scope,
    skus,
    period.start,
    period.end,
    [DAY_EXPR, 'p.sku', 'u.source', 'u.module', 'u.label'],
    settings.timeZone,
  );
  rows.sort((a, b) => a.g.join('\u0000').localeCompare(b.g.join('\u0000')));
  const tenant = await ctx.rt.prisma.tenant.findUnique({ where: { id: scope.tenantId }, select: { name: true } });
  const cur = settings.currency;
  return rows.map((r) => {
    const [day, skuId, source, module, label] = r.g as [string, string, string, string, string];
    const sku = byId.get(skuId)!;
    const start = DateTime.fromISO(day, { zone: settings.timeZone });
    const month = monthOf(start.toJSDate(), settings.timeZone);
    const local = !!sku.local;
    const list = r.quantity.times(sku.unitPrice);
    const tags: Record<string, string> = { source, module };
    if (label) tags[local ? 'gpu_model' : 'label'] = label;
    return {
      BilledCost: money(r.amount, cur).amount,
      EffectiveCost: money(r.amount, cur).amount,
      ListCost: money(list, cur).amount,
      ContractedCost: money(r.amount, cur).amount,
      BillingCurrency: cur,
      BillingAccountId: scope.tenantId,
      BillingAccountName: tenant?.name ?? null,
      BillingPeriodStart: month.start.toISOString(),
      BillingPeriodEnd: month.end.toISOString(),
      ChargePeriodStart: start.toJSDate().toISOString(),
      ChargePeriodEnd: start.plus({ days: 1 }).toJSDate().toISOString(),
      ChargeCategory: 'Usage',
      ChargeFrequency: 'Usage-Based',
      ChargeDescription: `${sku.name}${local ? ` on ${source}` : ` from ${source}`}`,
      ConsumedQuantity: quantity(r.quantity),
      ConsumedUnit: sku.unit,
      PricingQuantity: quantity(r.quantity),
      PricingUnit: sku.unit,
      ListUnitPrice: new Decimal(sku.unitPrice).toFixed(),
      ContractedUnitPrice: r.quantity.isZero()
        ? null
        : r.amount.dividedBy(r.quantity).toDecimalPlaces(10, Decimal.ROUND_HALF_UP).toFixed(),
      SkuId: sku.id,
      SkuPriceId: sku.overridden ? `${sku.id}:tenant` : `${sku.id}:list`,
      ServiceName: sku.serviceName,
      ServiceCategory: sku.serviceCategory,
      ProviderName: local ? 'Self-hosted' : 'Operations Service',
      PublisherName: local ? 'Self-hosted' : 'Operations Service',
      InvoiceIssuerName: local ? 'Self-hosted' : 'Operations Service',
      ResourceId: local ? `gpu-node/${source}` : source,
      ResourceName: source,
      ResourceType: local ? 'GPU node' : 'Usage source',
      Tags: JSON.stringify(tags),
    };
  });
}

export interface FocusExportArgs extends PeriodArgs {
  /** csv (the default) or json. */
  format?: string | null;
}

/** The export body and its headers. 422s name the arguments (`format`, `period`, `from`, `to`). */
export async function exportFocus(
  ctx: Ctx,
  args: FocusExportArgs,
): Promise<{ contentType: string; filename: string; body: string }> {
  const format = args.format ?? 'csv';
  if (!EXPORT_FORMATS.includes(format as BillingExportFormat))
    throw new ValidationFailed([{ loc: ['format'], msg: 'must be csv or json' }]);
  const rows = await focusRows(ctx, args);
  const stamp = ctx.rt.clock.now().toISOString().replace(/[:.]/g, '-');
  if (format === 'json')
    return { contentType: 'application/json', filename: `billing-focus-${stamp}.json`, body: JSON.stringify(rows) };
  return {
    contentType: 'text/csv; charset=utf-8',
    filename: `billing-focus-${stamp}.csv`,
    body: stringify(rows, { header: true, columns: [...FOCUS_COLUMNS] }),
  };
}
