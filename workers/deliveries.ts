/**
 * The delivery worker: one job per delivery attempt (job id = delivery id + attempt number). Sends run
 * with bounded concurrency and a per-request deadline; a send held back by the receiver's limits is
 * re-delayed in Redis instead of occupying a worker slot.
 */
import { DelayedError, UnrecoverableError, Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames, type JobPayloads } from '../src/queues.js';
import { attemptDelivery, type AttemptOutcome } from '../src/deliveries/attempt.js';
import { ReceiverLimits } from '../src/deliveries/receiver-limits.js';
import { DeliveryStore } from '../src/deliveries/store.js';
import { logJobFailure, workerOptions } from './connection.js';

/** Starts the delivery worker. */
export async function startDeliveryWorkers(rt: Runtime): Promise<Worker[]> {
  const deps = { limits: new ReceiverLimits(rt), store: new DeliveryStore(rt) };
  const { concurrency, jobLockMs } = rt.config.webhooks;
  const worker = new Worker<JobPayloads['deliveries'], AttemptOutcome>(
    QueueNames.deliveries,
    async (job, token) => {
      const outcome = await attemptDelivery(rt, deps, job.data.deliveryId);
      if (outcome.kind === 'gone') throw new UnrecoverableError(`delivery ${job.data.deliveryId} no longer exists`);
      if (outcome.kind === 'delayed') {
        await job.moveToDelayed(Date.now() + outcome.retryInMs, token);
        throw new DelayedError();
      }
      return outcome;
    },
    workerOptions(rt, QueueNames.deliveries, { concurrency, lockDuration: jobLockMs, stalledInterval: jobLockMs, maxStalledCount: 5 }),
  );
  worker.on('failed', (job, err) => logJobFailure(rt, err, { deliveryId: job?.data.deliveryId }, 'delivery job failed'));
  return [worker];
}
