/**
 * Retention of the tables that are not partitioned (they are small per tenant, or their rows end at
 * different times): bounded batches on an index, oldest first, never touching a newer row.
 * - resolved alerts past RESOLVED_ALERT_RETENTION_DAYS, with their timeline entries and event links;
 * - sessions 30 days after they ended (expired; a revoked one expires soon after);
 * - password links (invitations and resets) and cluster invites 7 days after they ended (used or expired);
 * - drift reports past EVENT_RETENTION_DAYS, except each device's newest (its current state);
 * - metered usage and its windows past BILLING_RETENTION_DAYS;
 * - the stored-bytes rows of windows whose events were dropped (src/history/storage.ts).
 */
import type { PrismaClient } from '../generated/prisma/client.js';
import { deleteInBatches } from './partitions.js';
import { sqlTimestamp } from '../db/timestamps.js';
import { DAY_MS } from './tables.js';

type Db = Pick<PrismaClient, '$queryRawUnsafe' | '$executeRawUnsafe'>;

/** Ended sessions are kept this long after they end (for looking into a login), then removed. */
export const SESSION_KEEP_AFTER_END_DAYS = 30;

/**
 * Single-use links are kept this long after they were used or expired, then removed: a hash of a token
 * that acts no more serves nothing (the audit log records the invitation, reset or join).
 */
export const LINK_KEEP_AFTER_END_DAYS = 7;

/** Rows removed per table. */
export type RowCounts = Record<string, number>;

const MAX_BATCHES = 20;

/**
 * Resolved alerts whose resolution is older than `cutoff`, a batch of alerts at a time: first their
 * timeline entries and event links (on their alertId indexes), then the alerts (their assistant rows
 * go by the foreign keys' cascade).
 */
export async function purgeResolvedAlerts(db: Db, cutoff: Date): Promise<RowCounts> {
  const counts: RowCounts = { Alert: 0, AlertTimelineEntry: 0, AlertEvent: 0 };
  for (let i = 0; i < MAX_BATCHES; i++) {
    const ids = (
      await db.$queryRawUnsafe<Array<{ id: string }>>(
        `SELECT "id" FROM "Alert" WHERE "status" = 'resolved' AND "resolvedAt" < $1::timestamp ORDER BY "resolvedAt" LIMIT 1000`,
        sqlTimestamp(cutoff),
      )
    ).map((r) => r.id);
    if (!ids.length) break;
    counts.AlertTimelineEntry! += await db.$executeRawUnsafe(
      `DELETE FROM "AlertTimelineEntry" WHERE "alertId" = ANY($1::text[])`,
      ids,
    );
    counts.AlertEvent! += await db.$executeRawUnsafe(`DELETE FROM "AlertEvent" WHERE "alertId" = ANY($1::text[])`, ids);
    counts.Alert! += await db.$executeRawUnsafe(
      `DELETE FROM "Alert" WHERE "id" = ANY($1::text[]) AND "status" = 'resolved'`,
      ids,
    );
    if (ids.length < 1000) break;
  }
  return counts;
}

/** Sessions that ended more than SESSION_KEEP_AFTER_END_DAYS before `now` (on the expiresAt index). */
export async function purgeEndedSessions(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - SESSION_KEEP_AFTER_END_DAYS * DAY_MS);
  return (await deleteInBatches(db, 'Session', `"expiresAt" < $1::timestamp`, [sqlTimestamp(cutoff)])).count;
}

/**
 * Password links (invitations and resets, src/users/password-links.ts) and cluster invites
 * (src/clusters/hub.ts) that were used or expired more than LINK_KEEP_AFTER_END_DAYS before `now`.
 */
export async function purgeEndedLinks(db: Db, now: Date): Promise<RowCounts> {
  const cutoff = sqlTimestamp(new Date(now.getTime() - LINK_KEEP_AFTER_END_DAYS * DAY_MS));
  const ended = `"expiresAt" < $1::timestamp OR "usedAt" < $1::timestamp`;
  return {
    PasswordLink: (await deleteInBatches(db, 'PasswordLink', ended, [cutoff])).count,
    ClusterInvite: (await deleteInBatches(db, 'ClusterInvite', ended, [cutoff])).count,
  };
}

/** Drift reports older than `cutoff` that are not their device's newest (the newest is the device's state). */
export async function purgeOldDriftReports(db: Db, cutoff: Date): Promise<number> {
  return (
    await deleteInBatches(
      db,
      'DriftReport',
      `"createdAt" < $1::timestamp AND EXISTS (SELECT 1 FROM "DriftReport" n WHERE n."deviceId" = "DriftReport"."deviceId" AND n."createdAt" > "DriftReport"."createdAt")`,
      [sqlTimestamp(cutoff)],
    )
  ).count;
}

/**
 * Metered windows older than `cutoff`: a batch of windows at a time (on the windowStart index), their
 * usage rows by (tenantId, windowStart), then the windows.
 */
export async function purgeBillingWindows(db: Db, cutoff: Date): Promise<RowCounts> {
  const counts: RowCounts = { BillingUsage: 0, BillingWindow: 0 };
  for (let i = 0; i < MAX_BATCHES; i++) {
    const batch = await db.$queryRawUnsafe<Array<{ tenantId: string; windowStart: string }>>(
      `SELECT "tenantId", to_char("windowStart", 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS "windowStart" FROM "BillingWindow" WHERE "windowStart" < $1::timestamp ORDER BY "windowStart" LIMIT 1000`,
      sqlTimestamp(cutoff),
    );
    if (!batch.length) break;
    const keys = [batch.map((w) => w.tenantId), batch.map((w) => w.windowStart)];
    const matching = `SELECT * FROM unnest($1::text[], $2::timestamp[]) AS k(t, w)`;
    counts.BillingUsage! += await db.$executeRawUnsafe(
      `DELETE FROM "BillingUsage" b USING (${matching}) k WHERE b."tenantId" = k.t AND b."windowStart" = k.w`,
      ...keys,
    );
    counts.BillingWindow! += await db.$executeRawUnsafe(
      `DELETE FROM "BillingWindow" b USING (${matching}) k WHERE b."tenantId" = k.t AND b."windowStart" = k.w`,
      ...keys,
    );
    if (batch.length < 1000) break;
  }
  return counts;
}

/**
 * Stored-bytes rows of the windows whose events are gone: every window before the UTC day of
 * `eventCutoff` (the days whose partitions retention drops).
 */
export async function purgeStorageWindows(db: Db, eventCutoff: Date): Promise<number> {
  return (
    await deleteInBatches(
      db,
      'EventStorageWindow',
      `"windowStart" < date_trunc('day', $1::timestamp)`,
      [sqlTimestamp(eventCutoff)],
      { maxBatches: MAX_BATCHES },
    )
  ).count;
}
