/**
 * The escalation sweeper: the database is the source of truth, jobs are reminders. Every run it (1) makes sure
 * each firing group whose next step is due on the service clock has its timer job, promoting a delayed one (its
 * BullMQ delay was counted on the system clock) and re-adding a lost or finished one, and (2) enqueues the pages a
 * step wrote but whose process died before it enqueued them.
 */
import type { Runtime } from '../runtime.js';
import { escalationJobId } from '../queues.js';
import { nextTimerOf } from '../alerts/groups.js';
import { dispatchPages } from './engine.js';

const BATCH = 200;

/** One sweep; returns how many timers it (re)queued or promoted and how many pages it enqueued. */
export async function sweepEscalations(rt: Runtime, now = rt.clock.now()): Promise<{ timers: number; pages: number }> {
  const due = await rt.prisma.alertGroup.findMany({
    where: { status: 'firing', nextStepAt: { lte: now }, policyId: { not: null } },
    orderBy: { nextStepAt: 'asc' },
    take: BATCH,
  });
  // The policies' step counts in one query, the timers' jobs and their states asked of Redis together.
  const policyIds = [...new Set(due.map((g) => g.policyId!))];
  const counted = policyIds.length
    ? await rt.prisma.escalationStep.groupBy({ by: ['policyId'], where: { policyId: { in: policyIds } }, _count: true })
    : [];
  const stepCounts = new Map(counted.map((c) => [c.policyId, c._count]));
  const timersDue = due
    .map((g) => nextTimerOf(g, stepCounts.get(g.policyId!) ?? 0))
    .filter((t): t is NonNullable<typeof t> => !!t);
  const queue = rt.queues.get('escalation');
  const jobs = await Promise.all(timersDue.map((t) => queue.getJob(escalationJobId(t.data))));
  const states = await Promise.all(jobs.map((j) => (j ? j.getState() : Promise.resolve(null))));
  const requeued = await Promise.all(
    timersDue.map(async (timer, i) => {
      const job = jobs[i];
      if (job && states[i] === 'delayed') {
        await job.promote().catch(() => undefined); // promoted meanwhile by another sweeper
        return true;
      }
      return rt.queues.ensure('escalation', timer.data, escalationJobId(timer.data));
    }),
  );
  const timers = requeued.filter(Boolean).length;
  const withPages = await rt.prisma.alertGroup.findMany({
    where: { NOT: { pendingPages: { equals: [] } } },
    select: { id: true, tenantId: true, pendingPages: true },
    take: BATCH,
  });
  const pages = (await Promise.all(withPages.map((g) => dispatchPages(rt, g)))).reduce((a, b) => a + b, 0);
  if (timers || pages) rt.logger.debug({ timers, pages }, 'escalation sweep');
  return { timers, pages };
}
