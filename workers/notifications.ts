/**
 * Paging a person: the `page` worker plans a page into notification rows (src/notifications/plan.ts),
 * the `notify` worker sends each row when due (src/notifications/send.ts), one job per row, so one
 * person's dead channel (retries, timeouts) never holds another's send. The sweeper re-drives due rows
 * whose job was lost or whose delay the service clock has already passed.
 */
import { Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames, type JobPayloads } from '../src/queues.js';
import { planPage, redriveDueNotifications } from '../src/notifications/plan.js';
import { deliverNotification } from '../src/notifications/send.js';
import { logJobFailure, workerOptions } from './connection.js';
import type { MaintenanceTask } from './task.js';

/** Starts the page-planning and notification-sending workers. */
export async function startNotificationWorkers(rt: Runtime): Promise<Worker[]> {
  const page = new Worker<JobPayloads['page'], { planned: number }>(
    QueueNames.page,
    (job) => planPage(rt, job.data),
    workerOptions(rt, QueueNames.page, { concurrency: 8 }),
  );
  page.on('failed', (job, err) =>
    logJobFailure(rt, err, { groupId: job?.data.groupId, userId: job?.data.userId }, 'page planning failed'),
  );
  const notify = new Worker<JobPayloads['notify'], string>(
    QueueNames.notify,
    (job) => deliverNotification(rt, job.data.notificationId, job.attemptsMade + 1 >= (job.opts.attempts ?? 1)),
    workerOptions(rt, QueueNames.notify, { concurrency: rt.config.notify.concurrency }),
  );
  notify.on('failed', (job, err) =>
    rt.logger.warn(
      { err: err.message, notificationId: job?.data.notificationId, attempt: job?.attemptsMade },
      'notification send failed; retrying',
    ),
  );
  return [page, notify];
}

/** The notifications sweeper (registered through workers/maintenance.ts). */
export const notificationTasks: MaintenanceTask[] = [
  {
    name: 'notifications-sweep',
    everyMs: (config) => config.notify.sweepIntervalMs,
    run: (rt) => redriveDueNotifications(rt),
  },
];
