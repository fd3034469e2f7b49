/**
 * Enqueueing delivery attempts with deterministic job ids, so a duplicate enqueue (a re-run fan-out, the
 * sweeper, a restarted process) is harmless. The first attempts of one announced change go out from its
 * fan-out job (src/deliveries/fanout.ts); those the receivers' limits hold back, and those of a re-run
 * fan-out, travel as one job (`<outboxId>_first`, carrying their delivery ids): per delivery, BullMQ's
 * add, fetch and completion cost more than the send itself. Every later attempt is a job of its own
 * (`<deliveryId>_<attempt>`).
 */
import type { JobsOptions } from 'bullmq';
import type { Runtime } from '../runtime.js';
import { outboxJobId } from '../outbox/outbox.js';

/** The job id of attempt `attempt` (1-based) of a delivery. */
export function deliveryJobId(deliveryId: string, attempt: number): string {
  return `${deliveryId}_${attempt}`;
}

/** The job id of the first attempts of every delivery of one outbox message. */
export function firstAttemptsJobId(outboxId: string): string {
  return `${outboxId}_first`;
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
export async function enqueueDeliveryAttempt(
  rt: Runtime,
  deliveryId: string,
  attempt: number,
  at?: Date | null,
): Promise<void> {
  // `at` is on the service clock (nextAttemptAt); BullMQ's delay is relative, so it needs no clock of its own.
  const delay = at ? Math.max(0, at.getTime() - rt.clock.now().getTime()) : 0;
  await rt.queues.add(
    'deliveries',
    { deliveryId },
    { ...deliveryJobOptions, jobId: deliveryJobId(deliveryId, attempt), delay },
  );
}

/**
 * Enqueues the first attempts of a message's deliveries as one job, in one round trip, to run after
 * `delayMs` (the deliveries the fan-out's own attempts left held back by their receivers' limits). The
 * job names each delivery's webhook too, so a receiver known to be full can hold its deliveries without
 * reading them.
 */
export async function enqueueFirstAttempts(
  rt: Runtime,
  outboxId: string,
  deliveries: Array<{ id: string; webhookId: string }>,
  delayMs = 0,
): Promise<void> {
  if (deliveries.length === 0) return;
  const data = { outboxId, deliveryIds: deliveries.map((d) => d.id), webhookIds: deliveries.map((d) => d.webhookId) };
  await rt.queues.add('deliveries', data, {
    ...deliveryJobOptions,
    jobId: firstAttemptsJobId(outboxId),
    delay: Math.max(0, Math.round(delayMs)),
  });
}

const LIVE = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);

/**
 * True while a job still stands for the first attempts of the message's deliveries (the sweeper leaves
 * them alone): its first-attempts job, or its fan-out job, which makes the first attempts itself.
 */
export async function firstAttemptsPending(rt: Runtime, outboxId: string): Promise<boolean> {
  const [first, fanOut] = await Promise.all([
    rt.queues.get('deliveries').getJobState(firstAttemptsJobId(outboxId)),
    rt.queues.get('outbox').getJobState(outboxJobId(outboxId)),
  ]);
  return LIVE.has(first) || LIVE.has(fanOut);
}
