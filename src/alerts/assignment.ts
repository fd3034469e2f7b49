/**
 * Handing an alert to someone: sets its assignee (or clears it), records "assigned to …" with the actor on
 * its timeline and announces the change on `alertChanged` and to outbound webhooks (`alert.assigned`), as
 * every other change of an alert is announced. Acknowledging still assigns the alert to the caller
 * (actions.ts); this is how a teammate passes it on.
 */
import type { Ctx } from '../context.js';
import { Conflict, ValidationFailed } from '../errors.js';
import type { Alert } from '../generated/prisma/client.js';
import { announceAlertChanges, announceInTx } from './lifecycle.js';
import { loadAlert } from './actions.js';
import { alertAssigner } from './policy.js';

export interface AssignAlertInput {
  id: string;
  /** The user to assign; null or absent unassigns. */
  userId?: string | null;
}

/**
 * Assigns the alert to `userId` (a user of the caller's tenant; 422 naming `userId` otherwise) or unassigns it.
 * A resolved alert is done: 409. Assigning to the current assignee changes nothing and records nothing.
 */
export async function assignAlert(ctx: Ctx, input: AssignAlertInput): Promise<Alert> {
  const me = alertAssigner(ctx.principal);
  const alert = await loadAlert(ctx, input.id);
  const userId = input.userId || null;
  // Tenant scope: another tenant's user is not found here, so it reads as "no such user" (no existence leak).
  const assignee = userId
    ? await ctx.db.user.findUnique({ where: { id: userId }, select: { id: true, email: true } })
    : null;
  if (userId && !assignee)
    throw new ValidationFailed([{ loc: ['userId'], msg: 'is not a user of this tenant (see the users list)' }]);
  if (alert.status === 'resolved')
    throw new Conflict(
      'Cannot assign an alert that is resolved; a resolved alert allows no further actions.',
      'ALERT_INVALID_TRANSITION',
    );
  if (alert.assigneeId === userId) return alert;
  const now = ctx.rt.clock.now();
  const { row, outboxId } = await ctx.db.$transaction(async (tx) => {
    const updated = await tx.alert.updateManyAndReturn({
      where: { id: alert.id, status: { not: 'resolved' } },
      data: { assigneeId: userId },
    });
    const row = updated[0];
    if (!row)
      throw new Conflict('The alert was resolved meanwhile; it can no longer be assigned.', 'ALERT_INVALID_TRANSITION');
    await tx.alertTimelineEntry.create({
      data: {
        tenantId: row.tenantId,
        alertId: row.id,
        actorId: me.userId,
        action: assignee ? 'assigned' : 'unassigned',
        note: assignee ? `Assigned to ${assignee.email}.` : 'Unassigned.',
        createdAt: now,
      },
    });
    const outboxId = await announceInTx(tx, row, 'alert.assigned', row.labels as Record<string, unknown>, now);
    return { row, outboxId };
  });
  await announceAlertChanges(ctx.rt, [{ change: 'assigned', alert: row }], [outboxId]);
  return row;
}
