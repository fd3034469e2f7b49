/**
 * The upgrade that turns maintenance windows into silences (prisma/migrations/*_maintenance_windows_as_silences):
 * rows written in the old table shape before it runs come out as silences with the same id, the
 * expected matchers and time intervals, read back through the deprecated API's view as the windows
 * they were, and mute exactly when the old windows suppressed (a weekly window in Europe/Berlin keeps
 * its local time across DST instead). An alert a window suppressed keeps its link.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyMigrations, listMigrationFiles, DEFAULT_MIGRATIONS_DIR } from '../src/db/migrate.js';
import { createScratchDatabase, useScratchDatabases, withClient } from './helpers/migrations-db.js';
import { suppressingWindow, type WindowShape } from '../src/alerts/maintenance-windows.js';
import { alertLabelSet, silenceMutes, type SilenceWithInterval } from '../src/routing/silences.js';
import { windowIntervalSpecs } from '../src/routing/window-silences.js';
import { windowView } from '../src/routing/maintenance-window-store.js';

useScratchDatabases();

const MIGRATION = listMigrationFiles().find((m) => m.name.endsWith('_maintenance_windows_as_silences'))!;
const UTC_TENANT = '01900000-0000-7000-8000-00000000000a';
const BERLIN_TENANT = '01900000-0000-7000-8000-00000000000b';
const id = (n: number) => `01900000-0000-7000-8000-0000000001${String(n).padStart(2, '0')}`;

type OldWindow = WindowShape & {
  id: string;
  tenantId: string;
  name: string;
  matchLabels: Record<string, string>;
  source: string | null;
  deviceId: string | null;
};
const d = (iso: string) => new Date(iso);
const WINDOWS: OldWindow[] = [
  // One-off, scoped by labels, source and device.
  {
    id: id(1),
    tenantId: UTC_TENANT,
    name: 'DB upgrade',
    startsAt: d('2026-03-01T10:00:00Z'),
    endsAt: d('2026-03-01T12:00:00Z'),
    repeatEverySeconds: null,
    matchLabels: { env: 'prod', app: 'db' },
    source: 'db-1',
    deviceId: 'dev-7',
  },
  // Daily, across midnight UTC, unscoped (the whole tenant).
  {
    id: id(2),
    tenantId: UTC_TENANT,
    name: 'Nightly',
    startsAt: d('2026-03-01T23:00:00Z'),
    endsAt: d('2026-03-02T01:00:00Z'),
    repeatEverySeconds: 86400,
    matchLabels: {},
    source: null,
    deviceId: null,
  },
  // Weekly in UTC, Friday 22:00 for 27 hours (three local days).
  {
    id: id(3),
    tenantId: UTC_TENANT,
    name: 'Weekend batch',
    startsAt: d('2026-03-06T22:00:00Z'),
    endsAt: d('2026-03-08T01:00:00Z'),
    repeatEverySeconds: 604800,
    matchLabels: {},
    source: 'batch',
    deviceId: null,
  },
  // Every three days: no time interval says it; the period is kept.
  {
    id: id(4),
    tenantId: UTC_TENANT,
    name: 'Every third day',
    startsAt: d('2026-03-01T06:00:00Z'),
    endsAt: d('2026-03-01T07:30:00Z'),
    repeatEverySeconds: 259200,
    matchLabels: { team: 'ops' },
    source: null,
    deviceId: null,
  },
  // Weekly but starting off the minute: the period is kept too.
  {
    id: id(5),
    tenantId: UTC_TENANT,
    name: 'Odd start',
    startsAt: d('2026-03-02T08:00:30Z'),
    endsAt: d('2026-03-02T09:00:30Z'),
    repeatEverySeconds: 604800,
    matchLabels: {},
    source: 'odd',
    deviceId: null,
  },
  // Weekly in a tenant whose time zone is Europe/Berlin: Sunday 02:00–04:00 CET.
  {
    id: id(6),
    tenantId: BERLIN_TENANT,
    name: 'Sunday night',
    startsAt: d('2026-03-22T01:00:00Z'),
    endsAt: d('2026-03-22T03:00:00Z'),
    repeatEverySeconds: 604800,
    matchLabels: { service: 'batch' },
    source: null,
    deviceId: null,
  },
];
const SUPPRESSED_ALERT = '01900000-0000-7000-8000-000000000201';

let url: string;
let silences: Map<string, SilenceWithInterval>;
let dir: string;

beforeAll(async () => {
  // The migrations before this one, then rows in the old shape, then the rest.
  dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  cpSync(DEFAULT_MIGRATIONS_DIR, dir, {
    recursive: true,
    filter: (src) => !src.includes(MIGRATION.name) && !src.endsWith('.prisma'),
  });
  url = await createScratchDatabase();
  await applyMigrations(url, undefined, dir);
  await withClient(url, async (c) => {
    await c.query(`INSERT INTO "Tenant" (id, name) VALUES ($1, 'utc'), ($2, 'berlin')`, [UTC_TENANT, BERLIN_TENANT]);
    await c.query(
      `INSERT INTO "BillingSettings" ("tenantId", "timeZone", "updatedAt") VALUES ($1, 'Europe/Berlin', now())`,
      [BERLIN_TENANT],
    );
    for (const w of WINDOWS)
      await c.query(
        `INSERT INTO "MaintenanceWindow" (id, "tenantId", name, "startsAt", "endsAt", "repeatEverySeconds", "matchLabels", source, "deviceId", "createdAt")
         VALUES ($1, $2, $3, $4::timestamptz AT TIME ZONE 'UTC', $5::timestamptz AT TIME ZONE 'UTC', $6, $7, $8, $9, '2026-02-01')`,
        [
          w.id,
          w.tenantId,
          w.name,
          w.startsAt.toISOString(),
          w.endsAt.toISOString(),
          w.repeatEverySeconds,
          w.matchLabels,
          w.source,
          w.deviceId,
        ],
      );
    await c.query(
      `INSERT INTO "Alert" (id, "tenantId", severity, summary, source, "dedupKey", suppressed, "maintenanceWindowId", "updatedAt")
       VALUES ($1, $2, 'warning', 'disk', 'db-1', 'k1', true, $3, now())`,
      [SUPPRESSED_ALERT, UTC_TENANT, id(1)],
    );
  });
  expect(await applyMigrations(url)).toEqual([MIGRATION.name]);
  const rows = await withClient(
    url,
    async (c) =>
      (
        await c.query(`
        SELECT s.id, s."tenantId", s.matchers, s."createdBy", s.comment, s."createdById",
               s."startsAt" AT TIME ZONE 'UTC' AS "startsAt", s."endsAt" AT TIME ZONE 'UTC' AS "endsAt",
               s."createdAt" AT TIME ZONE 'UTC' AS "createdAt", s."windowName", s."windowRepeatEverySeconds",
               s."windowEndsAt" AT TIME ZONE 'UTC' AS "windowEndsAt", s."timeIntervalId",
               ti.name AS "intervalName", ti.intervals
          FROM "Silence" s LEFT JOIN "TimeInterval" ti ON ti.id = s."timeIntervalId"`)
      ).rows,
  );
  silences = new Map(
    rows.map((r) => [
      r.id,
      {
        ...r,
        timeInterval: r.intervals ? { id: r.timeIntervalId, name: r.intervalName, intervals: r.intervals } : null,
      },
    ]),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sil = (n: number) => silences.get(id(n))!;

describe('maintenance windows migrated to silences', () => {
  test('every window is a silence with the same id, its scope as matchers', () => {
    expect(silences.size).toBe(WINDOWS.length);
    expect(sil(1).matchers).toEqual([
      { name: 'app', type: '=', value: 'db' },
      { name: 'env', type: '=', value: 'prod' },
      { name: 'source', type: '=', value: 'db-1' },
      { name: 'device_id', type: '=', value: 'dev-7' },
    ]);
    expect(sil(2).matchers).toEqual([{ name: 'severity', type: '=~', value: '.+' }]);
    expect(sil(1)).toMatchObject({
      startsAt: WINDOWS[0]!.startsAt,
      endsAt: WINDOWS[0]!.endsAt,
      comment: 'Maintenance window "DB upgrade"',
      createdBy: 'maintenance window (migrated)',
      createdById: null,
      windowName: 'DB upgrade',
      windowRepeatEverySeconds: null,
      timeInterval: null,
    });
  });

  test('daily and weekly windows get a time interval in the tenant zone, recurring until far ahead', () => {
    expect(sil(2).timeInterval!.intervals).toEqual([
      { times: [{ start_time: '23:00', end_time: '24:00' }], location: 'UTC' },
      { times: [{ start_time: '00:00', end_time: '01:00' }], location: 'UTC' },
    ]);
    expect(sil(3).timeInterval!.intervals).toEqual([
      { weekdays: ['friday'], times: [{ start_time: '22:00', end_time: '24:00' }], location: 'UTC' },
      { weekdays: ['saturday'], times: [{ start_time: '00:00', end_time: '24:00' }], location: 'UTC' },
      { weekdays: ['sunday'], times: [{ start_time: '00:00', end_time: '01:00' }], location: 'UTC' },
    ]);
    expect(sil(6).timeInterval!.intervals).toEqual([
      { weekdays: ['sunday'], times: [{ start_time: '02:00', end_time: '04:00' }], location: 'Europe/Berlin' },
    ]);
    expect(sil(6).timeInterval!.name).toBe(`maintenance window ${id(6)}`);
    expect(sil(6)).toMatchObject({
      startsAt: WINDOWS[5]!.startsAt,
      endsAt: d('9999-12-31T00:00:00Z'),
      windowRepeatEverySeconds: 604800,
      windowEndsAt: WINDOWS[5]!.endsAt,
    });
    // The SQL of the migration and the API's mapping (src/routing/window-silences.ts) agree.
    for (const w of WINDOWS.filter((x) => x.repeatEverySeconds))
      expect(silences.get(w.id)!.timeInterval?.intervals ?? null).toEqual(
        windowIntervalSpecs(
          w.startsAt,
          w.endsAt,
          w.repeatEverySeconds!,
          w.tenantId === BERLIN_TENANT ? 'Europe/Berlin' : 'UTC',
        ),
      );
  });

  test('other periods and off-minute windows keep their period instead', () => {
    for (const n of [4, 5])
      expect(sil(n)).toMatchObject({
        timeInterval: null,
        windowRepeatEverySeconds: WINDOWS[n - 1]!.repeatEverySeconds,
      });
  });

  test('the deprecated API reads each silence back as the window it was', () => {
    for (const w of WINDOWS) {
      const { tenantId, ...view } = windowView(silences.get(w.id)! as never);
      expect(tenantId).toBe(w.tenantId);
      expect(view).toEqual({
        id: w.id,
        name: w.name,
        startsAt: w.startsAt,
        endsAt: w.endsAt,
        repeatEverySeconds: w.repeatEverySeconds,
        matchLabels: w.matchLabels,
        source: w.source,
        deviceId: w.deviceId,
        createdAt: d('2026-02-01T00:00:00Z'),
      });
    }
  });

  test('UTC windows mute exactly when the old windows suppressed, every 10 minutes over three weeks', () => {
    const subjects = [
      { source: 'db-1', labels: { env: 'prod', app: 'db' }, deviceId: 'dev-7' },
      { source: 'db-1', labels: { env: 'prod', app: 'db' }, deviceId: 'dev-8' },
      { source: 'batch', labels: {}, deviceId: null },
      { source: 'odd', labels: { team: 'ops' }, deviceId: null },
      { source: 'web', labels: { team: 'dev' }, deviceId: null },
    ];
    let muted = 0;
    const differ: unknown[] = [];
    for (let t = Date.parse('2026-02-28T00:00:00Z'); t < Date.parse('2026-03-21T00:00:00Z'); t += 600_000) {
      const at = new Date(t);
      for (const w of WINDOWS.filter((x) => x.tenantId === UTC_TENANT))
        for (const subject of subjects) {
          const before = !!suppressingWindow([w], subject, at);
          const now = silenceMutes(silences.get(w.id)!, alertLabelSet({ ...subject, severity: 'warning' }), at);
          if (before !== now) differ.push({ window: w.name, at, subject, before, now });
          if (before) muted++;
        }
    }
    expect(differ).toEqual([]);
    expect(muted).toBeGreaterThan(1000);
  });

  test('the migrated Berlin window keeps 02:00–04:00 local on the Sundays around both DST changes of 2026', () => {
    const labels = { service: 'batch', severity: 'warning' };
    const at = (iso: string) => silenceMutes(sil(6), labels, d(iso));
    expect([at('2026-03-22T00:30:00Z'), at('2026-03-22T01:30:00Z'), at('2026-03-22T03:30:00Z')]).toEqual([
      false,
      true,
      false,
    ]);
    // After the spring change 02:30 CEST is 00:30 UTC (the old 604800-second window slipped to 03:00–05:00).
    expect([at('2026-04-04T23:30:00Z'), at('2026-04-05T00:30:00Z'), at('2026-04-05T02:00:00Z')]).toEqual([
      false,
      true,
      false,
    ]);
    expect(
      !!suppressingWindow([WINDOWS[5]!], { source: null, labels, deviceId: null }, d('2026-04-05T00:30:00Z')),
    ).toBe(false);
    expect([at('2026-10-18T00:30:00Z'), at('2026-10-18T02:30:00Z')]).toEqual([true, false]);
    expect([at('2026-11-01T00:30:00Z'), at('2026-11-01T01:30:00Z'), at('2026-11-02T01:30:00Z')]).toEqual([
      false,
      true,
      false,
    ]);
  });

  test('an alert a window suppressed keeps its link, now to the silence of the same id', async () => {
    const row = await withClient(
      url,
      async (c) =>
        (
          await c.query(
            `SELECT a.suppressed, a."maintenanceWindowId", a."silenceId", s."windowName"
               FROM "Alert" a JOIN "Silence" s ON s.id = a."maintenanceWindowId" WHERE a.id = $1`,
            [SUPPRESSED_ALERT],
          )
        ).rows[0],
    );
    expect(row).toEqual({ suppressed: true, maintenanceWindowId: id(1), silenceId: null, windowName: 'DB upgrade' });
    const table = await withClient(
      url,
      async (c) => (await c.query(`SELECT to_regclass('public."MaintenanceWindow"') AS t`)).rows[0].t,
    );
    expect(table).toBeNull();
  });
});
