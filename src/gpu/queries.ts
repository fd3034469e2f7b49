/**
 * Reading GPU telemetry: the fleet summary with each GPU's verdict, time series from the right
 * resolution, the hardware events (the `gpu.*` entries of the timeline) and the overview.
 */
import type { Ctx } from '../context.js';
import type { Event, Gpu } from '../generated/prisma/client.js';
import { invalid, NotFound } from '../errors.js';
import { gpuHealth, type GpuHealth } from './health.js';
import { healthLimits } from './telemetry.js';
import { GPU_METRICS, type GpuMetric } from './samples.js';

export interface GpuView extends Gpu {
  /** The verdict now (a GPU that stopped reporting is `missing` even before the periodic check ran). */
  verdict: { status: GpuHealth; reasons: string[] };
  latestValues: Partial<Record<GpuMetric, number | null>>;
}

export interface FleetTotals {
  gpus: number;
  nodes: number;
  byHealth: Record<GpuHealth, number>;
  avgUtilization: number | null;
  memUsedMib: number;
  memTotalMib: number;
  powerW: number;
}

/** Largest time range and number of points per series of a time-series query. */
export const TIMESERIES_LIMITS = { maxSinceHours: 24 * 90, defaultSinceHours: 24, maxPoints: 1000 } as const;

export async function listGpus(ctx: Ctx, filter: { node?: string | null } = {}): Promise<GpuView[]> {
  const limits = healthLimits(ctx);
  const now = ctx.rt.clock.now();
  const gpus = await ctx.db.gpu.findMany({
    where: filter.node ? { node: filter.node } : {},
    orderBy: [{ node: 'asc' }, { index: 'asc' }],
    take: 10_000,
  });
  return gpus.map((g) => {
    const latestValues = (g.latest ?? {}) as Partial<Record<GpuMetric, number | null>>;
    return {
      ...g,
      latestValues,
      verdict: gpuHealth(
        { latest: latestValues, lastSeenAt: g.lastSeenAt, lastXid: g.lastXid, lastXidAt: g.lastXidAt },
        now,
        limits,
      ),
    };
  });
}

export function fleetTotals(gpus: GpuView[]): FleetTotals {
  const byHealth: Record<GpuHealth, number> = { healthy: 0, warning: 0, critical: 0, missing: 0, unknown: 0 };
  let util = 0;
  let utilCount = 0;
  let memUsedMib = 0;
  let memTotalMib = 0;
  let powerW = 0;
  for (const g of gpus) {
    byHealth[g.verdict.status]++;
    if (g.verdict.status === 'missing') continue;
    const l = g.latestValues;
    if (l.utilization != null) {
      util += l.utilization;
      utilCount++;
    }
    memUsedMib += l.memUsedMib ?? 0;
    memTotalMib += l.memTotalMib ?? 0;
    powerW += l.powerW ?? 0;
  }
  return {
    gpus: gpus.length,
    nodes: new Set(gpus.map((g) => g.node)).size,
    byHealth,
    avgUtilization: utilCount ? util / utilCount : null,
    memUsedMib,
    memTotalMib,
    powerW,
  };
}

export async function gpuByIdOrUuid(ctx: Ctx, idOrUuid: string): Promise<Gpu> {
  const g = await ctx.db.gpu.findFirst({ where: idOrUuid.startsWith('GPU-') ? { uuid: idOrUuid } : { id: idOrUuid } });
  if (!g) throw new NotFound('GPU');
  return g;
}

export interface TimeseriesInput {
  metric: GpuMetric;
  gpu?: string | null;
  node?: string | null;
  sinceHours?: number | null;
  stepSeconds?: number | null;
}

export interface Timeseries {
  metric: GpuMetric;
  stepSeconds: number;
  resolution: 'raw' | '1m' | '1h';
  series: Array<{ gpu: Pick<Gpu, 'id' | 'uuid' | 'node' | 'index'>; points: Array<{ t: Date; v: number | null }> }>;
}

/**
 * Points of one metric per GPU: at most ~1,000 per series, from raw samples (steps under a minute,
 * within raw retention), the 1-minute rollup, or the 1-hour rollup.
 */
export async function gpuTimeseries(
  ctx: Ctx,
  input: TimeseriesInput,
  field = (f: string) => ['input', f],
): Promise<Timeseries> {
  if (!GPU_METRICS.includes(input.metric)) throw invalid(field('metric'), `must be one of ${GPU_METRICS.join(', ')}`);
  const sinceHours = input.sinceHours ?? TIMESERIES_LIMITS.defaultSinceHours;
  if (!(sinceHours > 0 && sinceHours <= TIMESERIES_LIMITS.maxSinceHours))
    throw invalid(field('sinceHours'), `must be more than 0 and at most ${TIMESERIES_LIMITS.maxSinceHours}`);
  if (
    input.stepSeconds != null &&
    !(Number.isInteger(input.stepSeconds) && input.stepSeconds >= 1 && input.stepSeconds <= 86400)
  )
    throw invalid(field('stepSeconds'), 'must be an integer from 1 to 86400');
  const c = ctx.rt.config.gpu;
  const spanSeconds = sinceHours * 3600;
  let step = Math.max(
    input.stepSeconds ?? 0,
    Math.ceil(spanSeconds / TIMESERIES_LIMITS.maxPoints),
    Math.ceil(c.sampleIntervalMs / 1000),
  );
  let resolution: Timeseries['resolution'] = 'raw';
  if (step >= 3600 || sinceHours > c.minuteRollupRetentionDays * 24) {
    resolution = '1h';
    step = Math.ceil(step / 3600) * 3600;
  } else if (step >= 60 || sinceHours > c.rawRetentionHours) {
    resolution = '1m';
    step = Math.ceil(step / 60) * 60;
  }
  const where: Record<string, unknown> = {};
  if (input.gpu) where[input.gpu.startsWith('GPU-') ? 'uuid' : 'id'] = input.gpu;
  if (input.node) where.node = input.node;
  const gpus = await ctx.db.gpu.findMany({
    where,
    orderBy: [{ node: 'asc' }, { index: 'asc' }],
    take: 200,
    select: { id: true, uuid: true, node: true, index: true },
  });
  if (input.gpu && gpus.length === 0) throw new NotFound('GPU');
  if (gpus.length === 0) return { metric: input.metric, stepSeconds: step, resolution, series: [] };
  const since = new Date(ctx.rt.clock.now().getTime() - spanSeconds * 1000);
  // The column is the metric's own name (from GPU_METRICS, checked above); every value is a parameter.
  const column = `"${input.metric}"`;
  const [table, time] = resolution === 'raw' ? ['"GpuSample"', '"at"'] : ['"GpuRollup"', '"bucket"'];
  const rows = await ctx.rt.prisma.$queryRawUnsafe<Array<{ gpuId: string; t: Date; v: number | null }>>(
    `SELECT "gpuId", date_bin(make_interval(secs => $1::int), ${time}, TIMESTAMP '2000-01-01') AS t, avg(${column})::float8 AS v
       FROM ${table}
      WHERE "tenantId" = $2 AND "gpuId" = ANY($3::text[]) AND ${time} >= $4::timestamp
        ${resolution === 'raw' ? '' : 'AND "resolution" = $5::int'}
      GROUP BY "gpuId", t ORDER BY "gpuId", t`,
    step,
    ctx.principal!.tenantId,
    gpus.map((g) => g.id),
    since,
    ...(resolution === 'raw' ? [] : [resolution === '1m' ? 60 : 3600]),
  );
  const byGpu = new Map<string, Array<{ t: Date; v: number | null }>>();
  for (const r of rows) byGpu.set(r.gpuId, [...(byGpu.get(r.gpuId) ?? []), { t: r.t, v: r.v }]);
  return {
    metric: input.metric,
    stepSeconds: step,
    resolution,
    series: gpus.map((g) => ({ gpu: g, points: byGpu.get(g.id) ?? [] })),
  };
}

/** The bounds of `gpuEvents`, the same as the REST contract's (GET /ai-factory/gpu/events). */
export const GPU_EVENT_LIMITS = {
  maxSinceHours: 336,
  defaultSinceHours: 24,
  maxLimit: 500,
  defaultLimit: 100,
} as const;

/** Hardware events: the `gpu.*` entries of the timeline, newest first. */
export async function gpuEvents(
  ctx: Ctx,
  input: { sinceHours?: number | null; type?: string | null; node?: string | null; limit?: number | null },
): Promise<Event[]> {
  const sinceHours = input.sinceHours ?? GPU_EVENT_LIMITS.defaultSinceHours;
  const limit = input.limit ?? GPU_EVENT_LIMITS.defaultLimit;
  if (!(sinceHours > 0 && sinceHours <= GPU_EVENT_LIMITS.maxSinceHours))
    throw invalid(['sinceHours'], `must be more than 0 and at most ${GPU_EVENT_LIMITS.maxSinceHours}`);
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= GPU_EVENT_LIMITS.maxLimit))
    throw invalid(['limit'], `must be an integer from 1 to ${GPU_EVENT_LIMITS.maxLimit}`);
  return ctx.db.event.findMany({
    where: {
      module: 'gpu',
      receivedAt: { gte: new Date(ctx.rt.clock.now().getTime() - sinceHours * 3600_000) },
      ...(input.type ? { type: input.type } : {}),
      ...(input.node ? { labels: { path: ['node'], equals: input.node } } : {}),
    },
    orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
}

export interface Overview {
  fleet: FleetTotals;
  idleGpus: number;
  energyTodayKwh: number;
  openGpuAlerts: number;
  recentEvents: Event[];
}

/** Utilization below this (%) counts a GPU as idle. */
export const IDLE_UTILIZATION = 5;

export async function gpuOverview(ctx: Ctx): Promise<Overview> {
  const gpus = await listGpus(ctx);
  const fleet = fleetTotals(gpus);
  const idleGpus = gpus.filter(
    (g) => g.verdict.status !== 'missing' && (g.latestValues.utilization ?? 0) < IDLE_UTILIZATION,
  ).length;
  const startOfDay = ctx.rt.clock.now();
  startOfDay.setUTCHours(0, 0, 0, 0);
  // The energy counter rises monotonically per GPU: today's energy is its rise since midnight (UTC).
  const [energy] = await ctx.rt.prisma.$queryRawUnsafe<Array<{ joules: number | null }>>(
    `SELECT sum(rise)::float8 AS joules FROM (
       SELECT max("energyJ") - min("energyJ") AS rise FROM "GpuSample" WHERE "tenantId" = $1 AND "at" >= $2::timestamp GROUP BY "gpuId"
     ) per_gpu`,
    ctx.principal!.tenantId,
    startOfDay,
  );
  const openGpuAlerts = await ctx.db.alert.count({
    where: { status: { in: ['open', 'acknowledged'] }, source: { startsWith: 'gpu/' } },
  });
  const recentEvents = await gpuEvents(ctx, { sinceHours: 24, limit: 10 });
  return { fleet, idleGpus, energyTodayKwh: (energy?.joules ?? 0) / 3.6e6, openGpuAlerts, recentEvents };
}
