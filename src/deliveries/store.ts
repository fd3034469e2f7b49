/**
 * The delivery hot path's database access, batched: concurrent attempts in one worker process share
 * one query to load their deliveries (DataLoader, a 2 ms window: a load stands before a send) and one
 * statement to record their outcomes (a 20 ms window: sends finish one by one, and a statement per
 * handful of outcomes cost Postgres and this process more than the rows; one per day partition the batch
 * touches), so database round trips do not grow with the number of deliveries in flight.
 */
import DataLoader from 'dataloader';
import type { Runtime } from '../runtime.js';
import type { DeliveryStatus } from '../generated/prisma/client.js';
import { hotQuery } from '../db/hot-sql.js';
import { sqlTimestamp } from '../db/timestamps.js';
import { quoteIdent } from '../db/quote-ident.js';
import { partitionName } from '../history/partitions.js';
import { partitionedTable } from '../history/tables.js';
import { ID_CLOCK_MARGIN_MS, uuidv7Millis } from './ids.js';

const DELIVERIES = partitionedTable('Delivery');
/** Postgres's undefined_table: the day's partition was not made (partition upkeep not running). */
const UNDEFINED_TABLE = '42P01';
/** How long a missing partition is taken for missing before it is tried again. */
const MISSING_PARTITION_RECHECK_MS = 60_000;

export interface DeliveryWithWebhook {
  id: string;
  tenantId: string;
  webhookId: string;
  topic: string;
  attemptCount: number;
  status: DeliveryStatus;
  body: string;
  nextAttemptAt: Date | null;
  windowStartedAt: Date;
  /** The partition key (its message's time). */
  createdAt: Date;
  webhook: {
    url: string;
    enabled: boolean;
    secretCiphertext: string;
    previousCiphertext: string | null;
    previousValidUntil: Date | null;
    previousSignsPrimary: boolean;
  };
}

/** One finished attempt and the delivery state it leads to. */
export interface AttemptRecord {
  deliveryId: string;
  /** The delivery's createdAt: bounds the statement to the partitions that hold the batch. */
  deliveryCreatedAt: Date;
  attempt: number;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  lastError: string | null;
  at: Date;
  attemptId: string;
  requestHeaders: Record<string, string>;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number;
  attemptError: string | null;
}

/** What an attempt needs of the store: the batched store, or a fan-out's write (src/deliveries/first-write.ts). */
export type AttemptStore = Pick<DeliveryStore, 'load' | 'record'>;

type Row = Omit<DeliveryWithWebhook, 'webhook'> & DeliveryWithWebhook['webhook'];

/**
 * The latest createdAt deliveries with these ids can have: a delivery id is a UUIDv7 at its message's
 * time, the delivery's createdAt (`deliveryIdOf`; ids made before that were made at fan-out, after the
 * message), plus a day's margin for clocks. Undefined when an id is no UUIDv7. Bounds the load to the
 * partitions up to then, not the days made ahead.
 */
function latestCreatedAt(ids: readonly string[]): Date | undefined {
  let max = 0;
  for (const id of ids) {
    const ms = uuidv7Millis(id);
    if (ms === undefined) return undefined;
    max = Math.max(max, ms);
  }
  return new Date(max + ID_CLOCK_MARGIN_MS);
}

const NO_BOUND = new Date('9999-12-31T00:00:00Z');

/** A timestamp as the database stores it (UTC, no zone). */
function ts(d: Date | null): string | null {
  return d ? sqlTimestamp(d) : null;
}

export class DeliveryStore {
  private readonly loader: DataLoader<string, DeliveryWithWebhook | null>;
  private readonly recorder: DataLoader<AttemptRecord, boolean>;
  /** Partitions found missing, until when they are not tried again (epoch ms). */
  private readonly missingPartitions = new Map<string, number>();

  constructor(
    private readonly rt: Runtime,
    windows: { loadMs: number; recordMs: number } = { loadMs: 2, recordMs: 20 },
  ) {
    const after = (ms: number) => (cb: () => void) => setTimeout(cb, ms);
    this.loader = new DataLoader((ids) => this.loadMany(ids), {
      cache: false,
      maxBatchSize: 256,
      batchScheduleFn: after(windows.loadMs),
    });
    this.recorder = new DataLoader((recs) => this.recordMany(recs), {
      cache: false,
      maxBatchSize: 512,
      batchScheduleFn: after(windows.recordMs),
    });
  }

  /** The delivery with the webhook fields a send needs; null when it no longer exists. */
  load(deliveryId: string): Promise<DeliveryWithWebhook | null> {
    return this.loader.load(deliveryId);
  }

  /**
   * Records the attempt and the new delivery state atomically, only if this attempt number is the next
   * one and the delivery is still open. True when recorded; false when someone recorded it first.
   */
  record(rec: AttemptRecord): Promise<boolean> {
    return this.recorder.load(rec);
  }

  private async loadMany(ids: readonly string[]): Promise<Array<DeliveryWithWebhook | null>> {
    const rows = await hotQuery<Row>(
      this.rt.prisma,
      `SELECT d."id", d."tenantId", d."webhookId", d."topic", d."attemptCount", d."status"::text AS "status", d."body", d."nextAttemptAt", d."windowStartedAt", d."createdAt",
              w."url", w."enabled", w."secretCiphertext", w."previousCiphertext", w."previousValidUntil", w."previousSignsPrimary"
         FROM "Delivery" d JOIN "OutboundWebhook" w ON w."id" = d."webhookId"
        WHERE d."id" = ANY($1::text[]) AND d."createdAt" <= $2::timestamp(3)`,
      [[...ids], ts(latestCreatedAt(ids) ?? NO_BOUND)],
    );
    // Fields spelled out: a rest-and-spread object costs V8 far more (src/deliveries/first-write.ts).
    const byId = new Map<string, DeliveryWithWebhook>();
    for (const r of rows) {
      byId.set(r.id, {
        id: r.id,
        tenantId: r.tenantId,
        webhookId: r.webhookId,
        topic: r.topic,
        attemptCount: r.attemptCount,
        status: r.status,
        body: r.body,
        nextAttemptAt: r.nextAttemptAt,
        windowStartedAt: r.windowStartedAt,
        createdAt: r.createdAt,
        webhook: {
          url: r.url,
          enabled: r.enabled,
          secretCiphertext: r.secretCiphertext,
          previousCiphertext: r.previousCiphertext,
          previousValidUntil: r.previousValidUntil,
          previousSignsPrimary: r.previousSignsPrimary,
        },
      });
    }
    return ids.map((id) => byId.get(id) ?? null);
  }

  private async recordMany(recs: readonly AttemptRecord[]): Promise<boolean[]> {
    // One record per delivery per statement; a duplicate in the same batch loses (it is a stale job).
    const first = new Map<string, AttemptRecord>();
    for (const r of recs) if (!first.has(r.deliveryId)) first.set(r.deliveryId, r);
    // One statement per day partition of "Delivery" the batch touches (one, but around midnight).
    const byPartition = new Map<string, AttemptRecord[]>();
    for (const r of first.values()) {
      const part = partitionName(DELIVERIES, r.deliveryCreatedAt);
      const list = byPartition.get(part);
      if (list) list.push(r);
      else byPartition.set(part, [r]);
    }
    const done = await Promise.all([...byPartition].map(([part, list]) => this.recordIn(part, list)));
    const recorded = new Set(done.flat());
    return recs.map((r) => first.get(r.deliveryId) === r && recorded.has(r.deliveryId));
  }

  /**
   * Records `recs` (all of partition `part`) and returns the ids recorded. Addresses the partition
   * itself: a statement on the parent plans every partition (or, pruned by a time range, lets the
   * planner read the range's index), and a new day's partition has no statistics yet. Falls back to the
   * parent when the partition does not exist (rows then wait in the default partition).
   */
  private async recordIn(part: string, recs: readonly AttemptRecord[]): Promise<string[]> {
    const missingUntil = this.missingPartitions.get(part);
    if (missingUntil === undefined || missingUntil <= this.rt.clock.now().getTime()) {
      const recorded = await this.recordInPartition(part, recs);
      if (recorded) return recorded;
    }
    // The batch's span of createdAt lets Postgres skip every other partition of the parent.
    const created = recs.map((r) => r.deliveryCreatedAt.getTime());
    const range = ` AND d."createdAt" BETWEEN $2::timestamp(3) AND $3::timestamp(3)`;
    const rows = await hotQuery<{ deliveryId: string }>(
      this.rt.prisma,
      recordStatement(quoteIdent(DELIVERIES.parent), range),
      [attemptInput(recs), ts(new Date(Math.min(...created))), ts(new Date(Math.max(...created)))],
    );
    const recorded = rows.map((r) => r.deliveryId);
    if (recorded.length === recs.length) return recorded;
    // A row not found may have just moved out of the default partition into its day's partition, made
    // meanwhile (ops_ensure_partition moves them), after the statement above was planned: look there once
    // more. The statement's guard still records each attempt number at most once.
    const found = new Set(recorded);
    const again = await this.recordInPartition(
      part,
      recs.filter((r) => !found.has(r.deliveryId)),
    );
    return again ? [...recorded, ...again] : recorded;
  }

  /** The record on partition `part` itself; null when it does not exist (remembered for a while). */
  private async recordInPartition(part: string, recs: readonly AttemptRecord[]): Promise<string[] | null> {
    try {
      const rows = await hotQuery<{ deliveryId: string }>(this.rt.prisma, recordStatement(quoteIdent(part), ''), [
        attemptInput(recs),
      ]);
      this.missingPartitions.delete(part);
      return rows.map((r) => r.deliveryId);
    } catch (err) {
      if ((err as { code?: string }).code !== UNDEFINED_TABLE) throw err;
      this.missingPartitions.set(part, this.rt.clock.now().getTime() + MISSING_PARTITION_RECHECK_MS);
      return null;
    }
  }
}

/** The records as the statement's JSON input. */
function attemptInput(recs: readonly AttemptRecord[]): string {
  return JSON.stringify(
    recs.map((r) => ({
      id: r.deliveryId,
      createdAt: ts(r.deliveryCreatedAt),
      attempt: r.attempt,
      status: r.status,
      next: ts(r.nextAttemptAt),
      err: r.lastError,
      delivered: r.status === 'delivered' ? ts(r.at) : null,
      failed: r.status === 'failed' ? ts(r.at) : null,
      attemptId: r.attemptId,
      headers: r.requestHeaders,
      rs: r.responseStatus,
      rb: r.responseBody,
      dur: r.durationMs,
      aerr: r.attemptError,
      at: ts(r.at),
    })),
  );
}

/**
 * The attempt record: the delivery's new state, only if this attempt number is the next one and the
 * delivery is still open, and the attempt row for each delivery updated. Deliveries are found by their
 * whole primary key (id, createdAt); the status is compared as text so that no plan reads the status
 * index (on a partition without statistics the planner takes it for selective, and scans every open
 * delivery of the day instead of looking up the batch's rows).
 */
function recordStatement(table: string, range: string): string {
  return `
      WITH input AS (
        SELECT * FROM jsonb_to_recordset($1::jsonb) AS i("id" text, "createdAt" timestamp(3), "attempt" int, "status" text, "next" timestamp(3), "err" text,
          "delivered" timestamp(3), "failed" timestamp(3), "attemptId" text, "headers" jsonb, "rs" int, "rb" text, "dur" int, "aerr" text, "at" timestamp(3))
      ), upd AS (
        UPDATE ${table} d
           SET "status" = i."status"::"DeliveryStatus", "attemptCount" = i."attempt", "nextAttemptAt" = i."next", "lastError" = i."err",
               "deliveredAt" = i."delivered", "failedAt" = i."failed"
          FROM input i
         WHERE d."id" = i."id" AND d."createdAt" = i."createdAt"${range}
           AND d."attemptCount" = i."attempt" - 1 AND d."status"::text IN ('pending', 'retrying')
        RETURNING d."id", d."createdAt"
      )
      INSERT INTO "DeliveryAttempt" ("id", "deliveryId", "deliveryCreatedAt", "number", "requestHeaders", "responseStatus", "responseBody", "durationMs", "error", "createdAt")
      SELECT i."attemptId", i."id", upd."createdAt", i."attempt", i."headers", i."rs", i."rb", i."dur", i."aerr", i."at" FROM input i JOIN upd ON upd."id" = i."id"
      RETURNING "deliveryId"`;
}
