/**
 * dcgm-exporter's Prometheus text format → GPU samples. Metric names and labels (`gpu`, `UUID`,
 * `modelName`, `Hostname`) are the exporter's documented ones. DCGM reports an unsupported or
 * unavailable field as a "blank" sentinel value (DCGM_INT32_BLANK 0x7ffffff0, DCGM_INT64_BLANK
 * 0x7ffffffffffffff0, DCGM_FP64_BLANK 2^47 and the values above each); those are stored as missing.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { GpuMetric, GpuSampleInput } from './samples.js';

type FieldKind = 'int32' | 'int64' | 'fp64';

const BLANK: Record<FieldKind, number> = { int32: 0x7ffffff0, int64: 9223372036854775792, fp64: 140737488355328 };

/** dcgm-exporter metric → our metric, DCGM field type, and the factor to our unit. */
const FIELDS: Record<string, { metric: GpuMetric | 'fbFree' | 'fbReserved'; kind: FieldKind; factor?: number }> = {
  DCGM_FI_DEV_GPU_UTIL: { metric: 'utilization', kind: 'int32' },
  DCGM_FI_DEV_FB_USED: { metric: 'memUsedMib', kind: 'int32' },
  DCGM_FI_DEV_FB_FREE: { metric: 'fbFree', kind: 'int32' },
  DCGM_FI_DEV_FB_RESERVED: { metric: 'fbReserved', kind: 'int32' },
  DCGM_FI_DEV_GPU_TEMP: { metric: 'temperatureC', kind: 'int32' },
  DCGM_FI_DEV_POWER_USAGE: { metric: 'powerW', kind: 'fp64' },
  DCGM_FI_DEV_POWER_MGMT_LIMIT: { metric: 'powerLimitW', kind: 'fp64' },
  DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION: { metric: 'energyJ', kind: 'int64', factor: 1 / 1000 }, // mJ → J
  DCGM_FI_DEV_XID_ERRORS: { metric: 'xid', kind: 'int32' },
  DCGM_FI_DEV_ECC_DBE_VOL_TOTAL: { metric: 'eccDbe', kind: 'int64' },
  DCGM_FI_DEV_SM_CLOCK: { metric: 'smClockMhz', kind: 'int32' },
};

/** A DCGM value, or null when it is not a number or is one of DCGM's blank sentinels. */
export function dcgmValue(raw: string | number, kind: FieldKind): number | null {
  const v = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isFinite(v) || v >= BLANK[kind]) return null;
  return v;
}

interface Family {
  name: string;
  metrics: Array<{ value: string; labels?: Record<string, string> }>;
}

/**
 * The samples in one scrape of one exporter. `fallbackNode` names the node when the exporter sends no
 * `Hostname` label (it is optional); the scrape time is `at` for every sample.
 */
export function parseDcgmText(text: string, at: Date, fallbackNode: string): GpuSampleInput[] {
  const families = parsePrometheusTextFormat(text) as Family[];
  const byUuid = new Map<string, GpuSampleInput & { fbFree?: number | null; fbReserved?: number | null }>();
  for (const family of families) {
    const field = FIELDS[family.name];
    if (!field) continue;
    for (const m of family.metrics) {
      const labels = m.labels ?? {};
      const uuid = labels.UUID ?? labels.uuid;
      if (!uuid) continue;
      let sample = byUuid.get(uuid);
      if (!sample) {
        sample = {
          uuid,
          node: labels.Hostname || fallbackNode,
          index: Number.parseInt(labels.gpu ?? '0', 10) || 0,
          model: labels.modelName ?? null,
          at,
        };
        byUuid.set(uuid, sample);
      }
      const v = dcgmValue(m.value, field.kind);
      (sample as unknown as Record<string, unknown>)[field.metric] = v === null ? null : v * (field.factor ?? 1);
    }
  }
  return [...byUuid.values()].map(({ fbFree, fbReserved, ...s }) => ({
    ...s,
    memTotalMib: s.memUsedMib != null && fbFree != null ? s.memUsedMib + fbFree + (fbReserved ?? 0) : null,
  }));
}
