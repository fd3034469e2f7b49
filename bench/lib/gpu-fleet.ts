/**
 * The simulated GPU fleet of `bench:gpu` and its baseline statement: BENCH_GPUS GPUs (8 per node) × 10
 * metrics, one sample per GPU every 10 s for BENCH_GPU_HOURS hours, cut into per-connection queues of
 * batches; the same samples as a push body (ours) or as `unnest` arrays for one plain INSERT (baseline).
 */
import crypto from 'node:crypto';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
export const HOURS = num('BENCH_GPU_HOURS', 2);
export const GPUS = num('BENCH_GPUS', 1000);
export const CONNECTIONS = num('BENCH_GPU_CONNECTIONS', 4);
export const QUERIES = num('BENCH_GPU_QUERIES', 30);
export const INTERVAL_S = 10;
export const BATCH = 5000;
export const GPUS_PER_NODE = 8;
export const ROUNDS = Math.round((HOURS * 3600) / INTERVAL_S);
export const SAMPLES = ROUNDS * GPUS;

export const uuidOf = (g: number) =>
  `GPU-${crypto
    .createHash('md5')
    .update(`bench-gpu-${g}`)
    .digest('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')}`;
export const nodeOf = (g: number) => `gpu-node-${String(Math.floor(g / GPUS_PER_NODE)).padStart(3, '0')}`;
export const MODEL = 'NVIDIA H100 80GB HBM3';

/** A plausible sample of GPU g at round r: a daily load curve, memory and power following it, energy rising. */
export function metrics(g: number, r: number): Record<string, number> {
  const phase = (r / 8640) * 2 * Math.PI + g * 0.37;
  const util = Math.round(Math.max(0, Math.min(100, 55 + 40 * Math.sin(phase) + ((g * 7 + r * 13) % 11) - 5)));
  const power = Math.round(90 + util * 5.5);
  return {
    utilization: util,
    memory_used_mib: Math.round(2000 + util * 700),
    memory_total_mib: 81559,
    temperature_c: Math.round(32 + util * 0.4),
    power_w: power,
    power_limit_w: 700,
    energy_j: Math.round(1e9 + g * 1e6 + r * 4000),
    xid: 0,
    ecc_dbe: 0,
    sm_clock_mhz: util > 5 ? 1980 : 345,
  };
}

/** Samples of GPUs [gpuFrom, gpuTo) for rounds [firstRound, firstRound + rounds). */
export interface Batch {
  gpuFrom: number;
  gpuTo: number;
  firstRound: number;
  rounds: number;
}

/**
 * The fleet split into one contiguous group of whole nodes per connection (as collectors push their
 * own GPUs: two connections never report the same GPU), each group's samples in time order in
 * batches of up to 5,000. Returns one queue per connection.
 */
export function shards(): Batch[][] {
  const nodes = Math.ceil(GPUS / GPUS_PER_NODE);
  const out: Batch[][] = [];
  for (let c = 0; c < CONNECTIONS; c++) {
    const gpuFrom = Math.min(GPUS, Math.round((c * nodes) / CONNECTIONS) * GPUS_PER_NODE);
    const gpuTo = Math.min(GPUS, Math.round(((c + 1) * nodes) / CONNECTIONS) * GPUS_PER_NODE);
    const queue: Batch[] = [];
    const perBatch = Math.max(1, Math.floor(BATCH / Math.max(1, gpuTo - gpuFrom)));
    if (gpuTo > gpuFrom)
      for (let r = 0; r < ROUNDS; r += perBatch)
        queue.push({ gpuFrom, gpuTo, firstRound: r, rounds: Math.min(perBatch, ROUNDS - r) });
    out.push(queue);
  }
  return out;
}

export function pushBody(b: Batch, t0: number): string {
  const samples = [];
  for (let r = b.firstRound; r < b.firstRound + b.rounds; r++) {
    const at = new Date(t0 + r * INTERVAL_S * 1000).toISOString();
    for (let g = b.gpuFrom; g < b.gpuTo; g++)
      samples.push({ node: nodeOf(g), uuid: uuidOf(g), index: g % GPUS_PER_NODE, model: MODEL, at, ...metrics(g, r) });
  }
  return JSON.stringify({ samples });
}

export const COLUMNS = [
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
const REST_OF: Record<(typeof COLUMNS)[number], string> = {
  utilization: 'utilization',
  memUsedMib: 'memory_used_mib',
  memTotalMib: 'memory_total_mib',
  temperatureC: 'temperature_c',
  powerW: 'power_w',
  powerLimitW: 'power_limit_w',
  energyJ: 'energy_j',
  xid: 'xid',
  eccDbe: 'ecc_dbe',
  smClockMhz: 'sm_clock_mhz',
};
export const BASELINE_SQL = `INSERT INTO "GpuSample" ("gpuId", "tenantId", "at", ${COLUMNS.map((c) => `"${c}"`).join(', ')})
  SELECT * FROM unnest($1::text[], $2::text[], $3::timestamp[], ${COLUMNS.map((_, i) => `$${i + 4}::float8[]`).join(', ')})
  ON CONFLICT DO NOTHING`;

export function baselineParams(b: Batch, t0: number, gpuIds: string[], tenantId: string): unknown[] {
  const n = b.rounds * (b.gpuTo - b.gpuFrom);
  const ids = new Array<string>(n);
  const tenants = new Array<string>(n).fill(tenantId);
  const ats = new Array<Date>(n);
  const cols = COLUMNS.map(() => new Array<number>(n));
  let k = 0;
  for (let r = b.firstRound; r < b.firstRound + b.rounds; r++) {
    const at = new Date(t0 + r * INTERVAL_S * 1000);
    for (let g = b.gpuFrom; g < b.gpuTo; g++, k++) {
      ids[k] = gpuIds[g]!;
      ats[k] = at;
      const m = metrics(g, r);
      COLUMNS.forEach((c, i) => (cols[i]![k] = m[REST_OF[c]]!));
    }
  }
  return [ids, tenants, ats, ...cols];
}
