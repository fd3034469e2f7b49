/**
 * Storage and a Runtime for operator commands. The CLI connects like the server does (DATABASE_URL, or
 * the embedded Postgres under DATA_DIR) but fails fast instead of retrying, logs to stderr so stdout
 * stays machine-readable, and needs Redis only to tell live views about changes (REDIS_URL or
 * REDIS_CLUSTER_NODES, as the server).
 */
import { lazyRuntimeParts } from '../runtime-parts.js';
import { noTelemetry } from '../../tracing.js';
import { systemClock, type Clock } from '../../clock.js';
import path from 'node:path';
import { pino } from 'pino';
import type { Config } from '../../config.js';
import type { Runtime } from '../../runtime.js';
import { resolveAppSecret, SecretBox } from '../../secrets.js';
import { createPrisma } from '../../db/client.js';
import { applyMigrations } from '../../db/migrate.js';
import type { Queues } from '../../queues.js';
import type { PubSub } from '../../pubsub.js';
import {
  connectRedis,
  describeRedis,
  redisTargetOf,
  type RedisClient,
  type RedisTarget,
} from '../../redis-connection.js';

// Heavy modules (PGlite, graphql-yoga's pubsub) are imported only by the commands that use them,
// so a command starts in a fraction of a second.

/** A failure the operator can act on; the message is printed as is (exit code 1). */
export class CliFailure extends Error {}

export interface CliStorage {
  databaseUrl: string;
  embedded: boolean;
  close(): Promise<void>;
}

/** The Postgres to use: DATABASE_URL, or the embedded one under DATA_DIR (one process at a time). */
export async function openStorage(config: Config): Promise<CliStorage> {
  if (config.databaseUrl) return { databaseUrl: config.databaseUrl, embedded: false, close: async () => {} };
  const dir = path.join(config.dataDir, 'pglite');
  try {
    const { startEmbeddedPostgres } = await import('../../db/embedded.js');
    const pg = await startEmbeddedPostgres(dir);
    return { databaseUrl: pg.url, embedded: true, close: pg.stop };
  } catch (err) {
    const holder = /in use by process (\d+)/.exec((err as Error).message)?.[1];
    if (holder) {
      throw new CliFailure(
        `The embedded database in ${dir} is open in process ${holder} (probably the running server). ` +
          'The embedded Postgres (PGlite) can be opened by one process at a time: stop the server and retry, ' +
          'or run the server and this command against a Postgres server with DATABASE_URL.',
      );
    }
    throw err;
  }
}

/**
 * Applies pending migrations (as the server does at start-up); returns the names applied. Progress
 * goes to stderr; `quiet` keeps it to the migrations actually applied.
 */
export async function migrate(databaseUrl: string, quiet = false): Promise<string[]> {
  return applyMigrations(databaseUrl, (msg) => {
    if (!quiet || /applying|waiting/.test(msg)) process.stderr.write(msg + '\n');
  });
}

function unavailable(what: string): never {
  throw new CliFailure(what);
}

/**
 * Publishes over Redis so running servers' subscribers hear about CLI changes. The Redis pubsub is
 * built on the first publish; without REDIS_URL nobody else could hear, so publishing does nothing.
 */
function cliPubSub(target: RedisTarget | undefined, redisPrefix: string, clients: RedisClient[]): PubSub {
  let real: Promise<PubSub> | undefined;
  const connect = async (): Promise<PubSub> => {
    const { createRedisPubSub } = await import('../../pubsub.js');
    const opts = {
      maxRetriesPerRequest: 1,
      connectTimeout: 5000,
      retryStrategy: () => null,
      lazyConnect: true,
    } as const;
    const pub = connectRedis(target!, opts);
    pub.on('error', () => {});
    clients.push(pub);
    await pub.connect(); // connected before publishing, so QUIT at close comes after the PUBLISH
    // Publish-only: the subscribe side is never used, so it shares the one connection.
    return createRedisPubSub(pub, pub, redisPrefix, target!.kind === 'cluster');
  };
  return {
    publish: async (...args: unknown[]) => {
      if (!target) return;
      real ??= connect();
      const pubsub = await real;
      (pubsub.publish as (...a: unknown[]) => void)(...args);
    },
    subscribe: () => unavailable('Operator commands do not subscribe.'),
    // Until Redis has answered every publish (a MOVED redirect included): close waits for it before QUIT.
    settled: async () => {
      if (real) await (await real.catch(() => null))?.settled();
    },
  } as unknown as PubSub;
}

/**
 * A Runtime for one command: Prisma, a stderr logger and a pubsub that reaches running servers when
 * REDIS_URL is set. Queues are not available and session tokens are not signed; sealed secrets use the
 * server's key.
 */
export async function openCliRuntime(
  config: Config,
  databaseUrl: string,
  embedded: boolean,
  clock: Clock = systemClock,
): Promise<Runtime> {
  const logger = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel }, pino.destination(2));
  const prisma = createPrisma(databaseUrl, embedded ? 1 : 2);
  const redisClients: RedisClient[] = [];
  const target = redisTargetOf(config, config.redisUrl);
  if (target) {
    // Fail fast: an operator command should not hang retrying an unreachable Redis.
    const probe = connectRedis(target, {
      maxRetriesPerRequest: 1,
      connectTimeout: 5000,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    probe.on('error', () => {});
    redisClients.push(probe);
    try {
      await probe.connect();
    } catch (err) {
      probe.disconnect();
      await prisma.$disconnect();
      throw new CliFailure(`Cannot reach Redis at ${describeRedis(target)}: ${(err as Error).message}`);
    }
  }
  const closers: Array<() => Promise<void> | void> = [];
  const pubsub = cliPubSub(target, config.redisPrefix, redisClients);
  const rt: Runtime = {
    config,
    logger,
    prettyLogs: false,
    clock,
    telemetry: noTelemetry,
    prisma,
    get redis(): RedisClient {
      return redisClients[0] ?? unavailable('This command needs Redis; set REDIS_URL or REDIS_CLUSTER_NODES.');
    },
    get queues(): Queues {
      return unavailable('Operator commands do not enqueue jobs.');
    },
    pubsub,
    // The same key as the server's (APP_SECRET or the per-install secret), so sealed secrets written
    // here (e.g. a cluster link's credential) are readable by the server and its workers.
    secretBox: new SecretBox(resolveAppSecret(config)),
    // Operator commands send no mail (a server's workers do).
    mailer: null,
    get jwtKey(): never {
      return unavailable('Operator commands do not sign session tokens.');
    },
    get reportsPrisma(): never {
      return unavailable('Operator commands do not run reports.');
    },
    databaseUrl,
    reportsDatabaseUrl: databaseUrl,
    get redisTarget(): RedisTarget {
      return target ?? unavailable('This command needs Redis; set REDIS_URL or REDIS_CLUSTER_NODES.');
    },
    get bullConnection(): never {
      return unavailable('Operator commands do not enqueue jobs.');
    },
    parts: {} as Runtime['parts'],
    onClose: (fn) => closers.push(fn),
    async close() {
      for (const fn of closers.reverse()) await fn();
      await prisma.$disconnect();
      // QUIT once every publish is answered, so what the command announced reaches Redis before the process ends.
      await pubsub.settled();
      await Promise.all(redisClients.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
  rt.parts = lazyRuntimeParts(rt);
  return rt;
}
