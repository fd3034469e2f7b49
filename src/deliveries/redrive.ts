/**
 * The delivery sweeper: re-drives attempts whose queue job was lost (Redis data lost or restarted) or
 * ended failed. The database is the source of truth; jobs are only reminders.
 */
import type { Runtime } from '../runtime.js';
import { redriveOutbox } from '../outbox/outbox.js';
import { deliveryJobId, deliveryJobOptions, firstAttemptsPending } from './jobs.js';

const BATCH = 500;

/**
 * Re-enqueues deliveries whose due attempt is `sweepAfterMs` overdue and has no live job: neither its
 * own job nor, for a first attempt, its message's first-attempts job still to run.
 */
export async function redriveDeliveries(rt: Runtime, now = rt.clock.now()): Promise<number> {
  const cutoff = new Date(now.getTime() - rt.config.webhooks.sweepAfterMs);
  const overdue = await rt.prisma.delivery.findMany({
    where: { status: { in: ['pending', 'retrying'] }, nextAttemptAt: { lt: cutoff } },
    select: { id: true, attemptCount: true, outboxId: true },
    orderBy: { nextAttemptAt: 'asc' },
    take: BATCH,
  });
  let n = 0;
  const firstPending = new Map<string, boolean>();
  for (const d of overdue) {
    if (d.attemptCount === 0 && d.outboxId) {
      let pending = firstPending.get(d.outboxId);
      if (pending === undefined) firstPending.set(d.outboxId, (pending = await firstAttemptsPending(rt, d.outboxId)));
      if (pending) continue;
    }
    if (
      await rt.queues.ensure(
        'deliveries',
        { deliveryId: d.id },
        deliveryJobId(d.id, d.attemptCount + 1),
        deliveryJobOptions,
      )
    )
      n++;
  }
  if (n) rt.logger.info({ count: n }, 'sweeper re-drove overdue deliveries');
  return n;
}

/** One sweep of the webhook pipeline: undispatched outbox messages, then overdue deliveries. */
export async function sweepOutboxAndDeliveries(
  rt: Runtime,
  now = rt.clock.now(),
): Promise<{ outbox: number; deliveries: number }> {
  return { outbox: await redriveOutbox(rt, now), deliveries: await redriveDeliveries(rt, now) };
}
