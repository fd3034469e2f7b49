/**
 * Enqueueing the outbox and delivery jobs with deterministic ids, so a duplicate enqueue (a re-run
 * fan-out, the sweeper, a restarted process) is harmless, and re-driving jobs whose Redis state was lost.
 */
import type { JobsOptions, Queue } from 'bullmq';
import type { Runtime } from '../runtime.js';
import type { JobPayloads } from '../queues.js';

/** The job id of attempt `attempt` (1-based) of a delivery. */
export function deliveryJobId(deliveryId: string, attempt: number): string {
  return `${deliveryId}_${attempt}`;
}

/** The job id of an outbox message's fan-out (the one dispatchOutbox uses). */
export function outboxJobId(outboxId: string): string {
  return `outbox-${outboxId}`;
}

const deliveryJobOptions: JobsOptions = {
  // Failures to reach the receiver are handled by the processor (a new job per attempt); these
  // BullMQ retries only cover infrastructure errors (database or Redis briefly unavailable).
  attempts: 8,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 600, count: 2000 },
  removeOnFail: { age: 24 * 3600 },
};

/** Schedules attempt `attempt` of a delivery at `at` (now when omitted); idempotent per (delivery, attempt). */
export async function enqueueDeliveryAttempt(rt: Runtime, deliveryId: string, attempt: number, at?: Date | null): Promise<void> {
  const delay = at ? Math.max(0, at.getTime() - Date.now()) : 0;
  await rt.queues.add('deliveries', { deliveryId }, { ...deliveryJobOptions, jobId: deliveryJobId(deliveryId, attempt), delay });
}

/** Enqueues many first attempts in one round trip. */
export async function enqueueFirstAttempts(rt: Runtime, deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await rt.queues.get('deliveries').addBulk(
    deliveryIds.map((deliveryId) => ({ name: 'deliveries', data: { deliveryId }, opts: { ...deliveryJobOptions, jobId: deliveryJobId(deliveryId, 1) } })),
  );
}

/**
 * Makes sure a job with this id will run: adds it when Redis has no such job (lost or never enqueued),
 * retries it when it ended failed; leaves a waiting, delayed or active job alone. Returns true when it
 * (re)queued something.
 */
export async function ensureJob<N extends 'outbox' | 'deliveries'>(
  rt: Runtime,
  name: N,
  data: JobPayloads[N],
  jobId: string,
  opts: JobsOptions = {},
): Promise<boolean> {
  const queue = rt.queues.get(name) as unknown as Queue;
  const job = await queue.getJob(jobId);
  if (!job) {
    await queue.add(name, data, { ...(name === 'deliveries' ? deliveryJobOptions : {}), ...opts, jobId });
    return true;
  }
  const state = await job.getState();
  if (state === 'failed') {
    await job.retry('failed');
    return true;
  }
  if (state === 'completed') {
    // The job finished but the row still says it is due: run it again under the same id.
    await job.remove();
    await queue.add(name, data, { ...(name === 'deliveries' ? deliveryJobOptions : {}), ...opts, jobId });
    return true;
  }
  return false;
}
