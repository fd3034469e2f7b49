/**
 * The checked-in migrations are the schema: the latest snapshot matches prisma/schema, and a database
 * migrated from nothing is indistinguishable from one built straight from the current schema. Plus the
 * guarantees of applyMigrations (Prisma-compatible bookkeeping, idempotence, concurrency, rollback). The
 * embedded Postgres and the time partitions migration: test/migrations-embedded.test.ts.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyMigrations, listMigrationFiles, migrationChecksum, DEFAULT_MIGRATIONS_DIR } from '../src/db/migrate.js';
import {
  latestMigration,
  openDatamodelDiffer,
  readSchemaFiles,
  SNAPSHOT_FILE,
  type DatamodelDiffer,
} from '../scripts/migration-new.js';
import {
  ADMIN_URL,
  createScratchDatabase,
  describeSchema,
  handWrittenPartitioning,
  useScratchDatabases,
  withClient,
} from './helpers/migrations-db.js';

const currentSchema = readSchemaFiles();
const migrations = listMigrationFiles();
let differ: DatamodelDiffer;

beforeAll(async () => {
  // The engine only asks the server for its version; the admin database is as good as any.
  differ = await openDatamodelDiffer(ADMIN_URL, currentSchema);
});

afterAll(async () => {
  await differ?.close();
});
useScratchDatabases();

describe('checked-in migrations', () => {
  test('exist, with one datamodel snapshot for them all', () => {
    expect(migrations.length, 'no migrations in prisma/migrations: run npm run db:diff -- init').toBeGreaterThan(0);
    const latest = latestMigration();
    expect(latest?.snapshot, `prisma/migrations/${SNAPSHOT_FILE} is missing`).toBeTruthy();
    const snapshots = readdirSync(DEFAULT_MIGRATIONS_DIR, { recursive: true }).filter((f) =>
      String(f).endsWith('.prisma'),
    );
    expect(snapshots, 'one snapshot, beside the migrations (npm run db:diff rewrites it)').toEqual([SNAPSHOT_FILE]);
  });

  test('the latest snapshot matches prisma/schema (no migration is missing)', async () => {
    const latest = latestMigration();
    expect(latest?.snapshot).toBeTruthy();
    const result = await differ.diff([{ path: SNAPSHOT_FILE, content: latest!.snapshot! }], currentSchema);
    expect(
      result.changed,
      `prisma/schema differs from prisma/migrations/${SNAPSHOT_FILE} (the schema after ${latest!.name}); run npm run db:diff -- <name>, or after a merge rewrite the snapshot from both sides' migrations. Pending SQL:\n${result.script}`,
    ).toBe(false);
  });

  test('a database migrated from nothing equals one created from the current schema', async () => {
    const [migratedUrl, referenceUrl] = await Promise.all([createScratchDatabase(), createScratchDatabase()]);

    const applied = await applyMigrations(migratedUrl);
    expect(applied).toEqual(migrations.map((m) => m.name));

    const fromEmpty = await differ.diff('empty', currentSchema);
    expect(fromEmpty.changed).toBe(true);
    await withClient(referenceUrl, (client) => client.query(fromEmpty.script));
    // Prisma cannot express partitioned tables: the hand-written part of the migrations is applied to it too.
    await withClient(referenceUrl, (client) => client.query(handWrittenPartitioning()));

    const [migrated, reference] = await Promise.all([describeSchema(migratedUrl), describeSchema(referenceUrl)]);
    expect(reference.tables.length).toBeGreaterThan(0);
    expect(migrated, 'the migrations do not produce the schema in prisma/schema').toEqual(reference);
  });
});

describe('applyMigrations', () => {
  test('records Prisma-compatible rows and does nothing the second time', async () => {
    const url = await createScratchDatabase();
    const messages: string[] = [];
    expect(await applyMigrations(url, (m) => messages.push(m))).toEqual(migrations.map((m) => m.name));
    expect(messages.some((m) => m.includes(migrations[0]!.name))).toBe(true);
    expect(await applyMigrations(url)).toEqual([]);

    const rows = await withClient(
      url,
      async (client) =>
        (
          await client.query(
            `SELECT id, checksum, migration_name, finished_at, rolled_back_at, started_at, applied_steps_count, logs
           FROM _prisma_migrations ORDER BY started_at`,
          )
        ).rows,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(migrations.map((m) => m.name));
    for (const [i, row] of rows.entries()) {
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.checksum).toBe(migrationChecksum(migrations[i]!.script));
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.finished_at.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
      expect(row.logs).toBeNull();
    }
  });

  test('several nodes starting at once apply each migration exactly once', async () => {
    const url = await createScratchDatabase();
    const results = await Promise.all([applyMigrations(url), applyMigrations(url), applyMigrations(url)]);
    expect(results.flat()).toEqual(migrations.map((m) => m.name));
    expect(results.filter((r) => r.length > 0)).toHaveLength(1);
    const count = await withClient(
      url,
      async (c) => (await c.query('SELECT count(*)::int AS n FROM _prisma_migrations')).rows[0].n,
    );
    expect(count).toBe(migrations.length);
  });

  test('a failing migration is rolled back, unrecorded, and named in the error', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    try {
      cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
      mkdirSync(path.join(dir, '99991231235959_broken'));
      writeFileSync(
        path.join(dir, '99991231235959_broken', 'migration.sql'),
        'CREATE TABLE "half_done" (id integer);\nSELECT 1 / 0;\n',
      );
      const url = await createScratchDatabase();
      await expect(applyMigrations(url, undefined, dir)).rejects.toThrow(/99991231235959_broken.*division by zero/);
      const state = await withClient(url, async (c) => ({
        halfDone: (await c.query(`SELECT to_regclass('public.half_done') AS t`)).rows[0].t,
        recorded: (await c.query('SELECT migration_name FROM _prisma_migrations ORDER BY started_at')).rows.map(
          (r) => r.migration_name,
        ),
      }));
      expect(state).toEqual({ halfDone: null, recorded: migrations.map((m) => m.name) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  test('a script with its own BEGIN/COMMIT (as Prisma writes for enum rewrites) is applied and recorded', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    try {
      cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
      mkdirSync(path.join(dir, '99991231235959_own_tx'));
      const script = 'BEGIN;\nCREATE TABLE "own_tx" (id integer);\nCOMMIT;\n';
      writeFileSync(path.join(dir, '99991231235959_own_tx', 'migration.sql'), script);
      const url = await createScratchDatabase();
      expect(await applyMigrations(url, undefined, dir)).toEqual([
        ...migrations.map((m) => m.name),
        '99991231235959_own_tx',
      ]);
      const row = await withClient(url, async (c) => {
        expect((await c.query(`SELECT to_regclass('public.own_tx') AS t`)).rows[0].t).toBe('own_tx');
        return (await c.query(`SELECT * FROM _prisma_migrations WHERE migration_name = '99991231235959_own_tx'`))
          .rows[0];
      });
      expect(row).toMatchObject({ checksum: migrationChecksum(script), applied_steps_count: 1, rolled_back_at: null });
      expect(row.finished_at).toBeInstanceOf(Date);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
