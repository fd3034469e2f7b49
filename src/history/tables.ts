/**
 * The time-partitioned tables and how long each keeps its rows. The partitions themselves are made by
 * the SQL functions of the `time_partitions` migration (`ops_ensure_partitions`), called from here
 * (src/history/partitions.ts) ahead of time, and dropped whole by retention (src/history/retention.ts).
 */
import type { Config } from '../config.js';

export type PartitionUnit = 'day' | 'week';

export interface PartitionedTable {
  /** The table reported (`ops retention run`, metrics). */
  table: string;
  /** The range-partitioned table holding the partitions (GpuRollup: one per resolution). */
  parent: string;
  /** The partition key. */
  column: string;
  unit: PartitionUnit;
  /** Columns unique within each partition (a key that cannot include the partition column), or null. */
  uniqueCols: string | null;
  /** Rows whose key is older than this are removed, ms. */
  retentionMs(config: Config): number;
}

export const HOUR_MS = 3600_000;
export const DAY_MS = 24 * HOUR_MS;

const deliveryRetention = (c: Config) => c.webhooks.historyRetentionDays * DAY_MS;

/**
 * Daily ranges for the tables written all day long (events, deliveries, outbox, samples, minute
 * rollups), so that retention removes one day at a time; weekly for the slow ones (hour rollups, audit).
 */
export const PARTITIONED_TABLES: readonly PartitionedTable[] = [
  {
    table: 'Event',
    parent: 'Event',
    column: 'receivedAt',
    unit: 'day',
    uniqueCols: null,
    retentionMs: (c) => c.history.eventRetentionDays * DAY_MS,
  },
  {
    table: 'Delivery',
    parent: 'Delivery',
    column: 'createdAt',
    unit: 'day',
    uniqueCols: null,
    retentionMs: deliveryRetention,
  },
  {
    table: 'DeliveryAttempt',
    parent: 'DeliveryAttempt',
    column: 'deliveryCreatedAt',
    unit: 'day',
    uniqueCols: null,
    retentionMs: deliveryRetention,
  },
  {
    table: 'OutboxMessage',
    parent: 'OutboxMessage',
    column: 'createdAt',
    unit: 'day',
    uniqueCols: '"dedupKey"',
    retentionMs: deliveryRetention,
  },
  {
    table: 'GpuSample',
    parent: 'GpuSample',
    column: 'at',
    unit: 'day',
    uniqueCols: null,
    retentionMs: (c) => c.gpu.rawRetentionHours * HOUR_MS,
  },
  {
    table: 'GpuRollup',
    parent: 'GpuRollup_r60',
    column: 'bucket',
    unit: 'day',
    uniqueCols: null,
    retentionMs: (c) => c.gpu.minuteRollupRetentionDays * DAY_MS,
  },
  {
    table: 'GpuRollup',
    parent: 'GpuRollup_r3600',
    column: 'bucket',
    unit: 'week',
    uniqueCols: null,
    retentionMs: (c) => c.gpu.hourRollupRetentionDays * DAY_MS,
  },
  {
    table: 'AuditLog',
    parent: 'AuditLog',
    column: 'createdAt',
    unit: 'week',
    uniqueCols: null,
    retentionMs: (c) => c.history.auditRetentionDays * DAY_MS,
  },
];

/** The spec of a partitioned parent table, by name (throws for a table that is not one). */
export function partitionedTable(parent: string): PartitionedTable {
  const t = PARTITIONED_TABLES.find((x) => x.parent === parent);
  if (!t) throw new Error(`${parent} is not a time-partitioned table`);
  return t;
}
