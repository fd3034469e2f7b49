/**
 * Upgrades and backups (issue 45 item 6): a database made by release 1.0.0's migrations, holding live
 * data, is upgraded by starting the service on it; `ops backup` (pg_dump) then `ops restore` (pg_restore)
 * into a new database gives a service with the same data. The embedded database (PGlite, Postgres 18,
 * which Debian's pg_dump 15 refuses) backs up as PGlite's data-directory tarball and restores likewise.
 */
import { afterAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { listMigrationFiles, applyMigrations } from '../src/db/migrate.js';
import { hashPassword } from '../src/secrets.js';
import { runCli } from '../src/server/cli/run.js';
import { ADMIN_URL, dbUrl } from './helpers/env.js';
import { startTestServer, type TestDatabase } from './helpers/server.js';
import { gql, rest } from './helpers/http.js';

/** The newest migration of release 1.0.0 (commit f5dfe57): migrations are never edited once released. */
const RELEASE_1_0_0_LAST_MIGRATION = '20261128141042_paging';

const made: string[] = [];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-backup-test-'));

async function emptyDatabase(): Promise<TestDatabase> {
  const name = `ops_bk_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  made.push(name);
  return { name, url: dbUrl(name), drop: async () => {} };
}

afterAll(async () => {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  for (const name of made) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function sql(url: string, text: string, values: unknown[] = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows;
  } finally {
    await c.end();
  }
}

/** What a client sees of the tenant: its users and its events. */
async function observe(url: string, token: string) {
  const users = await gql(url, token, '{ users { email role kind credentialOrigin } }');
  const events = await rest(url, token).get('/events?limit=50');
  return { users: users.data.users, events: (events.body as Array<{ summary: string }>).map((e) => e.summary).sort() };
}

describe('upgrade from 1.0.0, backup and restore', () => {
  it('upgrades a 1.0.0 database with data at start, and a restored backup starts with the same data', async () => {
    // A database as release 1.0.0 left it, with a tenant, its admin and events written by that release's schema.
    const oldDb = await emptyDatabase();
    const release = path.join(scratch, 'migrations-1.0.0');
    fs.mkdirSync(release);
    const files = listMigrationFiles();
    expect(files.map((f) => f.name)).toContain(RELEASE_1_0_0_LAST_MIGRATION);
    for (const f of files.filter((m) => m.name <= RELEASE_1_0_0_LAST_MIGRATION)) {
      fs.mkdirSync(path.join(release, f.name));
      fs.writeFileSync(path.join(release, f.name, 'migration.sql'), f.script);
    }
    await applyMigrations(oldDb.url, () => {}, release + path.sep);
    const tenantId = crypto.randomUUID();
    const adminId = crypto.randomUUID();
    await sql(oldDb.url, `INSERT INTO "Tenant" (id, name) VALUES ($1, 'acme')`, [tenantId]);
    await sql(
      oldDb.url,
      `INSERT INTO "User" (id, "tenantId", email, "passwordHash", role, kind) VALUES ($1, $2, 'root@acme.test', $3, 'admin', 'human')`,
      [adminId, tenantId, await hashPassword('acme-admin-pw')],
    );
    for (const summary of ['disk full on db-1', 'link down on edge-2'])
      await sql(
        oldDb.url,
        `INSERT INTO "Event" (id, "tenantId", type, source, summary, severity, "receivedVia", "receivedAt") VALUES ($1, $2, 'infra.alert', 'probe', $3, 'warning', 'ingest', now())`,
        [crypto.randomUUID(), tenantId, summary],
      );

    // Upgrade: the service applies the newer migrations at start (under Prisma's advisory lock).
    const upgraded = await startTestServer({ db: oldDb });
    let before: Awaited<ReturnType<typeof observe>>;
    try {
      const applied = await sql(
        oldDb.url,
        'SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL',
      );
      expect(applied[0].n).toBe(files.length);
      const login = await rest(upgraded.url).post('/auth/login', {
        email: 'root@acme.test',
        password: 'acme-admin-pw',
      });
      expect(login.status).toBe(200);
      before = await observe(upgraded.url, login.body.access_token);
      expect(before.users).toEqual([
        { email: 'root@acme.test', role: 'ADMIN', kind: 'HUMAN', credentialOrigin: 'LEGACY' },
      ]);
      expect(before.events).toEqual(['disk full on db-1', 'link down on edge-2']);
    } finally {
      await upgraded.stop();
    }

    // Backup, restore into a new database, start on it.
    const file = path.join(scratch, 'acme.dump');
    const backup = await runCli(['backup', file, '--json'], { DATABASE_URL: oldDb.url });
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout!).bytes).toBeGreaterThan(1000);
    const newDb = await emptyDatabase();
    const restore = await runCli(['restore', file], { DATABASE_URL: newDb.url });
    expect(restore.code, restore.stderr).toBe(0);
    const again = await runCli(['restore', file], { DATABASE_URL: newDb.url });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has tables/);

    const restored = await startTestServer({ db: newDb });
    try {
      const login = await rest(restored.url).post('/auth/login', {
        email: 'root@acme.test',
        password: 'acme-admin-pw',
      });
      expect(login.status).toBe(200);
      expect(await observe(restored.url, login.body.access_token)).toEqual(before);
    } finally {
      await restored.stop();
    }
  });

  it('backs up the embedded database as a PGlite tarball and restores it into a new DATA_DIR', async () => {
    const dataDir = path.join(scratch, 'embedded-a');
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const created = await runCli(
      [
        'tenant',
        'create',
        '--name',
        'embedded-co',
        '--admin-email',
        'boss@embedded.test',
        '--admin-password',
        'boss-pw-123',
      ],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const file = path.join(scratch, 'embedded.tar.gz');
    const backup = await runCli(['backup', file], env);
    expect(backup.code, backup.stderr).toBe(0);

    const other = { DATA_DIR: path.join(scratch, 'embedded-b'), LOG_LEVEL: 'silent' };
    const restore = await runCli(['restore', file], other);
    expect(restore.code, restore.stderr).toBe(0);
    const users = await runCli(['user', 'list', '--tenant', 'embedded-co', '--json'], other);
    expect(users.code, users.stderr).toBe(0);
    expect(JSON.parse(users.stdout!).items).toEqual([
      expect.objectContaining({ email: 'boss@embedded.test', role: 'admin' }),
    ]);
    const twice = await runCli(['restore', file], other);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/already holds a database/);
  });
});
