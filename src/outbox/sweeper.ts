/**
 * The sweeper: re-drives work whose queue job was lost (a crash between commit and enqueue, Redis data
 * lost or restarted) or ended failed. The database is the source of truth; jobs are only reminders.
 */
import type { Runtime } from '../runtime.js';
import { deliveryJobId, ensureJob, outboxJobId } from './jobs.js';

const BATCH = 500;

/** Re-enqueues fan-out for messages still undispatched `sweepAfterMs` after they were written. */
export async function redriveOutbox(rt: Runtime, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - rt.config.webhooks.sweepAfterMs);
  const stale = await rt.prisma.outboxMessage.findMany({
    where: { dispatchedAt: null, createdAt: { lt: cutoff } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
    take: BATCH,
  });
  let n = 0;
  for (const m of stale) if (await ensureJob(rt, 'outbox', { outboxId: m.id }, outboxJobId(m.id))) n++;
  if (n) rt.logger.info({ count: n }, 'sweeper re-drove undispatched outbox messages');
  return n;
}

/** Re-enqueues deliveries whose due attempt is `sweepAfterMs` overdue and has no live job. */
export async function redriveDeliveries(rt: Runtime, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - rt.config.webhooks.sweepAfterMs);
  const overdue = await rt.prisma.delivery.findMany({
    where: { status: { in: ['pending', 'retrying'] }, nextAttemptAt: { lt: cutoff } },
    select: { id: true, attemptCount: true },
    orderBy: { nextAttemptAt: 'asc' },
    take: BATCH,
  });
  let n = 0;
  for (const d of overdue) if (await ensureJob(rt, 'deliveries', { deliveryId: d.id }, deliveryJobId(d.id, d.attemptCount + 1))) n++;
  if (n) rt.logger.info({ count: n }, 'sweeper re-drove overdue deliveries');
  return n;
}

/** One sweep of both. */
export async function sweepOutboxAndDeliveries(rt: Runtime, now = new Date()): Promise<{ outbox: number; deliveries: number }> {
  return { outbox: await redriveOutbox(rt, now), deliveries: await redriveDeliveries(rt, now) };
}
