/**
 * The inbound rate limit of docs/spec.md "Limits": N POSTs per second per ingest key (per webhook for signed
 * inbound webhooks), N = config.ingestRatePerSecond (INGEST_RATE_PER_SECOND, default 10). Counted in
 * Redis so it holds across API nodes: one EVALSHA round trip per request. If Redis is unreachable an
 * in-process limiter with the same budget stands in (rate-limiter-flexible's insurance limiter), so a
 * Redis outage neither blocks ingest nor lifts the limit entirely.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Runtime } from '../runtime.js';
import { RateLimited } from '../errors.js';

declare module '../runtime.js' {
  interface RuntimeParts {
    inboundRateLimiter: RateLimiterRedis;
  }
}

/** Builds the runtime's inbound limiter (src/server/runtime-parts.ts, before any traffic). */
export function createInboundRateLimiter(rt: Runtime): RateLimiterRedis {
  const points = rt.config.ingestRatePerSecond;
  return new RateLimiterRedis({
    storeClient: rt.redis,
    keyPrefix: `${rt.config.redisPrefix}:rl:inbound`,
    points,
    duration: 1,
    insuranceLimiter: new RateLimiterMemory({ points, duration: 1 }),
  });
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
