/**
 * Rollups of GPU telemetry (retention drops partitions: src/history). Raw samples are averaged into
 * 1-minute buckets, and 1-minute buckets into 1-hour ones (averages weighted by their samples, maxima of
 * maxima, for utilization, temperature and power), each read by time range on an index of its
 * partitions (`GpuSample.at`, `GpuRollup.bucket`): the cost of a run is the rows of its range, whatever
 * the history. Recomputing a bucket gives the same row, so the periodic task redoes the buckets that can
 * still change, and a backfill (a collector catching up, an import) redoes the range it touched, minutes
 * first, after its push has answered (src/gpu/backfill-rollups.ts). Identifiers come from GPU_METRICS only; every value is a parameter.
 */
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Runtime } from '../runtime.js';
import { GPU_METRICS } from './samples.js';

export const ROLLUP_RESOLUTIONS = [60, 3600] as const;
export type RollupResolution = (typeof ROLLUP_RESOLUTIONS)[number];

const MAXED = new Set(['utilization', 'temperatureC', 'powerW']);

const q = (name: string) => `"${name}"`;

const COLS = GPU_METRICS.flatMap((m) => (MAXED.has(m) ? [m, `${m}Max`] : [m]));
const UPSERT = `ON CONFLICT ("gpuId", "resolution", "bucket") DO UPDATE SET "samples" = EXCLUDED."samples", ${COLS.map((c) => `${q(c)} = EXCLUDED.${q(c)}`).join(', ')}`;

/** Minute buckets from raw samples ($1 = 60, $2 from, $3 to, $4 GPU ids). */
function fromSamples(gpuIds: boolean): string {
  const selects = GPU_METRICS.flatMap((m) => (MAXED.has(m) ? [`avg(${q(m)})`, `max(${q(m)})`] : [`avg(${q(m)})`]));
  return `
    INSERT INTO "GpuRollup" ("gpuId", "tenantId", "resolution", "bucket", "samples", ${COLS.map(q).join(', ')})
    SELECT "gpuId", "tenantId", $1::int, date_bin(make_interval(secs => $1::int), "at", TIMESTAMP '2000-01-01') AS b, count(*)::int, ${selects.join(', ')}
      FROM "GpuSample"
     WHERE "at" >= date_bin(make_interval(secs => $1::int), $2::timestamp, TIMESTAMP '2000-01-01') AND "at" < $3::timestamp
       ${gpuIds ? 'AND "gpuId" = ANY($4::text[])' : ''}
     GROUP BY "gpuId", "tenantId", b
    ${UPSERT}`;
}

/** Hour buckets from minute buckets ($1 = 3600, $2 from, $3 to, $4 GPU ids): weighted averages, maxima of maxima. */
function fromMinutes(gpuIds: boolean): string {
  const weighted = (m: string) =>
    `sum(${q(m)} * "samples") / nullif(sum(CASE WHEN ${q(m)} IS NOT NULL THEN "samples" END), 0)`;
  const selects = GPU_METRICS.flatMap((m) => (MAXED.has(m) ? [weighted(m), `max(${q(`${m}Max`)})`] : [weighted(m)]));
  return `
    INSERT INTO "GpuRollup" ("gpuId", "tenantId", "resolution", "bucket", "samples", ${COLS.map(q).join(', ')})
    SELECT "gpuId", "tenantId", $1::int, date_bin(make_interval(secs => $1::int), "bucket", TIMESTAMP '2000-01-01') AS b, sum("samples")::int, ${selects.join(', ')}
      FROM "GpuRollup"
     WHERE "resolution" = 60 AND "bucket" >= date_bin(make_interval(secs => $1::int), $2::timestamp, TIMESTAMP '2000-01-01') AND "bucket" < $3::timestamp
       ${gpuIds ? 'AND "gpuId" = ANY($4::text[])' : ''}
     GROUP BY "gpuId", "tenantId", b
    ${UPSERT}`;
}

type Db = Pick<PrismaClient, '$executeRawUnsafe'>;

/** The statement recomputing the buckets of `resolution` ($1 resolution, $2 from, $3 to, $4 GPU ids when `gpuIds`). */
export function rollupSql(resolution: RollupResolution, gpuIds = false): string {
  return resolution === 60 ? fromSamples(gpuIds) : fromMinutes(gpuIds);
}

/**
 * Recomputes the buckets of `resolution` that overlap [from, to), for every GPU (or the given ones):
 * minutes from raw samples, hours from the minute buckets (so roll the minutes of a range up first).
 */
export async function rollUp(
  rt: Pick<Runtime, 'prisma'> | { prisma: Db },
  resolution: RollupResolution,
  from: Date,
  to: Date,
  gpuIds?: string[],
): Promise<number> {
  const sql = rollupSql(resolution, !!gpuIds);
  const params: unknown[] = [resolution, from, to];
  if (gpuIds) params.push(gpuIds);
  return rt.prisma.$executeRawUnsafe(sql, ...params);
}

/** How far back the periodic task redoes buckets: samples arrive up to a few minutes late. */
export const RECENT_MS = 5 * 60_000;
/** After a pause (workers stopped), the task catches up from its last minute bucket, at most this far back. */
export const CATCH_UP_MS = 6 * 3600_000;

type Reader = Db & Pick<PrismaClient, '$queryRawUnsafe'>;

/**
 * The periodic task, incremental by time range: the minute buckets from the newest one already rolled
 * up (or the last 5 minutes, whichever is older; at most 6 hours back) from their samples, then the
 * hour buckets those minutes belong to from their minutes. The newest minute bucket is found on the
 * bucket index of the last partitions, so a run reads only the rows of its range.
 */
export async function rollUpRecent(
  rt: { prisma: Reader },
  now: Date,
): Promise<{ from: Date; minute: number; hour: number }> {
  const [row] = await rt.prisma.$queryRawUnsafe<Array<{ last: Date | null }>>(
    `SELECT max("bucket") AS last FROM "GpuRollup" WHERE "resolution" = 60 AND "bucket" >= $1::timestamp AND "bucket" <= $2::timestamp`,
    new Date(now.getTime() - CATCH_UP_MS),
    now,
  );
  const recent = now.getTime() - RECENT_MS;
  const from = new Date(row?.last ? Math.min(recent, new Date(row.last).getTime()) : recent);
  const to = new Date(now.getTime() + 60_000);
  const minute = await rollUp(rt, 60, from, to);
  const hour = await rollUp(rt, 3600, from, to);
  return { from, minute, hour };
}
