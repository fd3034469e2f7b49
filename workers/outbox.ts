/**
 * The outbox worker: fans each announced change out into webhook deliveries and makes their first
 * attempts (src/deliveries/fanout.ts), with the delivery worker's job lock (a job of a killed process
 * comes back as soon as a delivery job would) and its concurrency plus one receiver's in-flight share. Its sweeper (a maintenance
 * task, re-registered by workers/maintenance.ts if Redis loses its schedules) re-drives whatever lost
 * jobs were carrying.
 */
import { inJobSpan } from '../src/tracing.js';
import { UnrecoverableError, Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames, type JobPayloads } from '../src/queues.js';
import { fanOutOutboxMessage } from '../src/deliveries/fanout.js';
import { sweepOutboxAndDeliveries } from '../src/deliveries/redrive.js';
import { deliveryEngine } from '../src/deliveries/deps.js';
import { logJobFailure, workerOptions } from './connection.js';
import type { MaintenanceTask } from './task.js';

/** Periodic tasks of the webhooks area (registered through workers/maintenance.ts); delivery history retention is a partition drop (workers/history.ts). */
export const webhookTasks: MaintenanceTask[] = [
  {
    name: 'webhooks-sweep',
    everyMs: () => 2_000,
    run: (rt) => sweepOutboxAndDeliveries(rt),
  },
];

/** Starts the fan-out worker. */
export async function startOutboxWorkers(rt: Runtime): Promise<Worker[]> {
  const engine = deliveryEngine(rt);
  const { concurrency, jobLockMs, maxInFlightPerReceiver } = rt.config.webhooks;
  const worker = new Worker<JobPayloads['outbox'], { created: number }>(
    QueueNames.outbox,
    async (job) =>
      inJobSpan(rt.telemetry, QueueNames.outbox, job, async () => {
        const created = await fanOutOutboxMessage(rt, job.data.outboxId, engine);
        if (created === null) throw new UnrecoverableError(`outbox message ${job.data.outboxId} no longer exists`);
        return { created };
      }),
    // The fan-out makes first attempts: a crashed worker's job must come back as soon as a delivery job's.
    // A receiver that does not answer keeps at most its in-flight share of fan-out jobs (their sends to
    // it), so one slow receiver always leaves `concurrency` fan-outs running.
    workerOptions(rt, QueueNames.outbox, {
      concurrency: concurrency + maxInFlightPerReceiver,
      lockDuration: jobLockMs,
      stalledInterval: jobLockMs,
      maxStalledCount: 5,
    }),
  );
  worker.on('failed', (job, err) => logJobFailure(rt, err, { outboxId: job?.data.outboxId }, 'outbox fan-out failed'));
  return [worker];
}
