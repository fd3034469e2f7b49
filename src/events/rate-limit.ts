/**
 * The inbound rate limit of docs/spec.md "Limits": N POSTs per second per ingest key (per webhook for signed
 * inbound webhooks), N = config.ingestRatePerSecond (INGEST_RATE_PER_SECOND, default 10). Counted in
 * Redis so it holds across API nodes: one EVALSHA round trip per request. If Redis is unreachable an
 * in-process limiter with the same budget stands in (rate-limiter-flexible's insurance limiter), so a
 * Redis outage neither blocks ingest nor lifts the limit entirely.
 */
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { redisLimiter } from '../limiter.js';
import type { Runtime } from '../runtime.js';
import { RateLimited } from '../errors.js';

declare module '../runtime.js' {
  interface RuntimeParts {
    inboundRateLimiter: RateLimiterRedis;
  }
}

/** Builds the runtime's inbound limiter (src/server/runtime-parts.ts, before any traffic). */
export function createInboundRateLimiter(rt: Runtime): RateLimiterRedis {
  return redisLimiter(rt, 'inbound', rt.config.ingestRatePerSecond, 1);
}

function limiterOf(rt: Runtime): RateLimiterRedis {
  return rt.parts.inboundRateLimiter;
}

/** Counts one POST against `credentialKey` (e.g. `key:<ingest key id>`); throws RateLimited (429) past the budget. */
export async function consumeInboundRate(rt: Runtime, credentialKey: string): Promise<void> {
  try {
    await limiterOf(rt).consume(credentialKey);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw new RateLimited(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
    throw err;
  }
}

/**
 * Counts `n` more items against `credentialKey` (the items of a batch after the first, which the request
 * itself paid for). Returns how many of them fit in the budget (the first ones) and, when some did not,
 * the seconds until the budget refills. Every item counts, whether it fits or not.
 */
export async function consumeInboundItems(
  rt: Runtime,
  credentialKey: string,
  n: number,
): Promise<{ allowed: number; retryAfterSeconds: number | null }> {
  if (n <= 0) return { allowed: 0, retryAfterSeconds: null };
  try {
    await limiterOf(rt).consume(credentialKey, n);
    return { allowed: n, retryAfterSeconds: null };
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const before = err.consumedPoints - n;
    const allowed = Math.max(0, Math.min(n, rt.config.ingestRatePerSecond - before));
    return { allowed, retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) };
  }
}
