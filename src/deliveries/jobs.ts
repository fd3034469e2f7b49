/**
 * Enqueueing delivery attempts with deterministic job ids (delivery id + attempt number), so a duplicate
 * enqueue (a re-run fan-out, the sweeper, a restarted process) is harmless.
 */
import type { JobsOptions } from 'bullmq';
import type { Runtime } from '../runtime.js';

/** The job id of attempt `attempt` (1-based) of a delivery. */
export function deliveryJobId(deliveryId: string, attempt: number): string {
  return `${deliveryId}_${attempt}`;
}

export const deliveryJobOptions: JobsOptions = {
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
