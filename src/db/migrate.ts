/**
 * Applies the checked-in SQL migrations (`prisma/migrations/<name>/migration.sql`) without Prisma's
 * native schema engine, which these machines cannot download. Bookkeeping goes into Prisma's own
 * `_prisma_migrations` table with Prisma's columns and checksum convention, so `prisma migrate deploy`
 * and `migrate status` keep working wherever the engine is available, and either tool can take over.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PROJECT_ROOT } from '../project-root.js';
import { quoteIdent } from './quote-ident.js';

/** Prisma Migrate's advisory lock key: holding it also keeps `prisma migrate deploy` out meanwhile. */
const PRISMA_MIGRATE_LOCK_KEY = 72707369;

/** The project's migrations directory (`prisma/migrations`), resolved from this file. */
export const DEFAULT_MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'prisma', 'migrations') + path.sep;

// Same DDL Prisma's Postgres connector runs (sql-schema-connector, `create_migrations_table`).
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

// A script that manages its own transaction (Prisma emits BEGIN/COMMIT when it rewrites an enum)
// cannot be nested in ours; it runs as written, like `prisma migrate deploy` would run it.
// (PL/pgSQL's `BEGIN` has no semicolon and its `END;` closes a block, so neither counts.)
const OWN_TRANSACTION_CONTROL = /^\s*(BEGIN|START\s+TRANSACTION|COMMIT)\s*;/im;

export interface MigrationFile {
  /** Directory name, e.g. `20250101120000_init`; also the `migration_name` recorded. */
  name: string;
  /** The exact text of `migration.sql`. */
  script: string;
  /** Lower-case hex SHA-256 of the script bytes: Prisma's checksum. */
  checksum: string;
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  started_at: Date;
  logs: string | null;
}

/** Prisma's migration checksum: SHA-256 over the script's bytes, rendered as 64 lower-case hex digits. */
export function migrationChecksum(script: string): string {
  return createHash('sha256').update(script, 'utf8').digest('hex');
}

/**
 * Lists the migrations in `dir` in directory-name order (Prisma's order). Directories without a
 * `migration.sql` are skipped. Throws if `migration_lock.toml` names a provider other than postgresql.
 */
export function listMigrationFiles(dir: string = DEFAULT_MIGRATIONS_DIR): MigrationFile[] {
  if (!existsSync(dir)) return [];
  const lockFile = path.join(dir, 'migration_lock.toml');
  if (existsSync(lockFile)) {
    const provider = /^\s*provider\s*=\s*"([^"]*)"/m.exec(readFileSync(lockFile, 'utf8'))?.[1];
    if (provider && provider !== 'postgresql') {
      throw new Error(`${lockFile} is for provider "${provider}", but this service migrates PostgreSQL`);
    }
  }
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const script = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, script, checksum: migrationChecksum(script) };
    });
}

/**
 * Applies every migration in `migrationsDir` that `_prisma_migrations` does not list as applied, in
 * directory-name order, and returns the names applied (empty when the database is up to date).
 *
 * Guarantees:
 * - Concurrent callers (several API nodes starting at once, or `prisma migrate deploy`) are serialized by
 *   Prisma's session advisory lock; late arrivals wait, then find nothing left to do.
 * - Each migration runs in one transaction together with its `_prisma_migrations` row (id, sha256
 *   checksum, started_at, finished_at, applied_steps_count = 1), so a failing migration leaves neither
 *   schema changes nor a row behind; the error names the migration. Scripts that carry their own
 *   BEGIN/COMMIT run as written instead.
 * - Refuses to proceed while a failed migration recorded by Prisma is unresolved, as Prisma does (P3009).
 * - Uses one `pg` Client (one connection), so it works through PGlite's single-connection socket server.
 * - A `schema` query parameter in the URL (Prisma's convention) selects and creates the target schema.
 */
export async function applyMigrations(
  databaseUrl: string,
  log: (msg: string) => void = () => {},
  migrationsDir: string = DEFAULT_MIGRATIONS_DIR,
): Promise<string[]> {
  const migrations = listMigrationFiles(migrationsDir);
  const schema = new URL(databaseUrl).searchParams.get('schema');
  const client = new pg.Client({ connectionString: databaseUrl });
  // An idle client that loses its socket emits 'error'; without a listener that would crash the process.
  client.on('error', (err) => log(`migrations: connection error: ${err.message}`));
  await client.connect();
  let locked = false;
  try {
    if (schema) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await client.query(`SET search_path TO ${quoteIdent(schema)}`);
    }
    const attempt = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
      PRISMA_MIGRATE_LOCK_KEY,
    ]);
    if (!attempt.rows[0]?.locked) {
      log('migrations: another process is migrating this database; waiting for it to finish');
      await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
    }
    locked = true;

    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<MigrationRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at, started_at, logs
         FROM _prisma_migrations ORDER BY started_at ASC`,
    );

    const failed = rows.filter((row) => row.finished_at === null && row.rolled_back_at === null);
    if (failed.length > 0) {
      const details = failed
        .map(
          (row) =>
            `- ${row.migration_name} (started ${row.started_at.toISOString()})${row.logs ? `: ${row.logs.trim()}` : ''}`,
        )
        .join('\n');
      throw new Error(
        `Refusing to migrate: the database records failed migrations (Prisma P3009).\n${details}\n` +
          'Repair the database, then mark each one with `prisma migrate resolve --rolled-back <name>` ' +
          '(or set rolled_back_at in _prisma_migrations) and start again.',
      );
    }

    const applied = new Map<string, MigrationRow>();
    for (const row of rows) if (row.rolled_back_at === null) applied.set(row.migration_name, row);

    const onDisk = new Set(migrations.map((m) => m.name));
    for (const name of applied.keys()) {
      if (!onDisk.has(name))
        log(`migrations: warning: ${name} is applied in the database but missing from ${migrationsDir}`);
    }

    const appliedNow: string[] = [];
    for (const migration of migrations) {
      const previous = applied.get(migration.name);
      if (previous) {
        if (previous.checksum !== migration.checksum) {
          log(`migrations: warning: ${migration.name} was edited after it was applied (checksum differs)`);
        }
        continue;
      }
      log(`migrations: applying ${migration.name}`);
      await applyOne(client, migration);
      appliedNow.push(migration.name);
    }
    log(appliedNow.length ? `migrations: applied ${appliedNow.length}` : 'migrations: database is up to date');
    return appliedNow;
  } finally {
    if (locked) await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK_KEY]).catch(() => {});
    await client.end().catch(() => {});
  }
}

async function applyOne(client: pg.Client, migration: MigrationFile): Promise<void> {
  const id = randomUUID();
  if (OWN_TRANSACTION_CONTROL.test(migration.script)) {
    // Prisma's own sequence: row first, script, then mark the step and the finish.
    await client.query(
      'INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
      [id, migration.checksum, migration.name],
    );
    try {
      await client.query(migration.script);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      await client.query('UPDATE _prisma_migrations SET logs = $2 WHERE id = $1', [id, errorText(err)]).catch(() => {});
      throw new Error(
        `Migration ${migration.name} failed; it manages its own transactions, so check what it left behind ` +
          `(recorded as failed in _prisma_migrations): ${errorText(err)}`,
        { cause: err },
      );
    }
    await client.query(
      'UPDATE _prisma_migrations SET applied_steps_count = 1, finished_at = clock_timestamp() WHERE id = $1',
      [id],
    );
    return;
  }

  await client.query('BEGIN');
  try {
    // now() is the transaction start, i.e. when the script started; clock_timestamp() is when it ended.
    await client.query(migration.script);
    await client.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
      [id, migration.checksum, migration.name],
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw migrationError(migration.name, err);
  }
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const pgErr = err as Error & { code?: string; position?: string };
    return [pgErr.message, pgErr.code && `(SQLSTATE ${pgErr.code})`, pgErr.position && `at character ${pgErr.position}`]
      .filter(Boolean)
      .join(' ');
  }
  return String(err);
}

function migrationError(name: string, err: unknown): Error {
  return new Error(`Migration ${name} failed and was rolled back: ${errorText(err)}`, { cause: err });
}
