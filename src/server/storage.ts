/**
 * The service's storage at start-up: DATABASE_URL / REDIS_URL (or REDIS_CLUSTER_NODES) when set, else
 * the embedded PGlite and a private redis-server, started side by side (PGlite compiles its WebAssembly
 * off the main thread and redis-server is a child process). `npm start` begins this before it loads
 * the rest of the service, so both come up while the modules load.
 */
import path from 'node:path';
import type { Config } from '../config.js';
import { startEmbeddedPostgres } from '../db/embedded.js';
import { startLocalRedis } from '../db/local-redis.js';
import { redisTargetOf, type RedisTarget } from '../redis-connection.js';

export interface Storage {
  databaseUrl: string;
  /** Connections of the runtime's Prisma pool (one for the embedded database). */
  poolSize: number;
  redisTarget: RedisTarget;
  /** Stoppers of what was started here, in start order. */
  stoppers: Array<() => Promise<void>>;
}

export async function startStorage(config: Config): Promise<Storage> {
  // REDIS_CLUSTER_NODES wins over REDIS_URL; a private redis-server only when neither is set.
  const configuredRedis = redisTargetOf(config, config.redisUrl);
  const [pg, redis] = await Promise.allSettled([
    config.databaseUrl ? null : startEmbeddedPostgres(path.join(config.dataDir, 'pglite')),
    configuredRedis ? null : startLocalRedis(config.dataDir),
  ]);
  if (pg.status === 'rejected' || redis.status === 'rejected') {
    for (const r of [redis, pg]) if (r.status === 'fulfilled') await r.value?.stop().catch(() => undefined);
    throw pg.status === 'rejected' ? pg.reason : (redis as PromiseRejectedResult).reason;
  }
  const stoppers: Array<() => Promise<void>> = [];
  if (pg.value) stoppers.push(pg.value.stop);
  if (redis.value) stoppers.push(redis.value.stop);
  const databaseUrl = pg.value?.url ?? config.databaseUrl;
  const redisTarget: RedisTarget | undefined = redis.value ? { kind: 'single', url: redis.value.url } : configuredRedis;
  if (!databaseUrl || !redisTarget) throw new Error('no database or Redis to start with');
  return { databaseUrl, poolSize: pg.value ? 1 : 10, redisTarget, stoppers };
}
