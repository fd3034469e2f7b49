/**
 * The `evaluate` worker: rule evaluation for batches of stored events, plus the alerting upkeep
 * tasks (re-drive sweeper, absence check, snooze wake-up) registered in workers/maintenance.ts.
 */
import { Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames, type JobPayloads } from '../src/queues.js';
import { evaluateEvents } from '../src/rules/evaluate.js';
import { checkAbsences } from '../src/rules/absence.js';
import { alertingTimings, redriveUnevaluatedEvents } from '../src/rules/sweeper.js';
import { wakeSnoozedAlerts } from '../src/alerts/actions.js';
import { workerOptions } from './connection.js';
import type { MaintenanceTask } from './maintenance.js';

/** Starts the evaluate worker (EVALUATE_CONCURRENCY, default 4 batches at a time). */
export async function startEvaluateWorker(rt: Runtime): Promise<Worker[]> {
  const concurrency = Number(process.env.EVALUATE_CONCURRENCY ?? 4) || 4;
  const worker = new Worker<JobPayloads['evaluate']>(
    QueueNames.evaluate,
    async (job) => evaluateEvents(rt, job.data.eventIds ?? []),
    workerOptions(rt, { concurrency }),
  );
  worker.on('failed', (job, err) => rt.logger.warn({ err, jobId: job?.id, attempts: job?.attemptsMade }, 'evaluate job failed; retried, then re-driven by the sweeper'));
  // Schedulers live in Redis: if Redis loses its data while this process runs, the sweeper, absence
  // check and snooze wake-up would stop for good. Re-registering them (idempotent) brings them back.
  const refresh = setInterval(() => {
    registerAlertingSchedules(rt).catch((err: Error) => rt.logger.warn({ err: err.message }, 'could not refresh the alerting schedules'));
  }, alertingTimings().scheduleRefreshMs);
  refresh.unref();
  worker.on('closing', () => clearInterval(refresh));
  return [worker];
}

/** Registers (or refreshes) the job schedulers of the alerting tasks; idempotent across nodes. */
export async function registerAlertingSchedules(rt: Runtime): Promise<void> {
  const queue = rt.queues.get('maintenance');
  for (const task of alertingTasks) {
    await queue.upsertJobScheduler(task.name, { every: task.everyMs }, { name: task.name, data: { task: task.name } });
  }
}

/** Periodic alerting tasks; intervals are read from the environment when the schedules are registered. */
export const alertingTasks: MaintenanceTask[] = [
  {
    name: 'redrive-unevaluated-events',
    get everyMs() {
      return alertingTimings().sweepIntervalMs;
    },
    run: (rt) => redriveUnevaluatedEvents(rt, alertingTimings().sweepAgeMs),
  },
  {
    name: 'check-absences',
    get everyMs() {
      return alertingTimings().absenceCheckIntervalMs;
    },
    run: (rt) => checkAbsences(rt),
  },
  {
    name: 'wake-snoozed-alerts',
    get everyMs() {
      return alertingTimings().snoozeWakeIntervalMs;
    },
    run: (rt) => wakeSnoozedAlerts(rt),
  },
];
