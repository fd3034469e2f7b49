/**
 * The embedded Postgres the service falls back to (migrations, Prisma through a one-connection pool, data
 * kept across restarts) and the time partitions migration keeping every row, on Postgres and on PGlite.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { describe, expect, test } from 'vitest';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { applyMigrations, listMigrationFiles, DEFAULT_MIGRATIONS_DIR } from '../src/db/migrate.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import {
  PARTITIONING_MARKER,
  createScratchDatabase,
  useScratchDatabases,
  withClient,
} from './helpers/migrations-db.js';

const migrations = listMigrationFiles();
useScratchDatabases();

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
          await expect(prisma.tenant.create({ data: { name: 'embedded-tenant' } })).rejects.toThrow(
            /Unique constraint/i,
          );
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
  const TABLES = [
    'Event',
    'Delivery',
    'DeliveryAttempt',
    'OutboxMessage',
    'GpuSample',
    'GpuRollup',
    'AuditLog',
    'AlertEvent',
    'OutboundWebhook',
  ];

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
      const later = listMigrationFiles()
        .filter((m) => m.name >= PARTITIONING)
        .map((m) => m.name);
      for (const name of later) rmSync(path.join(dir, name), { recursive: true, force: true });
      await applyMigrations(url, undefined, dir);
      await withClient(url, (c) => c.query(SEED));
      const before = await counts(url);
      expect(await applyMigrations(url)).toEqual(later);
      expect(await counts(url)).toEqual(before);
      await withClient(url, async (c) => {
        const kinds = (
          await c.query(`SELECT relname, relkind::text FROM pg_class WHERE relname = ANY($1) ORDER BY relname`, [
            TABLES.slice(0, 7),
          ])
        ).rows;
        expect(kinds.every((k) => k.relkind === 'p')).toBe(true);
        // Rows went to their day's partition, not the default one; links and attempts kept their keys.
        expect((await c.query(`SELECT count(*)::int AS n FROM "Event_default"`)).rows[0].n).toBe(0);
        expect((await c.query(`SELECT tableoid::regclass::text AS t FROM "Event" WHERE id = 'e3'`)).rows[0].t).toMatch(
          /Event_p\d{8}/,
        );
        expect(
          (
            await c.query(
              `SELECT "deliveryCreatedAt" = (SELECT "createdAt" FROM "Delivery" WHERE id = 'd1') AS same FROM "DeliveryAttempt"`,
            )
          ).rows[0].same,
        ).toBe(true);
        expect((await c.query(`SELECT "eventId" FROM "AlertEvent"`)).rows).toEqual([{ eventId: 'e2' }]);
        expect((await c.query(`SELECT "lastFailedDeliveryId" AS d FROM "OutboundWebhook"`)).rows).toEqual([
          { d: 'd1' },
        ]);
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
