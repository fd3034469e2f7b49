/**
 * Worker options shared by every BullMQ worker: the Redis URL and key prefix of this runtime.
 */
import type { WorkerOptions } from 'bullmq';
import type { Runtime } from '../src/runtime.js';

export function workerOptions(rt: Runtime, extra: Partial<WorkerOptions> = {}): WorkerOptions {
  return { connection: { url: rt.redisUrl, maxRetriesPerRequest: null } as never, prefix: rt.queues.prefix, ...extra };
}
