/**
 * Which policy pages an alert, and the group it pages in. A tenant without a routing tree (src/routing) has
 * the implicit default route: each alert opens its own group (groupKey `alert:<id>`) under the policy of
 * `choosePolicy`: its rule's, else its integration's, else the tenant default. With a tree, route-group.ts
 * forms groups by route and group_by values and calls `openOrJoinGroup` here.
 */
import type { Alert, AlertGroup, Prisma } from '../generated/prisma/client.js';
import { v7 as uuidv7 } from 'uuid';
import { firstStepDueAt, restartData } from '../alerts/groups.js';
import { sqlTimestamp } from '../db/timestamps.js';

type Tx = Prisma.TransactionClient;

/** The escalation policy for an alert: its rule's, else its integration's (label integration_id), else the tenant default. */
export async function choosePolicy(tx: Tx, alert: Alert): Promise<string | null> {
  if (alert.ruleId) {
    const rule = await tx.alertRule.findUnique({ where: { id: alert.ruleId }, select: { escalationPolicyId: true } });
    if (rule?.escalationPolicyId) return rule.escalationPolicyId;
  }
  const integrationId = (alert.labels as Record<string, unknown> | null)?.integration_id;
  if (typeof integrationId === 'string') {
    const integ = await tx.integration.findFirst({
      where: { id: integrationId, tenantId: alert.tenantId },
      select: { escalationPolicyId: true },
    });
    if (integ?.escalationPolicyId) return integ.escalationPolicyId;
  }
  const tenant = await tx.tenant.findUnique({
    where: { id: alert.tenantId },
    select: { defaultEscalationPolicyId: true },
  });
  return tenant?.defaultEscalationPolicyId ?? null;
}

export interface GroupChoice {
  /** What alerts share while the group is live (`alert:<id>` until routing; a route id + group_by values after). */
  groupKey: string;
  policyId: string | null;
  /** The service clock's now (when the first step is due from). */
  now?: Date;
  /** The route's group_wait: a group it opens pages first after this wait (alerts joining meanwhile page with it). */
  waitSeconds?: number;
  /** The route that forms the group, its receiver's name and the group_by values (null: the default route). */
  routeId?: string | null;
  receiver?: string | null;
  groupLabels?: Record<string, string> | null;
  /**
   * The route's group_interval and repeat_interval when the group notifies by them (src/routing/group-notify.ts):
   * its first notification is due after the wait, and an alert joining after that is announced by group_interval.
   */
  intervals?: { groupSeconds: number; repeatSeconds: number } | null;
  /** A further route's group (`continue`): the alert joins it as a member (AlertGroupMember), not as its primary. */
  member?: boolean;
}

/**
 * Puts `alert` in the live group of `groupKey`, opening it (firing, first step due after its delay) when there is
 * none. Joining a live group changes nothing else: escalation goes on where it is, and an acknowledged group
 * stays acknowledged (a new alert in it does not page). Atomic against concurrent openers (the unique live key).
 * Returns the group and whether this call opened it (the caller announces an opened group after commit).
 */
export async function openOrJoinGroup(
  tx: Tx,
  alert: Alert,
  choice: GroupChoice,
): Promise<{ group: AlertGroup; opened: boolean }> {
  const now = choice.now ?? alert.firstSeenAt;
  let urgency = alert.severity === 'critical' ? 'high' : 'low';
  let dueAt: Date | null = null;
  let policyId: string | null = null;
  if (choice.policyId) {
    const policy = await tx.escalationPolicy.findFirst({
      where: { id: choice.policyId, tenantId: alert.tenantId },
      select: { highUrgencySeverities: true },
    });
    if (policy) {
      policyId = choice.policyId;
      urgency = policy.highUrgencySeverities.includes(alert.severity) ? 'high' : 'low';
      dueAt = await firstStepDueAt(tx, choice.policyId, new Date(now.getTime() + (choice.waitSeconds ?? 0) * 1000));
    }
  }
  const id = uuidv7();
  const group = await tx.alertGroup.upsert({
    where: { tenantId_liveGroupKey: { tenantId: alert.tenantId, liveGroupKey: choice.groupKey } },
    create: {
      id,
      tenantId: alert.tenantId,
      groupKey: choice.groupKey,
      liveGroupKey: choice.groupKey,
      policyId,
      urgency,
      nextStepAt: dueAt,
      createdAt: now,
      routeId: choice.routeId ?? null,
      receiver: choice.receiver ?? null,
      ...(choice.groupLabels ? { groupLabels: choice.groupLabels } : {}),
      ...(choice.intervals
        ? {
            groupIntervalSeconds: choice.intervals.groupSeconds,
            repeatIntervalSeconds: choice.intervals.repeatSeconds,
            nextNotifyAt: new Date(now.getTime() + (choice.waitSeconds ?? 0) * 1000),
          }
        : {}),
    },
    update: {},
  });
  const joined = choice.member
    ? (
        await tx.alertGroupMember.createMany({
          data: [{ alertId: alert.id, groupId: group.id, tenantId: alert.tenantId, createdAt: now }],
          skipDuplicates: true,
        })
      ).count > 0
    : alert.groupId !== group.id;
  if (joined && !choice.member) await tx.alert.update({ where: { id: alert.id }, data: { groupId: group.id } });
  if (joined && group.id !== id && group.groupIntervalSeconds !== null) await announceJoin(tx, group.id, now);
  return { group, opened: group.id === id };
}

/**
 * An alert joined a group that notifies by group_interval: once the group has made its first notification, the
 * next one is due no sooner than group_interval after the last (earlier than a pending repeat). One statement on
 * the locked row, so it sees a notification the sweeper committed meanwhile.
 */
async function announceJoin(tx: Tx, groupId: string, now: Date): Promise<void> {
  await tx.$executeRaw`
    UPDATE "AlertGroup"
       SET "nextNotifyAt" = LEAST(
             COALESCE("nextNotifyAt", 'infinity'::timestamp),
             GREATEST("notifiedAt" + make_interval(secs => "groupIntervalSeconds"), ${sqlTimestamp(now)}::timestamp))
     WHERE id = ${groupId} AND "notifiedAt" IS NOT NULL AND "groupIntervalSeconds" IS NOT NULL
       AND status = 'firing'`;
}

/** The default until routing: the alert alone in its group, paged by `choosePolicy` (a suppressed alert pages no one). */
export async function openOwnGroup(tx: Tx, alert: Alert, now: Date): Promise<AlertGroup> {
  const policyId = alert.suppressed ? null : await choosePolicy(tx, alert);
  return (await openOrJoinGroup(tx, alert, { groupKey: `alert:${alert.id}`, policyId, now })).group;
}

/**
 * An alert that stopped being muted (its silence ended, its inhibiting alert resolved) pages as new: its live,
 * firing group that pages no one (it opened muted) takes `choosePolicy`'s policy and escalates from the first
 * step. Returns the group when it changed (announce it after commit); null when the group already pages,
 * was acknowledged, or is gone.
 */
export async function pageReleasedAlert(tx: Tx, alert: Alert, now: Date): Promise<AlertGroup | null> {
  if (!alert.groupId) return null;
  const group = await tx.alertGroup.findUnique({ where: { id: alert.groupId } });
  if (!group || group.status !== 'firing' || group.policyId || !group.liveGroupKey) return null;
  // A routed group pages its receiver's policy when it has one (else as the default route does).
  const receiver = group.receiver
    ? await tx.routingReceiver.findFirst({
        where: { tenantId: alert.tenantId, name: group.receiver },
        select: { escalationPolicyId: true },
      })
    : null;
  const policyId = receiver?.escalationPolicyId ?? (await choosePolicy(tx, alert));
  if (!policyId) return null;
  const policy = await tx.escalationPolicy.findFirst({
    where: { id: policyId, tenantId: alert.tenantId },
    select: { highUrgencySeverities: true },
  });
  if (!policy) return null;
  const [row] = await tx.alertGroup.updateManyAndReturn({
    where: { id: group.id, status: 'firing', policyId: null },
    data: {
      ...restartData(group, await firstStepDueAt(tx, policyId, now)),
      policyId,
      urgency: policy.highUrgencySeverities.includes(alert.severity) ? 'high' : 'low',
      // A group that notifies by its route's intervals takes them up again (group-notify.ts decides which is due).
      ...(group.repeatIntervalSeconds !== null ? { nextNotifyAt: now } : {}),
    },
  });
  return row ?? null;
}
