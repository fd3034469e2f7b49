/**
 * The `gpuDiagnostics` and `aiperf` queues: run a diagnostics request, drive a load-test run. Both
 * processors are idempotent (they claim their row by status); a load-test job has one attempt, and a
 * run left `running` by a dead worker is failed by the maintenance sweep.
 */
import { Worker, type Job } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames, type JobPayloads } from '../src/queues.js';
import { executeGpuDiagnostic, failGpuDiagnostic, redriveQueuedGpuDiagnostics } from '../src/gpu/diagnostics.js';
import { failStaleAiperfRuns, redriveQueuedAiperfRuns } from '../src/gpu/aiperf.js';
import { executeAiperfRun } from '../src/gpu/aiperf-execute.js';
import { workerOptions } from './connection.js';
import type { MaintenanceTask } from './task.js';

/** Starts the diagnostics worker and the load-test worker. */
export async function startGpuRunWorkers(rt: Runtime): Promise<Worker[]> {
  const diagnostics = new Worker(
    QueueNames.gpuDiagnostics,
    async (job: Job<JobPayloads['gpuDiagnostics']>) => ({
      result: await executeGpuDiagnostic(rt, job.data.diagnosticId),
    }),
    workerOptions(rt, QueueNames.gpuDiagnostics, { concurrency: 4 }),
  );
  diagnostics.on('failed', (job, err) => {
    if (!job) return;
    rt.logger.error({ err, diagnosticId: job.data.diagnosticId }, 'gpu diagnostic job failed');
    if (job.attemptsMade >= (job.opts.attempts ?? 1)) {
      void failGpuDiagnostic(rt, job.data.diagnosticId, `The diagnostics job failed: ${err.message}`).catch(
        (e: Error) => rt.logger.error({ err: e }, 'could not mark diagnostic failed'),
      );
    }
  });
  // Long-running jobs: a generous lock, renewed by BullMQ while the run is driven.
  const shutdown = new AbortController();
  const aiperf = new Worker(
    QueueNames.aiperf,
    async (job: Job<JobPayloads['aiperf']>) => ({
      status: await executeAiperfRun(rt, job.data.runId, shutdown.signal),
    }),
    workerOptions(rt, QueueNames.aiperf, { concurrency: 2, lockDuration: 60_000 }),
  );
  // close() waits for running jobs: a run of up to two hours must stop instead (it ends failed, saying why).
  aiperf.on('closing', () => shutdown.abort());
  aiperf.on('failed', (job, err) => {
    if (job) rt.logger.error({ err, runId: job.data.runId }, 'aiperf job failed');
  });
  return [diagnostics, aiperf];
}

/** Periodic upkeep of GPU runs (registered in workers/index.ts). */
export const gpuRunTasks: MaintenanceTask[] = [
  { name: 'fail-stale-aiperf-runs', everyMs: () => 10 * 60_000, run: (rt) => failStaleAiperfRuns(rt) },
  {
    name: 'redrive-queued-gpu-runs',
    everyMs: () => 60_000,
    run: async (rt) => ({
      diagnostics: await redriveQueuedGpuDiagnostics(rt),
      runs: await redriveQueuedAiperfRuns(rt),
    }),
  },
];
