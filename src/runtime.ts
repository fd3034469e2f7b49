/**
 * The process-wide parts every request and job shares: config, logger, Prisma, Redis, queues, pubsub,
 * and the keys derived from APP_SECRET. Built once by `createRuntime`, closed once by `close()`.
 */
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { createPrisma } from './db/client.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { Queues } from './queues.js';
import { createRedisPubSub, type PubSub } from './pubsub.js';
import { resolveAppSecret, SecretBox } from './secrets.js';
import { systemClock, type Clock } from './clock.js';

export interface Runtime {
  config: Config;
  logger: Logger;
  /** "Now" for every rule that reads the time (tests inject a shifted clock). */
  clock: Clock;
  prisma: PrismaClient;
  /** General-purpose connection (rate limits, caches). */
  redis: Redis;
  queues: Queues;
  pubsub: PubSub;
  secretBox: SecretBox;
  jwtKey: Uint8Array;
  /** Resolved connection strings (embedded servers included). */
  databaseUrl: string;
  redisUrl: string;
  onClose(fn: () => Promise<void> | void): void;
  close(): Promise<void>;
}

export function createRuntime(config: Config, databaseUrl: string, redisUrl: string, opts: { poolSize?: number; clock?: Clock } = {}): Runtime {
  const logger = createLogger(config.logLevel);
  const appSecret = resolveAppSecret(config);
  const prisma = createPrisma(databaseUrl, opts.poolSize ?? 10, (err) => logger.warn({ err: err.message }, 'postgres connection error'));
  // Auto-pipelining batches the commands issued in one event-loop turn (rate checks, publishes) into
  // one write: under load that is far fewer syscalls and round trips.
  const redisOpts = { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false, enableAutoPipelining: true } as const;
  const redis = new Redis(redisUrl, redisOpts);
  const pubClient = new Redis(redisUrl, redisOpts);
  const subClient = new Redis(redisUrl, { ...redisOpts, enableAutoPipelining: false });
  for (const c of [redis, pubClient, subClient]) c.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
  const queues = new Queues({ url: redisUrl, maxRetriesPerRequest: null } as never, `${config.redisPrefix}:bull`, (err, queue) =>
    logger.warn({ err: err.message, queue }, 'queue connection error'),
  );
  const closers: Array<() => Promise<void> | void> = [];
  return {
    config,
    logger,
    clock: opts.clock ?? systemClock,
    prisma,
    redis,
    queues,
    pubsub: createRedisPubSub(pubClient, subClient, config.redisPrefix),
    secretBox: new SecretBox(appSecret),
    jwtKey: crypto.createHash('sha256').update('ops-jwt:' + appSecret).digest(),
    databaseUrl,
    redisUrl,
    onClose: (fn) => closers.push(fn),
    async close() {
      for (const fn of closers.reverse()) await fn();
      await queues.close();
      await prisma.$disconnect();
      // QUIT lets commands already sent finish (a plain disconnect rejects them: unhandled rejections
      // in whatever fired them) before the connection goes.
      const quit = (c: Redis) =>
        Promise.race([c.quit(), new Promise((resolve) => setTimeout(resolve, 2000).unref())])
          .catch(() => undefined)
          .finally(() => c.disconnect());
      await Promise.all([redis, pubClient, subClient].map(quit));
    },
  };
}
