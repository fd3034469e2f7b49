/**
 * The `reports` queue: one job per scheduled run of a report schedule (BullMQ job schedulers enqueue
 * them on the schedule's cron pattern and time zone). The processor is idempotent per job id.
 */
import { Worker, type Job } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames, type JobPayloads } from '../src/queues.js';
import { deliverScheduledReport, refreshReportSchedulers } from '../src/reports/schedules.js';
import { workerOptions } from './connection.js';
import type { MaintenanceTask } from './task.js';

/** Starts the `reports` worker. */
export async function startReportsWorker(rt: Runtime): Promise<Worker[]> {
  const worker = new Worker(
    QueueNames.reports,
    async (job: Job<JobPayloads['reports']>) =>
      deliverScheduledReport(rt, job.data.scheduleId, job.id ?? `${job.name}-${job.timestamp}`),
    workerOptions(rt, QueueNames.reports, { concurrency: 2 }),
  );
  worker.on('failed', (job, err) =>
    rt.logger.error({ err, scheduleId: job?.data.scheduleId }, 'report schedule run failed'),
  );
  return [worker];
}

/** Periodic upkeep of the reports area (registered in workers/maintenance.ts). */
export const reportTasks: MaintenanceTask[] = [
  {
    name: 'refresh-report-schedules',
    everyMs: (config) => config.scheduleRefreshMs * 6,
    run: (rt) => refreshReportSchedulers(rt),
  },
];
