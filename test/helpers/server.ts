/**
 * Boots the real service for a test file: its own database (cloned from the migrated template), its
 * own Redis key prefix, its own DATA_DIR, a free port, workers running, responses checked against the
 * OpenAPI contract. `stop()` leaves nothing behind: the database is dropped, the prefix's Redis keys
 * unlinked and the DATA_DIR removed. Names carry the run id (test/global-setup.ts), whose teardown
 * sweeps whatever a crashed file left.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { startApp, type App, type StartOptions } from '../../src/server/app.js';
import { atTimeOfDay } from '../../src/clock.js';
import { ADMIN_URL, REDIS_URL, dbUrl, testDatabasePrefix, testRedisPrefix, unlinkRedisPrefix } from './env.js';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A new database with all migrations applied (a clone of the template). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `${testDatabasePrefix(inject('testRunId'))}${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDb')}`);
  await admin.end();
  return {
    name,
    url: dbUrl(name),
    drop: async () => {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestServer {
  app: App;
  url: string;
  db: TestDatabase;
  config: Config;
  stop(): Promise<void>;
}

/**
 * How far the server's clock is from the system clock (0 unless TEST_TIME_OF_DAY or a test's clock moves
 * it): a spawned peer process given it (`shiftedClock(offset)`) reads the same "now" as the server.
 */
export function clockOffsetMs(s: { app: App }): number {
  return s.app.rt.clock.now().getTime() - Date.now();
}

/** Config for a test process: real Postgres/Redis, port 0, no demo bootstrap, quiet logs. */
export function testConfig(databaseUrl: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    PORT: '0',
    HOST: '127.0.0.1',
    BOOTSTRAP_DEMO: 'false',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    APP_SECRET: 'test-secret-'.padEnd(48, 'x'),
    REDIS_PREFIX: `${testRedisPrefix(inject('testRunId'))}${crypto.randomBytes(5).toString('hex')}`,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ops-test-data-')),
    // Redis-loss tests wait for the periodic schedules to be re-registered.
    SCHEDULE_REFRESH_MS: '2000',
    ...env,
  });
}

/**
 * Starts the service on a fresh database; `stop()` shuts it down and removes what it owns: the database
 * (unless one was passed in), the Redis keys of its prefix and its DATA_DIR (unless the test chose them:
 * a second node sharing another server's prefix or DATA_DIR leaves them to that server).
 */
export async function startTestServer(
  opts: { env?: Record<string, string>; start?: StartOptions; db?: TestDatabase } = {},
): Promise<TestServer> {
  const db = opts.db ?? (await createTestDatabase());
  const config = testConfig(db.url, opts.env);
  const ownsPrefix = opts.env?.REDIS_PREFIX === undefined;
  const ownsDataDir = opts.env?.DATA_DIR === undefined;
  let app: App;
  try {
    // TEST_TIME_OF_DAY=00:30 runs every test server at that time of day (a test's own clock wins).
    const suiteClock = process.env.TEST_TIME_OF_DAY ? atTimeOfDay(process.env.TEST_TIME_OF_DAY) : undefined;
    app = await startApp(config, { validateResponses: true, clock: suiteClock, ...opts.start });
  } catch (err) {
    if (ownsDataDir) fs.rmSync(config.dataDir, { recursive: true, force: true });
    if (!opts.db) await db.drop();
    throw err;
  }
  return {
    app,
    url: app.url,
    db,
    config,
    stop: async () => {
      await app.stop();
      if (ownsPrefix) {
        const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
        try {
          await unlinkRedisPrefix(redis, `${config.redisPrefix}:`);
        } finally {
          redis.disconnect();
        }
      }
      if (ownsDataDir) fs.rmSync(config.dataDir, { recursive: true, force: true });
      if (!opts.db) await db.drop();
    },
  };
}
