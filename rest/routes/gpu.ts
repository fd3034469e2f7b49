/**
 * REST routes of the GPU area (`/ai-factory/*`): telemetry push from the collector (ingest key, like
 * POST /events), the fleet summary, time series, hardware events and the overview. The reads run the
 * GraphQL operations of schema/gpu.ts; the push is a HandlerRoute (a batch of samples, not one field).
 */
import type { RouteEntry } from '../route-types.js';
import { ingestKeyAuth } from '../../src/events/ingest-auth.js';
import { parseGpuPush } from '../../src/gpu/push.js';
import { recordGpuSamples } from '../../src/gpu/telemetry.js';
import { GPU_METRICS, GPU_METRIC_INFO } from '../../src/gpu/samples.js';
import { presentGpuEvent, presentGpuSummary, presentOverview, presentTimeseries } from '../presenters/gpu.js';

const VALUES = GPU_METRICS.join(' ');
const GPU_FIELDS = `id uuid node index model source health { status reasons } latest { ${VALUES} } lastXid lastXidAt firstSeenAt lastSeenAt`;
const FLEET_FIELDS =
  'gpus nodes byHealth { healthy warning critical missing unknown } avgUtilization memUsedMib memTotalMib powerW';
const EVENT_FIELDS = 'id type severity summary labels payload receivedAt';

const num = (v: unknown) => (v === undefined || v === null || v === '' ? null : Number(v));

export const gpuRoutes: RouteEntry[] = [
  {
    method: 'post',
    path: '/ai-factory/gpu/samples',
    auth: ingestKeyAuth,
    // parseGpuPush (src/gpu/push.ts) checks the body field by field with the same 422 shape; the OpenAPI
    // validator walking 5,000 samples again cost more than the push's own checks.
    validatesOwnInput: true,
    handler: async (req, res) => {
      const result = await recordGpuSamples(req.ctx, parseGpuPush(req.body, req.ctx.rt.clock.now()), 'nvidia-smi');
      res.status(202).json({ status: 'accepted', gpus: result.gpus, samples: result.samples, events: result.events });
    },
  },
  {
    method: 'get',
    path: '/ai-factory/overview',
    operation: `query AiFactoryOverview { aiFactoryOverview { fleet { ${FLEET_FIELDS} } idleGpus energyTodayKwh openGpuAlerts recentEvents { ${EVENT_FIELDS} } } }`,
    respond: (data) => presentOverview(data.aiFactoryOverview),
  },
  {
    method: 'get',
    path: '/ai-factory/gpu/summary',
    operation: `query GpuSummary($node: String) { gpuSummary(node: $node) { fleet { ${FLEET_FIELDS} } gpus { ${GPU_FIELDS} } } }`,
    variables: (req) => ({ node: req.query.node ?? null }),
    respond: (data) => presentGpuSummary(data.gpuSummary),
  },
  {
    method: 'get',
    path: '/ai-factory/gpu/timeseries',
    operation: `query GpuTimeseries($metric: GpuMetric!, $gpu: ID, $node: String, $sinceHours: Float, $stepSeconds: Int) {
      gpuTimeseries(metric: $metric, gpu: $gpu, node: $node, sinceHours: $sinceHours, stepSeconds: $stepSeconds) { metric stepSeconds resolution series { gpu { id uuid node index } points { t v } } }
    }`,
    variables: (req) => ({
      ...req.query,
      metric: GPU_METRICS.find((m) => GPU_METRIC_INFO[m].rest === req.query.metric) ?? req.query.metric,
      stepSeconds: num(req.query.step),
    }),
    respond: (data) => presentTimeseries(data.gpuTimeseries),
  },
  {
    method: 'get',
    path: '/ai-factory/gpu/events',
    operation: `query GpuEvents($sinceHours: Float, $type: String, $node: String, $limit: Int) { gpuEvents(sinceHours: $sinceHours, type: $type, node: $node, limit: $limit) { ${EVENT_FIELDS} } }`,
    variables: (req) => ({ ...req.query }),
    respond: (data) => ({ items: data.gpuEvents.map(presentGpuEvent) }),
  },
];
