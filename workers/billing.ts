/**
 * The `billing` queue: one job per tenant and hourly window (ids and the window only); the processor
 * replaces the window's usage rows in one transaction (src/billing/metering.ts), then checks the
 * tenant's budget. The periodic task queues the current and previous windows of every tenant and
 * re-drives windows whose request was lost.
 */
import { Worker, type Job } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames, type JobPayloads } from '../src/queues.js';
import { computeWindow, meterRecentWindows } from '../src/billing/metering.js';
import { checkBudget } from '../src/billing/budget.js';
import { logJobFailure, workerOptions } from './connection.js';
import type { MaintenanceTask } from './task.js';

export async function startBillingWorker(rt: Runtime): Promise<Worker[]> {
  const worker = new Worker(
    QueueNames.billing,
    async (job: Job<JobPayloads['billing']>) => {
      const result = await computeWindow(rt, job.data.tenantId, new Date(job.data.windowStart));
      const fired = await checkBudget(rt, job.data.tenantId);
      return { ...result, budgetThresholdsFired: fired };
    },
    workerOptions(rt, QueueNames.billing, { concurrency: 2 }),
  );
  worker.on('failed', (job, err) =>
    logJobFailure(rt, err, { tenantId: job?.data.tenantId, windowStart: job?.data.windowStart }, 'metering job failed'),
  );
  return [worker];
}

/** Every 5 minutes: meter the current (partial) and the previous window of every tenant. */
export const billingTasks: MaintenanceTask[] = [
  { name: 'billing-meter', everyMs: () => 300_000, run: (rt) => meterRecentWindows(rt) },
];
