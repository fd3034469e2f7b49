/**
 * Billing settings (admin): the time zone of the calendar month and days, the currency of every
 * amount, and the two local GPU prices, which are the prices of the SKUs `local.gpu.energy` (per kWh)
 * and `local.gpu.amortization` (per GPU-hour), so they are effective-dated and their history kept.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { ValidationFailed, type FieldProblem } from '../errors.js';
import { LOCAL_AMORTIZATION_SKU, LOCAL_ENERGY_SKU } from './catalogue.js';
import { isCurrency, money, parseDecimal, type Money } from './money.js';
import { isTimeZone, windowStartOf } from './periods.js';
import { assertCanManageBilling } from './policy.js';
import { loadSettings, scopeOf, setSkuPrice, tenantSkus } from './prices.js';

export interface SettingsView {
  timeZone: string;
  currency: string;
  pricePerKwh: Money | null;
  gpuAmortizationPerHour: Money | null;
}

export async function billingSettings(ctx: Ctx): Promise<SettingsView> {
  const scope = scopeOf(ctx);
  const [s, skus] = await Promise.all([loadSettings(scope), tenantSkus(scope)]);
  const energy = skus.find((k) => k.id === LOCAL_ENERGY_SKU)!;
  const amort = skus.find((k) => k.id === LOCAL_AMORTIZATION_SKU)!;
  return {
    ...s,
    pricePerKwh: energy.overridden ? money(energy.currentPrice, s.currency) : null,
    gpuAmortizationPerHour: amort.overridden ? money(amort.currentPrice, s.currency) : null,
  };
}

export interface SettingsInput {
  timeZone?: string | null;
  currency?: string | null;
  pricePerKwh?: string | null;
  gpuAmortizationPerHour?: string | null;
}

export async function updateBillingSettings(
  ctx: Ctx,
  input: SettingsInput,
  base: string[] = ['input'],
): Promise<SettingsView> {
  assertCanManageBilling(ctx);
  const me = requireUser(ctx);
  const problems: FieldProblem[] = [];
  if (input.timeZone != null && !isTimeZone(input.timeZone))
    problems.push({ loc: [...base, 'timeZone'], msg: 'must be an IANA time zone such as Europe/Berlin' });
  if (input.currency != null && !isCurrency(input.currency))
    problems.push({ loc: [...base, 'currency'], msg: 'must be an ISO 4217 currency code such as USD or EUR' });
  for (const k of ['pricePerKwh', 'gpuAmortizationPerHour'] as const) {
    const v = input[k];
    const d = v == null ? null : parseDecimal(v);
    if (v != null && (!d || d.isNegative()))
      problems.push({
        loc: [...base, k],
        msg: 'must be a non-negative decimal string with up to 10 decimals, e.g. "0.30"',
      });
  }
  if (problems.length) throw new ValidationFailed(problems);
  if (input.timeZone != null || input.currency != null) {
    const data = {
      ...(input.timeZone != null ? { timeZone: input.timeZone } : {}),
      ...(input.currency != null ? { currency: input.currency } : {}),
    };
    await ctx.db.billingSettings.upsert({
      where: { tenantId: me.tenantId },
      create: { tenantId: me.tenantId, ...data },
      update: data,
    });
  }
  const from = windowStartOf(ctx.rt.clock.now());
  if (input.pricePerKwh != null)
    await setSkuPrice(ctx, { skuId: LOCAL_ENERGY_SKU, unitPrice: input.pricePerKwh, effectiveFrom: from }, base);
  if (input.gpuAmortizationPerHour != null)
    await setSkuPrice(
      ctx,
      { skuId: LOCAL_AMORTIZATION_SKU, unitPrice: input.gpuAmortizationPerHour, effectiveFrom: from },
      base,
    );
  return billingSettings(ctx);
}
