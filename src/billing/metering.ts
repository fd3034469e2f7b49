/**
 * Metering: one job computes one tenant's hourly window into BillingUsage rows, straight from the
 * service's own records with set-based SQL. The whole window is replaced in one transaction (delete
 * the window's rows, insert the recomputed ones, stamp the window computed), so a re-run gives the
 * same rows and a worker killed mid-job leaves the previous rows untouched: nothing is counted twice
 * or lost. The key (tenant, meter, window start, dimension) is the table's primary key.
 */
import type { Runtime } from '../runtime.js';
import type { Prisma } from '../generated/prisma/client.js';
import { globToRegExp } from '../events/match.js';
import { customMeterId } from './catalogue.js';
import { WINDOW_MS, windowStartOf, windowsBetween } from './periods.js';
import { recordWindowStorage, STORED_BYTES_BEFORE_SQL } from '../history/storage.js';

type Tx = Prisma.TransactionClient;

/** `$.a.b` → `{a,b}` for Postgres' `#>`; null when it is not such a path. */
export function jsonPathSegments(path: string): string[] | null {
  if (typeof path !== 'string' || path.length > 200) return null;
  const m = /^\$((?:\.[A-Za-z_][A-Za-z0-9_-]*){1,8})$/.exec(path);
  return m ? m[1]!.slice(1).split('.') : null;
}

const COLUMNS = `"tenantId", "meter", "windowStart", "dimension", "source", "module", "label", "quantity"`;

/** INSERT … SELECT of one meter: `select` yields source, module, label, quantity; $1 tenant, $2 start, $3 end. */
function insertSql(meter: string, select: string): string {
  return `INSERT INTO "BillingUsage" (${COLUMNS})
    SELECT $1, '${meter}', $2::timestamp, x.source || chr(31) || x.module || chr(31) || x.label, x.source, x.module, x.label, round(x.quantity, 10)
    FROM (${select}) x WHERE x.quantity IS NOT NULL AND x.quantity <> 0`;
}

export const BUILTIN_SQL: Array<{ meter: string; sql: string; daily?: boolean }> = [
  {
    meter: 'events_ingested',
    sql: insertSql(
      'events_ingested',
      `SELECT e.source AS source, coalesce(e.module, '') AS module, '' AS label, count(*)::numeric AS quantity
       FROM "Event" e WHERE e."tenantId" = $1 AND e."receivedAt" >= $2::timestamp AND e."receivedAt" < $3::timestamp
         AND e."receivedVia" <> 'system' GROUP BY e.source, e.module`,
    ),
  },
  {
    meter: 'deliveries',
    sql: insertSql(
      'deliveries',
      `SELECT 'outbound-webhooks' AS source, d.topic AS module, '' AS label, count(*)::numeric AS quantity
       FROM "Delivery" d WHERE d."tenantId" = $1 AND d."createdAt" >= $2::timestamp AND d."createdAt" < $3::timestamp GROUP BY d.topic`,
    ),
  },
  {
    meter: 'events_stored',
    daily: true,
    sql: insertSql(
      'events_stored',
      // The windows' stored-bytes rows (src/history/storage.ts), never a scan of the timeline.
      `SELECT 'storage' AS source, 'events' AS module, '' AS label, (st.bytes / 1000000000 * 24 / 730) AS quantity
       FROM (${STORED_BYTES_BEFORE_SQL}) st WHERE $3::timestamp IS NOT NULL`,
    ),
  },
  {
    meter: 'aiperf_runs',
    sql: insertSql(
      'aiperf_runs',
      `SELECT 'aiperf' AS source, r.model AS module, '' AS label, count(*)::numeric AS quantity
       FROM "AiperfRun" r WHERE r."tenantId" = $1 AND r."startedAt" >= $2::timestamp AND r."startedAt" < $3::timestamp GROUP BY r.model`,
    ),
  },
  {
    meter: 'assistant_tokens',
    sql: insertSql(
      'assistant_tokens',
      `SELECT 'assistant' AS source, a.purpose AS module, a.provider || coalesce('/' || a.model, '') AS label, sum(a."totalTokens")::numeric AS quantity
       FROM "AssistantUsage" a WHERE a."tenantId" = $1 AND a."createdAt" >= $2::timestamp AND a."createdAt" < $3::timestamp
       GROUP BY a.purpose, a.provider, a.model`,
    ),
  },
];

/**
 * GPU-hours and energy per node and model. A minute counts when the GPU has a raw sample in it or,
 * once raw samples are purged, a 1-minute rollup; its energy is its average power draw × 60 s.
 */
const GPU_MINUTES = `
  WITH m AS (
    SELECT s."gpuId", date_trunc('minute', s."at") AS minute, avg(s."powerW") AS w
    FROM "GpuSample" s WHERE s."tenantId" = $1 AND s."at" >= $2::timestamp AND s."at" < $3::timestamp GROUP BY 1, 2
    UNION ALL
    -- Minutes without raw samples (purged) from their rollups. The samples looked for are bounded by
    -- the window, and matched both by (gpuId, minute) equality and by range: the anti-join is a hash of
    -- the window's samples on (gpuId, minute) or a probe of the (gpuId, at) key per rollup, never a
    -- read of the samples' whole partition, whatever the statistics of the newest rows say.
    SELECT r."gpuId", r.bucket, r."powerW" FROM "GpuRollup" r
    WHERE r."tenantId" = $1 AND r.resolution = 60 AND r.bucket >= $2::timestamp AND r.bucket < $3::timestamp
      AND NOT EXISTS (SELECT 1 FROM "GpuSample" s WHERE s."gpuId" = r."gpuId" AND date_trunc('minute', s."at") = r.bucket
                        AND s."at" >= r.bucket AND s."at" < r.bucket + interval '1 minute' AND s."at" >= $2::timestamp AND s."at" < $3::timestamp)
  )
  SELECT g.node AS source, 'gpu' AS module, coalesce(g.model, '') AS label, count(*)::numeric AS minutes, sum(coalesce(m.w, 0))::numeric AS watt_minutes
  FROM m JOIN "Gpu" g ON g.id = m."gpuId" GROUP BY g.node, g.model`;

export const GPU_SQL = [
  insertSql('gpu_hours', `SELECT source, module, label, minutes / 60 AS quantity FROM (${GPU_MINUTES}) gm`),
  insertSql(
    'gpu_energy',
    `SELECT source, module, label, watt_minutes * 60 / 3600000 AS quantity FROM (${GPU_MINUTES}) gm`,
  ),
];

interface CustomMeterRow {
  slug: string;
  typeGlob: string;
  valuePath: string | null;
  aggregation: 'sum' | 'count' | 'unique' | 'avg' | 'min' | 'max' | 'latest';
  groupBy: string | null;
}

const AGG: Record<CustomMeterRow['aggregation'], string> = {
  sum: 'sum(v)',
  count: 'count(*)::numeric',
  unique: 'count(DISTINCT vt)::numeric',
  avg: 'avg(v)',
  min: 'min(v)',
  max: 'max(v)',
  latest: `(array_agg(v ORDER BY "receivedAt" DESC, id DESC) FILTER (WHERE v IS NOT NULL))[1]`,
};

/** The INSERT of a custom meter over timeline events ($4 type regex, $5 path segments, $6 label key). */
function customSql(m: CustomMeterRow): string {
  const hasPath = !!m.valuePath;
  // Numbers beyond ±10^15 are ignored (as a non-number is), so a hostile value cannot overflow the window's rows.
  const num = `(e.payload #> $5::text[])::text::numeric`;
  const v = hasPath
    ? `CASE WHEN jsonb_typeof(e.payload #> $5::text[]) = 'number' AND abs(${num}) < 1e15 THEN ${num} END`
    : 'NULL::numeric';
  const vt = hasPath ? `e.payload #>> $5::text[]` : 'NULL::text';
  const where = hasPath && m.aggregation === 'count' ? `AND e.payload #> $5::text[] IS NOT NULL` : '';
  return insertSql(
    customMeterId(m.slug),
    `SELECT 'custom' AS source, '' AS module, grp AS label, ${AGG[m.aggregation]} AS quantity FROM (
       SELECT coalesce(e.labels ->> $6::text, '') AS grp, ${v} AS v, ${vt} AS vt, e."receivedAt", e.id
       FROM "Event" e WHERE e."tenantId" = $1 AND e."receivedAt" >= $2::timestamp AND e."receivedAt" < $3::timestamp AND e.type ~ $4
         AND cardinality($5::text[]) >= 0 ${where}
     ) ev GROUP BY grp`,
  );
}

/** Postgres regex of a type glob (the alert-rule syntax, src/events/match.ts). */
export function globToPostgresRegex(glob: string): string {
  return globToRegExp(glob).source;
}

export interface WindowResult {
  tenantId: string;
  windowStart: string;
  rows: number;
}

/**
 * Recomputes one window of one tenant (idempotent). `hooks.beforeCommit` is for tests only (none in
 * production). Returns the number of usage rows the window now has.
 */
export async function computeWindow(rt: Runtime, tenantId: string, windowStart: Date): Promise<WindowResult> {
  const start = windowStartOf(windowStart);
  const end = new Date(start.getTime() + WINDOW_MS);
  const s = start.toISOString();
  const e = end.toISOString();
  const meters = (await rt.prisma.billingMeter.findMany({
    where: { tenantId },
    select: { slug: true, typeGlob: true, valuePath: true, aggregation: true, groupBy: true },
  })) as CustomMeterRow[];
  // When the computation started (what SQL now() gave, but on the service clock that stamps requestedAt):
  // a request made while it runs is newer, so the window stays pending.
  const computedAt = rt.clock.now().toISOString();
  const rows = await rt.prisma.$transaction(
    async (tx: Tx) => {
      // Serialises two runs of the same window (a stalled job's retry racing a fresh one).
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, `billing:${tenantId}:${s}`);
      await tx.$executeRawUnsafe(
        `DELETE FROM "BillingUsage" WHERE "tenantId" = $1 AND "windowStart" = $2::timestamp`,
        tenantId,
        s,
      );
      // This window's stored bytes; the daily snapshot (00:00) first redoes the window before it, which
      // may have been computed before it closed.
      await recordWindowStorage(tx, tenantId, s, e);
      const daily = start.getUTCHours() === 0;
      if (daily) await recordWindowStorage(tx, tenantId, new Date(start.getTime() - WINDOW_MS).toISOString(), s);
      let n = 0;
      for (const b of BUILTIN_SQL) {
        if (b.daily && !daily) continue;
        n += await tx.$executeRawUnsafe(b.sql, tenantId, s, e);
      }
      for (const sql of GPU_SQL) n += await tx.$executeRawUnsafe(sql, tenantId, s, e);
      for (const m of meters) {
        n += await tx.$executeRawUnsafe(
          customSql(m),
          tenantId,
          s,
          e,
          globToPostgresRegex(m.typeGlob),
          m.valuePath ? jsonPathSegments(m.valuePath) : [],
          m.groupBy ?? '',
        );
      }
      await tx.$executeRawUnsafe(
        `INSERT INTO "BillingWindow" ("tenantId", "windowStart", "requestedAt", "computedAt") VALUES ($1, $2::timestamp, $3::timestamp, $3::timestamp)
         ON CONFLICT ("tenantId", "windowStart") DO UPDATE SET "computedAt" = $3::timestamp`,
        tenantId,
        s,
        computedAt,
      );
      return n;
    },
    { timeout: 10 * 60_000, maxWait: 60_000 },
  );
  return { tenantId, windowStart: s, rows };
}

/** The BullMQ job id of a window request (one per request, so a new request re-runs a computed window). */
export const meteringJobId = (tenantId: string, windowStart: Date, requestedAt: Date) =>
  `billing-${tenantId}-${windowStart.getTime()}-${requestedAt.getTime()}`;

/**
 * Marks the windows of [from, to) requested and queues one job per window. Returns the windows.
 * Capped at 24 × 400 windows per call.
 */
export async function requestWindows(rt: Runtime, tenantId: string, from: Date, to: Date): Promise<Date[]> {
  const windows = windowsBetween(from, to).slice(0, 24 * 400);
  if (!windows.length) return [];
  const requestedAt = rt.clock.now();
  await rt.prisma.$executeRawUnsafe(
    `INSERT INTO "BillingWindow" ("tenantId", "windowStart", "requestedAt")
     SELECT $1, w, $3::timestamp FROM unnest($2::timestamp[]) AS w
     ON CONFLICT ("tenantId", "windowStart") DO UPDATE SET "requestedAt" = excluded."requestedAt"`,
    tenantId,
    windows.map((w) => w.toISOString()),
    requestedAt.toISOString(),
  );
  const queue = rt.queues.get('billing');
  await queue.addBulk(
    windows.map((w) => ({
      name: 'meter',
      data: { tenantId, windowStart: w.toISOString() },
      opts: { jobId: meteringJobId(tenantId, w, requestedAt) },
    })),
  );
  return windows;
}

/**
 * The periodic task: for every tenant, the current window (partial, recomputed each run) and the
 * previous one (until it has been computed after it closed); plus a re-drive of windows whose request
 * is newer than their computation and older than a minute (a lost job).
 */
export async function meterRecentWindows(rt: Runtime, now = rt.clock.now()): Promise<{ queued: number }> {
  const current = windowStartOf(now);
  const previous = new Date(current.getTime() - WINDOW_MS);
  const tenants = await rt.prisma.tenant.findMany({ select: { id: true } });
  let queued = 0;
  for (const t of tenants) {
    const prev = await rt.prisma.billingWindow.findUnique({
      where: { tenantId_windowStart: { tenantId: t.id, windowStart: previous } },
    });
    const from = prev?.computedAt && prev.computedAt.getTime() >= current.getTime() ? current : previous;
    queued += (await requestWindows(rt, t.id, from, new Date(current.getTime() + WINDOW_MS))).length;
  }
  const stale = await rt.prisma.$queryRawUnsafe<Array<{ tenantId: string; windowStart: Date; requestedAt: Date }>>(
    `SELECT "tenantId", "windowStart", "requestedAt" FROM "BillingWindow"
     WHERE ("computedAt" IS NULL OR "computedAt" < "requestedAt") AND "requestedAt" < $1::timestamp LIMIT 1000`,
    new Date(now.getTime() - 60_000).toISOString(),
  );
  for (const w of stale) {
    if (
      await rt.queues.ensure(
        'billing',
        { tenantId: w.tenantId, windowStart: w.windowStart.toISOString() },
        meteringJobId(w.tenantId, w.windowStart, w.requestedAt),
      )
    )
      queued++;
  }
  return { queued };
}

/** Windows of a tenant waiting for computation (requested after their last computation). */
export async function pendingWindows(rt: Runtime, tenantId: string): Promise<number> {
  return rt.prisma.billingWindow.count({
    where: { tenantId, OR: [{ computedAt: null }, { computedAt: { lt: rt.prisma.billingWindow.fields.requestedAt } }] },
  });
}
