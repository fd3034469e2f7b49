/**
 * One telemetry sample of one GPU, whatever sent it (a scraped dcgm-exporter, the nvidia-smi
 * collector). A metric that was not reported, or that the GPU does not support, is null, never a number.
 */
export const GPU_METRICS = [
  'utilization',
  'memUsedMib',
  'memTotalMib',
  'temperatureC',
  'powerW',
  'powerLimitW',
  'energyJ',
  'xid',
  'eccDbe',
  'smClockMhz',
] as const;
export type GpuMetric = (typeof GPU_METRICS)[number];

export interface GpuSampleInput extends Partial<Record<GpuMetric, number | null>> {
  uuid: string;
  node: string;
  index: number;
  model?: string | null;
  at: Date;
}

/** The REST/metric-name form of each metric, with its unit (used by the contract and the timeseries API). */
export const GPU_METRIC_INFO: Record<GpuMetric, { rest: string; unit: string; description: string }> = {
  utilization: {
    rest: 'utilization',
    unit: '%',
    description: 'GPU utilization (DCGM_FI_DEV_GPU_UTIL, utilization.gpu)',
  },
  memUsedMib: {
    rest: 'memory_used_mib',
    unit: 'MiB',
    description: 'Frame buffer used (DCGM_FI_DEV_FB_USED, memory.used)',
  },
  memTotalMib: {
    rest: 'memory_total_mib',
    unit: 'MiB',
    description: 'Frame buffer total (FB_USED + FB_FREE, memory.total)',
  },
  temperatureC: {
    rest: 'temperature_c',
    unit: '°C',
    description: 'GPU temperature (DCGM_FI_DEV_GPU_TEMP, temperature.gpu)',
  },
  powerW: { rest: 'power_w', unit: 'W', description: 'Power draw (DCGM_FI_DEV_POWER_USAGE, power.draw)' },
  powerLimitW: {
    rest: 'power_limit_w',
    unit: 'W',
    description: 'Power limit (DCGM_FI_DEV_POWER_MGMT_LIMIT, power.limit)',
  },
  energyJ: { rest: 'energy_j', unit: 'J', description: 'Energy since boot (DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION)' },
  xid: { rest: 'xid', unit: 'code', description: 'Last XID error (DCGM_FI_DEV_XID_ERRORS)' },
  eccDbe: {
    rest: 'ecc_dbe',
    unit: 'count',
    description:
      'Uncorrected (double-bit) ECC errors (DCGM_FI_DEV_ECC_DBE_VOL_TOTAL, ecc.errors.uncorrected.volatile.total)',
  },
  smClockMhz: { rest: 'sm_clock_mhz', unit: 'MHz', description: 'SM clock (DCGM_FI_DEV_SM_CLOCK, clocks.sm)' },
};

export function metricFromRest(name: string): GpuMetric | undefined {
  return GPU_METRICS.find((m) => GPU_METRIC_INFO[m].rest === name);
}

/** A finite number, or null (NaN, ±Infinity and non-numbers are "not reported"). */
export function finiteOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
