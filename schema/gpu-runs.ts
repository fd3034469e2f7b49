/**
 * GraphQL of GPU diagnostics and AIPerf-style load-test runs: members read; starting a diagnostic,
 * starting or cancelling a run need the admin role. REST runs the same operations (rest/routes/gpu-runs.ts).
 */
import { builder, found, NodeRef, upperCaseValues } from './builder.js';
import { listGpuDiagnostics, startGpuDiagnostic, type DiagnosticCheck } from '../src/gpu/diagnostics.js';
import { cancelAiperfRun, listAiperfRuns, startAiperfRun, type AiperfStatus } from '../src/gpu/aiperf.js';
import type { AiperfResults, GpuWindowLoad } from '../src/gpu/aiperf-results.js';
import type { Stat } from '../src/gpu/percentiles.js';

export const GpuDiagnosticStatusEnum = builder.enumType('GpuDiagnosticStatus', {
  description: 'QUEUED → RUNNING → COMPLETED (checks recorded) or FAILED (the job itself failed).',
  values: upperCaseValues(['queued', 'running', 'completed', 'failed'] as const),
});
export const GpuDiagnosticResultEnum = builder.enumType('GpuDiagnosticResult', {
  description: 'The worst check that ran (skipped checks do not count).',
  values: upperCaseValues(['pass', 'warn', 'fail'] as const),
});
export const GpuCheckStatusEnum = builder.enumType('GpuCheckStatus', {
  values: upperCaseValues(['pass', 'warn', 'fail', 'skip'] as const),
});
export const AiperfRunStatusEnum = builder.enumType('AiperfRunStatus', {
  description: 'QUEUED → RUNNING → SUCCEEDED, FAILED (every request failed, or the URL was refused) or CANCELLED.',
  values: upperCaseValues(['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const),
});
export const AiperfModeEnum = builder.enumType('AiperfMode', {
  description:
    'CONCURRENCY: a fixed number of clients, each sending its next request when the last ends. REQUEST_RATE: an open-loop arrival schedule at requestRate per second.',
  values: upperCaseValues(['concurrency', 'request_rate'] as const),
});

const GpuDiagnosticCheckRef = builder.objectRef<DiagnosticCheck>('GpuDiagnosticCheck').implement({
  fields: (t) => ({
    name: t.exposeString('name', {
      description:
        '`telemetry_recent`, `xid_last_hour`, `ecc_double_bit`, `temperature`, `power`, `memory`, `utilization`, `thermal_history_24h`, `nvidia_smi_query`, `dcgmi_diag`.',
    }),
    gpuUuid: t.string({
      nullable: true,
      description: 'The GPU checked; null for host checks.',
      resolve: (c) => c.gpu_uuid,
    }),
    status: t.field({ type: GpuCheckStatusEnum, resolve: (c) => c.status }),
    detail: t.exposeString('detail'),
  }),
});

builder.prismaObject('GpuDiagnostic', {
  interfaces: [NodeRef],
  description: 'An on-demand diagnostics request over one GPU or a node, with its checks.',
  fields: (t) => ({
    id: t.exposeID('id'),
    gpuIds: t.exposeIDList('gpuIds', { description: 'The GPUs checked.' }),
    gpu: t.exposeString('targetGpu', { nullable: true, description: 'The GPU asked for (id or UUID), when one was.' }),
    node: t.exposeString('targetNode', { nullable: true, description: 'The node asked for, when one was.' }),
    level: t.exposeInt('level'),
    status: t.field({ type: GpuDiagnosticStatusEnum, resolve: (d) => d.status }),
    result: t.field({ type: GpuDiagnosticResultEnum, nullable: true, resolve: (d) => d.result }),
    checks: t.field({
      type: [GpuDiagnosticCheckRef],
      resolve: (d) => (d.checks ?? []) as unknown as DiagnosticCheck[],
    }),
    error: t.exposeString('error', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

const LatencyStatRef = builder.objectRef<Stat>('LatencyStat').implement({
  description: 'Milliseconds: median, 90th and 99th percentile, mean (null when nothing was measured).',
  fields: (t) => ({
    p50: t.exposeFloat('p50', { nullable: true }),
    p90: t.exposeFloat('p90', { nullable: true }),
    p99: t.exposeFloat('p99', { nullable: true }),
    avg: t.exposeFloat('avg', { nullable: true }),
  }),
});

const AiperfResultsRef = builder.objectRef<AiperfResults>('AiperfResults').implement({
  fields: (t) => ({
    ttftMs: t.field({ type: LatencyStatRef, description: 'Time to first token.', resolve: (r) => r.ttft_ms }),
    itlMs: t.field({
      type: LatencyStatRef,
      description: 'Inter-token latency: gaps between content chunks.',
      resolve: (r) => r.itl_ms,
    }),
    requestLatencyMs: t.field({ type: LatencyStatRef, resolve: (r) => r.request_latency_ms }),
    outputTokensPerS: t.float({ nullable: true, resolve: (r) => r.output_tokens_per_s }),
    requestsPerS: t.float({ nullable: true, resolve: (r) => r.requests_per_s }),
    errors: t.exposeInt('errors'),
    requests: t.exposeInt('requests'),
    outputTokens: t.int({ resolve: (r) => r.output_tokens }),
    durationS: t.float({ resolve: (r) => r.duration_s }),
    errorSamples: t.stringList({ resolve: (r) => r.error_samples }),
  }),
});

const AiperfGpuLoadRef = builder.objectRef<GpuWindowLoad>('AiperfGpuLoad').implement({
  description: "A GPU's load during the run (its samples between the run's start and end).",
  fields: (t) => ({
    gpuId: t.id({ resolve: (g) => g.gpu_id }),
    uuid: t.exposeString('uuid'),
    node: t.exposeString('node'),
    index: t.exposeInt('index'),
    samples: t.exposeInt('samples'),
    avgUtilization: t.float({ nullable: true, resolve: (g) => g.avg_utilization }),
    maxUtilization: t.float({ nullable: true, resolve: (g) => g.max_utilization }),
    avgPowerW: t.float({ nullable: true, resolve: (g) => g.avg_power_w }),
    maxPowerW: t.float({ nullable: true, resolve: (g) => g.max_power_w }),
    maxMemoryUsedMib: t.float({ nullable: true, resolve: (g) => g.max_memory_used_mib }),
  }),
});

builder.prismaObject('AiperfRun', {
  interfaces: [NodeRef],
  description:
    "A load-test run against an OpenAI-compatible endpoint, its results and the GPUs' load in the same window.",
  fields: (t) => ({
    id: t.exposeID('id'),
    endpointUrl: t.exposeString('endpointUrl'),
    model: t.exposeString('model'),
    mode: t.field({ type: AiperfModeEnum, resolve: (r) => r.mode }),
    concurrency: t.exposeInt('concurrency', { nullable: true }),
    requestRate: t.exposeFloat('requestRate', { nullable: true }),
    requestCount: t.exposeInt('requestCount', { nullable: true }),
    durationS: t.exposeInt('durationS', { nullable: true }),
    inputTokens: t.exposeInt('inputTokens'),
    outputTokens: t.exposeInt('outputTokens'),
    streaming: t.exposeBoolean('streaming'),
    status: t.field({ type: AiperfRunStatusEnum, resolve: (r) => r.status as AiperfStatus }),
    cancelRequestedAt: t.expose('cancelRequestedAt', { type: 'DateTime', nullable: true }),
    results: t.field({
      type: AiperfResultsRef,
      nullable: true,
      resolve: (r) => (r.results ?? null) as unknown as AiperfResults | null,
    }),
    gpuTelemetry: t.field({
      type: [AiperfGpuLoadRef],
      resolve: (r) => (r.gpuTelemetry ?? []) as unknown as GpuWindowLoad[],
    }),
    error: t.exposeString('error', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

const StartGpuDiagnosticInput = builder.inputType('StartGpuDiagnosticInput', {
  fields: (t) => ({
    gpu: t.id({ description: 'A GPU id or UUID (`GPU-…`); or give node.' }),
    node: t.string({ description: 'Every GPU of this node; or give gpu.' }),
    level: t.int({ required: true, description: '1, 2 or 3, as `dcgmi diag -r`.' }),
  }),
});

const StartAiperfRunInput = builder.inputType('StartAiperfRunInput', {
  fields: (t) => ({
    endpointUrl: t.string({
      required: true,
      description: 'Base URL of the OpenAI-compatible server; `/v1/chat/completions` is appended.',
    }),
    model: t.string({ required: true }),
    mode: t.field({ type: AiperfModeEnum, required: true }),
    concurrency: t.int({
      description: 'Clients (CONCURRENCY mode, default 1), or the in-flight cap in REQUEST_RATE mode.',
    }),
    requestRate: t.float({ description: 'Requests per second (REQUEST_RATE mode).' }),
    requestCount: t.int({ description: 'Requests to send; or give durationS.' }),
    durationS: t.int({ description: 'Seconds to keep sending; or give requestCount.' }),
    inputTokens: t.int({ description: 'Prompt length in tokens (default 128).' }),
    outputTokens: t.int({ description: 'max_tokens of each request (default 64).' }),
    streaming: t.boolean({ description: 'Stream the responses (default true; TTFT and ITL need it).' }),
  }),
});

builder.queryFields((t) => ({
  gpuDiagnostic: t.prismaField({
    type: 'GpuDiagnostic',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found('GPU diagnostic', await ctx.db.gpuDiagnostic.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
  gpuDiagnostics: t.prismaField({
    type: ['GpuDiagnostic'],
    authScopes: { user: true },
    description: 'Diagnostics requests, newest first.',
    args: { limit: t.arg.int() },
    resolve: async (query, _root, args, ctx) => {
      const ids = (await listGpuDiagnostics(ctx, { limit: args.limit })).map((d) => d.id);
      return ctx.db.gpuDiagnostic.findMany({
        ...query,
        where: { id: { in: ids } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
    },
  }),
  aiperfRun: t.prismaField({
    type: 'AiperfRun',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found('AIPerf run', await ctx.db.aiperfRun.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
  aiperfRuns: t.prismaField({
    type: ['AiperfRun'],
    authScopes: { user: true },
    description: 'Load-test runs, newest first.',
    args: { status: t.arg({ type: AiperfRunStatusEnum }), limit: t.arg.int() },
    resolve: async (query, _root, args, ctx) => {
      const ids = (await listAiperfRuns(ctx, { status: args.status, limit: args.limit })).map((r) => r.id);
      return ctx.db.aiperfRun.findMany({
        ...query,
        where: { id: { in: ids } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
    },
  }),
}));

builder.mutationFields((t) => ({
  startGpuDiagnostic: t.prismaField({
    type: 'GpuDiagnostic',
    authScopes: { admin: true },
    description: 'Queues diagnostics for one GPU or a node; poll `gpuDiagnostic` for the checks.',
    args: { input: t.arg({ type: StartGpuDiagnosticInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const d = await startGpuDiagnostic(ctx, {
        gpu: input.gpu == null ? null : String(input.gpu),
        node: input.node,
        level: input.level,
      });
      return ctx.db.gpuDiagnostic.findUniqueOrThrow({ ...query, where: { id: d.id } });
    },
  }),
  startAiperfRun: t.prismaField({
    type: 'AiperfRun',
    authScopes: { admin: true },
    description:
      'Queues a load-test run; the endpoint URL must pass the outbound URL policy (no private addresses unless allowlisted).',
    args: { input: t.arg({ type: StartAiperfRunInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const r = await startAiperfRun(ctx, input);
      return ctx.db.aiperfRun.findUniqueOrThrow({ ...query, where: { id: r.id } });
    },
  }),
  cancelAiperfRun: t.prismaField({
    type: 'AiperfRun',
    authScopes: { admin: true },
    description: 'Cancels a queued or running run (CONFLICT when it has already ended).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const r = await cancelAiperfRun(ctx, String(args.id));
      return ctx.db.aiperfRun.findUniqueOrThrow({ ...query, where: { id: r.id } });
    },
  }),
}));
