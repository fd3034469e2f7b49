/**
 * What every BullMQ worker shares: the Redis connection and queue key prefixes of this runtime, and how a failed job
 * is logged.
 */
import { UnrecoverableError, type WorkerOptions } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import type { QueueName } from '../src/queues.js';

/** Options of the worker of `queue`: the runtime's BullMQ connection and that queue's key prefix. */
export function workerOptions(rt: Runtime, queue: QueueName, extra: Partial<WorkerOptions> = {}): WorkerOptions {
  return { connection: rt.bullConnection as never, prefix: rt.queues.prefixOf(queue), ...extra };
}

/**
 * Logs a failed job: a non-retryable one (UnrecoverableError, e.g. its row no longer exists) as a
 * warning, since nothing is lost; anything else as an error.
 */
export function logJobFailure(rt: Runtime, err: Error, fields: Record<string, unknown>, message: string): void {
  if (err instanceof UnrecoverableError) rt.logger.warn({ reason: err.message, ...fields }, `${message}; not retried`);
  else rt.logger.error({ err, ...fields }, message);
}
