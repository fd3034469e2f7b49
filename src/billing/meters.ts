/**
 * Custom meters (admin): an aggregation over timeline events of a type glob, of a numeric payload value
 * (`$.cost`), grouped by a label; each has a SKU `custom.<slug>` priced at `unitPrice` per unit (default
 * 1: the value is already money in the billing currency, as a cost exporter's `cloud.cost` events).
 * New meters are computed from the next metering run on (recomputeUsage re-meters past windows).
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { Conflict, NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import type { BillingMeter } from '../generated/prisma/client.js';
import { BUILTIN_METERS, customMeterId } from './catalogue.js';
import { parseDecimal } from './money.js';
import { jsonPathSegments, requestWindows } from './metering.js';
import { assertCanManageBilling } from './policy.js';
import { loadSettings, scopeOf } from './prices.js';
import { monthOf, parseBoundary } from './periods.js';

export const AGGREGATIONS = ['sum', 'count', 'unique', 'avg', 'min', 'max', 'latest'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export interface MeterInput {
  slug: string;
  typeGlob: string;
  valuePath?: string | null;
  aggregation: Aggregation;
  groupBy?: string | null;
  unit?: string | null;
  unitPrice?: string | null;
}

export async function listMeters(ctx: Ctx): Promise<BillingMeter[]> {
  return ctx.db.billingMeter.findMany({ orderBy: { slug: 'asc' } });
}

export async function createMeter(ctx: Ctx, input: MeterInput, base: string[] = ['input']): Promise<BillingMeter> {
  assertCanManageBilling(ctx);
  const me = requireUser(ctx);
  const problems: FieldProblem[] = [];
  const at = (k: string) => [...base, k];
  if (typeof input.slug !== 'string' || !/^[a-z][a-z0-9_-]{0,62}$/.test(input.slug))
    problems.push({ loc: at('slug'), msg: 'must be 1 to 63 characters of a-z, 0-9, _ and -, starting with a letter' });
  else if (input.slug in BUILTIN_METERS) problems.push({ loc: at('slug'), msg: 'is the name of a built-in meter' });
  if (typeof input.typeGlob !== 'string' || !/^[A-Za-z0-9_.*?:-]{1,200}$/.test(input.typeGlob))
    problems.push({
      loc: at('typeGlob'),
      msg: 'must be an event type glob such as `cloud.cost` or `cloud.*` (letters, digits, . _ - : * ?)',
    });
  if (!AGGREGATIONS.includes(input.aggregation))
    problems.push({ loc: at('aggregation'), msg: `must be one of ${AGGREGATIONS.join(', ')}` });
  if (input.valuePath != null && !jsonPathSegments(input.valuePath))
    problems.push({
      loc: at('valuePath'),
      msg: 'must be a JSON path into the payload such as `$.cost` or `$.usage.tokens` (up to 8 keys)',
    });
  if (input.valuePath == null && input.aggregation && input.aggregation !== 'count')
    problems.push({
      loc: at('valuePath'),
      msg: `is required for the ${input.aggregation} aggregation (only count works without a value)`,
    });
  if (input.groupBy != null && (typeof input.groupBy !== 'string' || !/^[A-Za-z0-9_.\/-]{1,100}$/.test(input.groupBy)))
    problems.push({ loc: at('groupBy'), msg: 'must be a label key (1 to 100 of letters, digits, _ . / -)' });
  if (input.unit != null && (typeof input.unit !== 'string' || input.unit.length < 1 || input.unit.length > 40))
    problems.push({ loc: at('unit'), msg: 'must be 1 to 40 characters' });
  const price = input.unitPrice == null ? null : parseDecimal(input.unitPrice);
  if (input.unitPrice != null && (!price || price.isNegative()))
    problems.push({
      loc: at('unitPrice'),
      msg: 'must be a non-negative decimal string with up to 10 decimals, e.g. "1"',
    });
  if (problems.length) throw new ValidationFailed(problems);
  const settings = await loadSettings(scopeOf(ctx));
  if (await ctx.db.billingMeter.findUnique({ where: { tenantId_slug: { tenantId: me.tenantId, slug: input.slug } } }))
    throw new Conflict(`A meter "${input.slug}" exists already.`, 'ALREADY_EXISTS');
  return ctx.db.billingMeter.create({
    data: {
      tenantId: me.tenantId,
      slug: input.slug,
      typeGlob: input.typeGlob,
      valuePath: input.valuePath ?? null,
      aggregation: input.aggregation,
      groupBy: input.groupBy ?? null,
      unit: input.unit ?? settings.currency,
      unitPrice: (price ?? parseDecimal('1')!).toFixed(),
      createdById: me.userId,
    },
  });
}

/** Deletes a custom meter and its usage rows (404 for another tenant's). */
export async function deleteMeter(ctx: Ctx, id: string): Promise<BillingMeter> {
  assertCanManageBilling(ctx);
  const me = requireUser(ctx);
  const m = await ctx.db.billingMeter.findUnique({ where: { id } });
  if (!m) throw new NotFound('Meter');
  await ctx.rt.prisma.$transaction([
    ctx.rt.prisma.billingUsage.deleteMany({ where: { tenantId: me.tenantId, meter: customMeterId(m.slug) } }),
    ctx.rt.prisma.billingMeter.delete({ where: { id: m.id } }),
  ]);
  return m;
}

/**
 * Re-meters the windows of [from, to) (admin; default: the current month up to now), e.g. after a new
 * meter or to repair. Returns the number of windows queued.
 */
export async function recomputeUsage(ctx: Ctx, args: { from?: string | null; to?: string | null }): Promise<number> {
  assertCanManageBilling(ctx);
  const me = requireUser(ctx);
  const settings = await loadSettings(scopeOf(ctx));
  const now = ctx.rt.clock.now();
  const problems: FieldProblem[] = [];
  const from = args.from != null ? parseBoundary(args.from, settings.timeZone) : monthOf(now, settings.timeZone).start;
  const to = args.to != null ? parseBoundary(args.to, settings.timeZone) : now;
  if (!from) problems.push({ loc: ['from'], msg: 'must be an ISO date or date-time with offset' });
  if (!to) problems.push({ loc: ['to'], msg: 'must be an ISO date or date-time with offset' });
  if (from && to && to <= from) problems.push({ loc: ['to'], msg: 'must be after `from`' });
  if (from && to && to.getTime() - from.getTime() > 400 * 86400_000)
    problems.push({ loc: ['to'], msg: 'at most 400 days at once' });
  if (problems.length) throw new ValidationFailed(problems);
  const end = to!.getTime() > now.getTime() ? now : to!;
  if (end <= from!) return 0;
  return (await requestWindows(ctx.rt, me.tenantId, from!, end)).length;
}
