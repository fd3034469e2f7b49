/**
 * REST shapes of billing (snake_case). Amounts are `{amount, currency}` objects with exact decimal
 * strings; quantities are decimal strings; enum values lowercase.
 */
type Node = Record<string, any>;

const M = 'amount currency';
const PERIOD = 'start end timeZone';

export const CURRENT_FIELDS = `period { ${PERIOD} } asOf currency total { ${M} } skus { skuId name unit quantity unitPrice { ${M} } amount { ${M} } } forecast { amount { ${M} } method description } budget { amount { ${M} } forecastPercent firedThresholds } metering { pendingWindows lastComputedAt }`;
export const BREAKDOWN_FIELDS = `groupBy period { ${PERIOD} } currency total { ${M} } rows { key skuId quantity unit amount { ${M} } }`;
export const DAILY_FIELDS = `days timeZone currency total { ${M} } series { date total { ${M} } skus { skuId quantity amount { ${M} } } }`;
export const LOCAL_GPU_FIELDS = `period { ${PERIOD} } currency pricePerKwh { ${M} } gpuAmortizationPerHour { ${M} }
  models { model gpuHours energyKwh localEnergy { ${M} } localAmortization { ${M} } localTotal { ${M} } cloudSkuId cloudUnitPrice { ${M} } cloudTotal { ${M} } saving { ${M} } }
  totals { gpuHours energyKwh localEnergy { ${M} } localAmortization { ${M} } localTotal { ${M} } cloudTotal { ${M} } saving { ${M} } comparedGpuHours }
  missing { input detail }`;
export const SKU_FIELDS = `id name unit meter kind gpuModel serviceName serviceCategory unitPrice { ${M} } listPrice { ${M} } overridden custom`;

const period = (p: Node) => ({ start: p.start, end: p.end, time_zone: p.timeZone });

export function presentCurrent(c: Node): Record<string, unknown> {
  return {
    period: period(c.period),
    as_of: c.asOf,
    currency: c.currency,
    total: c.total,
    skus: c.skus.map((s: Node) => ({
      sku_id: s.skuId,
      name: s.name,
      unit: s.unit,
      quantity: s.quantity,
      unit_price: s.unitPrice,
      amount: s.amount,
    })),
    forecast: { amount: c.forecast.amount, method: c.forecast.method, description: c.forecast.description },
    budget: c.budget
      ? {
          amount: c.budget.amount,
          forecast_percent: c.budget.forecastPercent,
          fired_thresholds: c.budget.firedThresholds,
        }
      : null,
    metering: { pending_windows: c.metering.pendingWindows, last_computed_at: c.metering.lastComputedAt ?? null },
  };
}

export function presentBreakdown(b: Node): Record<string, unknown> {
  return {
    group_by: b.groupBy,
    period: period(b.period),
    currency: b.currency,
    total: b.total,
    rows: b.rows.map((r: Node) => ({
      key: r.key,
      sku_id: r.skuId,
      quantity: r.quantity,
      unit: r.unit,
      amount: r.amount,
    })),
  };
}

export function presentDaily(d: Node): Record<string, unknown> {
  return {
    days: d.days,
    time_zone: d.timeZone,
    currency: d.currency,
    total: d.total,
    series: d.series.map((day: Node) => ({
      date: day.date,
      total: day.total,
      skus: day.skus.map((s: Node) => ({ sku_id: s.skuId, quantity: s.quantity, amount: s.amount })),
    })),
  };
}

export function presentLocalGpu(v: Node): Record<string, unknown> {
  return {
    period: period(v.period),
    currency: v.currency,
    price_per_kwh: v.pricePerKwh ?? null,
    gpu_amortization_per_hour: v.gpuAmortizationPerHour ?? null,
    models: v.models.map((m: Node) => ({
      model: m.model,
      gpu_hours: m.gpuHours,
      energy_kwh: m.energyKwh,
      local_energy: m.localEnergy,
      local_amortization: m.localAmortization,
      local_total: m.localTotal,
      cloud_sku_id: m.cloudSkuId ?? null,
      cloud_unit_price: m.cloudUnitPrice ?? null,
      cloud_total: m.cloudTotal ?? null,
      saving: m.saving ?? null,
    })),
    totals: {
      gpu_hours: v.totals.gpuHours,
      energy_kwh: v.totals.energyKwh,
      local_energy: v.totals.localEnergy,
      local_amortization: v.totals.localAmortization,
      local_total: v.totals.localTotal,
      cloud_total: v.totals.cloudTotal,
      saving: v.totals.saving,
      compared_gpu_hours: v.totals.comparedGpuHours,
    },
    missing: v.missing.map((m: Node) => ({ input: m.input, detail: m.detail })),
  };
}

export function presentSku(s: Node): Record<string, unknown> {
  return {
    id: s.id,
    name: s.name,
    unit: s.unit,
    unit_price: s.unitPrice,
    list_price: s.listPrice,
    currency: s.unitPrice.currency,
    meter: s.meter,
    kind: s.kind,
    gpu_model: s.gpuModel ?? null,
    service_name: s.serviceName,
    service_category: s.serviceCategory,
    overridden: s.overridden,
    custom: s.custom,
  };
}
