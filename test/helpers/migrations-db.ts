/**
 * Scratch databases and schema descriptions for the migration tests (test/migrations*.test.ts): empty
 * databases unique to the run (dropped by `useScratchDatabases`), a client helper, a description of a
 * database's schema to compare two of them, and the hand-written part of the time_partitions migration.
 */
import pg from 'pg';
import { afterAll, expect } from 'vitest';
import { listMigrationFiles } from '../../src/db/migrate.js';

export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export const scratchDatabases: string[] = [];
export let scratchCounter = 0;

/** Creates an empty database with a name unique to this run and returns its URL. */
export async function createScratchDatabase(): Promise<string> {
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

export async function dropScratchDatabases(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    for (const name of scratchDatabases) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
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
export const PARTITIONS = `SELECT relname FROM pg_class WHERE relispartition`;

export async function describeSchema(url: string) {
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

export const PARTITIONING_MARKER = '-- >>> partitioning (hand-written) <<<';

/** The hand-written part of the time_partitions migration (after its marker line). */
export function handWrittenPartitioning(): string {
  const m = listMigrationFiles().find((x) => x.script.includes(PARTITIONING_MARKER));
  expect(m, 'no migration carries the partitioning marker').toBeTruthy();
  return m!.script.slice(m!.script.indexOf(PARTITIONING_MARKER));
}

/** Registers the hook that drops the file's scratch databases after it. */
export function useScratchDatabases(): void {
  afterAll(dropScratchDatabases);
}
