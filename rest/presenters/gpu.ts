/**
 * REST shapes of the GPU area (snake_case; metric names as in GPU_METRIC_INFO, enum values lowercase).
 */
import { GPU_METRICS, GPU_METRIC_INFO, type GpuMetric } from '../../src/gpu/samples.js';

type Node = Record<string, any>;

/** `{utilization: 87, memUsedMib: …}` → `{utilization: 87, memory_used_mib: …}` (every metric, null when missing). */
function presentGpuValues(v: Node | null | undefined): Record<string, number | null> {
  return Object.fromEntries(GPU_METRICS.map((m) => [GPU_METRIC_INFO[m].rest, v?.[m] ?? null]));
}

function presentGpu(g: Node): Record<string, unknown> {
  return {
    id: g.id,
    uuid: g.uuid,
    node: g.node,
    index: g.index,
    model: g.model ?? null,
    source: g.source,
    health: g.health.status,
    health_reasons: g.health.reasons,
    latest: presentGpuValues(g.latest),
    last_xid: g.lastXid ?? null,
    last_xid_at: g.lastXidAt ?? null,
    first_seen_at: g.firstSeenAt,
    last_seen_at: g.lastSeenAt,
  };
}

function presentFleet(f: Node): Record<string, unknown> {
  return {
    gpus: f.gpus,
    nodes: f.nodes,
    by_health: f.byHealth,
    avg_utilization: f.avgUtilization ?? null,
    memory_used_mib: f.memUsedMib,
    memory_total_mib: f.memTotalMib,
    power_w: f.powerW,
  };
}

export function presentGpuSummary(s: Node): Record<string, unknown> {
  return { fleet: presentFleet(s.fleet), gpus: s.gpus.map(presentGpu) };
}

export function presentTimeseries(t: Node): Record<string, unknown> {
  const info = GPU_METRIC_INFO[t.metric as GpuMetric];
  return {
    metric: info.rest,
    unit: info.unit,
    step_seconds: t.stepSeconds,
    resolution: t.resolution,
    series: t.series.map((s: Node) => ({
      gpu: { id: s.gpu.id, uuid: s.gpu.uuid, node: s.gpu.node, index: s.gpu.index },
      points: s.points.map((p: Node) => [p.t, p.v]),
    })),
  };
}

/** A hardware event (a `gpu.*` timeline event) with what the XID catalogue says about it. */
export function presentGpuEvent(e: Node): Record<string, unknown> {
  return {
    id: e.id,
    type: e.type,
    severity: e.severity,
    summary: e.summary,
    node: e.labels?.node ?? null,
    gpu_uuid: e.labels?.uuid ?? null,
    gpu_index: e.labels?.gpu != null ? Number(e.labels.gpu) : null,
    payload: e.payload,
    received_at: e.receivedAt,
  };
}

export function presentOverview(o: Node): Record<string, unknown> {
  return {
    fleet: presentFleet(o.fleet),
    idle_gpus: o.idleGpus,
    energy_today_kwh: o.energyTodayKwh,
    open_gpu_alerts: o.openGpuAlerts,
    recent_events: o.recentEvents.map(presentGpuEvent),
  };
}
