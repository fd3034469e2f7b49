/**
 * Periodic upkeep as BullMQ job schedulers: each task runs on one worker at a time, cluster-wide.
 * Areas export their tasks (workers/task.ts); workers/index.ts passes the whole list.
 */
import { Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames, type JobPayloads } from '../src/queues.js';
import { logJobFailure, workerOptions } from './connection.js';
import type { MaintenanceTask } from './task.js';

/** Registers (or refreshes) every task's job scheduler; idempotent across nodes. */
async function registerSchedules(rt: Runtime, tasks: MaintenanceTask[]): Promise<void> {
  const queue = rt.queues.get('maintenance');
  for (const task of tasks) {
    await queue.upsertJobScheduler(
      task.name,
      { every: task.everyMs(rt.config) },
      { name: task.name, data: { task: task.name } },
    );
  }
}

/**
 * Registers the schedules and starts the maintenance worker. Schedules live only in Redis: if Redis
 * loses its data while workers run, the periodic tasks (sweepers, absence checks, purges) would stop
 * for good, so every worker process re-registers them every config.scheduleRefreshMs.
 */
export async function startMaintenance(rt: Runtime, tasks: MaintenanceTask[]): Promise<Worker> {
  await registerSchedules(rt, tasks);
  const refresh = setInterval(() => {
    registerSchedules(rt, tasks).catch((err: Error) =>
      rt.logger.warn({ err: err.message }, 'could not refresh the maintenance schedules'),
    );
  }, rt.config.scheduleRefreshMs);
  refresh.unref();
  const byName = new Map(tasks.map((t) => [t.name, t]));
  const worker = new Worker<JobPayloads['maintenance']>(
    QueueNames.maintenance,
    async (job) => {
      // A schedule left in Redis by an older version names a task that no longer exists: nothing to do.
      const task = byName.get(job.data.task);
      if (!task) return null;
      const result = await task.run(rt);
      rt.logger.debug({ task: task.name, result }, 'maintenance task done');
      return result ?? null;
    },
    workerOptions(rt, QueueNames.maintenance, { concurrency: 2 }),
  );
  worker.on('failed', (job, err) => logJobFailure(rt, err, { task: job?.data.task }, 'maintenance task failed'));
  worker.on('closing', () => clearInterval(refresh));
  return worker;
}
