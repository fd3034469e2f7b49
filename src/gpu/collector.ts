/**
 * The GPU collector (`ops gpu collect`): on a GPU host, runs `nvidia-smi --query-gpu=… --format=csv,
 * noheader,nounits` every interval, parses it, and POSTs the samples to the hub's
 * `/api/v1/ai-factory/gpu/samples` with the tenant's ingest key (X-Service-Key). Batches stay within
 * 5,000 samples and 1 MiB of JSON; a body over a few KiB is gzipped. A 429 waits its Retry-After; a
 * network error or 5xx is retried with backoff; a 401/403/4xx stops the collector (retrying cannot
 * help). A round that could not be delivered is kept and sent with the next (up to a bound), so a hub
 * restart loses nothing. `stop` (the first SIGINT/SIGTERM in the CLI) ends it after the round in flight
 * is delivered; `abort` (a second signal) gives up on the delivery at once (the samples are reported as
 * pending).
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import { gzipSync } from 'node:zlib';
import { GPU_METRICS, GPU_METRIC_INFO, type GpuSampleInput } from './samples.js';
import { nvidiaSmiArgs, parseNvidiaSmiCsv } from './nvidia-smi.js';
import { systemClock, type Clock } from '../clock.js';

export const COLLECTOR_LIMITS = {
  maxSamplesPerPost: 5000,
  maxBodyBytes: 960 * 1024,
  gzipAboveBytes: 4 * 1024,
  maxBacklog: 50_000,
  attempts: 6,
} as const;

/** nvidia-smi is not on PATH (or not at the given path): the operator must install it or point to it. */
export class NvidiaSmiMissing extends Error {
  constructor(readonly path: string) {
    super(
      `nvidia-smi was not found (${path}). It ships with the NVIDIA driver: install the driver on this GPU host ` +
        "(e.g. `apt install nvidia-driver-<version>` or NVIDIA's installer), or pass --nvidia-smi <path> if it is installed elsewhere.",
    );
  }
}

/** A failure retrying cannot fix (bad key, refused body): the collector stops. */
export class CollectorFatal extends Error {}

export interface CollectorOptions {
  hub: string;
  key: string;
  intervalMs: number;
  once: boolean;
  node: string;
  nvidiaSmi: string;
  /** Environment of the nvidia-smi child (its PATH finds a bare `nvidia-smi`). */
  env: NodeJS.ProcessEnv;
  /** Progress lines (stderr in the CLI). */
  log: (line: string) => void;
  /** Finish the round in flight (delivery included), then return. */
  stop?: AbortSignal;
  /** Give up at once, even on a delivery in progress. */
  abort?: AbortSignal;
  /** Stamps the samples (default: the system clock). */
  clock?: Clock;
  /** Time limit of one nvidia-smi run. */
  smiTimeoutMs?: number;
}

export interface CollectorResult {
  rounds: number;
  samples: number;
  posts: number;
  stored: number;
  events: number;
  /** POSTs sent gzipped. */
  gzipped: number;
  /** 429 answers waited out, and other transient failures retried. */
  rateLimited: number;
  retries: number;
  /** Samples collected but not delivered when the collector stopped. */
  pending: number;
}

/** Runs nvidia-smi with the collector's query; its CSV stdout. */
export function runNvidiaSmi(path: string, env: NodeJS.ProcessEnv, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      path,
      nvidiaSmiArgs(),
      { env, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, windowsHide: true },
      (err, stdout, stderr) => {
        if (err) {
          const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: unknown };
          if (e.code === 'ENOENT' || e.code === 'EACCES') return reject(new NvidiaSmiMissing(path));
          if (e.killed) return reject(new Error(`nvidia-smi did not answer within ${timeoutMs} ms`));
          return reject(
            new Error(
              `nvidia-smi failed (exit ${String(e.code)}): ${String(stderr || stdout)
                .trim()
                .slice(0, 300)}`,
            ),
          );
        }
        resolve(stdout);
      },
    );
  });
}

/** A sample as the push body carries it (REST metric names; missing metrics left out). */
export function sampleBody(s: GpuSampleInput): Record<string, unknown> {
  const out: Record<string, unknown> = { uuid: s.uuid, index: s.index, at: s.at.toISOString() };
  if (s.model) out.model = s.model;
  for (const m of GPU_METRICS) if (s[m] != null) out[GPU_METRIC_INFO[m].rest] = s[m];
  return out;
}

/** Push bodies of at most 5,000 samples and ~1 MiB of JSON each. */
export function pushBodies(node: string, samples: GpuSampleInput[]): string[] {
  const bodies: string[] = [];
  let batch: string[] = [];
  let size = 0;
  const head = `{"node":${JSON.stringify(node)},"samples":[`;
  const flush = () => {
    if (batch.length) bodies.push(head + batch.join(',') + ']}');
    batch = [];
    size = head.length + 2;
  };
  flush();
  for (const s of samples) {
    const json = JSON.stringify(sampleBody(s));
    if (batch.length >= COLLECTOR_LIMITS.maxSamplesPerPost || size + json.length + 1 > COLLECTOR_LIMITS.maxBodyBytes)
      flush();
    batch.push(json);
    size += json.length + 1;
  }
  flush();
  return bodies;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), bounded to 1..300. */
export function retryAfterMs(header: string | null, fallbackMs: number): number {
  if (!header) return fallbackMs;
  const n = Number(header);
  const ms = Number.isFinite(n) ? n * 1000 : new Date(header).getTime() - Date.now(); // an HTTP date from the hub: wall-clock time
  return Math.min(300_000, Math.max(1000, Number.isFinite(ms) ? ms : fallbackMs));
}

/**
 * POSTs one body, retrying transient failures (network errors, 5xx, 429 after its Retry-After) with
 * exponential backoff. Returns the hub's answer, or throws: CollectorFatal for a 4xx, Error when the
 * attempts ran out or the signal aborted.
 */
export async function postSamples(
  url: string,
  key: string,
  json: string,
  signal?: AbortSignal,
  counts = { rateLimited: 0, retries: 0, gzipped: 0 },
): Promise<{ samples: number; events: number }> {
  const gzip = Buffer.byteLength(json) > COLLECTOR_LIMITS.gzipAboveBytes;
  const body = gzip ? gzipSync(json) : json;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-service-key': key,
    'user-agent': 'ops-gpu-collector',
  };
  if (gzip) headers['content-encoding'] = 'gzip';
  let last = '';
  for (let attempt = 0; attempt < COLLECTOR_LIMITS.attempts; attempt++) {
    if (signal?.aborted) break;
    const backoff = Math.min(30_000, 500 * 2 ** attempt);
    let res: Response;
    try {
      res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) });
    } catch (err) {
      last = `cannot reach ${new URL(url).origin}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`;
      counts.retries++;
      await sleep(backoff, signal);
      continue;
    }
    const text = await res.text();
    if (res.status === 202 || res.status === 200) {
      if (gzip) counts.gzipped++;
      const answer = JSON.parse(text) as { samples?: number; events?: number };
      return { samples: answer.samples ?? 0, events: answer.events ?? 0 };
    }
    if (res.status === 429) {
      last = 'rate limited (429)';
      counts.rateLimited++;
      await sleep(retryAfterMs(res.headers.get('retry-after'), backoff), signal);
      continue;
    }
    if (res.status >= 500) {
      last = `HTTP ${res.status} from the hub`;
      counts.retries++;
      await sleep(backoff, signal);
      continue;
    }
    let detail = text.slice(0, 500);
    try {
      detail = JSON.stringify((JSON.parse(text) as { detail?: unknown }).detail ?? JSON.parse(text));
    } catch {
      /* not JSON: the text as is */
    }
    if (res.status === 401 || res.status === 403)
      throw new CollectorFatal(
        `The hub refused the ingest key (HTTP ${res.status}); check --key (the tenant's ingest key).`,
      );
    throw new CollectorFatal(`The hub refused the samples (HTTP ${res.status}): ${detail}`);
  }
  throw new Error(
    signal?.aborted
      ? 'stopped before the samples were delivered'
      : `could not deliver samples after ${COLLECTOR_LIMITS.attempts} attempts: ${last}`,
  );
}

/** The push URL for a hub base URL (with or without a path prefix). */
export function samplesUrl(hub: string): string {
  return `${hub.replace(/\/+$/, '')}/api/v1/ai-factory/gpu/samples`;
}

/** The host name used as the node when --node is not given. */
export function defaultNode(): string {
  return os.hostname();
}

/** Collects and pushes until stopped (or once); throws NvidiaSmiMissing and CollectorFatal at once. */
export async function collectGpuTelemetry(o: CollectorOptions): Promise<CollectorResult> {
  const url = samplesUrl(o.hub);
  const result: CollectorResult = {
    rounds: 0,
    samples: 0,
    posts: 0,
    stored: 0,
    events: 0,
    gzipped: 0,
    rateLimited: 0,
    retries: 0,
    pending: 0,
  };
  let backlog: GpuSampleInput[] = [];
  for (;;) {
    const started = performance.now();
    let csv: string | null = null;
    try {
      csv = await runNvidiaSmi(o.nvidiaSmi, o.env, o.smiTimeoutMs);
    } catch (err) {
      if (err instanceof NvidiaSmiMissing || o.once) throw err;
      o.log(`warning: ${(err as Error).message}`);
    }
    if (csv !== null) {
      const samples = parseNvidiaSmiCsv(csv, o.node, (o.clock ?? systemClock).now());
      result.rounds++;
      result.samples += samples.length;
      if (samples.length === 0) o.log('warning: nvidia-smi listed no GPU');
      backlog.push(...samples);
      if (backlog.length > COLLECTOR_LIMITS.maxBacklog) {
        o.log(`warning: dropping ${backlog.length - COLLECTOR_LIMITS.maxBacklog} oldest undelivered samples`);
        backlog = backlog.slice(-COLLECTOR_LIMITS.maxBacklog);
      }
    }
    if (backlog.length) {
      try {
        for (const body of pushBodies(o.node, backlog)) {
          const r = await postSamples(url, o.key, body, o.abort, result);
          result.posts++;
          result.stored += r.samples;
          result.events += r.events;
        }
        o.log(
          `pushed ${backlog.length} sample(s) of ${new Set(backlog.map((s) => s.uuid)).size} GPU(s) to ${new URL(url).origin}`,
        );
        backlog = [];
      } catch (err) {
        if (err instanceof CollectorFatal || o.once) {
          result.pending = backlog.length;
          throw err;
        }
        // Kept for the next round; already delivered batches are skipped by the hub as repeats.
        o.log(`warning: ${(err as Error).message}; will retry with the next round`);
      }
    }
    if (o.once || o.stop?.aborted || o.abort?.aborted) break;
    await sleep(Math.max(0, o.intervalMs - (performance.now() - started)), o.stop);
    if (o.stop?.aborted || o.abort?.aborted) break;
  }
  result.pending = backlog.length;
  return result;
}
