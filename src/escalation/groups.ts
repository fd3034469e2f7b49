/**
 * What people do to an alert group: acknowledge, snooze, resolve, escalate now, reassign. Each acts as the
 * caller (`ctx`: their tenant, their permissions as for alerts: src/alerts/policy.ts), changes the group and its
 * live alerts in one transaction (each alert through the alert state machine: timeline, outbox, `alertChanged`),
 * and announces the group on `alertGroupChanged` after commit.
 */
import type { Ctx } from '../context.js';
import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import type { AlertGroup, AlertGroupStatus, Prisma } from '../generated/prisma/client.js';
import { alertActor } from '../alerts/policy.js';
import { announceAlertChanges, transitionAlert, type AlertChange, type TransitionInput } from '../alerts/lifecycle.js';
import { announceGroupChanges } from '../alerts/groups.js';
import type { AlertAction } from '../alerts/state.js';
import { afterStep, runStepInTx, type PendingPage } from './engine.js';
import { liveGroupAlertsWhere } from '../alerts/group-alerts.js';

type Tx = Prisma.TransactionClient;

/** Loads a group of the caller's tenant or throws NotFound. */
export async function loadGroup(ctx: Ctx, id: string): Promise<AlertGroup> {
  const g = await ctx.db.alertGroup.findUnique({ where: { id } });
  if (!g) throw new NotFound('AlertGroup');
  return g;
}

function refuse(action: string, status: AlertGroupStatus): never {
  throw new Conflict(`Cannot ${action} an alert group that is ${status}.`, 'CONFLICT');
}

/**
 * Moves the group from one of `from` to `data` (compare-and-set on its status), then applies `action` to each of
 * its live alerts that allows it; commits, announces the alerts and the group. Returns the group as it ends.
 */
async function actOnGroup(
  ctx: Ctx,
  groupId: string,
  verb: string,
  from: AlertGroupStatus[],
  data: (g: AlertGroup, now: Date) => Prisma.AlertGroupUncheckedUpdateManyInput,
  alertAction: AlertAction,
  alertInput: (now: Date) => Omit<TransitionInput, 'action' | 'now'>,
): Promise<AlertGroup> {
  const current = await loadGroup(ctx, groupId);
  if (!from.includes(current.status)) refuse(verb, current.status);
  const changes: AlertChange[] = [];
  const outboxIds: Array<string | null> = [];
  const now = ctx.rt.clock.now();
  const group = await ctx.db.$transaction(async (tx) => {
    const [row] = await tx.alertGroup.updateManyAndReturn({
      where: { id: groupId, status: { in: from } },
      data: data(current, now),
    });
    if (!row) refuse(verb, (await tx.alertGroup.findUniqueOrThrow({ where: { id: groupId } })).status);
    const alerts = await tx.alert.findMany({
      where: liveGroupAlertsWhere(groupId),
      orderBy: { createdAt: 'asc' },
    });
    for (const alert of alerts) {
      if (alertAction === 'acknowledge' && alert.status === 'acknowledged') continue;
      const r = await transitionAlert(tx, alert, { action: alertAction, now, ...alertInput(now) });
      changes.push(r.change);
      outboxIds.push(r.outboxId);
    }
    return finalGroup(tx, row, now);
  });
  await announceAlertChanges(ctx.rt, changes, outboxIds);
  await announceGroupChanges(ctx.rt, [group]);
  return group;
}

/** The group after its alerts moved: resolved when none is left live (a group with no alert at all ends too). */
async function finalGroup(tx: Tx, row: AlertGroup, now: Date): Promise<AlertGroup> {
  const fresh = await tx.alertGroup.findUniqueOrThrow({ where: { id: row.id } });
  if (fresh.status === 'resolved') return fresh;
  const live = await tx.alert.count({ where: liveGroupAlertsWhere(row.id) });
  if (live > 0) return fresh;
  return tx.alertGroup.update({
    where: { id: row.id },
    data: { status: 'resolved', resolvedAt: now, liveGroupKey: null, nextStepAt: null, snoozedUntil: null },
  });
}

/** Acknowledges a firing or snoozed group: escalation stops; its open and snoozed alerts are acknowledged (assigned to the caller). */
export async function acknowledgeGroup(ctx: Ctx, groupId: string): Promise<AlertGroup> {
  const me = alertActor(ctx.principal);
  return actOnGroup(
    ctx,
    groupId,
    'acknowledge',
    ['firing', 'snoozed'],
    (_g, now) => ({
      status: 'acknowledged',
      acknowledgedAt: now,
      acknowledgedById: me.userId,
      nextStepAt: null,
      snoozedUntil: null,
    }),
    'acknowledge',
    (now) => ({ actorId: me.userId, data: { assigneeId: me.userId, acknowledgedAt: now } }),
  );
}

/**
 * Snoozes a group until `until`: escalation pauses and its live alerts are snoozed; when the snooze ends they
 * reopen and escalation starts again from the first step (src/alerts/groups.ts). 422 when `until` is not in the future.
 */
export async function snoozeGroup(ctx: Ctx, groupId: string, until: Date): Promise<AlertGroup> {
  const me = alertActor(ctx.principal);
  if (Number.isNaN(until.getTime()) || until.getTime() <= ctx.rt.clock.now().getTime())
    throw new ValidationFailed([{ loc: ['until'], msg: 'must be a time in the future' }]);
  return actOnGroup(
    ctx,
    groupId,
    'snooze',
    ['firing', 'acknowledged', 'snoozed'],
    () => ({ status: 'snoozed', snoozedUntil: until, nextStepAt: null }),
    'snooze',
    () => ({
      actorId: me.userId,
      note: `Snoozed with its group until ${until.toISOString()}.`,
      data: { snoozedUntil: until },
    }),
  );
}

/** Resolves a group that is not resolved yet, and its live alerts; escalation ends. */
export async function resolveGroup(ctx: Ctx, groupId: string): Promise<AlertGroup> {
  const me = alertActor(ctx.principal);
  return actOnGroup(
    ctx,
    groupId,
    'resolve',
    ['firing', 'acknowledged', 'snoozed'],
    () => ({ nextStepAt: null }),
    'resolve',
    () => ({ actorId: me.userId }),
  );
}

/**
 * Escalate now: runs the group's next step at once (reason `escalate_now`), in a new epoch so the timer that was
 * waiting for it is stale; the step after it is timed from now. 409 unless firing, or when no step is left.
 */
export async function escalateGroup(ctx: Ctx, groupId: string): Promise<AlertGroup> {
  alertActor(ctx.principal);
  const g = await loadGroup(ctx, groupId);
  if (g.status !== 'firing') refuse('escalate', g.status);
  if (!g.policyId) throw new Conflict('This alert group has no escalation policy to escalate through.', 'CONFLICT');
  const steps = await ctx.db.escalationStep.count({ where: { policyId: g.policyId } });
  const policy = await ctx.db.escalationPolicy.findUniqueOrThrow({ where: { id: g.policyId } });
  let step = g.step + 1;
  let round = g.round;
  if (step >= steps) {
    step = 0;
    round++;
  }
  if (steps === 0 || round - g.firstRound > policy.repeat)
    throw new Conflict('Every step of the policy has run; reassign the group to page someone else.', 'CONFLICT');
  const now = ctx.rt.clock.now();
  const row = await ctx.db.$transaction(async (tx) => {
    const bumped = await tx.alertGroup.updateMany({
      where: { id: g.id, status: 'firing', escalationEpoch: g.escalationEpoch, step: g.step, round: g.round },
      data: { escalationEpoch: g.escalationEpoch + 1 },
    });
    if (bumped.count === 0) throw new Conflict('The alert group changed meanwhile; try again.', 'CONFLICT');
    return runStepInTx(tx, g.id, { step, round, epoch: g.escalationEpoch + 1, reason: 'escalate_now', now });
  });
  if (!row) throw new Conflict('The alert group changed meanwhile; try again.', 'CONFLICT');
  await afterStep(ctx.rt, row);
  return row;
}

/**
 * Reassigns a live group to a person of the tenant: its live alerts are assigned to them and they are paged now
 * (reason `reassign`, at the group's current step and round); escalation goes on as it was. 422 for an unknown user.
 */
export async function reassignGroup(ctx: Ctx, groupId: string, userId: string): Promise<AlertGroup> {
  const me = alertActor(ctx.principal);
  const g = await loadGroup(ctx, groupId);
  if (g.status === 'resolved') refuse('reassign', g.status);
  const user = await ctx.db.user.findUnique({ where: { id: userId }, select: { id: true, email: true } });
  if (!user) throw new ValidationFailed([{ loc: ['userId'], msg: 'must be a user of this tenant' }]);
  const page: PendingPage = {
    userId,
    step: Math.max(0, g.step),
    round: g.round,
    reason: 'reassign',
    urgency: g.urgency === 'low' ? 'low' : 'high',
  };
  const row = await ctx.db.$transaction(async (tx) => {
    const fresh = await tx.alertGroup.findUniqueOrThrow({ where: { id: g.id } });
    const pending = [...((fresh.pendingPages ?? []) as unknown as PendingPage[]), page];
    const [updated] = await tx.alertGroup.updateManyAndReturn({
      where: { id: g.id, status: { not: 'resolved' }, updatedAt: fresh.updatedAt },
      data: { pendingPages: pending as unknown as Prisma.InputJsonValue },
    });
    if (!updated) throw new Conflict('The alert group changed meanwhile; try again.', 'CONFLICT');
    const alerts = await tx.alert.findMany({
      where: liveGroupAlertsWhere(g.id),
      select: { id: true },
    });
    await tx.alert.updateMany({ where: { id: { in: alerts.map((a) => a.id) } }, data: { assigneeId: userId } });
    await tx.alertTimelineEntry.createMany({
      data: alerts.map((a) => ({
        tenantId: g.tenantId,
        alertId: a.id,
        actorId: userId,
        action: 'paged',
        note: `reassigned to ${user.email} by ${me.userId}`,
      })),
    });
    return updated;
  });
  await afterStep(ctx.rt, row);
  return row;
}
