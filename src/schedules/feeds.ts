/**
 * iCalendar feeds: a secret, revocable URL per schedule (its final shifts) or per user (their shifts across every
 * schedule of the tenant), so shifts show up in any calendar app. The token is shown once; only its SHA-256 is
 * stored, and the feed is found by that hash (a lookup by hash of a high-entropy token: no timing to compare).
 */
import ical from 'ical-generator';
import type { Ctx } from '../context.js';
import type { Runtime } from '../runtime.js';
import { requireUser } from '../context.js';
import { NotFound, ValidationFailed } from '../errors.js';
import type { CalendarFeed } from '../generated/prisma/client.js';
import { randomSecret, tokenHash } from '../secrets.js';
import { finalShiftsOf } from './oncall.js';
import type { Shift } from './shifts.js';

const TOKEN_PREFIX = 'ocal_';
/** The feed covers shifts from a week ago to this many days ahead. */
const FEED_DAYS_AHEAD = 60;
const FEED_DAYS_BEHIND = 7;

/** The path of a feed's iCalendar document (under the API's base URL). */
export function feedPath(token: string): string {
  return `/api/v1/calendar-feeds/${token}.ics`;
}

/**
 * Creates a feed for a schedule (`scheduleId`) or for the caller (`userId`: their own id). Returns the feed and its token, shown this once.
 */
export async function createCalendarFeed(
  ctx: Ctx,
  input: { scheduleId?: string | null; userId?: string | null },
): Promise<{ feed: CalendarFeed; token: string; url: string }> {
  const me = requireUser(ctx);
  if (!!input.scheduleId === !!input.userId)
    throw new ValidationFailed([{ loc: ['input', 'scheduleId'], msg: 'give exactly one of scheduleId or userId' }]);
  if (input.scheduleId && !(await ctx.db.schedule.findUnique({ where: { id: input.scheduleId } })))
    throw new NotFound('Schedule');
  if (input.userId) {
    // A person's feed is theirs alone: another user's id is as unknown as another tenant's.
    if (input.userId !== me.userId) throw new NotFound('User');
  }
  const token = randomSecret(TOKEN_PREFIX);
  const feed = await ctx.db.calendarFeed.create({
    data: {
      tenantId: me.tenantId,
      scheduleId: input.scheduleId ?? null,
      userId: input.userId ?? null,
      tokenHash: tokenHash(token),
      tokenPrefix: token.slice(0, TOKEN_PREFIX.length + 6),
    },
  });
  return { feed, token, url: feedPath(token) };
}

/** Revokes a feed: its URL answers 404 from now on. */
export async function revokeCalendarFeed(ctx: Ctx, id: string): Promise<CalendarFeed> {
  const me = requireUser(ctx);
  const feed = await ctx.db.calendarFeed.findUnique({ where: { id } });
  if (!feed || (feed.userId && feed.userId !== me.userId)) throw new NotFound('Calendar feed');
  return ctx.db.calendarFeed.update({ where: { id }, data: { revokedAt: feed.revokedAt ?? ctx.rt.clock.now() } });
}

/** The iCalendar document of the feed with this token, or null (unknown or revoked). */
export async function calendarFeedDocument(rt: Runtime, token: string): Promise<string | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const feed = await rt.prisma.calendarFeed.findUnique({ where: { tokenHash: tokenHash(token) } });
  if (!feed || feed.revokedAt) return null;
  const now = rt.clock.now();
  const from = new Date(now.getTime() - FEED_DAYS_BEHIND * 86400_000);
  const to = new Date(now.getTime() + FEED_DAYS_AHEAD * 86400_000);
  const schedules = await rt.prisma.schedule.findMany({
    where: { tenantId: feed.tenantId, ...(feed.scheduleId ? { id: feed.scheduleId } : {}) },
    include: { layers: true, overrides: true },
    orderBy: { name: 'asc' },
  });
  const users = await rt.prisma.user.findMany({
    where: { tenantId: feed.tenantId },
    select: { id: true, email: true, name: true },
  });
  const nameOf = new Map(users.map((u) => [u.id, u.name || u.email]));
  const cal = ical({ name: feed.scheduleId ? `On call: ${schedules[0]?.name ?? ''}` : `My on-call shifts` });
  for (const s of schedules) {
    const shifts: Shift[] = finalShiftsOf(s, from, to).filter((x) => !feed.userId || x.userId === feed.userId);
    for (const x of shifts)
      cal.createEvent({
        id: `${s.id}-${x.userId}-${x.start.getTime()}@ops-service`,
        start: x.start,
        end: x.end,
        summary: `On call: ${nameOf.get(x.userId) ?? x.userId} (${s.name})`,
        description: x.overrideId ? 'Override' : undefined,
      });
  }
  return cal.toString();
}
