/**
 * Percentile summaries of latency samples, the way AIPerf reports them: p50, p90, p99 and the mean.
 * Percentiles use linear interpolation between closest ranks (numpy's default), so a small sample
 * gives stable, reproducible figures. Pure functions.
 */

export interface Stat {
  p50: number | null;
  p90: number | null;
  p99: number | null;
  avg: number | null;
}

/** The q-quantile (0..1) of values already sorted ascending; null for no values. */
export function quantileSorted(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile must be within 0..1, got ${q}`);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

const round = (v: number | null, digits = 3): number | null =>
  v == null ? null : Math.round(v * 10 ** digits) / 10 ** digits;

/** p50/p90/p99/avg of the finite values (each rounded to microseconds when values are ms); nulls for none. */
export function summarize(values: readonly number[]): Stat {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return { p50: null, p90: null, p99: null, avg: null };
  const avg = sorted.reduce((s, v) => s + v, 0) / sorted.length;
  return {
    p50: round(quantileSorted(sorted, 0.5)),
    p90: round(quantileSorted(sorted, 0.9)),
    p99: round(quantileSorted(sorted, 0.99)),
    avg: round(avg),
  };
}

/**
 * Start offsets (ms from the run's start) of an open-loop arrival schedule at `rate` requests per
 * second: request i starts at i / rate whatever the earlier ones are doing (AIPerf's constant
 * request-rate mode), until `count` requests or `durationMs`, whichever comes first.
 */
export function arrivalOffsetsMs(rate: number, opts: { count?: number | null; durationMs?: number | null }): number[] {
  if (!(rate > 0)) throw new RangeError('rate must be positive');
  const out: number[] = [];
  const gap = 1000 / rate;
  const limit = opts.count ?? Number.POSITIVE_INFINITY;
  const until = opts.durationMs ?? Number.POSITIVE_INFINITY;
  if (!Number.isFinite(limit) && !Number.isFinite(until)) throw new RangeError('a count or a duration is required');
  for (let i = 0; i < limit; i++) {
    const at = i * gap;
    if (at >= until) break;
    out.push(at);
  }
  return out;
}
