/**
 * The process-wide parts every request and job shares: config, logger, Prisma, Redis, queues, pubsub,
 * and the keys derived from APP_SECRET. Built once by `createRuntime`, closed once by `close()`.
 *
 * The stateful pieces the areas keep per process (rate limiters, memos, pools, the delivery engine, the
 * assistant's provider, …) are `parts`: each area declares its own in `RuntimeParts` (module augmentation,
 * `declare module '../runtime.js'`), and the composition root builds them all in one place
 * (src/server/runtime-parts.ts) when the runtime is created. No area keeps a module-level singleton per runtime.
 */
import { noTelemetry, type Telemetry } from './tracing.js';
import crypto from 'node:crypto';
import type { Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { createPrisma } from './db/client.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { Queues } from './queues.js';
import { createRedisPubSub, type PubSub } from './pubsub.js';
import { resolveAppSecret, SecretBox } from './secrets.js';
import { systemClock, type Clock } from './clock.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { bullConnection, connectRedis, queuePrefix, type RedisClient, type RedisTarget } from './redis-connection.js';

/** The areas' stateful pieces, declared by each area and built by src/server/runtime-parts.ts. */
export interface RuntimeParts {}

export interface Runtime {
  config: Config;
  logger: Logger;
  /** Logs are readable lines for a person at a terminal (pino-pretty) rather than JSON; requests log one short line each. */
  prettyLogs: boolean;
  /** "Now" for every rule that reads the time (tests inject a shifted clock). */
  clock: Clock;
  prisma: PrismaClient;
  /** Reads of reports, exports and billing: REPORTS_DATABASE_URL (a replica), else the primary's client. */
  reportsPrisma: PrismaClient;
  /** General-purpose connection (rate limits, caches): a Cluster client on a Redis Cluster. */
  redis: RedisClient;
  queues: Queues;
  pubsub: PubSub;
  secretBox: SecretBox;
  /** Outgoing email (SMTP_URL), null when it is unset: src/mail/mailer.ts `sendMail`. */
  mailer: Mailer | null;
  jwtKey: Uint8Array;
  /** Resolved connection strings (embedded servers included). */
  databaseUrl: string;
  /** Where report reads go (the primary unless REPORTS_DATABASE_URL is set). */
  reportsDatabaseUrl: string;
  redisTarget: RedisTarget;
  /** The connection BullMQ queues and workers open theirs from (a shared Cluster client on a cluster). */
  bullConnection: unknown;
  /** The areas' stateful pieces (RuntimeParts), built once with the runtime. */
  parts: RuntimeParts;
  /** Tracer and meter (no-ops unless OTLP export is configured: src/server/telemetry.ts). */
  telemetry: Telemetry;
  onClose(fn: () => Promise<void> | void): void;
  close(): Promise<void>;
}

export function createRuntime(
  config: Config,
  databaseUrl: string,
  redisTarget: RedisTarget,
  opts: {
    /** Builds the areas' parts for this runtime: src/server/runtime-parts.ts `buildRuntimeParts`. */
    parts: (rt: Runtime) => RuntimeParts;
    poolSize?: number;
    clock?: Clock;
    prettyLogs?: boolean;
    telemetry?: Telemetry;
  },
): Runtime {
  const prettyLogs = opts.prettyLogs === true;
  const logger = createLogger(config.logLevel, undefined, { pretty: prettyLogs });
  const appSecret = resolveAppSecret(config);
  // The statement timeout needs a real server (DATABASE_URL); the embedded PGlite cannot cancel a statement.
  const statementTimeoutMs = config.databaseUrl ? config.history.statementTimeoutMs : 0;
  const prisma = createPrisma(
    databaseUrl,
    opts.poolSize ?? 10,
    (err) => logger.warn({ err: err.message }, 'postgres connection error'),
    statementTimeoutMs,
  );
  const reportsDatabaseUrl = config.reportsDatabaseUrl ?? databaseUrl;
  // Writes never go to the replica: only report, export and billing reads are handed this client.
  const reportsPrisma = config.reportsDatabaseUrl
    ? createPrisma(
        reportsDatabaseUrl,
        4,
        (err) => logger.warn({ err: err.message }, 'reports database connection error'),
        statementTimeoutMs,
      )
    : prisma;
  // Auto-pipelining batches the commands issued in one event-loop turn (rate checks, publishes) into
  // one write: under load that is far fewer syscalls and round trips.
  const redisOpts = {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    lazyConnect: false,
    enableAutoPipelining: true,
  } as const;
  const redis = connectRedis(redisTarget, redisOpts);
  const pubClient = connectRedis(redisTarget, redisOpts);
  const subClient = connectRedis(redisTarget, { ...redisOpts, enableAutoPipelining: false }, true);
  for (const c of [redis, pubClient, subClient])
    c.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis connection error'));
  const bull = bullConnection(redisTarget);
  const queues = new Queues(
    bull as never,
    (name) => queuePrefix(redisTarget, config.redisPrefix, name),
    (err, queue) => logger.warn({ err: err.message, queue }, 'queue connection error'),
  );
  const closers: Array<() => Promise<void> | void> = [];
  const mailer = createMailer(config.notify);
  const pubsub = createRedisPubSub(pubClient, subClient, config.redisPrefix, redisTarget.kind === 'cluster');
  const rt: Runtime = {
    config,
    logger,
    prettyLogs,
    clock: opts.clock ?? systemClock,
    prisma,
    reportsPrisma,
    redis,
    queues,
    pubsub,
    secretBox: new SecretBox(appSecret),
    mailer,
    jwtKey: crypto
      .createHash('sha256')
      .update('ops-jwt:' + appSecret)
      .digest(),
    databaseUrl,
    reportsDatabaseUrl,
    redisTarget,
    bullConnection: bull,
    parts: {} as RuntimeParts,
    telemetry: opts.telemetry ?? noTelemetry,
    onClose: (fn) => closers.push(fn),
    async close() {
      for (const fn of closers.reverse()) await fn();
      await queues.close();
      mailer?.close();
      await prisma.$disconnect();
      if (reportsPrisma !== prisma) await reportsPrisma.$disconnect();
      // QUIT lets commands already sent finish (a plain disconnect rejects them: unhandled rejections
      // in whatever fired them) before the connection goes.
      const quit = (c: RedisClient) =>
        Promise.race([c.quit(), new Promise((resolve) => setTimeout(resolve, 2000).unref())])
          .catch(() => undefined)
          .finally(() => c.disconnect());
      const shared = typeof bull === 'object' && bull && 'quit' in bull ? [bull as RedisClient] : [];
      // Announcements made just before closing (the CLI's) reach Redis first; bounded if Redis is away.
      await Promise.race([pubsub.settled(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
      await Promise.all([redis, pubClient, subClient, ...shared].map(quit));
    },
  };
  rt.parts = opts.parts(rt);
  return rt;
}
