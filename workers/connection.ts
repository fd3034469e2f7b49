/**
 * What every BullMQ worker shares: the Redis URL and key prefix of this runtime, and how a failed job
 * is logged.
 */
import { UnrecoverableError, type WorkerOptions } from 'bullmq';
import type { Runtime } from '../src/runtime.js';

export function workerOptions(rt: Runtime, extra: Partial<WorkerOptions> = {}): WorkerOptions {
  return { connection: { url: rt.redisUrl, maxRetriesPerRequest: null } as never, prefix: rt.queues.prefix, ...extra };
}

/**
 * Logs a failed job: a non-retryable one (UnrecoverableError, e.g. its row no longer exists) as a
 * warning, since nothing is lost; anything else as an error.
 */
export function logJobFailure(rt: Runtime, err: Error, fields: Record<string, unknown>, message: string): void {
  if (err instanceof UnrecoverableError) rt.logger.warn({ reason: err.message, ...fields }, `${message}; not retried`);
  else rt.logger.error({ err, ...fields }, message);
}
