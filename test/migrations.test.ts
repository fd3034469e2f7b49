/**
 * The checked-in migrations are the schema: the latest snapshot matches prisma/schema, and a database
 * migrated from nothing is indistinguishable from one built straight from the current schema. Plus the
 * guarantees of applyMigrations (Prisma-compatible bookkeeping, idempotence, concurrency, rollback) and
 * of the embedded Postgres the service falls back to.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { applyMigrations, listMigrationFiles, migrationChecksum, DEFAULT_MIGRATIONS_DIR } from '../src/db/migrate.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import {
  latestMigration,
  openDatamodelDiffer,
  readSchemaFiles,
  SNAPSHOT_FILE,
  type DatamodelDiffer,
} from '../scripts/migration-new.js';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const scratchDatabases: string[] = [];
let scratchCounter = 0;

/** Creates an empty database with a name unique to this run and returns its URL. */
async function createScratchDatabase(): Promise<string> {
  const name = `mig_${process.pid}_${Date.now().toString(36)}_${scratchCounter++}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  scratchDatabases.push(name);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropScratchDatabases(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    for (const name of scratchDatabases) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Everything about the public schema a migration can get wrong, in a form `toEqual` can compare and
 * print. Column order and enum label order are left out: `ADD COLUMN` and `ADD VALUE` append, so a
 * migrated database legitimately orders them differently from one created in one go.
 */
// Partitions (children of the time-partitioned tables) are the upkeep's business, not the schema's: they
// depend on the day the database was made. Their parents are compared like any table.
const PARTITIONS = `SELECT relname FROM pg_class WHERE relispartition`;

async function describeSchema(url: string) {
  return withClient(url, async (client) => {
    const rows = async (sql: string) => (await client.query(sql)).rows;
    return {
      tables: await rows(`
        SELECT table_name, table_type FROM information_schema.tables
         WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' AND table_name NOT IN (${PARTITIONS})
         ORDER BY table_name`),
      columns: await rows(`
        SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default,
               character_maximum_length, numeric_precision, numeric_scale, datetime_precision,
               is_identity, is_generated, generation_expression
          FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' AND table_name NOT IN (${PARTITIONS})
         ORDER BY table_name, column_name`),
      enums: await rows(`
        SELECT t.typname AS enum_name, array_agg(e.enumlabel::text ORDER BY e.enumlabel) AS labels
          FROM pg_type t
          JOIN pg_enum e ON e.enumtypid = t.oid
          JOIN pg_namespace n ON n.oid = t.typnamespace
         WHERE n.nspname = 'public'
         GROUP BY t.typname
         ORDER BY t.typname`),
      indexes: await rows(`
        SELECT tablename, indexname, indexdef FROM pg_indexes
         WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' AND tablename NOT IN (${PARTITIONS})
         ORDER BY tablename, indexname`),
      constraints: await rows(`
        SELECT rel.relname AS table_name, c.conname, c.contype, pg_get_constraintdef(c.oid) AS definition,
               c.condeferrable, c.condeferred
          FROM pg_constraint c
          JOIN pg_class rel ON rel.oid = c.conrelid
          JOIN pg_namespace n ON n.oid = rel.relnamespace
         WHERE n.nspname = 'public' AND rel.relname <> '_prisma_migrations' AND NOT rel.relispartition
         ORDER BY rel.relname, c.conname`),
      sequences: await rows(`
        SELECT sequence_name, data_type FROM information_schema.sequences
         WHERE sequence_schema = 'public' ORDER BY sequence_name`),
      views: await rows(`
        SELECT table_name, view_definition FROM information_schema.views
         WHERE table_schema = 'public' ORDER BY table_name`),
    };
  });
}

const PARTITIONING_MARKER = '-- >>> partitioning (hand-written) <<<';

/** The hand-written part of the time_partitions migration (after its marker line). */
function handWrittenPartitioning(): string {
  const m = listMigrationFiles().find((x) => x.script.includes(PARTITIONING_MARKER));
  expect(m, 'no migration carries the partitioning marker').toBeTruthy();
  return m!.script.slice(m!.script.indexOf(PARTITIONING_MARKER));
}

const currentSchema = readSchemaFiles();
const migrations = listMigrationFiles();
let differ: DatamodelDiffer;

beforeAll(async () => {
  // The engine only asks the server for its version; the admin database is as good as any.
  differ = await openDatamodelDiffer(ADMIN_URL, currentSchema);
});

afterAll(async () => {
  await differ?.close();
  await dropScratchDatabases();
});

describe('checked-in migrations', () => {
  test('exist, each with a datamodel snapshot', () => {
    expect(migrations.length, 'no migrations in prisma/migrations: run npm run db:diff -- init').toBeGreaterThan(0);
    const latest = latestMigration();
    expect(latest?.snapshot, `prisma/migrations/${latest?.name}/${SNAPSHOT_FILE} is missing`).toBeTruthy();
  });

  test('the latest snapshot matches prisma/schema (no migration is missing)', async () => {
    const latest = latestMigration();
    expect(latest?.snapshot).toBeTruthy();
    const result = await differ.diff([{ path: SNAPSHOT_FILE, content: latest!.snapshot! }], currentSchema);
    expect(
      result.changed,
      `prisma/schema differs from the snapshot of ${latest!.name}; run npm run db:diff -- <name>. Pending SQL:\n${result.script}`,
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

    const rows = await withClient(url, async (client) =>
      (await client.query(
        `SELECT id, checksum, migration_name, finished_at, rolled_back_at, started_at, applied_steps_count, logs
           FROM _prisma_migrations ORDER BY started_at`,
      )).rows,
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
    const count = await withClient(url, async (c) => (await c.query('SELECT count(*)::int AS n FROM _prisma_migrations')).rows[0].n);
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
      expect(await applyMigrations(url, undefined, dir)).toEqual([...migrations.map((m) => m.name), '99991231235959_own_tx']);
      const row = await withClient(url, async (c) => {
        expect((await c.query(`SELECT to_regclass('public.own_tx') AS t`)).rows[0].t).toBe('own_tx');
        return (await c.query(`SELECT * FROM _prisma_migrations WHERE migration_name = '99991231235959_own_tx'`)).rows[0];
      });
      expect(row).toMatchObject({ checksum: migrationChecksum(script), applied_steps_count: 1, rolled_back_at: null });
      expect(row.finished_at).toBeInstanceOf(Date);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('embedded Postgres', () => {
  test('migrates, answers Prisma through a one-connection pool, and keeps data across restarts', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'embedded-pg-'));
    try {
      let server = await startEmbeddedPostgres(dataDir);
      try {
        expect(await applyMigrations(server.url)).toEqual(migrations.map((m) => m.name));
        expect(await applyMigrations(server.url)).toEqual([]);
        const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: server.url, max: 1 }) });
        try {
          const created = await prisma.tenant.create({ data: { name: 'embedded-tenant' } });
          const found = await prisma.tenant.findUnique({ where: { name: 'embedded-tenant' } });
          expect(found?.id).toBe(created.id);
          await expect(prisma.tenant.create({ data: { name: 'embedded-tenant' } })).rejects.toThrow(/Unique constraint/i);
        } finally {
          await prisma.$disconnect();
        }
      } finally {
        await server.stop();
      }

      server = await startEmbeddedPostgres(dataDir);
      try {
        expect(await applyMigrations(server.url)).toEqual([]);
        const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: server.url, max: 1 }) });
        try {
          expect((await prisma.tenant.findMany()).map((t) => t.name)).toEqual(['embedded-tenant']);
        } finally {
          await prisma.$disconnect();
        }
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000); // PGlite creates the partitions of seven tables in its migrations: minutes on a loaded machine
});

describe('time partitions migration', () => {
  const PARTITIONING = listMigrationFiles().find((m) => m.script.includes(PARTITIONING_MARKER))!.name;
  const TABLES = ['Event', 'Delivery', 'DeliveryAttempt', 'OutboxMessage', 'GpuSample', 'GpuRollup', 'AuditLog', 'AlertEvent', 'OutboundWebhook'];

  /** Rows of today's unpartitioned schema, over several days (one far older than any partition ahead). */
  const SEED = `
    INSERT INTO "Tenant" (id, name) VALUES ('t1', 'seeded');
    INSERT INTO "Event" (id, "tenantId", type, source, "receivedVia", "receivedAt") VALUES
      ('e1', 't1', 'a.b', 's', 'ingest', now() AT TIME ZONE 'UTC'),
      ('e2', 't1', 'a.b', 's', 'ingest', (now() AT TIME ZONE 'UTC') - interval '3 days'),
      ('e3', 't1', 'a.b', 's', 'ingest', (now() AT TIME ZONE 'UTC') - interval '40 days');
    INSERT INTO "Alert" (id, "tenantId", severity, summary, "dedupKey", "updatedAt") VALUES ('a1', 't1', 'info', 'x', 'k', now());
    INSERT INTO "AlertEvent" ("alertId", "eventId") VALUES ('a1', 'e2');
    INSERT INTO "OutboundWebhook" (id, "tenantId", name, url, "secretCiphertext", "updatedAt") VALUES ('w1', 't1', 'w', 'http://127.0.0.1:9/', 'x', now());
    INSERT INTO "OutboxMessage" (id, "tenantId", topic, "subjectId", body, "dedupKey", "createdAt") VALUES
      ('o1', 't1', 'alert.opened', 'a1', '{}', 'k1', (now() AT TIME ZONE 'UTC') - interval '2 days');
    INSERT INTO "Delivery" (id, "tenantId", "webhookId", "outboxId", topic, body, "createdAt") VALUES
      ('d1', 't1', 'w1', 'o1', 'alert.opened', '{}', (now() AT TIME ZONE 'UTC') - interval '2 days');
    UPDATE "OutboundWebhook" SET "lastFailedDeliveryId" = 'd1';
    INSERT INTO "DeliveryAttempt" (id, "deliveryId", number, "requestHeaders", "durationMs") VALUES ('da1', 'd1', 1, '{}', 5);
    INSERT INTO "Gpu" (id, "tenantId", uuid, node, index, source) VALUES ('g1', 't1', 'GPU-1', 'n1', 0, 'dcgm');
    INSERT INTO "GpuSample" ("gpuId", "tenantId", at) VALUES ('g1', 't1', now() AT TIME ZONE 'UTC'), ('g1', 't1', (now() AT TIME ZONE 'UTC') - interval '1 day');
    INSERT INTO "GpuRollup" ("gpuId", "tenantId", resolution, bucket, samples) VALUES
      ('g1', 't1', 60, date_trunc('minute', now() AT TIME ZONE 'UTC'), 6), ('g1', 't1', 3600, date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '20 days', 360);
    INSERT INTO "AuditLog" (id, "tenantId", "credentialKind", action) VALUES ('al1', 't1', 'system', 'seeded');`;

  async function migrateSeeded(url: string): Promise<void> {
    const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    try {
      cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
      const later = listMigrationFiles().filter((m) => m.name >= PARTITIONING).map((m) => m.name);
      for (const name of later) rmSync(path.join(dir, name), { recursive: true, force: true });
      await applyMigrations(url, undefined, dir);
      await withClient(url, (c) => c.query(SEED));
      const before = await counts(url);
      expect(await applyMigrations(url)).toEqual(later);
      expect(await counts(url)).toEqual(before);
      await withClient(url, async (c) => {
        const kinds = (await c.query(`SELECT relname, relkind::text FROM pg_class WHERE relname = ANY($1) ORDER BY relname`, [TABLES.slice(0, 7)])).rows;
        expect(kinds.every((k) => k.relkind === 'p')).toBe(true);
        // Rows went to their day's partition, not the default one; links and attempts kept their keys.
        expect((await c.query(`SELECT count(*)::int AS n FROM "Event_default"`)).rows[0].n).toBe(0);
        expect((await c.query(`SELECT tableoid::regclass::text AS t FROM "Event" WHERE id = 'e3'`)).rows[0].t).toMatch(/Event_p\d{8}/);
        expect((await c.query(`SELECT "deliveryCreatedAt" = (SELECT "createdAt" FROM "Delivery" WHERE id = 'd1') AS same FROM "DeliveryAttempt"`)).rows[0].same).toBe(true);
        expect((await c.query(`SELECT "eventId" FROM "AlertEvent"`)).rows).toEqual([{ eventId: 'e2' }]);
        expect((await c.query(`SELECT "lastFailedDeliveryId" AS d FROM "OutboundWebhook"`)).rows).toEqual([{ d: 'd1' }]);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  async function counts(url: string): Promise<Record<string, number>> {
    return withClient(url, async (c) => {
      const out: Record<string, number> = {};
      for (const t of TABLES) out[t] = (await c.query(`SELECT count(*)::int AS n FROM "${t}"`)).rows[0].n;
      return out;
    });
  }

  test('keeps every row of the unpartitioned tables (Postgres)', async () => {
    await migrateSeeded(await createScratchDatabase());
  });

  test('keeps every row of the unpartitioned tables (embedded PGlite)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'embedded-pg-'));
    const server = await startEmbeddedPostgres(dataDir);
    try {
      await migrateSeeded(server.url);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
