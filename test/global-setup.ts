/**
 * Runs once before all test files: checks Postgres and Redis are reachable and builds a migrated
 * template database that each test file clones (CREATE DATABASE … TEMPLATE) in milliseconds.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { applyMigrations, listMigrationFiles } from '../src/db/migrate.js';
import { ADMIN_URL, REDIS_URL, dbUrl } from './helpers/env.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(`Tests need Postgres at ${ADMIN_URL} (set TEST_DATABASE_ADMIN_URL): ${(err as Error).message}`);
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(`Tests need Redis at ${REDIS_URL} (set TEST_REDIS_URL): ${(err as Error).message}`);
  } finally {
    redis.disconnect();
  }
  const digest = crypto.createHash('sha256');
  for (const m of listMigrationFiles()) digest.update(m.name).update(m.checksum ?? '');
  const template = `ops_tpl_${digest.digest('hex').slice(0, 12)}`;
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
  if (exists.rowCount === 0) {
    const building = `${template}_build_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${building}`);
    await admin.query(`CREATE DATABASE ${building}`);
    await applyMigrations(dbUrl(building));
    try {
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
    } catch {
      await admin.query(`DROP DATABASE IF EXISTS ${building}`); // a parallel run won the race
    }
  }
  await admin.end();
  project.provide('templateDb', template);
  return async () => {};
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDb: string;
  }
}
