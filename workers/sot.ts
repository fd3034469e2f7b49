/**
 * The `sot` queue: reconcile a device (intent vs observed config → DriftReport + timeline event) and
 * apply an approved proposal. Both processors are idempotent; a job whose device or proposal no longer
 * exists fails at once (UnrecoverableError); an apply that keeps failing until its last attempt marks
 * the proposal `failed` with the error as the reason.
 */
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames, type JobPayloads } from '../src/queues.js';
import { reconcileDevice } from '../src/devices/reconcile.js';
import { applyProposal, failProposal, redriveApprovedProposals } from '../src/proposals/apply.js';
import { logJobFailure, workerOptions } from './connection.js';
import type { MaintenanceTask } from './task.js';

type SotJob = Job<JobPayloads['sot']>;

type SotResult = { driftReportId: string; inSync: boolean } | { outcome: 'applied' | 'failed' | 'skipped' };

async function process(rt: Runtime, job: SotJob): Promise<SotResult> {
  const data = job.data;
  if (data.task === 'reconcile') {
    const report = await reconcileDevice(rt, data.deviceId);
    if (!report) throw new UnrecoverableError(`device ${data.deviceId} no longer exists`);
    return { driftReportId: report.id, inSync: report.inSync };
  }
  const outcome = await applyProposal(rt, data.proposalId);
  if (outcome === 'gone') throw new UnrecoverableError(`proposal ${data.proposalId} no longer exists`);
  return { outcome };
}

/** Starts the `sot` worker. */
export async function startSotWorker(rt: Runtime): Promise<Worker[]> {
  const worker = new Worker<JobPayloads['sot'], SotResult>(
    QueueNames.sot,
    (job) => process(rt, job),
    workerOptions(rt, QueueNames.sot, { concurrency: 4 }),
  );
  worker.on('failed', (job, err) => {
    if (!job) return;
    logJobFailure(rt, err, { task: job.data.task }, 'sot job failed');
    const lastAttempt = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    if (job.data.task === 'applyProposal' && lastAttempt) {
      void failProposal(rt, job.data.proposalId, `Applying failed: ${err.message}`).catch((e: Error) =>
        rt.logger.error({ err: e }, 'could not mark proposal failed'),
      );
    }
  });
  return [worker];
}

/** Periodic upkeep of the sot area (registered in workers/maintenance.ts). */
export const sotTasks: MaintenanceTask[] = [
  { name: 'redrive-approved-proposals', everyMs: () => 60_000, run: (rt) => redriveApprovedProposals(rt) },
];
