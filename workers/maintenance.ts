/**
 * Periodic upkeep as BullMQ job schedulers: each task runs on one worker at a time, cluster-wide.
 * Areas add their tasks to `maintenanceTasks`.
 */
import { Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames } from '../src/queues.js';
import { purgeRevokedTokens } from '../src/auth/tokens.js';
import { workerOptions } from './connection.js';
import { alertingTasks } from './evaluate.js';
import { webhookTasks } from './outbox.js';
import { sotTasks } from './sot.js';

export interface MaintenanceTask {
  name: string;
  everyMs: number;
  run(rt: Runtime): Promise<unknown>;
}

export const maintenanceTasks: MaintenanceTask[] = [
  {
    name: 'purge-revoked-tokens',
    everyMs: 60 * 60 * 1000,
    run: (rt) => purgeRevokedTokens(rt.prisma),
  },
  ...alertingTasks,
  ...webhookTasks,
  ...sotTasks,
];

/** Registers the schedules (idempotent across nodes) and starts the maintenance worker. */
export async function startMaintenance(rt: Runtime, tasks: MaintenanceTask[] = maintenanceTasks): Promise<Worker> {
  const queue = rt.queues.get('maintenance');
  for (const task of tasks) {
    await queue.upsertJobScheduler(task.name, { every: task.everyMs }, { name: task.name, data: { task: task.name } });
  }
  const byName = new Map(tasks.map((t) => [t.name, t]));
  const worker = new Worker(
    QueueNames.maintenance,
    async (job) => {
      const task = byName.get(job.data.task as string);
      if (!task) return null;
      const result = await task.run(rt);
      rt.logger.debug({ task: task.name, result }, 'maintenance task done');
      return result ?? null;
    },
    workerOptions(rt, { concurrency: 2 }),
  );
  worker.on('failed', (job, err) => rt.logger.error({ err, task: job?.data.task }, 'maintenance task failed'));
  return worker;
}
