/**
 * Retention: old history goes by dropping whole partitions (a catalog change, no bulk DELETE, no VACUUM
 * debt); what cannot be a partition drop is a bounded batched DELETE on an index: rows that fell into a
 * default partition, a tenant's shorter event retention inside shared partitions, and the tables that are
 * not partitioned (src/history/retention-rows.ts: resolved alerts with their timelines, ended sessions,
 * ended password links and cluster invites, old drift reports, metered usage). Rows pointing at dropped data go with it (alert→event links,
 * stored-bytes windows) or keep a tombstone (a webhook's last failure keeps its time and error, loses
 * the delivery id; a timeline entry keeps the id of the event that acted). Nothing newer is touched.
 */
import type { Runtime } from '../runtime.js';
import { retentionPartitionsDropped, retentionRowsRemoved, retentionRuns } from '../metrics.js';
import { DAY_MS, HOUR_MS, PARTITIONED_TABLES } from './tables.js';
import { DELETE_BATCH, deleteInBatches, dropPartitionsBefore, ensureAllPartitions } from './partitions.js';
import { sqlTimestamp } from '../db/timestamps.js';
import {
  purgeBillingWindows,
  purgeEndedLinks,
  purgeEndedSessions,
  purgeOldDriftReports,
  purgeResolvedAlerts,
  purgeStorageWindows,
} from './retention-rows.js';
import { recordWindowStorage } from './storage.js';

export interface TableRetention {
  table: string;
  /** Partitions dropped whole. */
  partitionsDropped: string[];
  /** Rows deleted one batch at a time (default partitions, per-tenant retention, dependent rows). */
  rowsDeleted: number;
}

export interface RetentionReport {
  ranAt: string;
  /** Partitions created ahead in the same run. */
  partitionsCreated: number;
  tables: TableRetention[];
}

/** The smallest UUIDv7 of a millisecond: ids made before `at` sort below it. */
export function uuidv7Floor(at: Date): string {
  const hex = Math.max(0, at.getTime()).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

/**
 * Runs retention now (and first makes sure the partitions ahead exist): every table's expired
 * partitions dropped, expired default-partition rows deleted, dependent rows removed. Returns what it
 * removed per table; also counted in /metrics.
 */
export async function runRetention(rt: Runtime, now: Date = rt.clock.now()): Promise<RetentionReport> {
  const db = rt.prisma;
  const partitionsCreated = Object.values(
    await ensureAllPartitions(db, now, rt.config.history.partitionsAheadDays),
  ).reduce((a, b) => a + b, 0);
  const byTable = new Map<string, TableRetention>();
  const entry = (table: string) => {
    let e = byTable.get(table);
    if (!e) byTable.set(table, (e = { table, partitionsDropped: [], rowsDeleted: 0 }));
    return e;
  };
  for (const t of PARTITIONED_TABLES) {
    const cutoff = new Date(now.getTime() - t.retentionMs(rt.config));
    const e = entry(t.table);
    e.partitionsDropped.push(...(await dropPartitionsBefore(db, t.parent, cutoff)));
    e.rowsDeleted += (
      await deleteInBatches(db, `${t.parent}_default`, `"${t.column}" < $1::timestamp`, [sqlTimestamp(cutoff)])
    ).count;
  }
  const eventCutoff = new Date(now.getTime() - rt.config.history.eventRetentionDays * DAY_MS);
  entry('Event').rowsDeleted += await purgeShorterTenantRetention(rt, now);
  entry('AlertEvent').rowsDeleted += await purgeDanglingAlertLinks(rt, eventCutoff);
  entry('EventStorageWindow').rowsDeleted += await purgeStorageWindows(db, eventCutoff);
  const deliveryCutoff = new Date(now.getTime() - rt.config.webhooks.historyRetentionDays * DAY_MS);
  entry('OutboundWebhook').rowsDeleted += await db.$executeRawUnsafe(
    `UPDATE "OutboundWebhook" SET "lastFailedDeliveryId" = NULL WHERE "lastFailedDeliveryId" IS NOT NULL AND "lastFailureAt" < $1::timestamp`,
    sqlTimestamp(deliveryCutoff),
  );
  const counted = (counts: Record<string, number>) => {
    for (const [table, n] of Object.entries(counts)) entry(table).rowsDeleted += n;
  };
  counted(
    await purgeResolvedAlerts(db, new Date(now.getTime() - rt.config.history.resolvedAlertRetentionDays * DAY_MS)),
  );
  entry('Session').rowsDeleted += await purgeEndedSessions(db, now);
  counted(await purgeEndedLinks(db, now));
  entry('DriftReport').rowsDeleted += await purgeOldDriftReports(db, eventCutoff);
  counted(await purgeBillingWindows(db, new Date(now.getTime() - rt.config.history.billingRetentionDays * DAY_MS)));

  const tables = [...byTable.values()];
  retentionRuns.inc();
  for (const t of tables) {
    retentionPartitionsDropped.inc({ table: t.table }, t.partitionsDropped.length);
    retentionRowsRemoved.inc({ table: t.table }, t.rowsDeleted);
  }
  return { ranAt: now.toISOString(), partitionsCreated, tables };
}

/**
 * Tenants whose admin shortened event retention: their older events inside the shared partitions go in
 * bounded batches on the (tenantId, receivedAt) index, with their alert links. What a run leaves (more
 * than its batches) goes on the next run.
 */
async function purgeShorterTenantRetention(rt: Runtime, now: Date): Promise<number> {
  const tenants = await rt.prisma.tenant.findMany({
    where: { eventRetentionDays: { lt: rt.config.history.eventRetentionDays } },
    select: { id: true, eventRetentionDays: true },
  });
  let removed = 0;
  for (const t of tenants) {
    const cutoff = new Date(now.getTime() - t.eventRetentionDays! * DAY_MS);
    const { count, returned } = await deleteInBatches(
      rt.prisma,
      'Event',
      `"tenantId" = $1 AND "receivedAt" < $2::timestamp`,
      [t.id, sqlTimestamp(cutoff)],
      {
        key: '"id", "receivedAt"',
        maxBatches: 4,
        returning: 'id',
      },
    );
    if (returned.length) await rt.prisma.alertEvent.deleteMany({ where: { eventId: { in: returned } } });
    if (count < 4 * DELETE_BATCH) {
      // All of the tenant's older events are gone: so are their windows' stored bytes, and the window
      // holding the cutoff is recounted from the events it kept.
      const boundary = new Date(Math.floor(cutoff.getTime() / HOUR_MS) * HOUR_MS);
      await rt.prisma.$executeRawUnsafe(
        `DELETE FROM "EventStorageWindow" WHERE "tenantId" = $1 AND "windowStart" < $2::timestamp`,
        t.id,
        sqlTimestamp(boundary),
      );
      await recordWindowStorage(
        rt.prisma,
        t.id,
        sqlTimestamp(boundary),
        sqlTimestamp(new Date(boundary.getTime() + HOUR_MS)),
      );
    }
    removed += count;
  }
  return removed;
}

/**
 * Alert→event links whose event was dropped. Event ids are UUIDv7 made at arrival, so only links to ids
 * older than the cutoff (plus a day for clock skew) are looked at, on the eventId index.
 */
async function purgeDanglingAlertLinks(rt: Runtime, eventCutoff: Date): Promise<number> {
  const floor = uuidv7Floor(new Date(eventCutoff.getTime() + DAY_MS));
  const { count } = await deleteInBatches(
    rt.prisma,
    'AlertEvent',
    `"eventId" < $1 AND NOT EXISTS (SELECT 1 FROM "Event" e WHERE e."id" = "AlertEvent"."eventId")`,
    [floor],
  );
  return count;
}
