/**
 * A small HTTP load generator on node:http with keep-alive sockets: closed-loop (N connections, each
 * sending its next request when the previous answered) for throughput, and open-loop (a fixed rate,
 * whatever the latency) for latency at a given load. Latencies are measured per request in ms.
 */
import http from 'node:http';

export interface LoadRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface LoadResult {
  sent: number;
  /** Count per HTTP status (0 = transport error). */
  statuses: Record<number, number>;
  /** Latencies of requests answered with `okStatus`, ms. */
  latencies: Float64Array;
  durationMs: number;
}

function post(agent: http.Agent, base: URL, req: LoadRequest): Promise<number> {
  return new Promise((resolve) => {
    const r = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: 'POST',
        path: req.path,
        headers: { ...req.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(req.body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    r.on('error', () => resolve(0));
    r.end(req.body);
  });
}

class Recorder {
  sent = 0;
  statuses: Record<number, number> = {};
  private lat = new Float64Array(1 << 20);
  private n = 0;
  constructor(private readonly okStatus: number) {}
  record(status: number, ms: number, measure: boolean): void {
    if (!measure) return;
    this.sent++;
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (status === this.okStatus) {
      if (this.n === this.lat.length) {
        const bigger = new Float64Array(this.lat.length * 2);
        bigger.set(this.lat);
        this.lat = bigger;
      }
      this.lat[this.n++] = ms;
    }
  }
  latencies(): Float64Array {
    return this.lat.slice(0, this.n);
  }
}

/**
 * `connections` loops each POSTing `next()` back to back for `warmupMs + durationMs`; only the last
 * `durationMs` is recorded.
 */
export async function closedLoop(opts: {
  baseUrl: string;
  connections: number;
  warmupMs: number;
  durationMs: number;
  okStatus: number;
  next: (i: number) => LoadRequest;
}): Promise<LoadResult> {
  const base = new URL(opts.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const rec = new Recorder(opts.okStatus);
  const start = performance.now();
  const measureFrom = start + opts.warmupMs;
  const end = measureFrom + opts.durationMs;
  let counter = 0;
  await Promise.all(
    Array.from({ length: opts.connections }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const status = await post(agent, base, opts.next(counter++));
        const t1 = performance.now();
        rec.record(status, t1 - t0, t0 >= measureFrom && t1 <= end);
      }
    }),
  );
  agent.destroy();
  return { sent: rec.sent, statuses: rec.statuses, latencies: rec.latencies(), durationMs: opts.durationMs };
}

/** POSTs at `ratePerSecond` (in 10 ms ticks) for `durationMs`, however long answers take. */
export async function openLoop(opts: {
  baseUrl: string;
  ratePerSecond: number;
  durationMs: number;
  okStatus: number;
  maxSockets?: number;
  next: (i: number) => LoadRequest;
}): Promise<LoadResult> {
  const base = new URL(opts.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 100 });
  const rec = new Recorder(opts.okStatus);
  const inflight: Array<Promise<void>> = [];
  const start = performance.now();
  let issued = 0;
  while (performance.now() - start < opts.durationMs) {
    const due = Math.floor(((performance.now() - start) / 1000) * opts.ratePerSecond);
    for (; issued < due; issued++) {
      const t0 = performance.now();
      inflight.push(
        post(agent, base, opts.next(issued)).then((status) => rec.record(status, performance.now() - t0, true)),
      );
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await Promise.all(inflight);
  agent.destroy();
  return { sent: rec.sent, statuses: rec.statuses, latencies: rec.latencies(), durationMs: opts.durationMs };
}

/** The q-quantile (0..1) of the values, nearest-rank. */
export function quantile(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** "p50 1.2 ms, p99 8.4 ms" style summary of latencies. */
export function latencySummary(values: ArrayLike<number>): { p50: number; p99: number; max: number } {
  return { p50: quantile(values, 0.5), p99: quantile(values, 0.99), max: quantile(values, 1) };
}
