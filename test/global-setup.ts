/**
 * Runs once before all test files: checks Postgres and Redis are reachable and builds a migrated
 * template database that each test file clones (CREATE DATABASE … TEMPLATE) in milliseconds.
 * Gives the run an id that test databases and Redis prefixes carry; the teardown removes whatever of
 * this run is left (a file that crashed before `stop()`), and test databases older than a day.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { applyMigrations, listMigrationFiles } from '../src/db/migrate.js';
import { buildConsole, consoleStale } from '../src/server/console.js';
import { ADMIN_URL, REDIS_URL, dbUrl, testDatabasePrefix, testRedisPrefix, unlinkRedisPrefix } from './helpers/env.js';

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
  // Tests that need a real process run the compiled service, as `npm start` does (test/helpers/cli.ts
  // SERVICE_MAIN): build dist/ once here when a source is newer, not in every spawned process.
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { stdio: 'inherit' });
  // Likewise the console the browser tests load: once here, not in each console test file running at once.
  if (consoleStale()) await buildConsole(() => {}, { onlyIfStale: true });
  const digest = crypto.createHash('sha256');
  for (const m of listMigrationFiles()) digest.update(m.name).update(m.checksum ?? '');
  // One template per migration set and UTC day: migrating makes the partitions of today and the 7 days
  // after it, and a test server without workers (or before its upkeep runs) has only those. A template
  // kept from an earlier day had no partition for the last of the 7 days ahead (test/history.test.ts
  // failed from midnight on), and every server's first upkeep then created one while its tests wrote.
  const family = `ops_tpl_${digest.digest('hex').slice(0, 12)}`;
  const template = `${family}_${new Date().toISOString().slice(0, 10).replace(/-/g, '')}`;
  await dropOldTemplates(admin, template);
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
  // Base-36 time plus randomness: distinct for concurrent runs, short enough for database names.
  const runId = Date.now().toString(36) + crypto.randomBytes(2).toString('hex');
  project.provide('templateDb', template);
  project.provide('testRunId', runId);
  return () => teardown(runId);
}

/**
 * Drops the templates (of any migration set, never `keep`) made over two days ago: no run still clones
 * from one (a run takes minutes). Needs superuser for pg_stat_file, as the teardown's sweep does; without
 * it they stay. One in use right now is refused by DROP DATABASE and stays for a later run.
 */
async function dropOldTemplates(admin: pg.Client, keep: string): Promise<void> {
  let old: { datname: string }[] = [];
  try {
    old = (
      await admin.query<{ datname: string }>(
        `SELECT d.datname FROM pg_database d
          WHERE d.datname LIKE 'ops\\_tpl\\_%' AND d.datname <> $1
            AND (pg_stat_file('base/' || d.oid || '/PG_VERSION')).modification < now() - interval '2 days'`,
        [keep],
      )
    ).rows;
  } catch {
    return; // not superuser
  }
  for (const { datname } of old) await admin.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => undefined);
}

/** Drops this run's leftover databases and Redis keys, and test databases older than a day. */
async function teardown(runId: string): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    // Any run's database whose files are over a day old is a straggler (no run lasts that long).
    // pg_stat_file needs superuser, which the test admin connection is; without it only this run is swept.
    const mine = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
      [testDatabasePrefix(runId)],
    );
    let old: { datname: string }[] = [];
    try {
      old = (
        await admin.query<{ datname: string }>(
          `SELECT d.datname FROM pg_database d
            WHERE d.datname LIKE 'ops\\_t\\_%'
              AND (pg_stat_file('base/' || d.oid || '/PG_VERSION')).modification < now() - interval '1 day'`,
        )
      ).rows;
    } catch {
      // not superuser: leave older runs alone
    }
    for (const { datname } of [...mine.rows, ...old])
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    await unlinkRedisPrefix(redis, testRedisPrefix(runId));
  } finally {
    redis.disconnect();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDb: string;
    /** Carried by this run's database names and Redis prefixes, so its teardown finds them. */
    testRunId: string;
  }
}
