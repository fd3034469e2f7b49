/**
 * The aiperf job: claims a queued run, drives the load (fixed concurrency or a request-rate schedule),
 * then records the results and the GPUs' load of the window.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Runtime } from '../runtime.js';
import type { AiperfRun, Prisma } from '../generated/prisma/client.js';
import { disallowedAddressOf, guardedLookup, urlPolicyOf } from '../net/url-guard.js';
import { measureChatCompletion, type RequestMeasure } from './aiperf-client.js';
import { guardedDispatcher } from '../net/dispatcher.js';
import { arrivalOffsetsMs } from './percentiles.js';
import { AIPERF_LIMITS, type AiperfStatus } from './aiperf.js';
import { aggregateResults, gpuLoadBetween } from './aiperf-results.js';

interface Plan {
  run: AiperfRun;
  signal: AbortSignal;
  measure: (seed: number) => Promise<RequestMeasure>;
}

async function driveConcurrency({ run, signal, measure }: Plan, out: RequestMeasure[]): Promise<void> {
  const until = run.durationS != null ? performance.now() + run.durationS * 1000 : Number.POSITIVE_INFINITY;
  let issued = 0;
  const more = () =>
    !signal.aborted && performance.now() < until && (run.requestCount == null || issued < run.requestCount);
  const client = async () => {
    while (more()) out.push(await measure(issued++));
  };
  await Promise.all(Array.from({ length: run.concurrency ?? 1 }, client));
}

async function driveRequestRate({ run, signal, measure }: Plan, out: RequestMeasure[]): Promise<void> {
  const offsets = arrivalOffsetsMs(run.requestRate!, {
    count: run.requestCount,
    durationMs: run.durationS != null ? run.durationS * 1000 : null,
  });
  const cap = run.concurrency ?? AIPERF_LIMITS.defaultRateInFlight;
  const inFlight = new Set<Promise<void>>();
  const t0 = performance.now();
  for (let i = 0; i < offsets.length && !signal.aborted; i++) {
    const wait = t0 + offsets[i]! - performance.now();
    if (wait > 0) await sleep(wait, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) break;
    // At the in-flight cap the schedule slips rather than piling up unbounded requests.
    while (inFlight.size >= cap) await Promise.race(inFlight);
    const p: Promise<void> = measure(i).then((m) => {
      out.push(m);
      inFlight.delete(p);
    });
    inFlight.add(p);
  }
  await Promise.all(inFlight);
}

async function finishRun(rt: Runtime, runId: string, data: Prisma.AiperfRunUpdateManyMutationInput): Promise<void> {
  await rt.prisma.aiperfRun.updateMany({
    where: { id: runId, status: 'running' },
    data: { finishedAt: rt.clock.now(), ...data },
  });
}

/**
 * The job: claims a queued run (a duplicate or cancelled one is skipped), checks the URL again against
 * the SSRF policy, drives the load with a cancel watch and a total deadline, then records the results
 * and the GPUs' load of the window. Returns the final status.
 */
export async function executeAiperfRun(
  rt: Runtime,
  runId: string,
  shutdown?: AbortSignal,
): Promise<AiperfStatus | 'skipped'> {
  const startedAt = rt.clock.now();
  const claimed = await rt.prisma.aiperfRun.updateMany({
    where: { id: runId, status: 'queued' },
    data: { status: 'running', startedAt },
  });
  if (claimed.count === 0) return 'skipped';
  const run = await rt.prisma.aiperfRun.findUniqueOrThrow({ where: { id: runId } });
  let refused: string | null;
  try {
    refused = await disallowedAddressOf(new URL(run.endpointUrl), urlPolicyOf(rt));
  } catch {
    refused = 'unresolvable';
  }
  if (refused) {
    await finishRun(rt, runId, {
      status: 'failed',
      error: `The endpoint's host resolves to ${refused}, which the outbound URL policy refuses.`,
    });
    return 'failed';
  }

  const dispatcher = await guardedDispatcher(guardedLookup(urlPolicyOf(rt)));
  const stop = new AbortController();
  let cancelled = false;
  const deadlineMs =
    run.durationS != null ? run.durationS * 1000 + AIPERF_LIMITS.requestTimeoutMs : AIPERF_LIMITS.maxRunMs;
  const deadline = setTimeout(() => stop.abort(new Error('the run reached its deadline')), deadlineMs);
  // A worker shutting down (SIGTERM) stops the run rather than holding the process for its duration.
  const onShutdown = () => stop.abort(new Error('the worker shut down'));
  if (shutdown?.aborted) onShutdown();
  shutdown?.addEventListener('abort', onShutdown, { once: true });
  const watch = setInterval(() => {
    rt.prisma.aiperfRun
      .findUnique({ where: { id: runId }, select: { cancelRequestedAt: true } })
      .then((r) => {
        if (r?.cancelRequestedAt && !stop.signal.aborted) {
          cancelled = true;
          stop.abort(new Error('the run was cancelled'));
        }
      })
      .catch((err: Error) => rt.logger.warn({ err: err.message, runId }, 'could not read the cancel flag'));
  }, AIPERF_LIMITS.cancelPollMs);

  const measures: RequestMeasure[] = [];
  const t0 = performance.now();
  const plan: Plan = {
    run,
    signal: stop.signal,
    measure: (seed) =>
      measureChatCompletion(
        {
          endpointUrl: run.endpointUrl,
          model: run.model,
          inputTokens: run.inputTokens,
          outputTokens: run.outputTokens,
          streaming: run.streaming,
          timeoutMs: AIPERF_LIMITS.requestTimeoutMs,
          signal: stop.signal,
          dispatcher: dispatcher ?? undefined,
        },
        seed,
      ),
  };
  try {
    await (run.mode === 'request_rate' ? driveRequestRate(plan, measures) : driveConcurrency(plan, measures));
  } catch (err) {
    rt.logger.error({ err, runId }, 'aiperf run broke');
    await finishRun(rt, runId, { status: 'failed', error: `The run broke: ${(err as Error).message}`.slice(0, 1000) });
    return 'failed';
  } finally {
    clearTimeout(deadline);
    clearInterval(watch);
    shutdown?.removeEventListener('abort', onShutdown);
    await dispatcher?.close().catch(() => undefined);
  }
  const wallMs = performance.now() - t0;
  const finishedAt = rt.clock.now();
  // Requests cut short by a cancel are not the endpoint's errors.
  const counted =
    cancelled || shutdown?.aborted ? measures.filter((m) => m.ok || !m.error?.startsWith('aborted')) : measures;
  const results = aggregateResults(counted, wallMs);
  const gpuTelemetry = await gpuLoadBetween(rt, run.tenantId, startedAt, finishedAt);
  let status: AiperfStatus = 'succeeded';
  let error: string | null = null;
  if (cancelled) status = 'cancelled';
  else if (shutdown?.aborted) {
    status = 'failed';
    error =
      'The worker running this run shut down; the results cover the requests sent until then. Start the run again.';
  } else if (results.requests === 0 || results.errors === results.requests) {
    status = 'failed';
    error =
      results.requests === 0 ? 'No request was sent.' : `Every request failed: ${results.error_samples[0] ?? 'error'}`;
  }
  await finishRun(rt, runId, {
    status,
    error,
    finishedAt,
    results: results as unknown as Prisma.InputJsonValue,
    gpuTelemetry: gpuTelemetry as unknown as Prisma.InputJsonValue,
  });
  return status;
}
