/**
 * Per-receiver limits that keep one receiver from hurting others:
 * - a request rate (50/s by default) per receiver URL, counted in Redis so it holds across every worker
 *   process and node (a sliding-window script: at most N requests in any window of one second, not
 *   just per calendar second; the admissions asked for in one turn of the event loop share one script call,
 *   which also stamps the requests that finished meanwhile);
 * - a cap on concurrent requests per receiver URL in this process, so a slow receiver can hold only a
 *   few of the worker's slots.
 * A send that may not start now gets the time to wait instead of waiting: the caller re-delays the job
 * and frees the worker slot.
 */
import crypto from 'node:crypto';
import DataLoader from 'dataloader';
import type { Runtime } from '../runtime.js';
import type { RedisClient } from '../redis-connection.js';

export type Admission =
  { ok: true; release: () => void } | { ok: false; retryInMs: number; reason: 'rate' | 'concurrency' };

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
 * admitted and then, once it finished, with the time it finished (its stamp). A request is admitted only
 * if fewer than `limit` requests are in the last window, so no one-second interval ever holds more than
 * `limit` — a fixed window allows twice that across its boundary. Rejections are not recorded. Scoring a
 * finished request by its end is what makes the cap hold at the receiver whatever the jitter between an
 * admission and the request's arrival: a request arrives before it finishes and after it is admitted, so
 * a request admitted a window after another one finished arrives more than a window after it. (Counting
 * admissions alone needed a 50 ms guard on a loaded machine, and still let 51 through once.) The 2 ms
 * margin covers the millisecond rounding of both times.
 *
 * One call first stamps finished requests, then admits. Stamps: KEYS[1..s] (s = ARGV[3]) with, for stamp
 * k, ARGV[2 + 2k] the member its admission returned and ARGV[3 + 2k] how many ms before the call was sent
 * it finished (measured by the process that sent it: a stamp that waited for a call is scored when the
 * request ended, not when the stamp reached Redis; Redis's time at the call less that is never earlier
 * than the end). A request still in flight when its admission left the window is added back: it counts
 * for a window from its end either way. Admissions: one request for each of KEYS[s+1..], in order (a key
 * may repeat); returns for each {count including this request, ms until a slot frees, the request's member
 * (to stamp)}. The n-th request refused for a key in one call is told when the n-th oldest request leaves
 * the window, so requests refused together do not all come back for the first slot to free. A member is
 * unique in its set: the time, its place in the call, and the count (two calls in the same microsecond
 * differ in it), since a repeated member would count once.
 * ARGV[1]: window seconds, ARGV[2]: limit.
 */
const ADMIT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1]) * 1000 + 2
local limit = tonumber(ARGV[2])
local s = tonumber(ARGV[3])
for k = 1, s do
  redis.call('ZADD', KEYS[k], now - tonumber(ARGV[3 + 2 * k]), ARGV[2 + 2 * k])
  redis.call('PEXPIRE', KEYS[k], window)
end
local out = {}
local refused = {}
for k = s + 1, #KEYS do
  local key = KEYS[k]
  local j = k - s
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  local wait = window
  local member = ''
  if count + 1 > limit then
    local r = refused[key] or 0
    refused[key] = r + 1
    local nth = redis.call('ZRANGE', key, r, r, 'WITHSCORES')
    if nth[2] then wait = math.max(tonumber(nth[2]) + window - now, 1) end
  else
    member = t[1] .. '.' .. t[2] .. '.' .. j .. '.' .. (count + 1)
    redis.call('ZADD', key, now, member)
    redis.call('PEXPIRE', key, window)
  end
  out[3 * j - 2] = count + 1
  out[3 * j - 1] = wait
  out[3 * j] = member
end
return out
`;

/**
 * The script as a command of its own name on the runtime's client (EVALSHA, loaded on first use). Not
 * rate-limiter-flexible's `rlflxIncr`: every RateLimiterRedis on a client redefines that one name with its
 * own script, so the last limiter constructed decided what the others ran.
 */
const ADMIT_COMMAND = 'opsWebhookReceiversAdmit';
type AdmitClient = RedisClient &
  Record<typeof ADMIT_COMMAND, (keyCount: number, ...keysThenArgs: string[]) => Promise<Array<number | string>>>;

function admitClient(redis: RedisClient): AdmitClient {
  const client = redis as AdmitClient;
  if (typeof client[ADMIT_COMMAND] !== 'function') redis.defineCommand(ADMIT_COMMAND, { lua: ADMIT_SCRIPT });
  return client;
}

/** Defines the admission command on the client (building the runtime's parts does it: src/server/runtime-parts.ts). */
export function defineReceiverAdmission(redis: RedisClient): void {
  admitClient(redis);
}

/** A wait plus a few ms of spread, so the deliveries held for one receiver do not all wake at once. */
function jittered(ms: number): number {
  return ms + Math.floor(Math.random() * 5);
}

/** Admissions, and stamps, per script call at most. */
const ADMIT_BATCH = 256;

/**
 * The longest a stamp waits for an admission call to ride along with before it is sent alone. Its score
 * does not depend on the wait (see ADMIT_SCRIPT); a request keeps counting from its admission meanwhile,
 * which matters only for one that took about a window.
 */
const STAMP_WAIT_MS = 10;

/** Redis's answer to one admission: the count including it, ms until a slot frees, its member ('' when refused). */
type Answer = [count: number, msBeforeNext: number, member: string];

/** A finished request to stamp: its receiver's Redis key and member, and when it finished (clock ms). */
interface Finished {
  key: string;
  member: string;
  endedAt: number;
}

export class ReceiverLimits {
  private readonly redis: AdmitClient;
  private readonly keyPrefix: string;
  private readonly limit: string;
  private readonly inFlight = new Map<string, number>();
  /**
   * Admissions asked for in one turn of the event loop, sent as one script call, with the stamps of the
   * requests that finished meanwhile. One key per call on a cluster (a call's keys must share a slot):
   * there stamps go alone, one per call.
   */
  private readonly admissions: DataLoader<string, Answer>;
  private stamps: Finished[] = [];
  private stampTimer: NodeJS.Timeout | undefined;
  private readonly sharded: boolean;
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
    this.sharded = Boolean(rt.config.redisCluster);
    const perTurn = {
      cache: false,
      batchScheduleFn: (cb: () => void) => setImmediate(cb),
      maxBatchSize: this.sharded ? 1 : ADMIT_BATCH,
    };
    this.admissions = new DataLoader((keys) => this.call(keys, this.sharded ? [] : this.takeStamps()), perTurn);
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
    if (busy >= this.maxInFlight)
      return { ok: false, retryInMs: 50 + Math.floor(Math.random() * 100), reason: 'concurrency' };
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
    // Refused together, requests are told the times of successive slots: the receiver is full until the first.
    const now = this.clock.now().getTime();
    const known = this.fullUntil.get(key);
    if (known === undefined || known <= now || now + wait < known) this.fullUntil.set(key, now + wait);
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

  /** One script call: the stamps given, then an admission for each key. */
  private async call(keys: readonly string[], stamps: readonly Finished[]): Promise<Answer[]> {
    const sentAt = this.clock.now().getTime();
    const args: string[] = [];
    for (const f of stamps) args.push(f.key);
    for (const k of keys) args.push(k);
    args.push('1', this.limit, String(stamps.length));
    for (const f of stamps) args.push(f.member, String(Math.max(0, sentAt - f.endedAt)));
    const flat = await this.redis[ADMIT_COMMAND](stamps.length + keys.length, ...args);
    return keys.map((_key, k) => [Number(flat[3 * k]), Number(flat[3 * k + 1]), String(flat[3 * k + 2])]);
  }

  /**
   * Stamps a finished request: with the next admission call, or alone after STAMP_WAIT_MS. Not awaited by
   * the send: if Redis fails here, the request keeps counting from its admission (the log expires with
   * the window).
   */
  private stamp(key: string, member: string): void {
    this.stamps.push({ key, member, endedAt: this.clock.now().getTime() });
    this.stampTimer ??= setTimeout(() => this.sendStamps(), STAMP_WAIT_MS);
  }

  /** The stamps waiting, at most a call's worth (the rest wait for the next call or the timer). */
  private takeStamps(): Finished[] {
    const taken = this.stamps.length <= ADMIT_BATCH ? this.stamps : this.stamps.slice(0, ADMIT_BATCH);
    this.stamps = this.stamps.length <= ADMIT_BATCH ? [] : this.stamps.slice(ADMIT_BATCH);
    if (this.stamps.length === 0 && this.stampTimer) {
      clearTimeout(this.stampTimer);
      this.stampTimer = undefined;
    }
    return taken;
  }

  /** Sends the stamps no admission took (one per call on a cluster). */
  private sendStamps(): void {
    this.stampTimer = undefined;
    while (this.stamps.length > 0) {
      const batch = this.sharded ? this.stamps.splice(0, 1) : this.takeStamps();
      this.call([], batch).catch(() => {
        /* those requests count from their admission instead; the next admission reports Redis being down */
      });
    }
  }
}
