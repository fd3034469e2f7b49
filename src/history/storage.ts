/**
 * Stored bytes of the timeline, kept incrementally: each hourly metering window writes one row per
 * tenant (`EventStorageWindow`: the bytes and count of the events received in that window), read from
 * the window's own rows on the (tenantId, receivedAt) index inside the window's partition. The
 * `events_stored` meter sums these rows (about 24 × 400 per tenant) instead of scanning history, so
 * metering costs the same at 1 M or 1 G stored events. Retention removes the rows of dropped windows
 * (src/history/retention.ts); a window metered again (recomputeUsage) rewrites its row.
 */
import type { PrismaClient } from '../generated/prisma/client.js';

type Db = Pick<PrismaClient, '$executeRawUnsafe'>;

/**
 * Replaces the tenant's row of the window [start, end) (ISO timestamps, UTC) with its events' bytes
 * and count; a window without events has no row. Idempotent; run inside the window's transaction.
 */
export async function recordWindowStorage(db: Db, tenantId: string, start: string, end: string): Promise<void> {
  // An upsert, not delete + insert: the 00:00 window also redoes the window before it, which that
  // window's own job may be writing at the same moment.
  const inserted = await db.$executeRawUnsafe(
    `INSERT INTO "EventStorageWindow" ("tenantId", "windowStart", "bytes", "events")
     SELECT $1, $2::timestamp, sum(pg_column_size(e.*))::bigint, count(*)::int
       FROM "Event" e WHERE e."tenantId" = $1 AND e."receivedAt" >= $2::timestamp AND e."receivedAt" < $3::timestamp
     HAVING count(*) > 0
     ON CONFLICT ("tenantId", "windowStart") DO UPDATE SET "bytes" = EXCLUDED."bytes", "events" = EXCLUDED."events"`,
    tenantId,
    start,
    end,
  );
  if (inserted === 0)
    await db.$executeRawUnsafe(
      `DELETE FROM "EventStorageWindow" WHERE "tenantId" = $1 AND "windowStart" = $2::timestamp`,
      tenantId,
      start,
    );
}

/**
 * SQL of the bytes a tenant stored before `$2` (a timestamp): the sum of the windows' rows, on the
 * table's primary key. `$1` is the tenant.
 */
export const STORED_BYTES_BEFORE_SQL = `SELECT coalesce(sum(s."bytes"), 0)::numeric AS bytes FROM "EventStorageWindow" s WHERE s."tenantId" = $1 AND s."windowStart" < $2::timestamp`;
