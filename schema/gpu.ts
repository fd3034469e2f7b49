/**
 * GraphQL of the GPU area: the fleet with each GPU's verdict and latest values, time series, the
 * hardware events, the overview, and `gpuHealthChanged`. Members read; telemetry arrives through the
 * ingest key (REST `POST /ai-factory/gpu/samples`, the collector) or a scraped dcgm-exporter.
 */
import { filter as filterIterable, pipe } from 'graphql-yoga';
import { builder, upperCaseValues, NodeRef } from './builder.js';
import { EventRef } from './events.js';
import { requireUser } from '../src/context.js';
import {
  fleetTotals,
  gpuByIdOrUuid,
  gpuEvents,
  gpuOverview,
  gpuTimeseries,
  listGpus,
  type FleetTotals,
  type GpuView,
  type Overview,
  type Timeseries,
} from '../src/gpu/queries.js';
import { GPU_METRICS, GPU_METRIC_INFO, type GpuMetric } from '../src/gpu/samples.js';
import type { GpuHealth } from '../src/gpu/health.js';
import { gpuHealth } from '../src/gpu/health.js';
import { healthLimits } from '../src/gpu/telemetry.js';

export const GpuHealthEnum = builder.enumType('GpuHealth', {
  description:
    'healthy; WARNING or CRITICAL with reasons; MISSING when samples stopped; UNKNOWN before the first sample.',
  values: upperCaseValues(['healthy', 'warning', 'critical', 'missing', 'unknown'] as const),
});

export const GpuMetricEnum = builder.enumType('GpuMetric', {
  values: Object.fromEntries(
    GPU_METRICS.map((m) => [
      GPU_METRIC_INFO[m].rest.toUpperCase(),
      { value: m, description: `${GPU_METRIC_INFO[m].description}, ${GPU_METRIC_INFO[m].unit}` },
    ]),
  ) as Record<string, { value: GpuMetric }>,
});

const GpuValuesRef = builder.objectRef<Partial<Record<GpuMetric, number | null>>>('GpuValues').implement({
  description: 'The latest sample of a GPU; null where the GPU did not report the metric or does not support it.',
  fields: (t) =>
    Object.fromEntries(
      GPU_METRICS.map((m) => [
        m,
        t.float({
          nullable: true,
          description: `${GPU_METRIC_INFO[m].description}, ${GPU_METRIC_INFO[m].unit}`,
          resolve: (v) => v[m] ?? null,
        }),
      ]),
    ) as never,
});

const GpuVerdictRef = builder.objectRef<{ status: GpuHealth; reasons: string[] }>('GpuVerdict').implement({
  fields: (t) => ({
    status: t.field({ type: GpuHealthEnum, resolve: (v) => v.status }),
    reasons: t.exposeStringList('reasons'),
  }),
});

export const GpuRef = builder.prismaObject('Gpu', {
  interfaces: [NodeRef],
  description: 'A GPU seen in telemetry (one per UUID in the tenant).',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    node: t.exposeString('node'),
    index: t.exposeInt('index'),
    model: t.exposeString('model', { nullable: true }),
    source: t.exposeString('source', { description: '`dcgm` (a scraped exporter) or `nvidia-smi` (the collector).' }),
    health: t.field({
      type: GpuVerdictRef,
      description: 'The verdict now, with its reasons.',
      resolve: (g, _args, ctx) =>
        'verdict' in g
          ? (g as GpuView).verdict
          : gpuHealth(
              { latest: g.latest as never, lastSeenAt: g.lastSeenAt, lastXid: g.lastXid, lastXidAt: g.lastXidAt },
              ctx.rt.clock.now(),
              healthLimits(ctx),
            ),
    }),
    latest: t.field({ type: GpuValuesRef, resolve: (g) => (g.latest ?? {}) as never }),
    lastXid: t.exposeInt('lastXid', { nullable: true }),
    lastXidAt: t.expose('lastXidAt', { type: 'DateTime', nullable: true }),
    firstSeenAt: t.expose('firstSeenAt', { type: 'DateTime' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime' }),
  }),
});

const HealthCountsRef = builder.objectRef<Record<GpuHealth, number>>('GpuHealthCounts').implement({
  fields: (t) => ({
    healthy: t.exposeInt('healthy'),
    warning: t.exposeInt('warning'),
    critical: t.exposeInt('critical'),
    missing: t.exposeInt('missing'),
    unknown: t.exposeInt('unknown'),
  }),
});

const FleetRef = builder.objectRef<FleetTotals>('GpuFleet').implement({
  fields: (t) => ({
    gpus: t.exposeInt('gpus'),
    nodes: t.exposeInt('nodes'),
    byHealth: t.field({ type: HealthCountsRef, resolve: (f) => f.byHealth }),
    avgUtilization: t.exposeFloat('avgUtilization', { nullable: true }),
    memUsedMib: t.exposeFloat('memUsedMib'),
    memTotalMib: t.exposeFloat('memTotalMib'),
    powerW: t.exposeFloat('powerW'),
  }),
});

const GpuSummaryRef = builder.objectRef<{ gpus: GpuView[]; fleet: FleetTotals }>('GpuSummary').implement({
  fields: (t) => ({
    gpus: t.field({ type: [GpuRef], resolve: (s) => s.gpus }),
    fleet: t.field({ type: FleetRef, resolve: (s) => s.fleet }),
  }),
});

const PointRef = builder.objectRef<{ t: Date; v: number | null }>('GpuPoint').implement({
  fields: (t) => ({ t: t.expose('t', { type: 'DateTime' }), v: t.exposeFloat('v', { nullable: true }) }),
});

const SeriesGpuRef = builder.objectRef<Timeseries['series'][number]['gpu']>('GpuSeriesGpu').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    node: t.exposeString('node'),
    index: t.exposeInt('index'),
  }),
});

const SeriesRef = builder.objectRef<Timeseries['series'][number]>('GpuSeries').implement({
  fields: (t) => ({
    gpu: t.field({ type: SeriesGpuRef, resolve: (s) => s.gpu }),
    points: t.field({ type: [PointRef], resolve: (s) => s.points }),
  }),
});

const TimeseriesRef = builder.objectRef<Timeseries>('GpuTimeseries').implement({
  fields: (t) => ({
    metric: t.field({ type: GpuMetricEnum, resolve: (s) => s.metric }),
    stepSeconds: t.exposeInt('stepSeconds'),
    resolution: t.exposeString('resolution', { description: '`raw`, `1m` or `1h`: where the points came from.' }),
    series: t.field({ type: [SeriesRef], resolve: (s) => s.series }),
  }),
});

const OverviewRef = builder.objectRef<Overview>('AiFactoryOverview').implement({
  fields: (t) => ({
    fleet: t.field({ type: FleetRef, resolve: (o) => o.fleet }),
    idleGpus: t.exposeInt('idleGpus', { description: 'GPUs reporting under 5 % utilization.' }),
    energyTodayKwh: t.exposeFloat('energyTodayKwh', {
      description: "Energy used since midnight UTC, from the GPUs' energy counters.",
    }),
    openGpuAlerts: t.exposeInt('openGpuAlerts'),
    recentEvents: t.field({ type: [EventRef], resolve: (o) => o.recentEvents }),
  }),
});

builder.queryFields((t) => ({
  gpu: t.prismaField({
    type: 'Gpu',
    authScopes: { user: true },
    description: 'One GPU by id or UUID (`GPU-…`).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const g = await gpuByIdOrUuid(ctx, String(args.id));
      return ctx.db.gpu.findUniqueOrThrow({ ...query, where: { id: g.id } });
    },
  }),
  gpuSummary: t.field({
    type: GpuSummaryRef,
    authScopes: { user: true },
    description: 'Every GPU with its verdict and latest values, and fleet totals.',
    args: { node: t.arg.string() },
    resolve: async (_root, args, ctx) => {
      const gpus = await listGpus(ctx, { node: args.node });
      return { gpus, fleet: fleetTotals(gpus) };
    },
  }),
  gpuTimeseries: t.field({
    type: TimeseriesRef,
    authScopes: { user: true },
    description:
      'One metric over time per GPU (one GPU by id or UUID, a node, or all), at most ~1,000 points per series.',
    args: {
      metric: t.arg({ type: GpuMetricEnum, required: true }),
      gpu: t.arg.id(),
      node: t.arg.string(),
      sinceHours: t.arg.float(),
      stepSeconds: t.arg.int(),
    },
    resolve: (_root, args, ctx) =>
      gpuTimeseries(ctx, {
        metric: args.metric,
        gpu: args.gpu == null ? null : String(args.gpu),
        node: args.node,
        sinceHours: args.sinceHours,
        stepSeconds: args.stepSeconds,
      }),
  }),
  gpuEvents: t.field({
    type: [EventRef],
    authScopes: { user: true },
    description:
      'Hardware events (`gpu.xid`, `gpu.thermal`, `gpu.ecc`, `gpu.missing`, …), newest first; they are timeline events.',
    args: { sinceHours: t.arg.float(), type: t.arg.string(), node: t.arg.string(), limit: t.arg.int() },
    resolve: (_root, args, ctx) => gpuEvents(ctx, args),
  }),
  aiFactoryOverview: t.field({
    type: OverviewRef,
    authScopes: { user: true },
    resolve: (_root, _args, ctx) => gpuOverview(ctx),
  }),
}));

const GpuHealthChangeRef = builder
  .objectRef<{
    id: string;
    uuid: string;
    node: string;
    index: number;
    health: GpuHealth;
    healthReasons: string[];
    lastSeenAt: string;
  }>('GpuHealthChange')
  .implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      uuid: t.exposeString('uuid'),
      node: t.exposeString('node'),
      index: t.exposeInt('index'),
      health: t.field({ type: GpuHealthEnum, resolve: (m) => m.health }),
      reasons: t.exposeStringList('healthReasons'),
      lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime' }),
    }),
  });

builder.subscriptionFields((t) => ({
  gpuHealthChanged: t.field({
    type: GpuHealthChangeRef,
    authScopes: { user: true },
    description: "A GPU's verdict changed (optionally one node's GPUs).",
    args: { node: t.arg.string() },
    subscribe: (_root, args, ctx) => {
      const me = requireUser(ctx);
      return pipe(
        ctx.rt.pubsub.subscribe('gpuHealthChanged', me.tenantId),
        filterIterable((m) => !args.node || m.node === args.node),
      );
    },
    resolve: (m) => m as never,
  }),
}));
