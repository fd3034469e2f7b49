/**
 * A periodic upkeep task: each area's worker module exports its tasks; workers/index.ts assembles the
 * list and workers/maintenance.ts schedules them (one BullMQ job scheduler per task, cluster-wide).
 */
import type { Runtime } from '../src/runtime.js';
import type { Config } from '../src/config.js';

export interface MaintenanceTask {
  name: string;
  /** The interval, from the configuration. */
  everyMs: (config: Config) => number;
  run(rt: Runtime): Promise<unknown>;
}
