/**
 * Running one step of a group's escalation, exactly once. A step runs in one transaction that advances
 * AlertGroup.step/round with a compare-and-set on the step that ran before (and the epoch), so two workers, a
 * redelivered job or a sweep beside a job never run it twice; the same transaction writes the `paged` timeline
 * entries and the pages to send (AlertGroup.pendingPages: an outbox in the row). After commit the pages go on the
 * `page` queue (one job per person: pageJobId) and the next step's timer on the `escalation` queue; the sweeper
 * (sweep.ts) re-drives both when a process dies in between.
 */
import type { Runtime } from '../runtime.js';
import type { AlertGroup, EscalationPolicy, EscalationStep, Prisma } from '../generated/prisma/client.js';
import { pageJobId, type PageJob } from '../queues.js';
import { announceGroupChanges } from '../alerts/groups.js';
import { loadSchedulesRows, scheduleSpecOf } from '../schedules/oncall.js';
import { onCallAt } from '../schedules/shifts.js';
import { liveGroupAlertsWhere } from '../alerts/group-alerts.js';

type Tx = Prisma.TransactionClient;

/** A step's target: a person, or whoever is on call for a schedule when the step runs. */
export type StepTarget = { type: 'user'; id: string } | { type: 'schedule'; id: string };

/** A page written by a step, waiting for its `page` job. */
export type PendingPage = Pick<PageJob, 'userId' | 'step' | 'round' | 'reason' | 'urgency' | 'seq' | 'alertIds'>;

/** How long a repeat waits before the first step again: the policy's longest step delay, at least a minute. */
export function repeatDelayMinutes(steps: Pick<EscalationStep, 'delayMinutes'>[]): number {
  return Math.max(1, ...steps.map((s) => s.delayMinutes));
}

/** The step and round that ran before (step, round): the compare-and-set's expected values. */
function previousOf(
  step: number,
  round: number,
  firstRound: number,
  stepCount: number,
): { step: number; round: number } {
  if (step > 0) return { step: step - 1, round };
  if (round === firstRound) return { step: -1, round };
  return { step: stepCount - 1, round: round - 1 };
}

/** When the step after (step, round) is due if this one runs at `now`; null when the policy is exhausted. */
function nextDueAt(
  policy: EscalationPolicy,
  steps: EscalationStep[],
  step: number,
  round: number,
  now: Date,
): Date | null {
  if (step + 1 < steps.length) return new Date(now.getTime() + steps[step + 1]!.delayMinutes * 60_000);
  if (round < policy.repeat) return new Date(now.getTime() + repeatDelayMinutes(steps) * 60_000);
  return null;
}

/**
 * The people a step's targets page at `now`, each once, in target order: the users in one query, the schedules with
 * their layers and overrides in another (a user of another tenant or a schedule gone pages nobody).
 */
export async function resolveTargets(tx: Tx, tenantId: string, targets: StepTarget[], now: Date): Promise<string[]> {
  const userIds = targets.filter((t) => t.type === 'user').map((t) => t.id);
  const scheduleIds = targets.filter((t) => t.type === 'schedule').map((t) => t.id);
  const [users, schedules] = await Promise.all([
    userIds.length
      ? tx.user.findMany({ where: { id: { in: userIds }, tenantId }, select: { id: true } })
      : Promise.resolve([]),
    loadSchedulesRows(tx, tenantId, scheduleIds),
  ]);
  const known = new Set(users.map((u) => u.id));
  const out: string[] = [];
  for (const t of targets) {
    if (t.type === 'user') {
      if (known.has(t.id)) out.push(t.id);
    } else {
      const rows = schedules.get(t.id);
      const shift = rows ? onCallAt(scheduleSpecOf(rows), now) : null;
      if (shift) out.push(shift.userId);
    }
  }
  return [...new Set(out)];
}

export interface RunStepInput {
  step: number;
  round: number;
  epoch: number;
  reason: PageJob['reason'];
  now: Date;
}

/**
 * Runs step `step` of round `round` of a firing group in `tx`: compare-and-set from the step before, the `paged`
 * timeline entries on each live alert, the pending pages. Returns the updated group, or null when the step is no
 * longer this group's next (already ran, a newer epoch, not firing) and nothing was written.
 */
export async function runStepInTx(tx: Tx, groupId: string, input: RunStepInput): Promise<AlertGroup | null> {
  const group = await tx.alertGroup.findUnique({ where: { id: groupId } });
  if (!group?.policyId || group.status !== 'firing' || group.escalationEpoch !== input.epoch) return null;
  const policy = await tx.escalationPolicy.findUnique({
    where: { id: group.policyId },
    include: { steps: { orderBy: { position: 'asc' } } },
  });
  const rounds = input.round - group.firstRound; // rounds run before this one in this epoch
  if (!policy || input.step >= policy.steps.length || rounds < 0 || rounds > policy.repeat) return null;
  const prev = previousOf(input.step, input.round, group.firstRound, policy.steps.length);
  const users = await resolveTargets(tx, group.tenantId, policy.steps[input.step]!.targets as StepTarget[], input.now);
  const reason = input.reason === 'escalation' && rounds > 0 ? 'repeat' : input.reason;
  const urgency: PendingPage['urgency'] = group.urgency === 'low' ? 'low' : 'high';
  const pages: PendingPage[] = users.map((userId) => ({
    userId,
    step: input.step,
    round: input.round,
    reason,
    urgency,
  }));
  const pending = [...((group.pendingPages ?? []) as unknown as PendingPage[]), ...pages];
  const [row] = await tx.alertGroup.updateManyAndReturn({
    where: { id: group.id, status: 'firing', escalationEpoch: input.epoch, step: prev.step, round: prev.round },
    data: {
      step: input.step,
      round: input.round,
      nextStepAt: nextDueAt(policy, policy.steps, input.step, rounds, input.now),
      pendingPages: pending as unknown as Prisma.InputJsonValue,
    },
  });
  if (!row) return null;
  const alerts = await tx.alert.findMany({
    where: liveGroupAlertsWhere(group.id),
    select: { id: true },
  });
  const label = `step ${input.step + 1}, round ${rounds + 1}, policy ${policy.name}`;
  const entries = alerts.flatMap((a): Prisma.AlertTimelineEntryCreateManyInput[] =>
    users.length
      ? users.map((userId) => ({
          tenantId: group.tenantId,
          alertId: a.id,
          actorId: userId,
          action: 'paged',
          note: input.reason === 'escalation' ? label : `${label} (${input.reason.replace('_', ' ')})`,
        }))
      : [
          {
            tenantId: group.tenantId,
            alertId: a.id,
            actorId: null,
            action: 'escalated',
            note: `${label}: nobody to page`,
          },
        ],
  );
  if (entries.length) await tx.alertTimelineEntry.createMany({ data: entries });
  return row;
}

/** Enqueues the group's pending pages in one bulk add (one `page` job per person: a duplicate id is ignored) and clears them. */
export async function dispatchPages(
  rt: Runtime,
  group: Pick<AlertGroup, 'id' | 'tenantId' | 'pendingPages'>,
): Promise<number> {
  const pending = (group.pendingPages ?? []) as unknown as PendingPage[];
  if (pending.length === 0) return 0;
  await rt.queues.addBulk(
    'page',
    pending.map((p) => {
      const job: PageJob = { tenantId: group.tenantId, groupId: group.id, ...p };
      return { data: job, opts: { jobId: pageJobId(job) } };
    }),
  );
  // Only what was sent is cleared: a step that appended meanwhile keeps its own for its dispatch (or the sweeper).
  await rt.prisma.alertGroup.updateMany({
    where: { id: group.id, pendingPages: { equals: group.pendingPages as Prisma.InputJsonValue } },
    data: { pendingPages: [] },
  });
  return pending.length;
}

/** After a step committed: its pages, the group's change and its next timer. */
export async function afterStep(rt: Runtime, group: AlertGroup): Promise<void> {
  await dispatchPages(rt, group);
  await announceGroupChanges(rt, [group]);
}

/**
 * Runs the step a timer stands for, once. Returns what happened: 'ran', 'stale' (the step ran already, a newer
 * epoch, or the group stopped firing) or 'not-due' (the service clock has not reached it yet: the sweeper runs
 * it when it is due).
 */
export async function runEscalationTimer(
  rt: Runtime,
  t: { groupId: string; step: number; round: number; epoch: number },
): Promise<'ran' | 'stale' | 'not-due'> {
  const now = rt.clock.now();
  const g = await rt.prisma.alertGroup.findUnique({ where: { id: t.groupId } });
  if (!g || g.status !== 'firing' || g.escalationEpoch !== t.epoch) return 'stale';
  if (g.nextStepAt && g.nextStepAt.getTime() > now.getTime()) return 'not-due';
  const row = await rt.prisma.$transaction((tx) =>
    runStepInTx(tx, t.groupId, { step: t.step, round: t.round, epoch: t.epoch, reason: 'escalation', now }),
  );
  if (!row) return 'stale';
  await afterStep(rt, row);
  return 'ran';
}
