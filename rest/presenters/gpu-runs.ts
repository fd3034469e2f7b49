/**
 * REST shapes of GPU diagnostics and load-test runs: snake_case, lowercase enum values (GraphQL's are
 * UPPER_CASE). Every route returning one of these uses these functions and the selections beside them.
 */
type Node = Record<string, any>;

export const GPU_DIAGNOSTIC_FIELDS =
  'id gpuIds gpu node level status result checks { name gpuUuid status detail } error createdAt startedAt finishedAt';

/** A diagnostics request with its checks. */
export function presentGpuDiagnostic(d: Node): Record<string, unknown> {
  return {
    id: d.id,
    status: d.status,
    result: d.result,
    level: d.level,
    gpu: d.gpu,
    node: d.node,
    gpu_ids: d.gpuIds,
    checks: (d.checks as Node[]).map((c) => ({
      name: c.name,
      gpu_uuid: c.gpuUuid,
      status: c.status,
      detail: c.detail,
    })),
    error: d.error,
    created_at: d.createdAt,
    started_at: d.startedAt,
    finished_at: d.finishedAt,
  };
}

const STAT = '{ p50 p90 p99 avg }';
export const AIPERF_RUN_FIELDS = `id status endpointUrl model mode concurrency requestRate requestCount durationS inputTokens outputTokens streaming cancelRequestedAt error createdAt startedAt finishedAt
  results { ttftMs ${STAT} itlMs ${STAT} requestLatencyMs ${STAT} outputTokensPerS requestsPerS errors requests outputTokens durationS errorSamples }
  gpuTelemetry { gpuId uuid node index samples avgUtilization maxUtilization avgPowerW maxPowerW maxMemoryUsedMib }`;

function presentResults(r: Node | null): Record<string, unknown> | null {
  if (!r) return null;
  return {
    ttft_ms: r.ttftMs,
    itl_ms: r.itlMs,
    request_latency_ms: r.requestLatencyMs,
    output_tokens_per_s: r.outputTokensPerS,
    requests_per_s: r.requestsPerS,
    errors: r.errors,
    requests: r.requests,
    output_tokens: r.outputTokens,
    duration_s: r.durationS,
    error_samples: r.errorSamples,
  };
}

/** A load-test run with its results and the GPUs' load of its window. */
export function presentAiperfRun(r: Node): Record<string, unknown> {
  return {
    id: r.id,
    status: r.status,
    endpoint_url: r.endpointUrl,
    model: r.model,
    mode: r.mode,
    concurrency: r.concurrency,
    request_rate: r.requestRate,
    request_count: r.requestCount,
    duration_s: r.durationS,
    input_tokens: r.inputTokens,
    output_tokens: r.outputTokens,
    streaming: r.streaming,
    results: presentResults(r.results),
    gpu_telemetry: (r.gpuTelemetry as Node[]).map((g) => ({
      gpu_id: g.gpuId,
      uuid: g.uuid,
      node: g.node,
      index: g.index,
      samples: g.samples,
      avg_utilization: g.avgUtilization,
      max_utilization: g.maxUtilization,
      avg_power_w: g.avgPowerW,
      max_power_w: g.maxPowerW,
      max_memory_used_mib: g.maxMemoryUsedMib,
    })),
    error: r.error,
    cancel_requested_at: r.cancelRequestedAt,
    created_at: r.createdAt,
    started_at: r.startedAt,
    finished_at: r.finishedAt,
  };
}
