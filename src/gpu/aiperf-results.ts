/**
 * What an aiperf run measured: the request statistics (TTFT, inter-token latency, throughput) and the
 * load of the tenant's GPUs over the run's window.
 */
import type { Runtime } from '../runtime.js';
import type { RequestMeasure } from './aiperf-client.js';
import { summarize, type Stat } from './percentiles.js';

export interface AiperfResults {
  ttft_ms: Stat;
  itl_ms: Stat;
  request_latency_ms: Stat;
  output_tokens_per_s: number | null;
  requests_per_s: number | null;
  errors: number;
  requests: number;
  output_tokens: number;
  duration_s: number;
  /** Up to five distinct error messages, for the first look. */
  error_samples: string[];
}

/** Results of a set of measured requests over a wall-clock window. */
export function aggregateResults(measures: RequestMeasure[], wallMs: number): AiperfResults {
  const ok = measures.filter((m) => m.ok);
  const outputTokens = ok.reduce((s, m) => s + m.outputTokens, 0);
  const seconds = wallMs / 1000;
  const rate = (n: number) => (seconds > 0 && ok.length ? Math.round((n / seconds) * 1000) / 1000 : null);
  return {
    ttft_ms: summarize(ok.map((m) => m.ttftMs).filter((v): v is number => v != null)),
    itl_ms: summarize(ok.flatMap((m) => m.itlMs)),
    request_latency_ms: summarize(ok.map((m) => m.latencyMs)),
    output_tokens_per_s: rate(outputTokens),
    requests_per_s: rate(ok.length),
    errors: measures.length - ok.length,
    requests: measures.length,
    output_tokens: outputTokens,
    duration_s: Math.round(seconds * 1000) / 1000,
    error_samples: [...new Set(measures.filter((m) => !m.ok).map((m) => m.error ?? 'error'))].slice(0, 5),
  };
}

export interface GpuWindowLoad {
  gpu_id: string;
  uuid: string;
  node: string;
  index: number;
  samples: number;
  avg_utilization: number | null;
  max_utilization: number | null;
  avg_power_w: number | null;
  max_power_w: number | null;
  max_memory_used_mib: number | null;
}

const r2 = (v: number | null | undefined) => (v == null ? null : Math.round(v * 100) / 100);

/** Average and peak load of each of the tenant's GPUs that reported between `from` and `to` (the run's window). */
export async function gpuLoadBetween(rt: Runtime, tenantId: string, from: Date, to: Date): Promise<GpuWindowLoad[]> {
  const groups = await rt.prisma.gpuSample.groupBy({
    by: ['gpuId'],
    where: { tenantId, at: { gte: from, lte: to } },
    _count: { _all: true },
    _avg: { utilization: true, powerW: true },
    _max: { utilization: true, powerW: true, memUsedMib: true },
  });
  if (groups.length === 0) return [];
  const gpus = await rt.prisma.gpu.findMany({
    where: { tenantId, id: { in: groups.map((g) => g.gpuId) } },
    select: { id: true, uuid: true, node: true, index: true },
  });
  const byId = new Map(gpus.map((g) => [g.id, g]));
  return groups
    .filter((g) => byId.has(g.gpuId))
    .map((g) => {
      const gpu = byId.get(g.gpuId)!;
      return {
        gpu_id: gpu.id,
        uuid: gpu.uuid,
        node: gpu.node,
        index: gpu.index,
        samples: g._count._all,
        avg_utilization: r2(g._avg.utilization),
        max_utilization: r2(g._max.utilization),
        avg_power_w: r2(g._avg.powerW),
        max_power_w: r2(g._max.powerW),
        max_memory_used_mib: r2(g._max.memUsedMib),
      };
    })
    .sort((a, b) => a.node.localeCompare(b.node) || a.index - b.index);
}
