/**
 * The latest attached events of many alerts in one statement (a list of alerts with `events(limit:)`,
 * the dashboard): for each alert its `limit` newest events (received time, then id, newest first)
 * through the alert ↔ event link, within the caller's tenant. Prisma's query strategy reads the link
 * and the events in two statements; a lateral join reads both at once.
 *
 * Rows carry every column of `Event`; the JSON ones (`labels`, `payload`, possibly large) only when
 * the query asks for them (`withJson`).
 */
import DataLoader from 'dataloader';
import type { Ctx } from '../context.js';
import type { Event } from '../generated/prisma/client.js';

/** An `Event` row with the alert it was read for; `labels`/`payload` only when asked for. */
export type LatestEventRow = Omit<Event, 'labels' | 'payload'> & Partial<Pick<Event, 'labels' | 'payload'>> & { alertId: string };

/** The tenant no principal has (the scoped client filters on it too): an anonymous caller sees nothing. */
const NO_TENANT = '00000000-0000-0000-0000-000000000000';

/** The columns every row carries, and the JSON ones a query may ask for too. */
const COLUMNS = `e."id", e."tenantId", e."type", e."module", e."source", e."summary", e."severity"::text AS "severity",
  e."receivedVia"::text AS "receivedVia", e."receivedAt", e."evaluatedAt", e."evaluationAttempts", e."evaluationError", e."deviceId"`;
const JSON_COLUMNS = `, e."labels", e."payload"`;

async function latestEventsOf(ctx: Ctx, alertIds: readonly string[], limit: number, withJson: boolean): Promise<LatestEventRow[][]> {
  const tenantId = ctx.principal?.tenantId ?? NO_TENANT;
  const rows = await ctx.rt.prisma.$queryRawUnsafe<LatestEventRow[]>(
    `SELECT a."alertId", ${COLUMNS}${withJson ? JSON_COLUMNS : ''}
     FROM unnest($1::text[]) AS a("alertId")
     CROSS JOIN LATERAL (
       SELECT ev.* FROM "AlertEvent" ae JOIN "Event" ev ON ev."id" = ae."eventId"
       WHERE ae."alertId" = a."alertId" AND ev."tenantId" = $2
       ORDER BY ev."receivedAt" DESC, ae."eventId" DESC
       LIMIT $3
     ) e
     ORDER BY a."alertId", e."receivedAt" DESC, e."id" DESC`,
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

/** The request's loader of an alert's `limit` latest events, by alert id: one statement per batch, nothing cached (a subscription's context outlives many results). */
export function latestEventsLoader(ctx: Ctx, limit: number, withJson: boolean): DataLoader<string, LatestEventRow[]> {
  let byKind = loaders.get(ctx);
  if (!byKind) loaders.set(ctx, (byKind = new Map()));
  const key = `${limit}:${withJson}`;
  let loader = byKind.get(key);
  if (!loader) byKind.set(key, (loader = new DataLoader((ids) => latestEventsOf(ctx, ids, limit, withJson), { cache: false, maxBatchSize: 500 })));
  return loader;
}
