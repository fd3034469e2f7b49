/**
 * Per-receiver limits that keep one receiver from hurting others:
 * - a request rate (50/s by default) per receiver URL, counted in Redis so it holds across every worker
 *   process and node (a sliding-window script: at most N requests in any window of one second, not
 *   just per calendar second; the admissions asked for in one turn of the event loop share one script call,
 *   and so do the stamps of the requests that finished);
 * - a cap on concurrent requests per receiver URL in this process, so a slow receiver can hold only a
 *   few of the worker's slots.
 * A send that may not start now gets the time to wait instead of waiting: the caller re-delays the job
 * and frees the worker slot.
 */
import crypto from 'node:crypto';
import DataLoader from 'dataloader';
import type { Runtime } from '../runtime.js';
import type { RedisClient } from '../redis-connection.js';

export type Admission = { ok: true; release: () => void } | { ok: false; retryInMs: number; reason: 'rate' | 'concurrency' };

/** Receiver keys memoised per URL (a URL parse and a SHA-256 per send otherwise). */
const KEYS_LIMIT = 4096;
const keys = new Map<string, string>();
export function receiverKey(url: string): string {
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
 * A sliding-window log per receiver: a sorted set of its requests, each scored with the time it was
 * admitted and then, once it finished, with the time it finished (the stamp script below). A request is
 * admitted only if fewer than `limit` requests are in the last window, so no one-second interval ever
 * holds more than `limit` — a fixed window allows twice that across its boundary. Rejections are not
 * recorded. Scoring a finished request by its end is what makes the cap hold at the receiver whatever the
 * jitter between an admission and the request's arrival: a request arrives before it finishes and after it
 * is admitted, so a request admitted a window after another one finished arrives more than a window after
 * it. (Counting admissions alone needed a 50 ms guard on a loaded machine, and still let 51 through once.)
 * The 2 ms margin covers the millisecond rounding of both times.
 * One call admits one request for each of KEYS, in order (a key may repeat), and returns for each
 * {count including this request, ms until a slot frees, the request's member (to stamp)}. A member is
 * unique in its set: the time, its place in the call, and the count (two calls in the same microsecond
 * differ in it), since a repeated member would count once.
 * ARGV: window seconds, limit.
 */
const SLIDING_WINDOW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1]) * 1000 + 2
local limit = tonumber(ARGV[2])
local out = {}
for k = 1, #KEYS do
  local key = KEYS[k]
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  local wait = window
  local member = ''
  if count + 1 > limit then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    if oldest[2] then wait = math.max(tonumber(oldest[2]) + window - now, 1) end
  else
    member = t[1] .. '.' .. t[2] .. '.' .. k .. '.' .. (count + 1)
    redis.call('ZADD', key, now, member)
    redis.call('PEXPIRE', key, window)
  end
  out[3 * k - 2] = count + 1
  out[3 * k - 1] = wait
  out[3 * k] = member
end
return out
`;

/**
 * Re-scores finished requests with the time they finished (KEYS[k]: the receiver, ARGV[k + 1]: the
 * member its admission returned; ARGV[1]: window seconds). A request still in flight when its admission
 * left the window is added back: it counts for a window from its end either way.
 */
const STAMP_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1]) * 1000 + 2
for k = 1, #KEYS do
  redis.call('ZADD', KEYS[k], now, ARGV[k + 1])
  redis.call('PEXPIRE', KEYS[k], window)
end
return #KEYS
`;

/**
 * The script as a command of its own name on the runtime's client (EVALSHA, loaded on first use). Not
 * rate-limiter-flexible's `rlflxIncr`: every RateLimiterRedis on a client redefines that one name with its
 * own script, so the last limiter constructed decided what the others ran.
 */
const ADMIT_COMMAND = 'opsWebhookReceiversAdmit';
const STAMP_COMMAND = 'opsWebhookReceiversStamp';
type AdmitClient = RedisClient &
  Record<typeof ADMIT_COMMAND, (keyCount: number, ...keysThenArgs: string[]) => Promise<Array<number | string>>> &
  Record<typeof STAMP_COMMAND, (keyCount: number, ...keysThenArgs: string[]) => Promise<number>>;

function admitClient(redis: RedisClient): AdmitClient {
  const client = redis as AdmitClient;
  if (typeof client[ADMIT_COMMAND] !== 'function') redis.defineCommand(ADMIT_COMMAND, { lua: SLIDING_WINDOW_SCRIPT });
  if (typeof client[STAMP_COMMAND] !== 'function') redis.defineCommand(STAMP_COMMAND, { lua: STAMP_SCRIPT });
  return client;
}

/** Defines the admission and stamp commands on the client (src/server/redis-commands.ts does it as the runtime starts). */
export function defineReceiverAdmission(redis: RedisClient): void {
  admitClient(redis);
}

/** A wait plus a few ms of spread, so the deliveries held for one receiver do not all wake at once. */
function jittered(ms: number): number {
  return ms + Math.floor(Math.random() * 5);
}

/** Keys per script call at most. */
const ADMIT_BATCH = 256;

/** Redis's answer to one admission: the count including it, ms until a slot frees, its member ('' when refused). */
type Answer = [count: number, msBeforeNext: number, member: string];

/** A finished request to stamp: its receiver's Redis key and member. */
interface Finished {
  key: string;
  member: string;
}

export class ReceiverLimits {
  private readonly redis: AdmitClient;
  private readonly keyPrefix: string;
  private readonly limit: string;
  private readonly inFlight = new Map<string, number>();
  /**
   * Admissions asked for in one turn of the event loop, sent as one script call; so are the stamps of the
   * requests that finished in one turn. One key per call on a cluster (a call's keys must share a slot).
   */
  private readonly admissions: DataLoader<string, Answer>;
  private readonly stamps: DataLoader<Finished, true>;
  /**
   * Receivers Redis last said were full, until when (epoch ms): until then this process refuses their
   * sends without asking Redis again (it can only refuse more than Redis would, never admit more).
   */
  private readonly fullUntil = new Map<string, number>();
  /** The receiver key of each webhook seen here (its URL when last admitted): lets a job hold a full receiver's deliveries unread. */
  private readonly keyOfWebhook = new Map<string, string>();
  private readonly clock: Runtime['clock'];

  constructor(
    rt: Runtime,
    private readonly maxInFlight = rt.config.webhooks.maxInFlightPerReceiver,
    private readonly ratePerSecond = rt.config.webhooks.ratePerSecond,
  ) {
    this.redis = admitClient(rt.redis);
    this.keyPrefix = `${rt.config.redisPrefix}:rl:webhook-receiver:`;
    this.limit = String(ratePerSecond);
    this.clock = rt.clock;
    const perTurn = { cache: false, batchScheduleFn: (cb: () => void) => setImmediate(cb), maxBatchSize: rt.config.redisCluster ? 1 : ADMIT_BATCH };
    this.admissions = new DataLoader((keys) => this.call(keys), perTurn);
    this.stamps = new DataLoader(async (finished) => {
      await this.redis[STAMP_COMMAND](finished.length, ...finished.map((f) => f.key), '1', ...finished.map((f) => f.member));
      return finished.map(() => true as const);
    }, perTurn);
  }

  /**
   * Admits one request to `url` (webhook `webhookId`) now (hold the slot until `release()`), or says how
   * long to wait.
   */
  async admit(url: string, webhookId?: string): Promise<Admission> {
    const key = receiverKey(url);
    if (webhookId !== undefined && this.keyOfWebhook.get(webhookId) !== key) {
      if (this.keyOfWebhook.size >= KEYS_LIMIT) this.keyOfWebhook.clear();
      this.keyOfWebhook.set(webhookId, key);
    }
    const fullFor = this.fullFor(key);
    if (fullFor > 0) return { ok: false, retryInMs: jittered(fullFor), reason: 'rate' };
    const busy = this.inFlight.get(key) ?? 0;
    if (busy >= this.maxInFlight) return { ok: false, retryInMs: 50 + Math.floor(Math.random() * 100), reason: 'concurrency' };
    this.inFlight.set(key, busy + 1);
    const redisKey = this.keyPrefix + key;
    let member = '';
    let released = false;
    // Called once the request finished (or was never sent): frees the in-flight slot, stamps the end.
    const release = () => {
      if (released) return;
      released = true;
      const n = (this.inFlight.get(key) ?? 1) - 1;
      if (n <= 0) this.inFlight.delete(key);
      else this.inFlight.set(key, n);
      if (member) this.stamp(redisKey, member);
    };
    let count: number;
    let msBeforeNext: number;
    try {
      [count, msBeforeNext, member] = await this.admissions.load(redisKey);
    } catch (err) {
      release();
      throw err;
    }
    if (count <= this.ratePerSecond) return { ok: true, release };
    release();
    const wait = Math.max(1, Number(msBeforeNext));
    if (this.fullUntil.size >= KEYS_LIMIT) this.fullUntil.clear();
    this.fullUntil.set(key, this.clock.now().getTime() + wait);
    return { ok: false, retryInMs: jittered(wait), reason: 'rate' };
  }

  /**
   * How long webhook `webhookId`'s receiver is still known to be full (ms; 0: not known full), asked
   * before its delivery is even read. Its URL may have changed since it was last admitted here: then this
   * holds the delivery back until the old receiver's window frees, at most a second, and never admits.
   */
  heldFor(webhookId: string): number {
    const key = this.keyOfWebhook.get(webhookId);
    const wait = key === undefined ? 0 : this.fullFor(key);
    return wait > 0 ? jittered(wait) : 0;
  }

  /** Ms until receiver `key`, which Redis last said was full, may take a request again (0: not known full). */
  private fullFor(key: string): number {
    const full = this.fullUntil.get(key);
    if (full === undefined) return 0;
    const wait = full - this.clock.now().getTime();
    if (wait <= 0) this.fullUntil.delete(key);
    return Math.max(0, wait);
  }

  private async call(keys: readonly string[]): Promise<Answer[]> {
    const flat = await this.redis[ADMIT_COMMAND](keys.length, ...keys, '1', this.limit);
    return keys.map((_key, k) => [Number(flat[3 * k]), Number(flat[3 * k + 1]), String(flat[3 * k + 2])]);
  }

  /**
   * Stamps a finished request, with the others of this turn of the event loop. Not awaited by the send: if
   * Redis fails here, the request keeps counting from its admission (the log expires with the window).
   */
  private stamp(key: string, member: string): void {
    this.stamps.load({ key, member }).catch(() => {
      /* the request counts from its admission instead; the next admission reports Redis being down */
    });
  }
}
