/**
 * The latest attached events of many alerts in one statement (a list of alerts with `events(limit:)`,
 * the dashboard): for each alert its `limit` newest events (received time, then id, newest first)
 * through the alert ↔ event link, within the caller's tenant. Prisma's query strategy reads the link
 * and the events in two statements; a join ranked per alert (`row_number()`) reads both at once.
 *
 * Rows carry the `Event` columns the query asks for (`columns`, see `EVENT_COLUMNS`) and always the id; a
 * column left out is read again by the type's field if a resolver ever asks a row for it (schema/loaded-scalars.ts).
 */
import DataLoader from 'dataloader';
import type { Ctx } from '../context.js';
import type { Event } from '../generated/prisma/client.js';

/** An `Event` row with the alert it was read for: its id and the columns it was loaded with. */
export type LatestEventRow = Pick<Event, 'id'> & Partial<Event> & { alertId: string };

/** The tenant no principal has (the scoped client filters on it too): an anonymous caller sees nothing. */
const NO_TENANT = '00000000-0000-0000-0000-000000000000';

/** Each column of `Event` a query may ask for, as the statement reads it (enums as their text). */
const COLUMN_SQL: Record<keyof Event, string> = {
  id: 'e."id"',
  tenantId: 'e."tenantId"',
  type: 'e."type"',
  module: 'e."module"',
  source: 'e."source"',
  summary: 'e."summary"',
  severity: 'e."severity"::text AS "severity"',
  receivedVia: 'e."receivedVia"::text AS "receivedVia"',
  receivedAt: 'e."receivedAt"',
  evaluatedAt: 'e."evaluatedAt"',
  evaluationAttempts: 'e."evaluationAttempts"',
  evaluationError: 'e."evaluationError"',
  deviceId: 'e."deviceId"',
  labels: 'e."labels"',
  payload: 'e."payload"',
};

/** The column names a caller may ask for (anything else is ignored). */
export const EVENT_COLUMNS: ReadonlySet<string> = new Set(Object.keys(COLUMN_SQL));

async function latestEventsOf(
  ctx: Ctx,
  alertIds: readonly string[],
  limit: number,
  columns: readonly (keyof Event)[],
): Promise<LatestEventRow[][]> {
  const tenantId = ctx.principal?.tenantId ?? NO_TENANT;
  // One pass over the alerts' links and their events, ranked per alert (Postgres stops each alert's ranking at
  // `limit`). A LATERAL subquery per alert probed every partition of Event for each link of each alert: 3-4x the time.
  const rows = await ctx.rt.prisma.$queryRawUnsafe<LatestEventRow[]>(
    `SELECT e."alertId", e."id"${columns.map((c) => (c === 'id' ? '' : `, ${COLUMN_SQL[c]}`)).join('')}
     FROM (
       SELECT ae."alertId", ev.*, row_number() OVER (PARTITION BY ae."alertId" ORDER BY ev."receivedAt" DESC, ae."eventId" DESC) AS "rank"
       FROM "AlertEvent" ae JOIN "Event" ev ON ev."id" = ae."eventId"
       WHERE ae."alertId" = ANY($1::text[]) AND ev."tenantId" = $2
     ) e
     WHERE e."rank" <= $3
     ORDER BY e."alertId", e."receivedAt" DESC, e."id" DESC`,
    alertIds,
    tenantId,
    limit,
  );
  const byAlert = new Map<string, LatestEventRow[]>();
  for (const row of rows) {
    const list = byAlert.get(row.alertId);
    if (list) list.push(row);
    else byAlert.set(row.alertId, [row]);
  }
  return alertIds.map((id) => byAlert.get(id) ?? []);
}

const loaders = new WeakMap<Ctx, Map<string, DataLoader<string, LatestEventRow[]>>>();

/** The columns of a `columns` list (EVENT_COLUMNS only, sorted) and their loader key, per list (a query's rows share one). */
const normalized = new WeakMap<readonly string[], { asked: (keyof Event)[]; key: string }>();

/**
 * The request's loader of an alert's `limit` latest events with `columns` (names of `EVENT_COLUMNS`; others
 * are ignored), by alert id: one statement per batch, nothing cached (a subscription's context outlives many results).
 */
export function latestEventsLoader(
  ctx: Ctx,
  limit: number,
  columns: readonly string[],
): DataLoader<string, LatestEventRow[]> {
  let byKind = loaders.get(ctx);
  if (!byKind) loaders.set(ctx, (byKind = new Map()));
  let wanted = normalized.get(columns);
  if (!wanted) {
    const asked = [...new Set(columns)].filter((c): c is keyof Event => EVENT_COLUMNS.has(c)).sort();
    normalized.set(columns, (wanted = { asked, key: asked.join(',') }));
  }
  const { asked } = wanted;
  const key = `${limit}:${wanted.key}`;
  let loader = byKind.get(key);
  if (!loader)
    byKind.set(
      key,
      (loader = new DataLoader((ids) => latestEventsOf(ctx, ids, limit, asked), { cache: false, maxBatchSize: 500 })),
    );
  return loader;
}
