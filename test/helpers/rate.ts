/**
 * Rate-limit tests without a wall-clock bet: instead of hoping one burst of requests lands inside one
 * second, bursts are sent until the limiter answers 429 (a correct limiter must, once a burst outruns
 * it; a missing one never does and the test fails at the deadline), and what was accepted is checked
 * against the bound a per-second limit implies for the time the bursts took, however slow the machine.
 */
import type { HttpResult } from './http.js';

export interface BurstOutcome {
  results: HttpResult[];
  accepted: HttpResult[];
  limited: HttpResult[];
  /** From the first request sent to the last answer received. */
  elapsedMs: number;
  /** The most a limit of `perSecond` in fixed one-second windows can accept in `elapsedMs`. */
  maxAccepted: number;
}

/**
 * Sends `size` concurrent requests at a time until at least one is answered 429 (or `deadlineMs`
 * passes, which throws). `acceptedStatus` is what a request under the limit gets.
 */
export async function burstUntilLimited(
  send: () => Promise<HttpResult>,
  opts: { perSecond: number; acceptedStatus: number; size?: number; deadlineMs?: number },
): Promise<BurstOutcome> {
  const size = opts.size ?? 3 * opts.perSecond;
  const deadline = Date.now() + (opts.deadlineMs ?? 60_000);
  const started = Date.now();
  const results: HttpResult[] = [];
  for (;;) {
    results.push(...(await Promise.all(Array.from({ length: size }, send))));
    const unexpected = results.filter((r) => r.status !== opts.acceptedStatus && r.status !== 429);
    if (unexpected.length)
      throw new Error(
        `unexpected answers in the burst: ${unexpected.map((r) => `${r.status} ${JSON.stringify(r.body)}`).join('; ')}`,
      );
    if (results.some((r) => r.status === 429)) break;
    if (Date.now() > deadline) throw new Error(`no 429 after ${results.length} requests in ${Date.now() - started} ms`);
  }
  const elapsedMs = Date.now() - started;
  return {
    results,
    accepted: results.filter((r) => r.status === opts.acceptedStatus),
    limited: results.filter((r) => r.status === 429),
    elapsedMs,
    // Fixed windows of one second: a span of t seconds touches at most floor(t) + 2 windows.
    maxAccepted: opts.perSecond * (Math.floor(elapsedMs / 1000) + 2),
  };
}
