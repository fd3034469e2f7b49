/**
 * An alert group's status follows its alerts (DESIGN.md "From an alert to a person"): written here, in the
 * transaction of each alert transition (src/alerts/lifecycle.ts), so the alert lifecycle needs nothing from the
 * escalation area above it. After commit, `announceGroupChanges` publishes `alertGroupChanged` and puts the
 * group's next escalation step on the `escalation` queue (the sweeper of src/escalation re-drives a lost add).
 */
import type { Runtime } from '../runtime.js';
import type { Alert, AlertGroup, Prisma } from '../generated/prisma/client.js';
import { escalationJobId, type JobPayloads } from '../queues.js';
import type { AlertAction } from './state.js';
import { groupIdsOfAlert, liveGroupAlertsWhere } from './group-alerts.js';

type Tx = Prisma.TransactionClient;

/** When the first step of `policyId` is due if escalation (re)starts at `now`; null without a policy or steps. */
export async function firstStepDueAt(tx: Tx, policyId: string | null, now: Date): Promise<Date | null> {
  if (!policyId) return null;
  const first = await tx.escalationStep.findFirst({ where: { policyId }, orderBy: { position: 'asc' } });
  return first ? new Date(now.getTime() + first.delayMinutes * 60_000) : null;
}

/**
 * Brings each of `alert`'s groups (its primary one and those it is a member of: src/alerts/group-alerts.ts) in
 * line after `action` moved the alert (in the same transaction). Returns the groups that changed.
 */
export async function followAlertInGroups(
  tx: Tx,
  alert: Alert,
  action: AlertAction,
  actorId: string | null,
  now: Date,
): Promise<AlertGroup[]> {
  const changed: AlertGroup[] = [];
  for (const groupId of await groupIdsOfAlert(tx, alert)) {
    const row = await followAlertInGroup(tx, groupId, action, actorId, now);
    if (row) changed.push(row);
  }
  return changed;
}

/**
 * Brings group `groupId` in line after `action` moved one of its alerts: the last live alert
 * resolving resolves the group; every live alert acknowledged acknowledges it; every live alert snoozed snoozes
 * it (until the first of them wakes); an alert waking from a snooze fires a snoozed group again and restarts its
 * escalation from the first step. Returns the group when it changed.
 */
async function followAlertInGroup(
  tx: Tx,
  groupId: string,
  action: AlertAction,
  actorId: string | null,
  now: Date,
): Promise<AlertGroup | null> {
  const group = await tx.alertGroup.findUnique({ where: { id: groupId } });
  if (!group || group.status === 'resolved') return null;
  const live = await tx.alert.findMany({
    where: liveGroupAlertsWhere(group.id),
    select: { status: true, snoozedUntil: true },
  });
  let data: Prisma.AlertGroupUncheckedUpdateManyInput | null = null;
  if (live.length === 0) {
    data = { status: 'resolved', resolvedAt: now, liveGroupKey: null, nextStepAt: null, snoozedUntil: null };
  } else if (action === 'acknowledge' && group.status !== 'acknowledged') {
    if (live.every((a) => a.status === 'acknowledged'))
      data = {
        status: 'acknowledged',
        acknowledgedAt: now,
        acknowledgedById: actorId,
        nextStepAt: null,
        snoozedUntil: null,
      };
  } else if (action === 'snooze' && group.status !== 'snoozed') {
    if (live.every((a) => a.status === 'snoozed')) {
      const until = Math.min(...live.map((a) => a.snoozedUntil?.getTime() ?? now.getTime()));
      data = { status: 'snoozed', snoozedUntil: new Date(until), nextStepAt: null };
    }
  } else if (action === 'reopen' && group.status === 'snoozed') {
    data = restartData(group, await firstStepDueAt(tx, group.policyId, now));
  }
  if (!data) return null;
  const [row] = await tx.alertGroup.updateManyAndReturn({ where: { id: group.id, status: group.status }, data });
  return row ?? null;
}

/** The columns that (re)start a group's escalation from the first step (a new epoch makes older timers stale). */
export function restartData(
  group: Pick<AlertGroup, 'escalationEpoch' | 'round'>,
  dueAt: Date | null,
): Prisma.AlertGroupUncheckedUpdateManyInput {
  // Rounds go on counting (a page of the new run gets its own page job id); `repeat` counts from firstRound.
  return {
    status: 'firing',
    snoozedUntil: null,
    step: -1,
    round: group.round + 1,
    firstRound: group.round + 1,
    nextStepAt: dueAt,
    escalationEpoch: group.escalationEpoch + 1,
  };
}

/** The escalation timer of a group's next step, when one is pending (firing, a due time). */
export function nextTimerOf(
  group: AlertGroup,
  stepCount: number | null = null,
): { data: JobPayloads['escalation']; dueAt: Date } | null {
  if (group.status !== 'firing' || !group.nextStepAt || !group.policyId) return null;
  let step = group.step + 1;
  let round = group.round;
  if (stepCount !== null && step >= stepCount) {
    step = 0;
    round++;
  }
  return {
    data: { tenantId: group.tenantId, groupId: group.id, step, round, epoch: group.escalationEpoch },
    dueAt: group.nextStepAt,
  };
}

/**
 * After commit: publishes each group's change on `alertGroupChanged` and enqueues its next step's timer, delayed
 * to its due time on the service clock (a duplicate add of the same id is ignored by BullMQ).
 */
export async function announceGroupChanges(rt: Runtime, groups: AlertGroup[]): Promise<void> {
  const latest = new Map(groups.map((g) => [g.id, g]));
  for (const g of latest.values()) {
    try {
      rt.pubsub.publish('alertGroupChanged', g.tenantId, groupWire(g));
    } catch (err) {
      rt.logger.warn({ err, groupId: g.id }, 'alertGroupChanged publish failed');
    }
    const counts = g.policyId ? await rt.prisma.escalationStep.count({ where: { policyId: g.policyId } }) : 0;
    const timer = nextTimerOf(g, counts);
    if (!timer) continue;
    const delay = Math.max(0, timer.dueAt.getTime() - rt.clock.now().getTime());
    await rt.queues
      .add('escalation', timer.data, { jobId: escalationJobId(timer.data), delay })
      .catch((err: Error) =>
        rt.logger.warn({ err: err.message, groupId: g.id }, 'escalation enqueue failed; the sweeper will'),
      );
  }
}

/** The wire shape of a group in `alertGroupChanged` messages. */
export function groupWire(g: AlertGroup): Record<string, unknown> {
  return {
    id: g.id,
    status: g.status,
    policyId: g.policyId,
    step: g.step,
    round: g.round,
    nextStepAt: g.nextStepAt?.toISOString() ?? null,
    snoozedUntil: g.snoozedUntil?.toISOString() ?? null,
    acknowledgedAt: g.acknowledgedAt?.toISOString() ?? null,
    resolvedAt: g.resolvedAt?.toISOString() ?? null,
    updatedAt: g.updatedAt.toISOString(),
  };
}
