/**
 * Planning a page: when the escalation engine pages a person (a `page` job, src/queues.ts), their
 * notification rules for the page's urgency become one Notification row each, keyed by (group, round,
 * step, person, reason, rule): `dedupKey` is unique, so a page planned twice (a retried job, N workers,
 * a restart) makes its rows once. Each row is due after its rule's delay on the service clock and gets a
 * delayed `notify` job; the sweeper (`redriveDueNotifications`) re-drives due rows whose job was lost or
 * whose delay the clock has passed. A person without rules gets the inbox and, with SMTP configured, an
 * email at once; the inbox is always on, so every page shows in the console.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Runtime } from '../runtime.js';
import type { ContactMethodKind, Notification } from '../generated/prisma/client.js';
import { notifyJobId, type PageJob } from '../queues.js';
import { announceNotification } from './record.js';

interface PlannedSend {
  key: string;
  kind: ContactMethodKind;
  contactMethodId: string | null;
  delayMinutes: number;
}

/** Which sends a page makes for this person and urgency. */
async function plannedSends(rt: Runtime, job: PageJob): Promise<PlannedSend[]> {
  const rules = await rt.prisma.notificationRule.findMany({
    where: { tenantId: job.tenantId, userId: job.userId, urgency: job.urgency, contactMethod: { enabled: true } },
    include: { contactMethod: { select: { kind: true } } },
    orderBy: [{ delayMinutes: 'asc' }, { createdAt: 'asc' }],
  });
  const sends: PlannedSend[] = rules.map((r) => ({
    key: r.id,
    kind: r.contactMethod.kind,
    contactMethodId: r.contactMethodId,
    delayMinutes: r.delayMinutes,
  }));
  if (!sends.some((s) => s.kind === 'inbox' && s.delayMinutes === 0))
    sends.unshift({ key: 'inbox', kind: 'inbox', contactMethodId: null, delayMinutes: 0 });
  if (rules.length === 0 && rt.mailer)
    sends.push({ key: 'email', kind: 'email', contactMethodId: null, delayMinutes: 0 });
  return sends;
}

/** Adds (idempotently) the send job of a pending row, delayed until it is due. */
export async function enqueueSend(rt: Runtime, n: Pick<Notification, 'id' | 'dueAt'>): Promise<void> {
  await rt.queues.add(
    'notify',
    { notificationId: n.id },
    {
      jobId: notifyJobId(n.id),
      delay: Math.max(0, n.dueAt.getTime() - rt.clock.now().getTime()),
      attempts: rt.config.notify.attempts,
      backoff: { type: 'exponential', delay: rt.config.notify.retryDelayMs },
    },
  );
}

/**
 * Plans one page (idempotent): the person's notification rows for this step and round of the group, each
 * with its send job. Nothing is planned for a group that is no longer firing or a person who is gone.
 */
export async function planPage(rt: Runtime, job: PageJob): Promise<{ planned: number }> {
  const group = await rt.prisma.alertGroup.findFirst({
    where: { id: job.groupId, tenantId: job.tenantId },
    select: { id: true, status: true },
  });
  if (group?.status !== 'firing') return { planned: 0 };
  const user = await rt.prisma.user.findFirst({
    where: { id: job.userId, tenantId: job.tenantId },
    select: { id: true },
  });
  if (!user) return { planned: 0 };
  const alert = await rt.prisma.alert.findFirst({
    where: { groupId: job.groupId, tenantId: job.tenantId },
    orderBy: { createdAt: 'asc' },
    select: { id: true },
  });
  const now = rt.clock.now();
  const sends = await plannedSends(rt, job);
  const prefix = `${job.groupId}:${job.round}:${job.step}:${job.userId}:${job.reason}`;
  const data = sends.map((s) => ({
    id: uuidv7(),
    tenantId: job.tenantId,
    groupId: job.groupId,
    alertId: alert?.id ?? null,
    userId: job.userId,
    contactMethodId: s.contactMethodId,
    kind: s.kind,
    step: job.step,
    round: job.round,
    reason: job.reason,
    dedupKey: `${prefix}:${s.key}`,
    dueAt: new Date(now.getTime() + s.delayMinutes * 60_000),
    createdAt: now,
  }));
  const created = await rt.prisma.notification.createMany({ data, skipDuplicates: true });
  const rows = await rt.prisma.notification.findMany({ where: { dedupKey: { in: data.map((d) => d.dedupKey) } } });
  for (const n of rows) if (n.status === 'pending') await enqueueSend(rt, n);
  if (created.count > 0) for (const n of rows) announceNotification(rt, n);
  return { planned: created.count };
}

/** Rows looked at per sweep. */
const SWEEP_BATCH = 500;

/**
 * Re-drives pending notifications that are due on the service clock: a lost job is added again, a job
 * still waiting out its first delay (the clock may run ahead of Redis's: a test clock, a clock step) is
 * promoted, a failed one retried. Rows are the source of truth; a job that finds its row settled does nothing.
 */
export async function redriveDueNotifications(rt: Runtime): Promise<number> {
  const due = await rt.prisma.notification.findMany({
    where: { status: 'pending', dueAt: { lte: rt.clock.now() } },
    select: { id: true, dueAt: true },
    orderBy: { dueAt: 'asc' },
    take: SWEEP_BATCH,
  });
  let redriven = 0;
  const queue = rt.queues.get('notify');
  for (const n of due) {
    const jobId = notifyJobId(n.id);
    const job = await queue.getJob(jobId);
    if (job && job.attemptsMade === 0 && (await job.getState()) === 'delayed') {
      await job.promote().catch(() => undefined);
      redriven++;
      continue;
    }
    if (
      await rt.queues.ensure('notify', { notificationId: n.id }, jobId, {
        attempts: rt.config.notify.attempts,
        backoff: { type: 'exponential', delay: rt.config.notify.retryDelayMs },
      })
    )
      redriven++;
  }
  return redriven;
}
