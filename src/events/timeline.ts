/**
 * Reading the timeline: newest-first pages for the GraphQL connection and GET /events, oldest-first
 * replay after a `Last-Event-ID` for the SSE stream. (The REST shape of an event is rest/presenters/events.ts.)
 */
import type { Ctx } from '../context.js';
import type { Event, Prisma } from '../generated/prisma/client.js';
import { assertValidFilter, eventWhere, type EventFilter, type FilterableEvent } from './filter.js';
import { validate as isUuid, version as uuidVersion } from 'uuid';
import type { SerializedEvent } from './announce.js';

/** Most events a stream replays after a reconnect; older gaps are for GET /events. */
export const REPLAY_MAX = 1000;

/** Newest first ordering, with the id as tie-breaker (also the connection cursor). */
export const NEWEST_FIRST = [{ receivedAt: 'desc' as const }, { id: 'desc' as const }];

/** The Prisma `where` of a timeline query; validates the filter first (422 naming the field). */
export function timelineWhere(filter: EventFilter | null | undefined, now: Date, field?: (name: string) => string[]) {
  const f = filter ?? {};
  assertValidFilter(f, field);
  return eventWhere(f, now);
}

/**
 * Events of the caller's tenant stored after `lastEventId` that pass the filter, oldest first, at most
 * REPLAY_MAX. Ids are time-ordered UUIDv7, so "after" is an id comparison; an id that is not one of
 * ours replays nothing.
 */
export async function eventsAfter(ctx: Ctx, lastEventId: string, filter: EventFilter): Promise<Event[]> {
  const at = uuidv7Time(lastEventId);
  if (at === null) return [];
  // The id's own time (UUIDv7) bounds the read to the partitions since then (a day earlier for clock skew).
  const since = new Date(at - ID_TIME_SLACK_MS);
  return ctx.db.event.findMany({
    where: {
      AND: [
        timelineWhere(filter, ctx.rt.clock.now()),
        { id: { gt: lastEventId.toLowerCase() } },
        { receivedAt: { gte: since } },
      ],
    },
    orderBy: { id: 'asc' },
    take: REPLAY_MAX,
  });
}

/** The time a UUIDv7 was made (ms), or null for an id that is not one. */
export function uuidv7Time(id: string): number | null {
  return isUuid(id) && uuidVersion(id) === 7 ? Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16) : null;
}

/** How far an event's receivedAt may be from its id's time (ids are made on arrival, the row's time at commit). */
const ID_TIME_SLACK_MS = 24 * 3600_000;

interface CursorQuery {
  cursor?: { id?: string };
  skip?: number;
  take?: number;
}

/**
 * A newest-first page after a cursor as a keyset on (receivedAt, id): Prisma's own cursor looks the
 * cursor row up by id alone, three times, in every partition of the timeline (a cost growing with the
 * history); here the row is found once, in the partitions around its id's time (UUIDv7), and the page
 * reads `(receivedAt, id) < (cursor's)` on the window's partitions. Returns the query without Prisma's
 * cursor and the `where` with the keyset; a query without a forward cursor is returned as it is.
 */
export async function timelinePage<Q extends CursorQuery>(
  ctx: Ctx,
  query: Q,
  where: Prisma.EventWhereInput,
): Promise<Q & { where: Prisma.EventWhereInput }> {
  const id = query.cursor?.id;
  if (!id || !query.take || query.take < 0) return { ...query, where };
  const { cursor: _cursor, skip: _skip, ...rest } = query;
  const at = uuidv7Time(id);
  const row =
    (at !== null
      ? await ctx.db.event.findFirst({
          where: { id, receivedAt: { gte: new Date(at - ID_TIME_SLACK_MS), lte: new Date(at + ID_TIME_SLACK_MS) } },
          select: { receivedAt: true },
        })
      : null) ?? (await ctx.db.event.findFirst({ where: { id }, select: { receivedAt: true } }));
  const keyset: Prisma.EventWhereInput = row
    ? { OR: [{ receivedAt: { lt: row.receivedAt } }, { receivedAt: row.receivedAt, id: { lt: id } }] }
    : { id: { in: [] } };
  return { ...(rest as Q), where: { AND: [where, keyset] } };
}

/** What the SSE stream hands its presenter: a stored row, or a pubsub message (times as strings). */
export interface StreamedEvent extends FilterableEvent {
  id: string;
  payload: unknown;
  receivedVia: string;
}

export type { SerializedEvent };
