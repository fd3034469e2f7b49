/**
 * Starts every BullMQ worker of this process; `close()` lets running jobs finish (SIGTERM).
 * Each area contributes a starter (its workers) and maintenance tasks (workers/maintenance.ts).
 */
import type { Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { startMaintenance } from './maintenance.js';
import { startSotWorker } from './sot.js';
import { startEvaluateWorker } from './evaluate.js';
import { startOutboxWorkers } from './outbox.js';
import { startDeliveryWorkers } from './deliveries.js';

export interface Workers {
  workers: Worker[];
  close(): Promise<void>;
}

/** A function that starts an area's workers. */
export type WorkerStarter = (rt: Runtime) => Promise<Worker[]>;

const starters: WorkerStarter[] = [async (rt) => [await startMaintenance(rt)], startEvaluateWorker, startSotWorker, startOutboxWorkers, startDeliveryWorkers];

export async function startWorkers(rt: Runtime): Promise<Workers> {
  const workers: Worker[] = [];
  for (const start of starters) workers.push(...(await start(rt)));
  return {
    workers,
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
