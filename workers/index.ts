/**
 * Starts every BullMQ worker of this process; `close()` lets running jobs finish (SIGTERM).
 * Each area contributes a starter (its workers) and maintenance tasks (workers/task.ts), assembled here.
 */
import type { Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { closeBull } from '../src/queues.js';
import { startMaintenance } from './maintenance.js';
import type { MaintenanceTask } from './task.js';
import { tokenTasks } from './tokens.js';
import { startSotWorker, sotTasks } from './sot.js';
import { startEvaluateWorker, alertingTasks } from './evaluate.js';
import { startOutboxWorkers, webhookTasks } from './outbox.js';
import { startDeliveryWorkers } from './deliveries.js';
import { startReportsWorker, reportTasks } from './reports.js';
import { integrationTasks } from './integrations.js';
import { startGpuRunWorkers, gpuRunTasks } from './gpu-runs.js';
import { gpuTasks } from './gpu.js';
import { startBillingWorker, billingTasks } from './billing.js';
import { assistantTasks } from './assistant.js';
import { historyTasks } from './history.js';

export interface Workers {
  workers: Worker[];
  close(): Promise<void>;
}

/** A function that starts an area's workers. */
export type WorkerStarter = (rt: Runtime) => Promise<Worker[]>;

/** Every area's periodic tasks, scheduled by the maintenance worker. */
export const maintenanceTasks: MaintenanceTask[] = [...tokenTasks, ...alertingTasks, ...webhookTasks, ...sotTasks, ...reportTasks, ...integrationTasks, ...gpuRunTasks, ...gpuTasks, ...billingTasks, ...assistantTasks, ...historyTasks];

const starters: WorkerStarter[] = [async (rt) => [await startMaintenance(rt, maintenanceTasks)], startEvaluateWorker, startSotWorker, startOutboxWorkers, startDeliveryWorkers, startReportsWorker, startGpuRunWorkers, startBillingWorker];

export async function startWorkers(rt: Runtime): Promise<Workers> {
  const workers: Worker[] = [];
  for (const start of starters) {
    const started = await start(rt);
    // Every worker gets an 'error' listener (Redis connection errors, a failing stalled-job check):
    // without one BullMQ prints to stderr, bypassing the log; the worker itself reconnects and goes on.
    for (const w of started) w.on('error', (err) => rt.logger.error({ err, queue: w.name }, 'worker error'));
    workers.push(...started);
  }
  return {
    workers,
    close: async () => {
      await Promise.all(workers.map((w) => closeBull(w)));
    },
  };
}
