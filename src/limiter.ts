/**
 * The one way a limit is counted: rate-limiter-flexible in Redis, so the budget holds across nodes, with an
 * in-process limiter of the same budget standing in while Redis is unreachable (its insurance limiter), so a
 * Redis outage neither blocks the service nor lifts the limit entirely.
 */
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { Runtime } from './runtime.js';

/** `points` per `durationSeconds`, keyed under `<REDIS_PREFIX>:rl:<name>`. */
export function redisLimiter(rt: Runtime, name: string, points: number, durationSeconds: number): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: rt.redis,
    keyPrefix: `${rt.config.redisPrefix}:rl:${name}`,
    points,
    duration: durationSeconds,
    insuranceLimiter: new RateLimiterMemory({ points, duration: durationSeconds }),
  });
}
