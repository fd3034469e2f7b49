/**
 * The `evaluate` worker: rule evaluation for batches of stored events, plus the alerting upkeep
 * tasks (re-drive sweeper, absence check, snooze wake-up, auto-resolve) registered in workers/maintenance.ts.
 */
import { inJobSpan } from '../src/tracing.js';
import { Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames, type JobPayloads } from '../src/queues.js';
import { evaluateWithinBudget } from '../src/rules/evaluation-budget.js';
import { checkAbsences } from '../src/rules/absence.js';
import { redriveUnevaluatedEvents } from '../src/rules/sweeper.js';
import { wakeSnoozedAlerts } from '../src/alerts/actions.js';
import { autoResolveQuietAlerts } from '../src/rules/auto-resolve.js';
import { workerOptions } from './connection.js';
import type { MaintenanceTask } from './task.js';

/**
 * Starts the evaluate worker (config.alerting.evaluateConcurrency batches at a time), each tenant's share of
 * a batch within its evaluation budget (src/rules/evaluation-budget.ts).
 */
export async function startEvaluateWorker(rt: Runtime): Promise<Worker[]> {
  const worker = new Worker<JobPayloads['evaluate']>(
    QueueNames.evaluate,
    async (job) =>
      inJobSpan(rt.telemetry, QueueNames.evaluate, job, () => evaluateWithinBudget(rt, job.data.eventIds ?? [])),
    workerOptions(rt, QueueNames.evaluate, { concurrency: rt.config.alerting.evaluateConcurrency }),
  );
  worker.on('failed', (job, err) =>
    rt.logger.warn(
      { err, jobId: job?.id, attempts: job?.attemptsMade },
      'evaluate job failed; retried, then re-driven by the sweeper',
    ),
  );
  return [worker];
}

/** Periodic alerting tasks (intervals from config.alerting). */
export const alertingTasks: MaintenanceTask[] = [
  {
    name: 'redrive-unevaluated-events',
    everyMs: (c) => c.alerting.sweepIntervalMs,
    run: (rt) => redriveUnevaluatedEvents(rt),
  },
  { name: 'check-absences', everyMs: (c) => c.alerting.absenceCheckIntervalMs, run: (rt) => checkAbsences(rt) },
  { name: 'wake-snoozed-alerts', everyMs: (c) => c.alerting.snoozeWakeIntervalMs, run: (rt) => wakeSnoozedAlerts(rt) },
  // Same cadence as the absence check: both turn silence into an alert change.
  {
    name: 'auto-resolve-alerts',
    everyMs: (c) => c.alerting.absenceCheckIntervalMs,
    run: (rt) => autoResolveQuietAlerts(rt),
  },
];
