/**
 * Telling what happened to a notification: a line on the timeline of each alert of its group ("email to
 * ana@example.com: sent in 840 ms"), and `notificationChanged` on the tenant's pub/sub (the console's
 * inbox count and the alert page's notification list are live from it).
 */
import type { Runtime } from '../runtime.js';
import type { Notification } from '../generated/prisma/client.js';
import { groupAlertsWhere } from '../alerts/group-alerts.js';

/** What the payload of `notificationChanged` carries. */
export function notificationWire(n: Notification): Record<string, unknown> {
  return {
    id: n.id,
    userId: n.userId,
    groupId: n.groupId,
    alertId: n.alertId,
    kind: n.kind,
    status: n.status,
    attempts: n.attempts,
    error: n.error,
    sentAt: n.sentAt?.toISOString() ?? null,
    readAt: n.readAt?.toISOString() ?? null,
  };
}

function timelineNote(n: Notification, to: string): string {
  if (n.status === 'sent') return `${n.kind} to ${to}: sent in ${n.latencyMs ?? 0} ms`;
  if (n.status === 'skipped') return `${n.kind} to ${to}: skipped (${n.error ?? 'no longer firing'})`;
  return `${n.kind} to ${to}: failed after ${n.attempts} attempt${n.attempts === 1 ? '' : 's'} (${n.error ?? 'error'})`;
}

/** Records a settled notification on its group's alerts' timelines and announces it; failures are logged. */
export async function recordSettled(rt: Runtime, n: Notification, to: string): Promise<void> {
  try {
    if (n.groupId) {
      const alerts = await rt.prisma.alert.findMany({
        where: groupAlertsWhere(n.groupId, { tenantId: n.tenantId }),
        select: { id: true },
        take: 100,
      });
      const action =
        n.status === 'sent' ? 'notified' : n.status === 'skipped' ? 'notification_skipped' : 'notification_failed';
      if (alerts.length)
        await rt.prisma.alertTimelineEntry.createMany({
          data: alerts.map((a) => ({
            tenantId: n.tenantId,
            alertId: a.id,
            actorId: null,
            action,
            note: timelineNote(n, to),
            createdAt: n.sentAt ?? rt.clock.now(),
          })),
        });
    }
  } catch (err) {
    rt.logger.warn({ err, notificationId: n.id }, 'could not write the notification to the alert timeline');
  }
  announceNotification(rt, n);
}

/** Publishes `notificationChanged` for one notification. */
export function announceNotification(rt: Runtime, n: Notification): void {
  rt.pubsub.publish('notificationChanged', n.tenantId, notificationWire(n));
}
