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
  let timers = 0;
  const stepCounts = new Map<string, number>();
  for (const g of due) {
    let count = stepCounts.get(g.policyId!);
    if (count === undefined) {
      count = await rt.prisma.escalationStep.count({ where: { policyId: g.policyId! } });
      stepCounts.set(g.policyId!, count);
    }
    const timer = nextTimerOf(g, count);
    if (!timer) continue;
    const jobId = escalationJobId(timer.data);
    const job = await rt.queues.get('escalation').getJob(jobId);
    if (job && (await job.getState()) === 'delayed') {
      await job.promote().catch(() => undefined); // promoted meanwhile by another sweeper
      timers++;
    } else if (await rt.queues.ensure('escalation', timer.data, jobId)) timers++;
  }
  const withPages = await rt.prisma.alertGroup.findMany({
    where: { NOT: { pendingPages: { equals: [] } } },
    select: { id: true, tenantId: true, pendingPages: true },
    take: BATCH,
  });
  let pages = 0;
  for (const g of withPages) pages += await dispatchPages(rt, g);
  if (timers || pages) rt.logger.debug({ timers, pages }, 'escalation sweep');
  return { timers, pages };
}
