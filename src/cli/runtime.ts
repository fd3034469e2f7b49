/**
 * Storage and a Runtime for operator commands. The CLI connects like the server does (DATABASE_URL, or
 * the embedded Postgres under DATA_DIR) but fails fast instead of retrying, logs to stderr so stdout
 * stays machine-readable, and needs Redis only to tell live views about changes (REDIS_URL).
 */
import path from 'node:path';
import { pino } from 'pino';
import { Redis } from 'ioredis';
import { createPubSub } from 'graphql-yoga';
import type { Config } from '../config.js';
import type { Runtime } from '../runtime.js';
import { resolveAppSecret } from '../runtime.js';
import { createPrisma } from '../db/client.js';
import { startEmbeddedPostgres } from '../db/embedded.js';
import { applyMigrations } from '../db/migrate.js';
import { Queues } from '../queues.js';
import { createRedisPubSub, type PubSub } from '../pubsub.js';
import { SecretBox } from '../auth/secrets.js';

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
  throw new CliFailure(`${what} needs Redis; set REDIS_URL.`);
}

/**
 * A Runtime for one command. Redis is optional: without REDIS_URL, pubsub is in-process (nobody else
 * hears it) and anything needing queues fails with a message saying to set REDIS_URL.
 */
export async function openCliRuntime(config: Config, databaseUrl: string, embedded: boolean): Promise<Runtime> {
  const logger = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel }, pino.destination(2));
  const prisma = createPrisma(databaseUrl, embedded ? 1 : 2);
  const redisClients: Redis[] = [];
  let pubsub: PubSub = createPubSub();
  let queues: Queues | undefined;
  if (config.redisUrl) {
    // Fail fast: an operator command should not hang retrying an unreachable Redis.
    const opts = { maxRetriesPerRequest: 1, connectTimeout: 5000, retryStrategy: () => null, lazyConnect: true } as const;
    const [pub, sub] = [new Redis(config.redisUrl, opts), new Redis(config.redisUrl, opts)];
    redisClients.push(pub, sub);
    for (const c of redisClients) c.on('error', () => {});
    try {
      await Promise.all(redisClients.map((c) => c.connect()));
    } catch (err) {
      for (const c of redisClients) c.disconnect();
      await prisma.$disconnect();
      throw new CliFailure(`Cannot reach Redis at REDIS_URL: ${(err as Error).message}`);
    }
    pubsub = createRedisPubSub(pub, sub);
    queues = new Queues({ url: config.redisUrl, maxRetriesPerRequest: null } as never, `${config.redisPrefix}:bull`);
  }
  let secretBox: SecretBox | undefined;
  const closers: Array<() => Promise<void> | void> = [];
  return {
    config,
    logger,
    prisma,
    get redis(): Redis {
      return redisClients[0] ?? unavailable('This command');
    },
    get queues(): Queues {
      return queues ?? unavailable('This command');
    },
    pubsub,
    get secretBox(): SecretBox {
      return (secretBox ??= new SecretBox(resolveAppSecret(config)));
    },
    get jwtKey(): Uint8Array {
      throw new CliFailure('Operator commands do not sign session tokens.');
    },
    databaseUrl,
    redisUrl: config.redisUrl ?? '',
    onClose: (fn) => closers.push(fn),
    async close() {
      for (const fn of closers.reverse()) await fn();
      await queues?.close();
      await prisma.$disconnect();
      for (const c of redisClients) c.disconnect();
    },
  };
}
