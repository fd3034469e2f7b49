/**
 * The tenant's SKU catalogue: the defaults (catalogue.ts), the tenant's custom meters' SKUs and the
 * tenant's own prices. A price is effective-dated: a usage window is priced by the price in effect at
 * its start, so changing a price does not re-rate past windows; every change is a new row (the history).
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { scopedDb } from '../db/scope.js';
import { NotFound, ValidationFailed } from '../errors.js';
import { DEFAULT_SKUS, customMeterId, customSkuId, type SkuDefinition } from './catalogue.js';
import { Decimal, parseDecimal } from './money.js';
import { windowStartOf } from './periods.js';
import { assertCanManageBilling } from './policy.js';

/** What billing reads run with: the tenant, its scoped client, the runtime. */
export interface BillingScope {
  rt: Runtime;
  tenantId: string;
  db: PrismaClient;
}

export function scopeOf(ctx: Ctx): BillingScope {
  return { rt: ctx.rt, tenantId: requireUser(ctx).tenantId, db: ctx.db };
}

export function scopeFor(rt: Runtime, tenantId: string): BillingScope {
  return { rt, tenantId, db: scopedDb(rt.prisma, tenantId) };
}

export interface Settings {
  timeZone: string;
  currency: string;
}

export async function loadSettings(scope: BillingScope): Promise<Settings> {
  const s = await scope.db.billingSettings.findUnique({ where: { tenantId: scope.tenantId } });
  return { timeZone: s?.timeZone ?? 'UTC', currency: s?.currency ?? 'USD' };
}

export interface PriceRow {
  skuId: string;
  unitPrice: Decimal;
  currency: string;
  effectiveFrom: Date;
  changedById: string | null;
  createdAt: Date;
}

export interface SkuView extends SkuDefinition {
  /** The price in effect now. */
  currentPrice: Decimal;
  currency: string;
  /** The tenant set its own price (else the catalogue's default applies). */
  overridden: boolean;
  custom: boolean;
  history: PriceRow[];
}

/** Every SKU of the tenant with its price now and its price history (oldest first). */
export async function tenantSkus(scope: BillingScope, now = scope.rt.clock.now()): Promise<SkuView[]> {
  const [settings, meters, prices] = await Promise.all([
    loadSettings(scope),
    scope.db.billingMeter.findMany({ where: { tenantId: scope.tenantId }, orderBy: { slug: 'asc' } }),
    scope.db.billingPrice.findMany({
      where: { tenantId: scope.tenantId },
      orderBy: [{ effectiveFrom: 'asc' }, { createdAt: 'asc' }],
    }),
  ]);
  const defs: Array<SkuDefinition & { custom: boolean }> = [
    ...DEFAULT_SKUS.map((d) => ({ ...d, custom: false })),
    ...meters.map((m) => ({
      id: customSkuId(m.slug),
      name: `Custom meter ${m.slug}`,
      meter: customMeterId(m.slug),
      unit: m.unit,
      unitPrice: new Decimal(m.unitPrice).toFixed(),
      kind: 'metered' as const,
      serviceName: 'Custom meters',
      serviceCategory: 'Other',
      custom: true,
    })),
  ];
  return defs.map((d) => {
    const history: PriceRow[] = prices
      .filter((p) => p.skuId === d.id)
      .map((p) => ({
        skuId: p.skuId,
        unitPrice: new Decimal(p.unitPrice),
        currency: p.currency,
        effectiveFrom: p.effectiveFrom,
        changedById: p.changedById,
        createdAt: p.createdAt,
      }));
    const inEffect = [...history].reverse().find((p) => p.effectiveFrom.getTime() <= now.getTime());
    return {
      ...d,
      currentPrice: inEffect?.unitPrice ?? new Decimal(d.unitPrice),
      currency: settings.currency,
      overridden: history.length > 0,
      history,
    };
  });
}

const FAR_PAST = '1970-01-01T00:00:00.000Z';
const FAR_FUTURE = '9999-12-31T00:00:00.000Z';

/** Price segments of the given SKUs for SQL: parallel arrays (sku, meter, from, to, price). */
export function priceSegments(skus: SkuView[]): {
  sku: string[];
  meter: string[];
  from: string[];
  to: string[];
  price: string[];
} {
  const out = {
    sku: [] as string[],
    meter: [] as string[],
    from: [] as string[],
    to: [] as string[],
    price: [] as string[],
  };
  for (const s of skus) {
    const points = [
      { from: FAR_PAST, price: new Decimal(s.unitPrice).toFixed() },
      ...s.history.map((h) => ({ from: h.effectiveFrom.toISOString(), price: h.unitPrice.toFixed() })),
    ];
    // A later change with the same effective time replaces the earlier one.
    const dedup: typeof points = [];
    for (const p of points) {
      if (dedup.length && dedup[dedup.length - 1]!.from === p.from) dedup[dedup.length - 1] = p;
      else dedup.push(p);
    }
    dedup.forEach((p, i) => {
      out.sku.push(s.id);
      out.meter.push(s.meter);
      out.from.push(p.from);
      out.to.push(dedup[i + 1]?.from ?? FAR_FUTURE);
      out.price.push(p.price);
    });
  }
  return out;
}

export interface SetPriceInput {
  skuId: string;
  unitPrice: string;
  effectiveFrom?: Date | null;
}

/**
 * Sets a tenant price (admin). It applies to windows starting at or after `effectiveFrom` (default: the
 * start of the current hourly window, so the current window and later).
 */
export async function setSkuPrice(ctx: Ctx, input: SetPriceInput, base: string[] = ['input']): Promise<SkuView> {
  assertCanManageBilling(ctx);
  const me = requireUser(ctx);
  const scope = scopeOf(ctx);
  const price = parseDecimal(input.unitPrice);
  const problems = [];
  if (!price || price.isNegative())
    problems.push({
      loc: [...base, 'unitPrice'],
      msg: 'must be a non-negative decimal string with up to 10 decimals, e.g. "0.25"',
    });
  if (typeof input.skuId !== 'string' || input.skuId.length > 120)
    problems.push({ loc: [...base, 'skuId'], msg: 'must be a SKU id from the catalogue' });
  if (problems.length) throw new ValidationFailed(problems);
  const skus = await tenantSkus(scope);
  const sku = skus.find((s) => s.id === input.skuId);
  if (!sku) throw new NotFound('SKU');
  const settings = await loadSettings(scope);
  await ctx.db.billingPrice.create({
    data: {
      tenantId: me.tenantId,
      skuId: sku.id,
      unitPrice: price!.toFixed(),
      currency: settings.currency,
      effectiveFrom: input.effectiveFrom ?? windowStartOf(ctx.rt.clock.now()),
      changedById: me.userId,
    },
  });
  return (await tenantSkus(scope)).find((s) => s.id === sku.id)!;
}
