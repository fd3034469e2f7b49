import type { Redis } from 'ioredis';

/** Where the tests find Postgres and Redis. */
export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The URL of database `name` on the admin server. */
export function dbUrl(name: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = '/' + name;
  return u.toString();
}

/** Databases of one run are named `ops_t_<run>_<random>`. */
export function testDatabasePrefix(runId: string): string {
  return `ops_t_${runId}_`;
}

/** Redis prefixes of one run are `t<run><random>`. */
export function testRedisPrefix(runId: string): string {
  return `t${runId}`;
}

/** Unlinks every key whose name starts with `prefix` (SCAN, never KEYS); returns how many went. */
export async function unlinkRedisPrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let n = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) n += await redis.unlink(...keys);
  } while (cursor !== '0');
  return n;
}

/** Every key under `prefix` as DUMP gives it, with its time to live (ms, 0 for none): what `restoreRedisKeys` puts back. */
export type RedisKeys = Array<{ key: string; ttlMs: number; value: Buffer }>;

/** Dumps every key whose name starts with `prefix` (SCAN, never KEYS). */
export async function dumpRedisPrefix(redis: Redis, prefix: string): Promise<RedisKeys> {
  const out: RedisKeys = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const [value, ttl] = await Promise.all([redis.dumpBuffer(key), redis.pttl(key)]);
      if (value) out.push({ key, ttlMs: Math.max(0, ttl), value });
    }
  } while (cursor !== '0');
  return out;
}

/** Puts the keys of a `dumpRedisPrefix` back as they were (replacing any of the same name). */
export async function restoreRedisKeys(redis: Redis, keys: RedisKeys): Promise<void> {
  for (const k of keys) await redis.restore(k.key, k.ttlMs, k.value, 'REPLACE');
}
