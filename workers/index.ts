/**
 * Starts every BullMQ worker of this process; `close()` lets running jobs finish (SIGTERM).
 */
import type { Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { startMaintenance } from './maintenance.js';

export interface Workers {
  workers: Worker[];
  close(): Promise<void>;
}

export async function startWorkers(rt: Runtime): Promise<Workers> {
  const workers: Worker[] = [await startMaintenance(rt)];
  return {
    workers,
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
