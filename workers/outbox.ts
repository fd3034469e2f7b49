/**
 * The outbox worker: fans each announced change out into deliveries. Also keeps the webhook sweeper's
 * schedule alive: if Redis lost its data (restart without persistence), the schedule is registered
 * again within a sweep interval, and the sweep re-drives whatever the lost jobs were carrying.
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
    everyMs: 2_000,
    run: (rt) => sweepOutboxAndDeliveries(rt),
  },
  {
    name: 'webhooks-purge-history',
    everyMs: 60 * 60 * 1000,
    run: (rt) => purgeDeliveryHistory(rt.prisma, rt.config.webhooks.historyRetentionDays),
  },
];

/** Starts the fan-out worker and the sweeper-schedule watchdog. */
export async function startOutboxWorkers(rt: Runtime): Promise<Worker[]> {
  const worker = new Worker(
    QueueNames.outbox,
    async (job) => ({ created: await fanOutOutboxMessage(rt, job.data.outboxId as string) }),
    workerOptions(rt, { concurrency: 8 }),
  );
  worker.on('failed', (job, err) => rt.logger.error({ err, outboxId: job?.data.outboxId }, 'outbox fan-out failed'));

  const watchdog = setInterval(() => {
    void (async () => {
      const queue = rt.queues.get('maintenance');
      for (const task of webhookTasks) {
        if (await queue.getJobScheduler(task.name)) continue;
        await queue.upsertJobScheduler(task.name, { every: task.everyMs }, { name: task.name, data: { task: task.name } });
        rt.logger.warn({ task: task.name }, 're-registered a lost webhook maintenance schedule');
      }
    })().catch((err) => rt.logger.warn({ err }, 'could not check the webhook maintenance schedules'));
  }, 5_000);
  watchdog.unref();
  worker.on('closing', () => clearInterval(watchdog));
  return [worker];
}
