/**
 * The outbox worker: fans each announced change out into deliveries. Its sweeper (a maintenance task,
 * re-registered by workers/maintenance.ts if Redis loses its schedules) re-drives whatever lost jobs
 * were carrying.
 */
import { Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames } from '../src/queues.js';
import { fanOutOutboxMessage } from '../src/outbox/fanout.js';
import { sweepOutboxAndDeliveries } from '../src/outbox/sweeper.js';
import { purgeDeliveryHistory } from '../src/webhooks/retention.js';
import { workerOptions } from './connection.js';
import type { MaintenanceTask } from './maintenance.js';

/** Periodic tasks of the webhooks area (registered through workers/maintenance.ts). */
export const webhookTasks: MaintenanceTask[] = [
  {
    name: 'webhooks-sweep',
    everyMs: () => 2_000,
    run: (rt) => sweepOutboxAndDeliveries(rt),
  },
  {
    name: 'webhooks-purge-history',
    everyMs: () => 60 * 60 * 1000,
    run: (rt) => purgeDeliveryHistory(rt.prisma, rt.config.webhooks.historyRetentionDays),
  },
];

/** Starts the fan-out worker. */
export async function startOutboxWorkers(rt: Runtime): Promise<Worker[]> {
  const worker = new Worker(
    QueueNames.outbox,
    async (job) => ({ created: await fanOutOutboxMessage(rt, job.data.outboxId as string) }),
    workerOptions(rt, { concurrency: 8 }),
  );
  worker.on('failed', (job, err) => rt.logger.error({ err, outboxId: job?.data.outboxId }, 'outbox fan-out failed'));

  return [worker];
}
