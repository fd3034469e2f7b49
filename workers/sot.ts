/**
 * The `sot` queue: reconcile a device (intent vs observed config → DriftReport + timeline event) and
 * apply an approved proposal. Both processors are idempotent; an apply that keeps failing until its
 * last attempt marks the proposal `failed` with the error as the reason.
 */
import { Worker, type Job } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames, type JobPayloads } from '../src/queues.js';
import { reconcileDevice } from '../src/devices/reconcile.js';
import { applyProposal, failProposal, redriveApprovedProposals } from '../src/proposals/apply.js';
import { workerOptions } from './connection.js';
import type { MaintenanceTask } from './maintenance.js';

type SotJob = Job<JobPayloads['sot']>;

async function process(rt: Runtime, job: SotJob): Promise<unknown> {
  const data = job.data;
  if (data.task === 'reconcile') {
    const report = await reconcileDevice(rt, data.deviceId);
    return report ? { driftReportId: report.id, inSync: report.inSync } : { skipped: 'device not found' };
  }
  if (data.task === 'applyProposal') return { outcome: await applyProposal(rt, data.proposalId) };
  return null;
}

/** Starts the `sot` worker. */
export async function startSotWorker(rt: Runtime): Promise<Worker[]> {
  const worker = new Worker(QueueNames.sot, (job: SotJob) => process(rt, job), workerOptions(rt, { concurrency: 4 }));
  worker.on('failed', (job, err) => {
    if (!job) return;
    rt.logger.error({ err, task: job.data.task }, 'sot job failed');
    const lastAttempt = job.attemptsMade >= (job.opts.attempts ?? 1);
    if (job.data.task === 'applyProposal' && lastAttempt) {
      void failProposal(rt, job.data.proposalId, `Applying failed: ${err.message}`).catch((e: Error) => rt.logger.error({ err: e }, 'could not mark proposal failed'));
    }
  });
  return [worker];
}

/** Periodic upkeep of the sot area (registered in workers/maintenance.ts). */
export const sotTasks: MaintenanceTask[] = [{ name: 'redrive-approved-proposals', everyMs: () => 60_000, run: (rt) => redriveApprovedProposals(rt) }];
