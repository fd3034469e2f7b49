/**
 * Reading the timeline: newest-first pages for the GraphQL connection and GET /events, oldest-first
 * replay after a `Last-Event-ID` for the SSE stream. (The REST shape of an event is rest/presenters/events.ts.)
 */
import type { Ctx } from '../context.js';
import type { Event } from '../generated/prisma/client.js';
import { assertValidFilter, eventWhere, type EventFilter, type FilterableEvent } from './filter.js';
import { validate as isUuid, version as uuidVersion } from 'uuid';
import type { SerializedEvent } from './announce.js';

/** Most events a stream replays after a reconnect; older gaps are for GET /events. */
export const REPLAY_MAX = 1000;

/** Newest first ordering, with the id as tie-breaker (also the connection cursor). */
export const NEWEST_FIRST = [{ receivedAt: 'desc' as const }, { id: 'desc' as const }];

/** The Prisma `where` of a timeline query; validates the filter first (422 naming the field). */
export function timelineWhere(filter: EventFilter | null | undefined, field?: (name: string) => string[]) {
  const f = filter ?? {};
  assertValidFilter(f, field);
  return eventWhere(f);
}

/**
 * Events of the caller's tenant stored after `lastEventId` that pass the filter, oldest first, at most
 * REPLAY_MAX. Ids are time-ordered UUIDv7, so "after" is an id comparison; an id that is not one of
 * ours replays nothing.
 */
export async function eventsAfter(ctx: Ctx, lastEventId: string, filter: EventFilter): Promise<Event[]> {
  if (!isUuid(lastEventId) || uuidVersion(lastEventId) !== 7) return [];
  // The id's own time (UUIDv7) bounds the read to the partitions since then (a day earlier for clock skew).
  const since = new Date(Number.parseInt(lastEventId.replace(/-/g, '').slice(0, 12), 16) - 24 * 3600_000);
  return ctx.db.event.findMany({
    where: { AND: [timelineWhere(filter), { id: { gt: lastEventId.toLowerCase() } }, { receivedAt: { gte: since } }] },
    orderBy: { id: 'asc' },
    take: REPLAY_MAX,
  });
}

/** What the SSE stream hands its presenter: a stored row, or a pubsub message (times as strings). */
export interface StreamedEvent extends FilterableEvent {
  id: string;
  payload: unknown;
  receivedVia: string;
}

export type { SerializedEvent };
