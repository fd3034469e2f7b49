/**
 * A routed group's notifications in Alertmanager's model (for groups that notify: AlertGroup.groupIntervalSeconds
 * is set when a route that pages or sends to webhooks forms them, src/routing/route-group.ts):
 * - `first`, group_wait after the group opened: its receiver's outbound webhooks get the group (its escalation
 *   policy's steps page people, as they always did);
 * - `update`: alerts that joined after a notification are announced in ONE further notification, no sooner than
 *   group_interval after the one before, listing the new alerts, to the people already paged for the group and
 *   to the webhooks;
 * - `repeat`: while the group is firing (not acknowledged, snoozed or resolved), every repeat_interval after the
 *   last notification, to the same people and webhooks. Escalation steps keep running beside.
 * The row is the source of truth (`nextNotifyAt`, moved earlier by an alert joining: escalation/join.ts); the
 * routing task (workers/routing.ts) runs the due ones, each in one transaction that claims the row with a
 * compare-and-set on `nextNotifyAt`. Pages go into the group's `pendingPages` (enqueued after commit, re-driven
 * by the escalation sweeper), the webhook delivery into the outbox (`alert_group.notified`, addressed to the
 * receiver's webhooks), so a restart loses neither.
 */
import type { Runtime } from '../runtime.js';
import type { Alert, AlertGroup, Prisma } from '../generated/prisma/client.js';
import { dispatchPages, type PendingPage } from '../escalation/engine.js';
import { alertWire } from '../alerts/wire.js';
import { dispatchOutbox, writeOutbox } from '../outbox/outbox.js';
import { liveGroupAlertsWhere } from '../alerts/group-alerts.js';

type Tx = Prisma.TransactionClient;

export type GroupNotificationKind = 'first' | 'update' | 'repeat';

/** Groups notified per run at most. */
const BATCH = 100;
/** Alerts a webhook body carries at most (`truncated_alerts` counts the rest, as Alertmanager's max_alerts). */
export const NOTIFIED_ALERTS_MAX = 100;

const SEVERITY_RANK: Record<string, number> = { info: 0, warning: 1, critical: 2 };

/** Which notification is due for the group at `now`, or null with the time the next one could be. */
export function dueNotification(
  g: Pick<AlertGroup, 'notifiedAt' | 'groupIntervalSeconds' | 'repeatIntervalSeconds'>,
  freshCount: number,
  now: Date,
): { kind: GroupNotificationKind } | { kind: null; nextAt: Date } {
  if (!g.notifiedAt) return { kind: 'first' };
  const last = g.notifiedAt.getTime();
  const updateAt = last + (g.groupIntervalSeconds ?? 0) * 1000;
  const repeatAt = last + (g.repeatIntervalSeconds ?? 0) * 1000;
  if (freshCount > 0 && now.getTime() >= updateAt) return { kind: 'update' };
  if (now.getTime() >= repeatAt) return { kind: 'repeat' };
  return { kind: null, nextAt: new Date(freshCount > 0 ? Math.min(updateAt, repeatAt) : repeatAt) };
}

/** The body of an `alert_group.notified` outbox message (docs/routing.md, OpenAPI `AlertGroupNotifiedPayload`). */
function notifiedBody(
  group: AlertGroup,
  kind: GroupNotificationKind,
  seq: number,
  live: Alert[],
  fresh: Alert[],
  webhookIds: string[],
  now: Date,
): Prisma.InputJsonValue {
  const worst = live.reduce((w, a) => (SEVERITY_RANK[a.severity]! > SEVERITY_RANK[w]! ? a.severity : w), 'info');
  return {
    source: 'ops-service',
    kind: 'alert_group.notified',
    severity: worst,
    labels: (group.groupLabels ?? {}) as Prisma.InputJsonValue,
    addressedTo: webhookIds,
    payload: {
      notification: kind,
      sequence: seq,
      group: {
        id: group.id,
        group_key: group.groupKey,
        status: group.status,
        route_id: group.routeId,
        receiver: group.receiver,
        group_labels: (group.groupLabels ?? {}) as Prisma.InputJsonValue,
        created_at: group.createdAt.toISOString(),
        notified_at: now.toISOString(),
      },
      alert_count: live.length,
      truncated_alerts: Math.max(0, live.length - NOTIFIED_ALERTS_MAX),
      new_alert_ids: fresh.map((a) => a.id),
      alerts: live.slice(0, NOTIFIED_ALERTS_MAX).map((a) => alertWire(a)) as unknown as Prisma.InputJsonValue,
    },
  };
}

/**
 * Makes the group's due notification in `tx`, if it is still due (`expected`: the nextNotifyAt the caller read).
 * Returns the group as written and the outbox message to dispatch, or null when nothing was sent.
 */
export async function notifyGroupInTx(
  tx: Tx,
  groupId: string,
  expected: Date,
  now: Date,
): Promise<{ group: AlertGroup; outboxIds: string[] } | null> {
  const [group] = await tx.alertGroup.updateManyAndReturn({
    where: { id: groupId, status: 'firing', nextNotifyAt: expected },
    data: { nextNotifyAt: null },
  });
  if (!group || group.groupIntervalSeconds === null || group.repeatIntervalSeconds === null) return null;
  const live = await tx.alert.findMany({
    where: liveGroupAlertsWhere(groupId, { suppressed: false }),
    orderBy: { createdAt: 'asc' },
  });
  if (!live.length) return null; // it resolves with its alerts; a new alert makes a new first notification due
  const notified = new Set(group.notifiedAlertIds);
  const fresh = live.filter((a) => !notified.has(a.id));
  const due = dueNotification(group, fresh.length, now);
  if (!due.kind) {
    await tx.alertGroup.update({ where: { id: groupId }, data: { nextNotifyAt: due.nextAt } });
    return null;
  }
  const seq = group.notifySeq + 1;
  let pages: PendingPage[] = [];
  if (due.kind !== 'first') {
    // The people already paged for the group (its policy's steps, a reassignment) hear of it again.
    const paged = await tx.notification.findMany({
      where: { groupId, tenantId: group.tenantId },
      distinct: ['userId'],
      select: { userId: true },
    });
    const reason = due.kind === 'update' ? 'group_update' : 'group_repeat';
    pages = paged.map((p) => ({
      userId: p.userId,
      step: Math.max(0, group.step),
      round: group.round,
      reason,
      urgency: group.urgency === 'low' ? 'low' : 'high',
      seq,
      ...(due.kind === 'update' ? { alertIds: fresh.map((a) => a.id) } : {}),
    }));
    if (due.kind === 'update' && pages.length)
      await tx.alertTimelineEntry.createMany({
        data: fresh.flatMap((a) =>
          pages.map((p) => ({
            tenantId: group.tenantId,
            alertId: a.id,
            actorId: p.userId,
            action: 'paged',
            note: `group_interval update of group ${group.id} (notification ${seq})`,
          })),
        ),
      });
  }
  const receiver = group.receiver
    ? await tx.routingReceiver.findFirst({
        where: { tenantId: group.tenantId, name: group.receiver },
        select: { outboundWebhookIds: true },
      })
    : null;
  const webhookIds = receiver?.outboundWebhookIds ?? [];
  const outboxIds = webhookIds.length
    ? [
        await writeOutbox(tx, {
          tenantId: group.tenantId,
          topic: 'alert_group.notified',
          subjectId: group.id,
          body: notifiedBody(group, due.kind, seq, live, due.kind === 'first' ? live : fresh, webhookIds, now),
          createdAt: now,
        }),
      ]
    : [];
  const pending = [...((group.pendingPages ?? []) as unknown as PendingPage[]), ...pages];
  const row = await tx.alertGroup.update({
    where: { id: groupId },
    data: {
      notifiedAt: now,
      notifiedAlertIds: live.map((a) => a.id),
      notifySeq: seq,
      nextNotifyAt: new Date(now.getTime() + group.repeatIntervalSeconds * 1000),
      pendingPages: pending as unknown as Prisma.InputJsonValue,
    },
  });
  return { group: row, outboxIds };
}

/** Makes the group notifications due on the service clock; returns how many it made. */
export async function notifyDueGroups(rt: Runtime): Promise<number> {
  const now = rt.clock.now();
  const due = await rt.prisma.alertGroup.findMany({
    where: { status: 'firing', nextNotifyAt: { lte: now } },
    orderBy: { nextNotifyAt: 'asc' },
    take: BATCH,
    select: { id: true, nextNotifyAt: true },
  });
  let made = 0;
  for (const g of due) {
    const done = await rt.prisma.$transaction((tx) => notifyGroupInTx(tx, g.id, g.nextNotifyAt!, now));
    if (!done) continue;
    made++;
    await dispatchPages(rt, done.group);
    await dispatchOutbox(rt, done.outboxIds);
  }
  if (made) rt.logger.debug({ groups: made }, 'group notifications');
  return made;
}
