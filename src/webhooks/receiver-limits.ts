/**
 * Per-receiver limits that keep one receiver from hurting others:
 * - a request rate (50/s by default) per receiver URL, counted in Redis so it holds across every worker
 *   process and node (rate-limiter-flexible, one-second windows);
 * - a cap on concurrent requests per receiver URL in this process, so a slow receiver can hold only a
 *   few of the worker's slots.
 * A send that may not start now gets the time to wait instead of waiting: the caller re-delays the job
 * and frees the worker slot.
 */
import crypto from 'node:crypto';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Runtime } from '../runtime.js';

export type Admission = { ok: true; release: () => void } | { ok: false; retryInMs: number; reason: 'rate' | 'concurrency' };

/** The identity of a receiver for limiting: scheme, host, port and path (query and fragment ignored). */
export function receiverKey(url: string): string {
  let norm = url;
  try {
    const u = new URL(url);
    norm = `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    /* an invalid URL fails later, at send */
  }
  return crypto.createHash('sha256').update(norm).digest('base64url').slice(0, 32);
}

export class ReceiverLimits {
  private readonly limiter: RateLimiterRedis;
  private readonly inFlight = new Map<string, number>();

  constructor(
    rt: Runtime,
    private readonly maxInFlight = rt.config.webhooks.maxInFlightPerReceiver,
    ratePerSecond = rt.config.webhooks.ratePerSecond,
  ) {
    this.limiter = new RateLimiterRedis({
      storeClient: rt.redis,
      keyPrefix: `${rt.config.redisPrefix}:rl:webhook-receiver`,
      points: ratePerSecond,
      duration: 1,
    });
  }

  /** Admits one request to `url` now (hold the slot until `release()`), or says how long to wait. */
  async admit(url: string): Promise<Admission> {
    const key = receiverKey(url);
    const busy = this.inFlight.get(key) ?? 0;
    if (busy >= this.maxInFlight) return { ok: false, retryInMs: 50 + Math.floor(Math.random() * 100), reason: 'concurrency' };
    this.inFlight.set(key, busy + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const n = (this.inFlight.get(key) ?? 1) - 1;
      if (n <= 0) this.inFlight.delete(key);
      else this.inFlight.set(key, n);
    };
    try {
      await this.limiter.consume(key, 1);
      return { ok: true, release };
    } catch (err) {
      release();
      if (err instanceof RateLimiterRes) return { ok: false, retryInMs: Math.max(1, err.msBeforeNext) + Math.floor(Math.random() * 20), reason: 'rate' };
      throw err;
    }
  }
}
