/**
 * How many report queries and exports one tenant runs at once, across every node: a Redis sorted set
 * per tenant whose members are leases (a random id scored with its expiry, Redis' own clock). Taking a
 * slot drops expired leases, then adds one if fewer than config.reportsTenantConcurrency remain; a
 * running export renews its lease, and finishing removes it. A node that dies leaves leases that expire
 * within LEASE_MS. Past the cap the caller gets 429 with Retry-After, and other tenants never wait.
 */
import crypto from 'node:crypto';
import type { Runtime } from '../runtime.js';
import { RateLimited } from '../errors.js';

/** A lease lives this long unless renewed (a running export renews it every third of it). */
const LEASE_MS = 60_000;

/** KEYS[1] the tenant's set; ARGV: lease id, cap, lease ms. 1 when taken, 0 when the tenant is at the cap. */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1`;

/** KEYS[1] the tenant's set; ARGV: lease id, lease ms. Pushes the lease's expiry on if it is still held. */
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return n`;

interface SlotCommands {
  reportSlotAcquire(key: string, id: string, cap: number, leaseMs: number): Promise<number>;
  reportSlotRenew(key: string, id: string, leaseMs: number): Promise<number>;
}

export type ReportSlotClient = SlotCommands & { zrem(key: string, member: string): Promise<number> };

declare module '../runtime.js' {
  interface RuntimeParts {
    /** The runtime's Redis client with the slot scripts defined on it. */
    reportSlots: ReportSlotClient;
  }
}

/** Defines the slot scripts on the runtime's Redis client (src/server/runtime-parts.ts, before any traffic). */
export function createReportSlots(rt: Runtime): ReportSlotClient {
  const redis = rt.redis as unknown as {
    defineCommand(name: string, def: { numberOfKeys: number; lua: string }): void;
  };
  redis.defineCommand('reportSlotAcquire', { numberOfKeys: 1, lua: ACQUIRE });
  redis.defineCommand('reportSlotRenew', { numberOfKeys: 1, lua: RENEW });
  return rt.redis as unknown as ReportSlotClient;
}

const keyOf = (rt: Runtime, tenantId: string) => `${rt.config.redisPrefix}:reports:slots:{${tenantId}}`;

/**
 * Runs `work` in one of the tenant's report slots, or throws RateLimited (429, Retry-After) when the
 * tenant already runs as many as it may. The slot is held until `work` settles.
 */
export async function withReportSlot<T>(rt: Runtime, tenantId: string, work: () => Promise<T>): Promise<T> {
  const redis = rt.parts.reportSlots;
  const key = keyOf(rt, tenantId);
  const id = crypto.randomUUID();
  const cap = rt.config.reportsTenantConcurrency;
  if ((await redis.reportSlotAcquire(key, id, cap, LEASE_MS)) !== 1)
    throw new RateLimited(
      1,
      `This tenant already runs ${cap} report queries or exports at once (REPORTS_TENANT_CONCURRENCY); retry when one finishes.`,
    );
  const renew = setInterval(() => void redis.reportSlotRenew(key, id, LEASE_MS).catch(() => undefined), LEASE_MS / 3);
  renew.unref();
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await redis.zrem(key, id).catch((err: Error) => rt.logger.warn({ err: err.message }, 'report slot not released'));
  }
}
