/**
 * Boots the real service for a test file: its own database (cloned from the migrated template), its
 * own Redis key prefix, a free port, workers running, responses checked against the OpenAPI contract.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { startApp, type App, type StartOptions } from '../../src/app.js';
import { ADMIN_URL, REDIS_URL, dbUrl } from './env.js';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A new database with all migrations applied (a clone of the template). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `ops_t_${crypto.randomBytes(6).toString('hex')}`;
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
    REDIS_PREFIX: `t${crypto.randomBytes(5).toString('hex')}`,
    DATA_DIR: path.join(os.tmpdir(), 'ops-test-data'),
    // Redis-loss tests wait for the periodic schedules to be re-registered.
    SCHEDULE_REFRESH_MS: '2000',
    ...env,
  });
}

/** Starts the service on a fresh database; `stop()` shuts it down and drops the database. */
export async function startTestServer(opts: { env?: Record<string, string>; start?: StartOptions; db?: TestDatabase } = {}): Promise<TestServer> {
  const db = opts.db ?? (await createTestDatabase());
  const config = testConfig(db.url, opts.env);
  const app = await startApp(config, { validateResponses: true, ...opts.start });
  return {
    app,
    url: app.url,
    db,
    config,
    stop: async () => {
      await app.stop();
      if (!opts.db) await db.drop();
    },
  };
}
