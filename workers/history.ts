/**
 * Partitioned history upkeep: partitions of the coming days are created every hour (the table keeps
 * PARTITIONS_AHEAD_DAYS ahead, so a missed run or two changes nothing), and retention drops expired
 * partitions every hour. Both are counted in /metrics (retention_*).
 */
import { ensureAllPartitions } from '../src/history/partitions.js';
import { runRetention } from '../src/history/retention.js';
import type { MaintenanceTask } from './task.js';

export const historyTasks: MaintenanceTask[] = [
  {
    name: 'partitions-ahead',
    everyMs: () => 3600_000,
    run: (rt) => ensureAllPartitions(rt.prisma, rt.clock.now(), rt.config.history.partitionsAheadDays),
  },
  {
    name: 'retention',
    everyMs: () => 3600_000,
    run: async (rt) => (await runRetention(rt)).tables.filter((t) => t.partitionsDropped.length || t.rowsDeleted),
  },
];
