/**
 * The in-app inbox: a person's `inbox` notifications (one per page, always on), newest first, with an
 * unread count; reading marks them read and announces it, so the console's count follows live. Also the
 * test send of a contact method.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { Notification } from '../generated/prisma/client.js';
import { loadOwnContactMethod } from './contact-methods.js';
import { enqueueSend } from './plan.js';
import { announceNotification } from './record.js';

/** The inbox's rows of the caller: pages that were delivered to it. */
export function inboxWhere(userId: string) {
  return { userId, kind: 'inbox' as const, status: 'sent' as const };
}

/** How many inbox items the caller has not read. */
export async function inboxUnreadCount(ctx: Ctx): Promise<number> {
  const me = requireUser(ctx);
  return ctx.db.notification.count({ where: { ...inboxWhere(me.userId), readAt: null } });
}

/** Marks the given inbox items of the caller read (all of them when `ids` is null); returns how many changed. */
export async function markInboxRead(ctx: Ctx, ids: string[] | null): Promise<number> {
  const me = requireUser(ctx);
  const now = ctx.rt.clock.now();
  const where = { ...inboxWhere(me.userId), readAt: null, ...(ids ? { id: { in: ids } } : {}) };
  const changed = await ctx.db.notification.findMany({ where, select: { id: true } });
  if (changed.length === 0) return 0;
  await ctx.db.notification.updateMany({ where: { id: { in: changed.map((c) => c.id) } }, data: { readAt: now } });
  const rows = await ctx.db.notification.findMany({ where: { id: { in: changed.map((c) => c.id) } } });
  for (const n of rows) announceNotification(ctx.rt, n);
  return rows.length;
}

/** Sends a test notification by one of the caller's contact methods; the row shows how it went. */
export async function sendTestNotification(ctx: Ctx, contactMethodId: string): Promise<Notification> {
  const me = requireUser(ctx);
  const m = await loadOwnContactMethod(ctx, contactMethodId);
  const now = ctx.rt.clock.now();
  const n = await ctx.db.notification.create({
    data: {
      id: uuidv7(),
      userId: me.userId,
      contactMethodId: m.id,
      kind: m.kind,
      reason: 'test',
      dedupKey: `test:${uuidv7()}`,
      dueAt: now,
      createdAt: now,
    } as never,
  });
  await enqueueSend(ctx.rt, n);
  return n;
}
