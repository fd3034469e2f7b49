/**
 * Rollups of GPU telemetry (retention drops partitions: src/history). Raw samples are averaged into 1-minute and 1-hour buckets
 * (maxima too for utilization, temperature and power); recomputing a bucket gives the same row, so the
 * periodic task simply redoes the recent buckets, and a backfill (a collector catching up, an import)
 * redoes the range it touched. Identifiers come from GPU_METRICS only; every value is a parameter.
 */
import type { Runtime } from '../runtime.js';
import { GPU_METRICS } from './samples.js';

export const ROLLUP_RESOLUTIONS = [60, 3600] as const;
export type RollupResolution = (typeof ROLLUP_RESOLUTIONS)[number];

const MAXED = new Set(['utilization', 'temperatureC', 'powerW']);

const q = (name: string) => `"${name}"`;

/** Recomputes the buckets of `resolution` that overlap [from, to), for every GPU (or the given ones). */
export async function rollUp(rt: Runtime, resolution: RollupResolution, from: Date, to: Date, gpuIds?: string[]): Promise<number> {
  const cols = GPU_METRICS.flatMap((m) => (MAXED.has(m) ? [m, `${m}Max`] : [m]));
  const selects = GPU_METRICS.flatMap((m) => (MAXED.has(m) ? [`avg(${q(m)})`, `max(${q(m)})`] : [`avg(${q(m)})`]));
  const sql = `
    INSERT INTO "GpuRollup" ("gpuId", "tenantId", "resolution", "bucket", "samples", ${cols.map(q).join(', ')})
    SELECT "gpuId", "tenantId", $1::int, date_bin(make_interval(secs => $1::int), "at", TIMESTAMP '2000-01-01') AS b, count(*)::int, ${selects.join(', ')}
      FROM "GpuSample"
     WHERE "at" >= date_bin(make_interval(secs => $1::int), $2::timestamp, TIMESTAMP '2000-01-01') AND "at" < $3::timestamp
       ${gpuIds ? 'AND "gpuId" = ANY($4::text[])' : ''}
     GROUP BY "gpuId", "tenantId", b
    ON CONFLICT ("gpuId", "resolution", "bucket") DO UPDATE SET "samples" = EXCLUDED."samples", ${cols.map((c) => `${q(c)} = EXCLUDED.${q(c)}`).join(', ')}`;
  const params: unknown[] = [resolution, from, to];
  if (gpuIds) params.push(gpuIds);
  return rt.prisma.$executeRawUnsafe(sql, ...params);
}

/** The periodic task: redo the buckets that can still be changing (last 5 minutes / last 2 hours). */
export async function rollUpRecent(rt: Runtime, now = new Date()): Promise<{ minute: number; hour: number }> {
  const to = new Date(now.getTime() + 60_000);
  const minute = await rollUp(rt, 60, new Date(now.getTime() - 5 * 60_000), to);
  const hour = await rollUp(rt, 3600, new Date(now.getTime() - 2 * 3600_000), to);
  return { minute, hour };
}
