/**
 * The `escalation` queue: one job per timer (group, step, round, epoch: escalationJobId), delayed to the step's due
 * time. The processor runs the step exactly once (src/escalation/engine.ts: a compare-and-set on the group's step);
 * a stale timer (the step ran, a newer epoch, the group stopped firing) does nothing. The sweeper task runs steps
 * that are due on the service clock whose timer was lost, and sends pages a dead process left unsent.
 */
import { Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames, type JobPayloads } from '../src/queues.js';
import { runEscalationTimer } from '../src/escalation/engine.js';
import { sweepEscalations } from '../src/escalation/sweep.js';
import { logJobFailure, workerOptions } from './connection.js';
import type { MaintenanceTask } from './task.js';

/** Starts the `escalation` worker. */
export async function startEscalationWorker(rt: Runtime): Promise<Worker[]> {
  const worker = new Worker<JobPayloads['escalation']>(
    QueueNames.escalation,
    async (job) => runEscalationTimer(rt, job.data),
    workerOptions(rt, QueueNames.escalation, { concurrency: 4 }),
  );
  worker.on('failed', (job, err) =>
    logJobFailure(rt, err, { groupId: job?.data.groupId, step: job?.data.step }, 'escalation step failed'),
  );
  return [worker];
}

/** The escalation sweeper (config.alerting.escalationSweepIntervalMs). */
export const escalationTasks: MaintenanceTask[] = [
  {
    name: 'sweep-escalations',
    everyMs: (c) => c.alerting.escalationSweepIntervalMs,
    run: (rt) => sweepEscalations(rt),
  },
];
