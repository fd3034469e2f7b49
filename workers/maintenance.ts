/**
 * Periodic upkeep as BullMQ job schedulers: each task runs on one worker at a time, cluster-wide.
 * Areas add their tasks to `maintenanceTasks`.
 */
import { Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import type { Config } from '../src/config.js';
import { QueueNames } from '../src/queues.js';
import { purgeRevokedTokens } from '../src/auth/tokens.js';
import { workerOptions } from './connection.js';
import { alertingTasks } from './evaluate.js';
import { webhookTasks } from './outbox.js';
import { sotTasks } from './sot.js';

export interface MaintenanceTask {
  name: string;
  /** The interval, from the configuration. */
  everyMs: (config: Config) => number;
  run(rt: Runtime): Promise<unknown>;
}

export const maintenanceTasks: MaintenanceTask[] = [
  {
    name: 'purge-revoked-tokens',
    everyMs: () => 60 * 60 * 1000,
    run: (rt) => purgeRevokedTokens(rt.prisma),
  },
  ...alertingTasks,
  ...webhookTasks,
  ...sotTasks,
];

/** Registers (or refreshes) every task's job scheduler; idempotent across nodes. */
export async function registerSchedules(rt: Runtime, tasks: MaintenanceTask[] = maintenanceTasks): Promise<void> {
  const queue = rt.queues.get('maintenance');
  for (const task of tasks) {
    await queue.upsertJobScheduler(task.name, { every: task.everyMs(rt.config) }, { name: task.name, data: { task: task.name } });
  }
}

/**
 * Registers the schedules and starts the maintenance worker. Schedules live only in Redis: if Redis
 * loses its data while workers run, the periodic tasks (sweepers, absence checks, purges) would stop
 * for good, so every worker process re-registers them every config.scheduleRefreshMs.
 */
export async function startMaintenance(rt: Runtime, tasks: MaintenanceTask[] = maintenanceTasks): Promise<Worker> {
  await registerSchedules(rt, tasks);
  const refresh = setInterval(() => {
    registerSchedules(rt, tasks).catch((err: Error) => rt.logger.warn({ err: err.message }, 'could not refresh the maintenance schedules'));
  }, rt.config.scheduleRefreshMs);
  refresh.unref();
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
  worker.on('closing', () => clearInterval(refresh));
  return worker;
}
