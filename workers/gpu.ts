/**
 * GPU telemetry upkeep: rollups of recent buckets and of backfills no process rolled up (every minute), GPUs that stopped reporting (every
 * expected sample interval). Retention of samples and rollups drops their partitions (workers/history.ts).
 */
import { rollUpRecent } from '../src/gpu/rollups.js';
import { rollUpStaleBackfills } from '../src/gpu/backfill-rollups.js';
import { markMissingGpus } from '../src/gpu/missing.js';
import type { MaintenanceTask } from './task.js';

export const gpuTasks: MaintenanceTask[] = [
  {
    name: 'gpu-rollups',
    everyMs: () => 60_000,
    run: async (rt) => ({
      ...(await rollUpRecent(rt, rt.clock.now())),
      staleBackfills: await rollUpStaleBackfills(rt, rt.clock.now()),
    }),
  },
  { name: 'gpu-missing', everyMs: (c) => c.gpu.sampleIntervalMs, run: (rt) => markMissingGpus(rt) },
];
