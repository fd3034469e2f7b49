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
import { routingTasks } from './routing.js';
import { startEscalationWorker, escalationTasks } from './escalation.js';
import { SupervisedWorkers } from './supervisor.js';
import { startNotificationWorkers, notificationTasks } from './notifications.js';

export interface Workers {
  workers: Worker[];
  close(): Promise<void>;
}

/** A function that starts an area's workers. */
export type WorkerStarter = (rt: Runtime) => Promise<Worker[]>;

/** Every area's periodic tasks, scheduled by the maintenance worker. */
export const maintenanceTasks: MaintenanceTask[] = [
  ...tokenTasks,
  ...alertingTasks,
  ...webhookTasks,
  ...sotTasks,
  ...reportTasks,
  ...integrationTasks,
  ...gpuRunTasks,
  ...gpuTasks,
  ...billingTasks,
  ...assistantTasks,
  ...historyTasks,
  ...routingTasks,
  ...escalationTasks,
  ...notificationTasks,
];

const starters: WorkerStarter[] = [
  async (rt) => [await startMaintenance(rt, maintenanceTasks)],
  startEvaluateWorker,
  startSotWorker,
  startOutboxWorkers,
  startDeliveryWorkers,
  startReportsWorker,
  startGpuRunWorkers,
  startBillingWorker,
  startEscalationWorker,
  startNotificationWorkers,
];

/**
 * Areas whose workers are started anew when they stop taking due jobs (workers/supervisor.ts): their
 * jobs are short (a delivery ends within WEBHOOK_TIMEOUT_MS, an evaluation batch in seconds), so a worker
 * that started nothing for STUCK_MS with jobs due is stuck, not busy. Areas with long jobs (reports,
 * GPU benchmark runs, billing windows) are left alone: a second worker beside a busy one would run more
 * of them at once than their concurrency allows.
 */
const supervised = new Set<WorkerStarter>([
  startEvaluateWorker,
  startOutboxWorkers,
  startDeliveryWorkers,
  startEscalationWorker,
  startNotificationWorkers,
]);

/** A worker that started no job for this long while jobs were due is started anew (workers/supervisor.ts). */
const STUCK_MS = 60_000;
const CHECK_MS = 10_000;

export async function startWorkers(rt: Runtime): Promise<Workers> {
  const areas: SupervisedWorkers[] = [];
  // Every worker gets an 'error' listener (Redis connection errors, a failing stalled-job check):
  // without one BullMQ prints to stderr, bypassing the log; the worker itself reconnects and goes on.
  const listen = (w: Worker) => void w.on('error', (err) => rt.logger.error({ err, queue: w.name }, 'worker error'));
  for (const start of starters) {
    const area = new SupervisedWorkers(rt, () => start(rt), listen, {
      stuckMs: STUCK_MS,
      checkMs: supervised.has(start) ? CHECK_MS : 0,
    });
    await area.run();
    areas.push(area);
  }
  return {
    get workers() {
      return areas.flatMap((a) => a.current);
    },
    close: async () => {
      for (const a of areas) a.stop();
      await Promise.all(areas.flatMap((a) => a.current).map((w) => closeBull(w)));
    },
  };
}
