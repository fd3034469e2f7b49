/**
 * Per-receiver limits that keep one receiver from hurting others:
 * - a request rate (50/s by default) per receiver URL, counted in Redis so it holds across every worker
 *   process and node (a sliding-window script: at most N admissions in any window of one second, not
 *   just per calendar second; the admissions asked for in one turn of the event loop share one script call);
 * - a cap on concurrent requests per receiver URL in this process, so a slow receiver can hold only a
 *   few of the worker's slots.
 * A send that may not start now gets the time to wait instead of waiting: the caller re-delays the job
 * and frees the worker slot.
 */
import crypto from 'node:crypto';
import type { Runtime } from '../runtime.js';
import type { RedisClient } from '../redis-connection.js';

export type Admission = { ok: true; release: () => void } | { ok: false; retryInMs: number; reason: 'rate' | 'concurrency' };

/** Receiver keys memoised per URL (a URL parse and a SHA-256 per send otherwise). */
const KEYS_LIMIT = 4096;
const keys = new Map<string, string>();
function receiverKey(url: string): string {
  let key = keys.get(url);
  if (key === undefined) {
    if (keys.size >= KEYS_LIMIT) keys.clear();
    keys.set(url, (key = computeReceiverKey(url)));
  }
  return key;
}

/** The identity of a receiver for limiting: scheme, host, port and path (query and fragment ignored). */
function computeReceiverKey(url: string): string {
  let norm = url;
  try {
    const u = new URL(url);
    norm = `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    /* an invalid URL fails later, at send */
  }
  return crypto.createHash('sha256').update(norm).digest('base64url').slice(0, 32);
}

/**
 * A sliding-window log per receiver (a sorted set of admission times): a request is admitted only if
 * fewer than `limit` were admitted in the last window, so no one-second interval ever holds more than
 * `limit` requests — a fixed window allows twice that across its boundary. Rejections are not recorded.
 * One call admits one request for each of KEYS, in order (a key may repeat), and returns for each
 * {count including this request, ms until a slot frees}. The window carries a 50 ms guard so the jitter
 * between the admission and the request's arrival cannot squeeze 51 requests into one second at the
 * receiver: with 25 ms, `bench:deliveries` receivers saw 51–52 in a second once the engine ran at the cap
 * on a loaded 2-core machine. At the cap a receiver thus gets 50 requests per 1.05 s. ARGV: window
 * seconds, limit.
 */
const SLIDING_WINDOW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1]) * 1000 + 50
local limit = tonumber(ARGV[2])
local out = {}
for k = 1, #KEYS do
  local key = KEYS[k]
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  local wait = window
  if count + 1 > limit then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    if oldest[2] then wait = math.max(tonumber(oldest[2]) + window - now, 1) end
  else
    redis.call('ZADD', key, now, t[1] .. '.' .. t[2] .. '.' .. (count + 1))
    redis.call('PEXPIRE', key, window)
  end
  out[2 * k - 1] = count + 1
  out[2 * k] = wait
end
return out
`;

/**
 * The script as a command of its own name on the runtime's client (EVALSHA, loaded on first use). Not
 * rate-limiter-flexible's `rlflxIncr`: every RateLimiterRedis on a client redefines that one name with its
 * own script, so the last limiter constructed decided what the others ran.
 */
const ADMIT_COMMAND = 'opsWebhookReceiversAdmit';
type AdmitClient = RedisClient & Record<typeof ADMIT_COMMAND, (keyCount: number, ...keysThenArgs: string[]) => Promise<number[]>>;

function admitClient(redis: RedisClient): AdmitClient {
  const client = redis as AdmitClient;
  if (typeof client[ADMIT_COMMAND] !== 'function') redis.defineCommand(ADMIT_COMMAND, { lua: SLIDING_WINDOW_SCRIPT });
  return client;
}

/** Defines the admission command on the client (src/server/redis-commands.ts does it as the runtime starts). */
export function defineReceiverAdmission(redis: RedisClient): void {
  admitClient(redis);
}

/** Keys per script call at most. */
const ADMIT_BATCH = 256;

interface Asked {
  key: string;
  resolve: (r: [count: number, msBeforeNext: number]) => void;
  reject: (err: unknown) => void;
}

export class ReceiverLimits {
  private readonly redis: AdmitClient;
  private readonly keyPrefix: string;
  private readonly limit: string;
  private readonly inFlight = new Map<string, number>();
  /** Admissions asked for in this turn of the event loop, sent as one script call (one per key on a cluster). */
  private asked: Asked[] = [];
  private readonly perKey: boolean;
  /**
   * Receivers Redis last said were full, until when (epoch ms): until then this process refuses their
   * sends without asking Redis again (it can only refuse more than Redis would, never admit more).
   */
  private readonly fullUntil = new Map<string, number>();
  private readonly clock: Runtime['clock'];

  constructor(
    rt: Runtime,
    private readonly maxInFlight = rt.config.webhooks.maxInFlightPerReceiver,
    private readonly ratePerSecond = rt.config.webhooks.ratePerSecond,
  ) {
    this.redis = admitClient(rt.redis);
    this.keyPrefix = `${rt.config.redisPrefix}:rl:webhook-receiver:`;
    this.limit = String(ratePerSecond);
    this.perKey = Boolean(rt.config.redisCluster); // a cluster's keys of one call must share a slot
    this.clock = rt.clock;
  }

  /** Admits one request to `url` now (hold the slot until `release()`), or says how long to wait. */
  async admit(url: string): Promise<Admission> {
    const key = receiverKey(url);
    const full = this.fullUntil.get(key);
    if (full !== undefined) {
      const wait = full - this.clock.now().getTime();
      if (wait > 0) return { ok: false, retryInMs: wait + Math.floor(Math.random() * 20), reason: 'rate' };
      this.fullUntil.delete(key);
    }
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
    let count: number;
    let msBeforeNext: number;
    try {
      [count, msBeforeNext] = await this.ask(this.keyPrefix + key);
    } catch (err) {
      release();
      throw err;
    }
    if (count <= this.ratePerSecond) return { ok: true, release };
    release();
    const wait = Math.max(1, Number(msBeforeNext));
    if (this.fullUntil.size >= KEYS_LIMIT) this.fullUntil.clear();
    this.fullUntil.set(key, this.clock.now().getTime() + wait);
    return { ok: false, retryInMs: wait + Math.floor(Math.random() * 20), reason: 'rate' };
  }

  /** One admission of `key`, sent with the others asked for in the same turn of the event loop. */
  private ask(key: string): Promise<[number, number]> {
    if (this.perKey) return this.call([key]).then(([count, wait]) => [count, wait]);
    return new Promise((resolve, reject) => {
      if (this.asked.push({ key, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const asked = this.asked;
    this.asked = [];
    for (let i = 0; i < asked.length; i += ADMIT_BATCH) {
      const part = asked.slice(i, i + ADMIT_BATCH);
      this.call(part.map((a) => a.key)).then(
        (flat) => part.forEach((a, k) => a.resolve([Number(flat[2 * k]), Number(flat[2 * k + 1])])),
        (err: unknown) => part.forEach((a) => a.reject(err)),
      );
    }
  }

  private call(keys: string[]): Promise<number[]> {
    return this.redis[ADMIT_COMMAND](keys.length, ...keys, '1', this.limit);
  }
}
