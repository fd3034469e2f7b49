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
import type { JobsOptions } from 'bullmq';
import type { ContactMethodKind, Notification } from '../generated/prisma/client.js';
import { notifyJobId, type PageJob } from '../queues.js';
import { announceNotification } from './record.js';
import { groupAlertsWhere } from '../alerts/group-alerts.js';

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

/** The `notify` job of a pending row: delayed until it is due, retried with backoff. */
function sendJob(
  rt: Runtime,
  n: Pick<Notification, 'id' | 'dueAt'>,
): { data: { notificationId: string }; opts: JobsOptions } {
  return {
    data: { notificationId: n.id },
    opts: {
      jobId: notifyJobId(n.id),
      delay: Math.max(0, n.dueAt.getTime() - rt.clock.now().getTime()),
      attempts: rt.config.notify.attempts,
      backoff: { type: 'exponential', delay: rt.config.notify.retryDelayMs },
    },
  };
}

/** Adds (idempotently) the send job of a pending row, delayed until it is due. */
export async function enqueueSend(rt: Runtime, n: Pick<Notification, 'id' | 'dueAt'>): Promise<void> {
  const { data, opts } = sendJob(rt, n);
  await rt.queues.add('notify', data, opts);
}

/** Adds (idempotently) the send jobs of pending rows in one round trip. */
export async function enqueueSends(rt: Runtime, rows: Array<Pick<Notification, 'id' | 'dueAt'>>): Promise<void> {
  await rt.queues.addBulk(
    'notify',
    rows.map((n) => sendJob(rt, n)),
  );
}

/**
 * Plans one page (idempotent): the person's notification rows for this step and round of the group, each
 * with its send job. Nothing is planned for a group that is no longer firing or a person who is gone.
 */
export async function planPage(rt: Runtime, job: PageJob): Promise<{ planned: number }> {
  // The reads are independent: one round of queries rather than four in a row.
  const [group, user, alert, sends] = await Promise.all([
    rt.prisma.alertGroup.findFirst({
      where: { id: job.groupId, tenantId: job.tenantId },
      select: { id: true, status: true },
    }),
    rt.prisma.user.findFirst({ where: { id: job.userId, tenantId: job.tenantId }, select: { id: true } }),
    rt.prisma.alert.findFirst({
      where: job.alertIds?.length
        ? { id: job.alertIds[0], tenantId: job.tenantId }
        : groupAlertsWhere(job.groupId, { tenantId: job.tenantId }),
      orderBy: { createdAt: 'asc' },
      select: { id: true },
    }),
    plannedSends(rt, job),
  ]);
  if (group?.status !== 'firing' || !user) return { planned: 0 };
  const now = rt.clock.now();
  const seq = job.seq === undefined ? '' : `:${job.seq}`;
  const prefix = `${job.groupId}:${job.round}:${job.step}:${job.userId}:${job.reason}${seq}`;
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
    alertIds: job.alertIds ?? [],
    dedupKey: `${prefix}:${s.key}`,
    dueAt: new Date(now.getTime() + s.delayMinutes * 60_000),
    createdAt: now,
  }));
  const created = await rt.prisma.notification.createMany({ data, skipDuplicates: true });
  const rows = await rt.prisma.notification.findMany({ where: { dedupKey: { in: data.map((d) => d.dedupKey) } } });
  await enqueueSends(
    rt,
    rows.filter((n) => n.status === 'pending'),
  );
  if (created.count > 0) for (const n of rows) announceNotification(rt, n);
  return { planned: created.count };
}

/** Rows looked at per sweep. */
const SWEEP_BATCH = 500;

/**
 * Re-drives pending notifications that are due on the service clock: a lost job is added again, a job
 * still waiting out its first delay (the clock may run ahead of Redis's: a test clock, a clock step) is
 * promoted, a failed one retried. Rows are the source of truth; a job that finds its row settled does nothing.
 * Redis is asked about the whole batch at once (its jobs, then their states), and the jobs that are missing
 * are added back in one bulk add; only the rare failed or completed job is re-driven on its own.
 */
export async function redriveDueNotifications(rt: Runtime): Promise<number> {
  const due = await rt.prisma.notification.findMany({
    where: { status: 'pending', dueAt: { lte: rt.clock.now() } },
    select: { id: true, dueAt: true },
    orderBy: { dueAt: 'asc' },
    take: SWEEP_BATCH,
  });
  if (due.length === 0) return 0;
  const queue = rt.queues.get('notify');
  const jobs = await Promise.all(due.map((n) => queue.getJob(notifyJobId(n.id))));
  const states = await Promise.all(jobs.map((job) => (job ? job.getState() : Promise.resolve('missing' as const))));
  const missing: typeof due = [];
  const redrives: Array<Promise<boolean>> = [];
  due.forEach((n, i) => {
    const job = jobs[i];
    const state = states[i];
    if (!job) missing.push(n);
    else if (job.attemptsMade === 0 && state === 'delayed')
      redrives.push(
        job.promote().then(
          () => true,
          () => true, // promoted meanwhile by another sweeper
        ),
      );
    else if (state === 'failed' || state === 'completed' || state === 'unknown')
      redrives.push(
        rt.queues.ensure('notify', { notificationId: n.id }, notifyJobId(n.id), {
          attempts: rt.config.notify.attempts,
          backoff: { type: 'exponential', delay: rt.config.notify.retryDelayMs },
        }),
      );
  });
  await enqueueSends(rt, missing);
  const redriven = (await Promise.all(redrives)).filter(Boolean).length;
  return missing.length + redriven;
}
