/**
 * Local GPU cost against the cloud: the tenant's metered GPU-hours and energy priced at its own
 * price per kWh and amortisation, beside the same GPU-hours on each model's reference cloud SKU.
 */
import type { Ctx } from '../context.js';
import { LOCAL_AMORTIZATION_SKU, LOCAL_ENERGY_SKU, gpuModelMatches } from './catalogue.js';
import { Decimal, money, quantity, type Money } from './money.js';
import { loadSettings, scopeOf, tenantSkus } from './prices.js';
import { priced, resolvePeriod, type PeriodArgs, type PeriodView } from './queries.js';

export interface LocalGpuModel {
  model: string;
  gpuHours: string;
  energyKwh: string;
  localEnergy: Money;
  localAmortization: Money;
  localTotal: Money;
  cloudSkuId: string | null;
  cloudUnitPrice: Money | null;
  cloudTotal: Money | null;
  saving: Money | null;
}

export interface LocalGpuView {
  period: PeriodView;
  currency: string;
  pricePerKwh: Money | null;
  gpuAmortizationPerHour: Money | null;
  models: LocalGpuModel[];
  totals: {
    gpuHours: string;
    energyKwh: string;
    localEnergy: Money;
    localAmortization: Money;
    localTotal: Money;
    cloudTotal: Money;
    saving: Money;
    comparedGpuHours: string;
  };
  missing: Array<{ input: string; detail: string }>;
}

/**
 * Local GPU cost (energy × the tenant's price per kWh + amortisation per GPU-hour) against the same
 * GPU-hours on the reference cloud SKU of each GPU model; names every missing input. The saving is
 * cloud − local over the models that have a cloud SKU (positive: the local GPUs are cheaper).
 */
export async function localGpu(ctx: Ctx, args: PeriodArgs): Promise<LocalGpuView> {
  const scope = scopeOf(ctx);
  const settings = await loadSettings(scope);
  const now = ctx.rt.clock.now();
  const period = resolvePeriod(args, settings, now);
  const all = await tenantSkus(scope, now);
  const energySku = all.find((s) => s.id === LOCAL_ENERGY_SKU)!;
  const amortSku = all.find((s) => s.id === LOCAL_AMORTIZATION_SKU)!;
  const cloud = all.filter((s) => s.kind === 'reference' && s.gpuModel);
  const rows = await priced(
    scope,
    [energySku, amortSku, ...cloud],
    period.start,
    period.end,
    ['u.label', 'p.sku'],
    settings.timeZone,
  );
  const cur = settings.currency;
  const models = [...new Set(rows.map((r) => r.g[0]!))].sort();
  const missing: Array<{ input: string; detail: string }> = [];
  if (!models.length) {
    const gpus = await ctx.db.gpu.count({ where: { tenantId: scope.tenantId } });
    missing.push({
      input: 'telemetry',
      detail: gpus
        ? 'No GPU telemetry in this period (no metered GPU-hours); check that the collector or dcgm-exporter reports, and that metering has run.'
        : 'No GPU has reported telemetry: push samples to POST /ai-factory/gpu/samples (the collector) or configure a dcgm-exporter scrape.',
    });
  }
  if (!energySku.overridden)
    missing.push({
      input: 'price_per_kwh',
      detail: 'Set the price per kWh (updateBillingSettings pricePerKwh); energy is priced at 0 until then.',
    });
  if (!amortSku.overridden)
    missing.push({
      input: 'gpu_amortization_per_hour',
      detail:
        'Set the hardware amortisation per GPU-hour (updateBillingSettings gpuAmortizationPerHour); it is 0 until then.',
    });
  const zero = new Decimal(0);
  let tHours = zero,
    tKwh = zero,
    tEnergy = zero,
    tAmort = zero,
    tCloud = zero,
    tSaving = zero,
    cHours = zero;
  const out: LocalGpuModel[] = models.map((model) => {
    const of = (skuId: string) => rows.find((r) => r.g[0] === model && r.g[1] === skuId);
    const hours = of(amortSku.id)?.quantity ?? zero;
    const kwh = of(energySku.id)?.quantity ?? zero;
    const energy = of(energySku.id)?.amount ?? zero;
    const amort = of(amortSku.id)?.amount ?? zero;
    const local = energy.plus(amort);
    const ref = model ? cloud.find((c) => gpuModelMatches(model, c.gpuModel!)) : undefined;
    const cloudRow = ref ? of(ref.id) : undefined;
    if (!model)
      missing.push({
        input: 'gpu_model',
        detail:
          'Some GPUs report no model name, so no cloud SKU can be matched to them; send `model` with the samples.',
      });
    else if (!ref)
      missing.push({
        input: `cloud_sku:${model}`,
        detail: `No cloud reference SKU matches the GPU model "${model}"; known models: ${cloud.map((c) => c.gpuModel).join(', ')}.`,
      });
    const cloudTotal = cloudRow?.amount ?? (ref ? zero : null);
    tHours = tHours.plus(hours);
    tKwh = tKwh.plus(kwh);
    tEnergy = tEnergy.plus(energy);
    tAmort = tAmort.plus(amort);
    if (cloudTotal) {
      tCloud = tCloud.plus(cloudTotal);
      tSaving = tSaving.plus(cloudTotal.minus(local));
      cHours = cHours.plus(hours);
    }
    return {
      model,
      gpuHours: quantity(hours),
      energyKwh: quantity(kwh),
      localEnergy: money(energy, cur),
      localAmortization: money(amort, cur),
      localTotal: money(local, cur),
      cloudSkuId: ref?.id ?? null,
      cloudUnitPrice: ref ? money(ref.currentPrice, cur) : null,
      cloudTotal: cloudTotal ? money(cloudTotal, cur) : null,
      saving: cloudTotal ? money(cloudTotal.minus(local), cur) : null,
    };
  });
  return {
    period: { ...period, timeZone: settings.timeZone },
    currency: cur,
    pricePerKwh: energySku.overridden ? money(energySku.currentPrice, cur) : null,
    gpuAmortizationPerHour: amortSku.overridden ? money(amortSku.currentPrice, cur) : null,
    models: out,
    totals: {
      gpuHours: quantity(tHours),
      energyKwh: quantity(tKwh),
      localEnergy: money(tEnergy, cur),
      localAmortization: money(tAmort, cur),
      localTotal: money(tEnergy.plus(tAmort), cur),
      cloudTotal: money(tCloud, cur),
      saving: money(tSaving, cur),
      comparedGpuHours: quantity(cHours),
    },
    missing,
  };
}
