/**
 * Where benchmarks find Postgres and Redis (the same variables as the tests, with the same defaults),
 * and throwaway databases for one run.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const ADMIN_URL =
  process.env.BENCH_DATABASE_ADMIN_URL ??
  process.env.TEST_DATABASE_ADMIN_URL ??
  'postgresql://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new empty database on the admin server; `drop()` removes it. */
export async function createBenchDatabase(prefix = 'ops_bench'): Promise<BenchDatabase> {
  const name = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(ADMIN_URL);
  u.pathname = '/' + name;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The environment of the service under benchmark (a child process): this run's database and Redis, a
 * free loopback port, no demo tenant, a throwaway secret and Redis prefix, production mode. `extra`
 * adds what one benchmark raises (rate and body limits).
 */
export function serviceEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    BOOTSTRAP_DEMO: 'false',
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    REDIS_PREFIX: `bench${crypto.randomBytes(4).toString('hex')}`,
    DATA_DIR: path.join(os.tmpdir(), 'ops-bench-data'),
    NODE_ENV: 'production',
    // One credential drives each benchmark far past a person's rate: the API-wide limit still runs (one Redis
    // round trip a request, src/http/api-rate-limit.ts) but is raised out of the way of what is measured.
    API_RATE_PER_MINUTE: '1000000000',
    ...extra,
  };
}
