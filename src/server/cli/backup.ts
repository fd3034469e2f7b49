/**
 * `ops backup <file>` and `ops restore <file>` (also `db backup --file`, `db restore --file`).
 *
 * - With DATABASE_URL: pg_dump's custom format (`pg_dump -Fc`, compressed, restorable table by table) and
 *   pg_restore, the client tools of the machine (Debian's `postgresql-client`; they must be of the
 *   server's major version or newer). Restore goes into an empty database (create it first) in one
 *   transaction; `--clean` replaces the objects of a database that already has them.
 * - Embedded (no DATABASE_URL): PGlite is Postgres 18 in WebAssembly, and pg_dump refuses a server newer
 *   than itself (Debian 12 ships 15), so the backup is PGlite's own: a gzipped tarball of its data
 *   directory (`dumpDataDir`), taken with the database closed to everyone else, restored with
 *   `loadDataDir` into an empty DATA_DIR. Stop the server first (the command says so if it runs).
 *   To move to a Postgres server instead: start the service with DATABASE_URL (migrations create the
 *   schema) and copy tenants' data with the API, or restore a pg_dump of a Postgres installation.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../../config.js';
import type { Command, CommandResult, Values } from './commands.js';
import { CliFailure } from './runtime.js';

const run = promisify(execFile);

/** Query parameters of a Prisma URL that libpq (pg_dump, pg_restore) does not know. */
const PRISMA_ONLY_PARAMS = [
  'schema',
  'connection_limit',
  'pool_timeout',
  'pgbouncer',
  'statement_cache_size',
  'socket_timeout',
];

/** The URL for libpq tools and the schema a Prisma URL selects (`?schema=`), if any. */
export function libpqTarget(databaseUrl: string): { url: string; schema: string | null } {
  const u = new URL(databaseUrl);
  const schema = u.searchParams.get('schema');
  for (const p of PRISMA_ONLY_PARAMS) u.searchParams.delete(p);
  return { url: u.toString(), schema };
}

async function tool(cmd: string, args: string[]): Promise<void> {
  try {
    await run(cmd, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT')
      throw new CliFailure(
        `${cmd} is not installed: install the PostgreSQL client tools (apt-get install postgresql-client).`,
      );
    throw new CliFailure(`${cmd} failed: ${(e.stderr ?? e.message).trim()}`);
  }
}

/** Tables in the target (the schema of the URL, else public): a restore wants none. */
async function tableCount(databaseUrl: string): Promise<number> {
  const { url, schema } = libpqTarget(databaseUrl);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = $1`,
      [schema ?? 'public'],
    );
    return Number(r.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** pg_dump of DATABASE_URL into `file` (custom format). */
export async function backupPostgres(databaseUrl: string, file: string): Promise<void> {
  const { url, schema } = libpqTarget(databaseUrl);
  await tool('pg_dump', [
    '--format=custom',
    '--no-owner',
    '--no-privileges',
    ...(schema ? ['--schema', schema] : []),
    '--file',
    file,
    url,
  ]);
}

/** pg_restore of `file` into DATABASE_URL, in one transaction; an existing schema only with `clean`. */
export async function restorePostgres(databaseUrl: string, file: string, clean: boolean): Promise<void> {
  if (!clean && (await tableCount(databaseUrl)) > 0)
    throw new CliFailure(
      'The target database already has tables. Restore into a new, empty database (createdb, then point DATABASE_URL at it), or pass --clean to replace what is there.',
    );
  const { url } = libpqTarget(databaseUrl);
  await tool('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    ...(clean ? ['--clean', '--if-exists'] : []),
    '--dbname',
    url,
    file,
  ]);
}

function embeddedDir(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/** PGlite's data directory as a gzipped tarball in `file`; fails while a server holds the database. */
export async function backupEmbedded(dataDir: string, file: string): Promise<void> {
  const dir = embeddedDir(dataDir);
  if (!existsSync(dir)) throw new CliFailure(`There is no embedded database in ${dir}.`);
  const { openEmbeddedForMaintenance } = await import('../../db/embedded.js');
  const db = await openEmbeddedForMaintenance(dir);
  try {
    const tarball = await db.pglite.dumpDataDir('gzip');
    writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  } finally {
    await db.close();
  }
}

/** Loads a backup made by backupEmbedded into an empty DATA_DIR. */
export async function restoreEmbedded(dataDir: string, file: string): Promise<void> {
  const dir = embeddedDir(dataDir);
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new CliFailure(`${dir} already holds a database: restore into a new DATA_DIR (or move that one away first).`);
  mkdirSync(dir, { recursive: true });
  const { openEmbeddedForMaintenance } = await import('../../db/embedded.js');
  const db = await openEmbeddedForMaintenance(dir, new Blob([readFileSync(file)]));
  await db.close();
}

function fileOf(values: Values): string {
  const file = String(values.file ?? '');
  if (!file) throw new CliFailure('Name the backup file: ops backup <file>.');
  return path.resolve(file);
}

function done(action: string, file: string, target: string): CommandResult {
  const bytes = existsSync(file) ? statSync(file).size : 0;
  return { json: { action, file, bytes, target }, text: `${action} ${file} (${bytes} bytes) ${target}.` };
}

export const dbBackup: Command = {
  name: 'db backup',
  summary: 'Back up the database to a file (pg_dump custom format; the embedded database: a PGlite tarball).',
  synopsis: '--file <path> | backup <path>',
  options: { file: { type: 'string' } },
  required: ['file'],
  standalone: true,
  async run(_rt, values, env) {
    const config = loadConfig(env);
    const file = fileOf(values);
    if (config.databaseUrl) await backupPostgres(config.databaseUrl, file);
    else await backupEmbedded(config.dataDir, file);
    return done('Backed up to', file, config.databaseUrl ? 'from DATABASE_URL' : `from ${embeddedDir(config.dataDir)}`);
  },
};

export const dbRestore: Command = {
  name: 'db restore',
  summary: 'Restore a backup into an empty database (DATABASE_URL) or an empty DATA_DIR; start the service after.',
  synopsis: '--file <path> [--clean] | restore <path>',
  options: { file: { type: 'string' }, clean: { type: 'boolean' } },
  required: ['file'],
  standalone: true,
  async run(_rt, values, env) {
    const config = loadConfig(env);
    const file = fileOf(values);
    if (!existsSync(file)) throw new CliFailure(`${file} does not exist.`);
    if (config.databaseUrl) await restorePostgres(config.databaseUrl, file, values.clean === true);
    else await restoreEmbedded(config.dataDir, file);
    return done('Restored', file, config.databaseUrl ? 'into DATABASE_URL' : `into ${embeddedDir(config.dataDir)}`);
  },
};

/** `backup <file>` / `restore <file>` as the `db` commands they are short for. */
export function expandBackupShorthand(argv: string[]): string[] {
  const [word, file, ...rest] = argv;
  if ((word === 'backup' || word === 'restore') && file && !file.startsWith('-'))
    return ['db', word, '--file', file, ...rest];
  return argv;
}
