/**
 * The operator command `ops gpu collect --hub <url> --key <ingest key> [--interval 10s] [--once]
 * [--node <name>] [--nvidia-smi <path>]`, shaped like the CLI's Command entries (name, synopsis,
 * options, run → {json, text}) so the CLI lists it with one line. It runs on a GPU host and needs no
 * database (`standalone`). The logic is collectGpuTelemetry (collector.ts). The key is never printed.
 */
import { parseDurationMs } from '../duration.js';
import { systemClock, type Clock } from '../clock.js';
import { CollectorFatal, collectGpuTelemetry, defaultNode, NvidiaSmiMissing } from './collector.js';

type Values = Record<string, string | boolean | undefined>;

/** A mistake the operator must fix (exit code 2 with the usage). */
class CollectUsageError extends Error {}

const MIN_INTERVAL_MS = 1000;

function hubUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new CollectUsageError(`--hub must be the hub's base URL, e.g. https://ops.example.com, got "${raw}".`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new CollectUsageError('--hub must be an http or https URL.');
  return raw;
}

export const gpuCollectCommand = {
  name: 'gpu collect',
  summary:
    "On a GPU host: run nvidia-smi every interval and push the samples to a hub's /ai-factory/gpu/samples with the tenant's ingest key.",
  synopsis: '--hub URL --key INGEST_KEY [--interval 10s] [--once] [--node NAME] [--nvidia-smi PATH] [--json]',
  options: {
    hub: { type: 'string' as const },
    key: { type: 'string' as const },
    interval: { type: 'string' as const },
    once: { type: 'boolean' as const },
    node: { type: 'string' as const },
    'nvidia-smi': { type: 'string' as const },
  },
  required: ['hub', 'key'],
  /** Needs no database or Redis: the CLI runs it without opening storage. */
  standalone: true,
  /** Thrown for a mistake in the call; the CLI prints it with the usage and exits 2. */
  usageErrors: [CollectUsageError, NvidiaSmiMissing],
  async run(
    _rt: unknown,
    v: Values,
    env: NodeJS.ProcessEnv = process.env,
    clock: Clock = systemClock,
  ): Promise<{ json: unknown; text: string }> {
    const hub = hubUrl(String(v.hub ?? ''));
    const intervalRaw = typeof v.interval === 'string' ? v.interval : '10s';
    const intervalMs = parseDurationMs(intervalRaw);
    if (intervalMs === null || intervalMs < MIN_INTERVAL_MS)
      throw new CollectUsageError(`--interval must be a duration of at least 1s (e.g. 10s, 1m), got "${intervalRaw}".`);
    const node = typeof v.node === 'string' && v.node.trim() ? v.node.trim() : defaultNode();
    if (node.length > 200) throw new CollectUsageError('--node must be at most 200 characters.');
    // First SIGINT/SIGTERM: finish the round in flight and exit; a second: give up on it at once.
    const stop = new AbortController();
    const abort = new AbortController();
    const onSignal = () => {
      if (stop.signal.aborted) abort.abort();
      else {
        stop.abort();
        process.stderr.write('gpu collect: stopping after the round in flight (signal again to stop at once)\n');
      }
    };
    if (!v.once) {
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    }
    try {
      const r = await collectGpuTelemetry({
        hub,
        key: String(v.key ?? ''),
        intervalMs,
        once: v.once === true,
        node,
        nvidiaSmi: typeof v['nvidia-smi'] === 'string' && v['nvidia-smi'] ? v['nvidia-smi'] : 'nvidia-smi',
        env,
        clock,
        log: (line) => process.stderr.write(`gpu collect: ${line}\n`),
        stop: stop.signal,
        abort: abort.signal,
      });
      return {
        json: {
          node,
          rounds: r.rounds,
          samples: r.samples,
          posts: r.posts,
          stored: r.stored,
          events: r.events,
          gzipped: r.gzipped,
          rate_limited: r.rateLimited,
          retries: r.retries,
          pending: r.pending,
        },
        text:
          `Collected ${r.samples} sample(s) in ${r.rounds} round(s) on ${node}; ${r.stored} stored by the hub in ${r.posts} POST(s)` +
          (r.pending ? `; ${r.pending} not delivered.` : '.'),
      };
    } catch (err) {
      if (err instanceof CollectorFatal) throw new Error(err.message);
      throw err;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};
