/**
 * History that stays cheap as it grows, on both databases (Postgres and the embedded PGlite):
 * - `events_stored` sums the stored-bytes rows each metering window writes; the daily snapshot's plan
 *   reads no event at all, and every hourly statement reads only the partitions of its window;
 * - GPU rollups by time range: the periodic task catches up from its last minute bucket, hours come
 *   from minutes, and both statements read their range on an index of only the partitions it needs;
 * - retention of the tables that are not partitioned (resolved alerts with their timelines, ended
 *   sessions, old drift reports, metered usage) and of the audit log, keeping every newer row.
 */
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './helpers/history-backends.js';
import { gql } from './helpers/http.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { DAY_MS, HOUR_MS } from '../src/history/tables.js';
import { listPartitions } from '../src/history/partitions.js';
import { sqlTimestamp } from '../src/db/timestamps.js';
import { runRetention } from '../src/history/retention.js';
import { BUILTIN_SQL, computeWindow } from '../src/billing/metering.js';
import { rollUp, rollUpRecent, rollupSql } from '../src/gpu/rollups.js';

const hourOf = (t: number) => Math.floor(t / HOUR_MS) * HOUR_MS;
const iso = (t: number) => new Date(t).toISOString();

/** Relations and index names a JSON plan reads. */
function planReads(plan: unknown): { relations: string[]; indexes: string[] } {
  const text = JSON.stringify(plan);
  return {
    relations: [...text.matchAll(/"Relation Name":"([^"]+)"/g)].map((m) => m[1]!),
    indexes: [...text.matchAll(/"Index Name":"([^"]+)"/g)].map((m) => m[1]!),
  };
}

describe.each(BACKENDS)('incremental history on %s', (_name, start) => {
  let b: Backend;
  let t: BuiltTenant;

  beforeAll(async () => {
    b = await start();
    t = await buildTenant(b.app.rt);
  }, 120_000);
  afterAll(async () => b?.stop());

  const sql = <T = Record<string, unknown>>(text: string, ...params: unknown[]) =>
    b.app.rt.prisma.$queryRawUnsafe<T[]>(text, ...params);
  const insertEvent = (at: number, blob: string) =>
    sql(
      `INSERT INTO "Event" ("id", "tenantId", "type", "source", "receivedVia", "receivedAt", "payload") VALUES ($1, $2, 'stored.thing', 'archive', 'ingest', $3::timestamp, $4::jsonb)`,
      uuidv7({ msecs: at }),
      t.tenantId,
      sqlTimestamp(new Date(at)),
      JSON.stringify({ blob }),
    );
  const scannedBytes = async (from: number, to: number) =>
    Number(
      (
        await sql<{ b: string }>(
          `SELECT coalesce(sum(pg_column_size(e.*)), 0)::text AS b FROM "Event" e WHERE e."tenantId" = $1 AND e."receivedAt" >= $2::timestamp AND e."receivedAt" < $3::timestamp`,
          t.tenantId,
          sqlTimestamp(new Date(from)),
          sqlTimestamp(new Date(to)),
        )
      )[0]!.b,
    );
  const storageRows = async () =>
    (
      await sql<{ w: Date; bytes: string; events: number }>(
        `SELECT "windowStart" AS w, "bytes"::text AS bytes, "events" FROM "EventStorageWindow" WHERE "tenantId" = $1 ORDER BY 1`,
        t.tenantId,
      )
    ).map((r) => ({
      w: new Date(r.w).toISOString(),
      bytes: Number(r.bytes),
      events: r.events,
    }));

  it("meters events_stored from the windows' stored-bytes rows, equal to a scan, and drops them with their events", async () => {
    const rt = b.app.rt;
    const midnight = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const w1 = midnight - 14 * HOUR_MS; // yesterday 10:00
    const w2 = midnight - HOUR_MS; // yesterday 23:00: redone by the 00:00 snapshot
    for (let i = 0; i < 3; i++) await insertEvent(w1 + (i + 1) * 60_000, 'x'.repeat(300 + i));
    for (let i = 0; i < 2; i++) await insertEvent(w2 + (i + 1) * 60_000, 'y'.repeat(700));
    await computeWindow(rt, t.tenantId, new Date(w1));
    expect(await storageRows()).toEqual([{ w: iso(w1), bytes: await scannedBytes(w1, w1 + HOUR_MS), events: 3 }]);

    // The 00:00 window: 23:00 is recorded first, then the snapshot sums every window before midnight.
    await computeWindow(rt, t.tenantId, new Date(midnight));
    expect(await storageRows()).toEqual([
      { w: iso(w1), bytes: await scannedBytes(w1, w1 + HOUR_MS), events: 3 },
      { w: iso(w2), bytes: await scannedBytes(w2, w2 + HOUR_MS), events: 2 },
    ]);
    const stored = await rt.prisma.billingUsage.findFirstOrThrow({
      where: { tenantId: t.tenantId, meter: 'events_stored', windowStart: new Date(midnight) },
    });
    expect(Number(stored.quantity.toString())).toBeCloseTo((((await scannedBytes(0, midnight)) / 1e9) * 24) / 730, 10);

    // A window metered again after its events are gone loses its row.
    await sql(
      `DELETE FROM "Event" WHERE "tenantId" = $1 AND "receivedAt" >= $2::timestamp AND "receivedAt" < $3::timestamp`,
      t.tenantId,
      sqlTimestamp(new Date(w1)),
      sqlTimestamp(new Date(w1 + HOUR_MS)),
    );
    await computeWindow(rt, t.tenantId, new Date(w1));
    expect((await storageRows()).map((r) => r.w)).toEqual([iso(w2)]);

    // Retention drops an expired day's partition and its windows' rows; newer rows stay.
    const oldHour = hourOf(Date.now() - 402 * DAY_MS);
    await sql(
      `SELECT ops_ensure_partitions('Event', 'day', $1::timestamp, $1::timestamp, NULL)`,
      sqlTimestamp(new Date(oldHour)),
    );
    await insertEvent(oldHour + 60_000, 'z');
    await computeWindow(rt, t.tenantId, new Date(oldHour));
    expect((await storageRows()).map((r) => r.w)).toEqual([iso(oldHour), iso(w2)]);
    const report = await runRetention(rt);
    expect(report.tables.find((x) => x.table === 'EventStorageWindow')!.rowsDeleted).toBeGreaterThanOrEqual(1);
    expect((await storageRows()).map((r) => r.w)).toEqual([iso(w2)]);
  });

  it("plans the daily snapshot without reading events, and each hourly statement on its window's partitions only", async () => {
    const window = hourOf(Date.now() + 2 * DAY_MS); // partitions exist from the database's first day to 7 days ahead
    const params = [t.tenantId, iso(window), iso(window + HOUR_MS)];
    const parts = await listPartitions(b.app.rt.prisma, 'Event');
    const inWindow = new Set(
      parts.filter((p) => p.from.getTime() <= window && window < p.to.getTime()).map((p) => p.name),
    );
    expect(inWindow.size).toBe(1);
    expect(parts.length).toBeGreaterThan(5);
    for (const m of BUILTIN_SQL) {
      const { relations } = planReads(await sql(`EXPLAIN (FORMAT JSON) ${m.sql}`, ...params));
      const events = relations.filter((r) => r === 'Event' || r.startsWith('Event_'));
      if (m.meter === 'events_stored') {
        expect(events, 'the snapshot reads no event').toEqual([]);
        expect(relations).toContain('EventStorageWindow');
      } else {
        for (const r of events) expect(inWindow.has(r) || r === 'Event_default', `${m.meter} reads ${r}`).toBe(true);
      }
    }
  });

  it('rolls GPU minutes up from where the last run stopped and hours from minutes, on an index of the partitions of the range', async () => {
    const rt = b.app.rt;
    const now = Math.floor(Date.now() / 60_000) * 60_000 + 30_000;
    const [gpu] = await sql<{ id: string }>(
      `INSERT INTO "Gpu" ("id", "tenantId", "uuid", "node", "index", "source") VALUES ($1, $2, 'GPU-roll', 'n1', 0, 'dcgm') RETURNING "id"`,
      uuidv7(),
      t.tenantId,
    );
    // One sample every 20 s for the last 50 minutes; utilization = the sample's minute of the hour.
    await sql(
      `INSERT INTO "GpuSample" ("gpuId", "tenantId", "at", "utilization", "powerW")
       SELECT $1, $2, $3::timestamp - g * interval '20 seconds', extract(minute FROM $3::timestamp - g * interval '20 seconds'), 100 + (g % 7)
         FROM generate_series(0, 149) g`,
      gpu!.id,
      t.tenantId,
      sqlTimestamp(new Date(now)),
    );
    // The last run before a pause rolled up the minutes until 40 minutes ago.
    for (const resolution of [60, 3600] as const)
      await rollUp(rt, resolution, new Date(now - 50 * 60_000), new Date(now - 40 * 60_000));
    const run = await rollUpRecent(rt, new Date(now));
    expect(run.from.getTime()).toBeLessThanOrEqual(now - 40 * 60_000);
    const minutes = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "GpuRollup" WHERE "gpuId" = $1 AND "resolution" = 60`,
      gpu!.id,
    );
    expect(minutes[0]!.n).toBeGreaterThanOrEqual(50);
    // Hour buckets equal the averages and maxima of their raw samples.
    const hours = await sql<{ bucket: Date; u: number; p: number; pmax: number; n: number }>(
      `SELECT "bucket", "utilization" AS u, "powerW" AS p, "powerWMax" AS pmax, "samples" AS n FROM "GpuRollup" WHERE "gpuId" = $1 AND "resolution" = 3600 ORDER BY 1`,
      gpu!.id,
    );
    const raw = await sql<{ bucket: Date; u: number; p: number; pmax: number; n: number }>(
      `SELECT date_trunc('hour', "at") AS bucket, avg("utilization") AS u, avg("powerW") AS p, max("powerW") AS pmax, count(*)::int AS n FROM "GpuSample" WHERE "gpuId" = $1 GROUP BY 1 ORDER BY 1`,
      gpu!.id,
    );
    expect(hours.length).toBe(raw.length);
    hours.forEach((h, i) => {
      expect(new Date(h.bucket).getTime()).toBe(new Date(raw[i]!.bucket).getTime());
      expect(h.n).toBe(raw[i]!.n);
      expect(h.u).toBeCloseTo(raw[i]!.u, 9);
      expect(h.p).toBeCloseTo(raw[i]!.p, 9);
      expect(h.pmax).toBe(raw[i]!.pmax);
    });

    // Both statements read their range on an index (seq scans off: the tables are tiny here), only in
    // the partitions the range touches.
    for (const [resolution, parent, column] of [
      [60, 'GpuSample', 'at'],
      [3600, 'GpuRollup_r60', 'bucket'],
    ] as const) {
      const parts = await listPartitions(rt.prisma, parent);
      const needed = new Set(
        parts.filter((p) => p.to.getTime() > now - 10 * 60_000 && p.from.getTime() < now + 60_000).map((p) => p.name),
      );
      const plan = await rt.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
        return tx.$queryRawUnsafe(
          `EXPLAIN (FORMAT JSON) ${rollupSql(resolution)}`,
          resolution,
          new Date(now - 10 * 60_000),
          new Date(now + 60_000),
        );
      });
      const { relations, indexes } = planReads(plan);
      const scanned = relations.filter((r) => r !== 'GpuRollup' && !r.startsWith('GpuRollup_r3600'));
      expect(scanned.length, `${parent}: ${JSON.stringify(relations)}`).toBeGreaterThan(0);
      for (const r of scanned)
        expect(needed.has(r) || r === `${parent}_default`, `${parent} plan reads ${r}`).toBe(true);
      expect(
        indexes.some((i) => i.includes(column)),
        `${parent} index: ${JSON.stringify(indexes)}`,
      ).toBe(true);
    }
  });

  it("pages the GraphQL timeline after a cursor on (receivedAt, id), ties included, and gives another tenant's cursor nothing", async () => {
    const base = Date.now() - 30 * 60_000;
    const ids: string[] = [];
    for (const [i, at] of [0, 1, 1, 1, 2, 3].entries()) {
      const id = uuidv7({ msecs: base + at * 1000 + i }); // three rows share a receivedAt: the id breaks the tie
      await sql(
        `INSERT INTO "Event" ("id", "tenantId", "type", "source", "receivedVia", "receivedAt") VALUES ($1, $2, 'paged', 'pager', 'ingest', $3::timestamp)`,
        id,
        t.tenantId,
        sqlTimestamp(new Date(base + at * 1000)),
      );
      ids.push(id);
    }
    const expected = [ids[5], ids[4], ids[3], ids[2], ids[1], ids[0]]; // newest first; among equal times, the larger id first
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 5 && (i === 0 || after); i++) {
      const r: any = await gql(
        b.app.url,
        t.adminToken,
        'query($after: String) { events(filter: { source: "pager" }, first: 2, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }',
        { after },
      );
      seen.push(...r.data.events.edges.map((e: any) => e.node.id));
      after = r.data.events.pageInfo.hasNextPage ? r.data.events.pageInfo.endCursor : null;
    }
    expect(seen).toEqual(expected);
    const first: any = await gql(
      b.app.url,
      t.adminToken,
      '{ events(filter: { source: "pager" }, first: 2) { pageInfo { endCursor } } }',
    );
    const other = await buildTenant(b.app.rt);
    const foreign: any = await gql(
      b.app.url,
      other.adminToken,
      'query($after: String) { events(first: 2, after: $after) { edges { node { id } } } }',
      { after: first.data.events.pageInfo.endCursor },
    );
    expect(foreign.data.events.edges).toEqual([]);
  });

  it('removes resolved alerts with their timelines, ended sessions, old drift reports, metered usage and audit entries past retention, and keeps newer ones', async () => {
    const rt = b.app.rt;
    const ago = (days: number) => new Date(Date.now() - days * DAY_MS);
    const alert = (dedupKey: string, days: number) =>
      rt.prisma.alert.create({
        data: {
          tenantId: t.tenantId,
          severity: 'info',
          summary: dedupKey,
          dedupKey,
          status: 'resolved',
          resolvedAt: ago(days),
        },
      });
    const oldAlert = await alert('resolved-long-ago', 731);
    const keptAlert = await alert('resolved-recently', 729);
    for (const a of [oldAlert, keptAlert]) {
      await rt.prisma.alertTimelineEntry.createMany({
        data: [
          { tenantId: t.tenantId, alertId: a.id, action: 'opened' },
          { tenantId: t.tenantId, alertId: a.id, action: 'resolved' },
        ],
      });
    }
    const session = (days: number) =>
      rt.prisma.session.create({
        data: { tenantId: t.tenantId, userId: t.admin.id, createdAt: ago(days + 1), expiresAt: ago(days) },
      });
    const [endedLongAgo, endedRecently] = [await session(31), await session(29)];
    const device = async (name: string) => rt.prisma.device.create({ data: { tenantId: t.tenantId, name } });
    const [d1, d2] = [await device('drift-a'), await device('drift-b')];
    const report = (deviceId: string, days: number) =>
      rt.prisma.driftReport.create({
        data: { tenantId: t.tenantId, deviceId, inSync: true, diff: '', createdAt: ago(days) },
      });
    const [d1Oldest, d1Newest, d2Old, d2Recent] = [
      await report(d1.id, 500),
      await report(d1.id, 450),
      await report(d2.id, 450),
      await report(d2.id, 1),
    ];
    const billed = async (days: number) => {
      const windowStart = new Date(hourOf(ago(days).getTime()));
      await rt.prisma.billingWindow.create({ data: { tenantId: t.tenantId, windowStart, computedAt: windowStart } });
      await rt.prisma.billingUsage.create({
        data: {
          tenantId: t.tenantId,
          meter: 'events_ingested',
          windowStart,
          dimension: 'a',
          source: 'a',
          module: '',
          label: '',
          quantity: '1',
        },
      });
      return windowStart;
    };
    const [oldWindow, keptWindow] = [await billed(761), await billed(759)];
    const audit = (days: number) =>
      rt.prisma.auditLog.create({
        data: { tenantId: t.tenantId, credentialKind: 'pat', action: `retention.test.${days}`, createdAt: ago(days) },
      });
    const [oldAudit, keptAudit] = [await audit(410), await audit(390)];

    const r = await runRetention(rt);
    const removed = (table: string) => r.tables.find((x) => x.table === table)?.rowsDeleted ?? 0;
    expect(removed('Alert')).toBeGreaterThanOrEqual(1);
    expect(removed('AlertTimelineEntry')).toBeGreaterThanOrEqual(2);
    expect(
      await rt.prisma.alert.findMany({ where: { id: { in: [oldAlert.id, keptAlert.id] } }, select: { id: true } }),
    ).toEqual([{ id: keptAlert.id }]);
    expect(
      (await rt.prisma.alertTimelineEntry.findMany({ where: { alertId: { in: [oldAlert.id, keptAlert.id] } } })).map(
        (e) => e.alertId,
      ),
    ).toEqual([keptAlert.id, keptAlert.id]);
    expect(removed('Session')).toBeGreaterThanOrEqual(1);
    expect(
      (await rt.prisma.session.findMany({ where: { id: { in: [endedLongAgo.id, endedRecently.id] } } })).map(
        (s) => s.id,
      ),
    ).toEqual([endedRecently.id]);
    expect(removed('DriftReport')).toBeGreaterThanOrEqual(2);
    expect(
      (
        await rt.prisma.driftReport.findMany({
          where: { id: { in: [d1Oldest.id, d1Newest.id, d2Old.id, d2Recent.id] } },
          orderBy: { createdAt: 'asc' },
        })
      ).map((x) => x.id),
    ).toEqual([d1Newest.id, d2Recent.id]);
    expect(removed('BillingUsage')).toBeGreaterThanOrEqual(1);
    expect(removed('BillingWindow')).toBeGreaterThanOrEqual(1);
    expect(
      (
        await rt.prisma.billingWindow.findMany({
          where: { tenantId: t.tenantId, windowStart: { in: [oldWindow, keptWindow] } },
        })
      ).map((w) => w.windowStart),
    ).toEqual([keptWindow]);
    expect(
      (
        await rt.prisma.billingUsage.findMany({
          where: { tenantId: t.tenantId, windowStart: { in: [oldWindow, keptWindow] } },
        })
      ).map((w) => w.windowStart),
    ).toEqual([keptWindow]);
    expect(
      (await rt.prisma.auditLog.findMany({ where: { id: { in: [oldAudit.id, keptAudit.id] } } })).map((a) => a.id),
    ).toEqual([keptAudit.id]);
  });
});
