/**
 * Scraping dcgm-exporter endpoints (the `dcgm` integration's pull and probe): a GET of each target
 * through the integrations' SSRF guard (the outbound policy, WEBHOOK_URL_ALLOWLIST; no redirects; a
 * whole-request deadline; a bounded body), parsed with parseDcgmText. A target that fails is reported
 * with why; the others still count.
 */
import { guardedGet } from '../net/http.js';
import type { UrlPolicy } from '../net/url-guard.js';
import { parseDcgmText } from './dcgm.js';
import type { GpuSampleInput } from './samples.js';

/** Largest exporter answer read (a node with 8 GPUs and every default counter is ~100 KiB). */
export const SCRAPE_MAX_BYTES = 5 * 1024 * 1024;
/** Targets scraped at once. */
const CONCURRENCY = 8;

export interface TargetResult {
  target: string;
  ok: boolean;
  gpus: number;
  latencyMs: number | null;
  error: string | null;
}

export interface ScrapeResult {
  samples: GpuSampleInput[];
  targets: TargetResult[];
}

/** The node name of a target's GPUs when the exporter sends no `Hostname` label: the target's host. */
export function targetHost(target: string): string {
  try {
    return new URL(target).hostname.replace(/^\[(.*)\]$/, '$1') || target;
  } catch {
    return target;
  }
}

/** One scrape of one exporter; throws with a one-line reason (status, parse error, guard refusal). */
export async function scrapeDcgmTarget(
  target: string,
  opts: { policy: UrlPolicy; timeoutMs: number },
  at: Date,
): Promise<{ samples: GpuSampleInput[]; latencyMs: number }> {
  const r = await guardedGet(target, {
    policy: opts.policy,
    timeoutMs: opts.timeoutMs,
    headers: { accept: 'text/plain' },
    maxBytes: SCRAPE_MAX_BYTES,
  });
  if (r.status < 200 || r.status > 299) throw new Error(`HTTP ${r.status}`);
  let samples: GpuSampleInput[];
  try {
    samples = parseDcgmText(r.body, at, targetHost(target));
  } catch (err) {
    throw new Error(`not Prometheus text format: ${(err as Error).message.slice(0, 200)}`);
  }
  return { samples, latencyMs: r.latencyMs };
}

/** Scrapes every target (a few at a time); all samples carry the same scrape time. */
export async function scrapeDcgmTargets(
  targets: string[],
  opts: { policy: UrlPolicy; timeoutMs: number },
  at: Date,
): Promise<ScrapeResult> {
  const results: TargetResult[] = new Array(targets.length);
  const samples: GpuSampleInput[][] = new Array(targets.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < targets.length; i = next++) {
      const target = targets[i]!;
      try {
        const s = await scrapeDcgmTarget(target, opts, at);
        samples[i] = s.samples;
        results[i] = { target, ok: true, gpus: s.samples.length, latencyMs: s.latencyMs, error: null };
      } catch (err) {
        samples[i] = [];
        results[i] = { target, ok: false, gpus: 0, latencyMs: null, error: (err as Error).message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, targets.length) }, worker));
  return { samples: samples.flat(), targets: results };
}

/** "http://h:9400/metrics: HTTP 500; …" for the failed targets (at most `max` named). */
export function describeFailures(targets: TargetResult[], max = 5): string {
  const failed = targets.filter((t) => !t.ok);
  const named = failed.slice(0, max).map((t) => `${t.target}: ${t.error}`);
  return named.join('; ') + (failed.length > max ? `; and ${failed.length - max} more` : '');
}
