/**
 * `nvidia-smi --query-gpu=<fields> --format=csv,noheader,nounits` → GPU samples. Values nvidia-smi
 * cannot give are printed as `[N/A]`, `[Not Supported]`, `N/A` and the like; they become null.
 */
import { parse } from 'csv-parse/sync';
import { finiteOrNull, type GpuMetric, type GpuSampleInput } from './samples.js';

/** The fields the collector asks for, in order, and the metric each fills. */
export const NVIDIA_SMI_FIELDS: Array<[field: string, target: GpuMetric | 'index' | 'uuid' | 'name']> = [
  ['index', 'index'],
  ['uuid', 'uuid'],
  ['name', 'name'],
  ['utilization.gpu', 'utilization'],
  ['memory.used', 'memUsedMib'],
  ['memory.total', 'memTotalMib'],
  ['temperature.gpu', 'temperatureC'],
  ['power.draw', 'powerW'],
  ['power.limit', 'powerLimitW'],
  ['clocks.sm', 'smClockMhz'],
  ['ecc.errors.uncorrected.volatile.total', 'eccDbe'],
];

/** The arguments that make nvidia-smi print what `parseNvidiaSmiCsv` reads. */
export function nvidiaSmiArgs(): string[] {
  return [`--query-gpu=${NVIDIA_SMI_FIELDS.map(([f]) => f).join(',')}`, '--format=csv,noheader,nounits'];
}

function numberOrNull(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const t = raw.trim();
  if (t === '' || /^\[?(N\/A|Not Supported|Unknown Error|Insufficient Permissions|GPU is lost)\]?$/i.test(t))
    return null;
  return finiteOrNull(Number(t));
}

/** One sample per CSV line; lines without a GPU UUID are skipped. */
export function parseNvidiaSmiCsv(text: string, node: string, at: Date): GpuSampleInput[] {
  const rows = parse(text, { trim: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  const out: GpuSampleInput[] = [];
  for (const row of rows) {
    const sample: GpuSampleInput = { uuid: '', node, index: 0, model: null, at };
    NVIDIA_SMI_FIELDS.forEach(([, target], i) => {
      const raw = row[i];
      if (target === 'uuid') sample.uuid = (raw ?? '').trim();
      else if (target === 'name') sample.model = raw?.trim() || null;
      else if (target === 'index') sample.index = Number.parseInt(raw ?? '0', 10) || 0;
      else sample[target] = numberOrNull(raw);
    });
    if (sample.uuid.startsWith('GPU-')) out.push(sample);
  }
  return out;
}
