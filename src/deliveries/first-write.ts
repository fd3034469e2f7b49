/**
 * The rows of one fan-out, written once with their first attempts' outcomes: a delivery whose first
 * attempt has finished is inserted already delivered (or retrying, or failed) together with its attempt
 * row, in the statement that also marks the message dispatched. Against inserting every delivery
 * `pending` and then updating it with the outcome, that is one heap row per delivery instead of two (the
 * update could not be HOT: it changes indexed columns) and no record statement: about 40% less Postgres
 * CPU for these statements in a probe of them alone, 17% less of all Postgres CPU per delivery in
 * bench:deliveries (as measured in the commit that made the change).
 *
 * At-least-once holds: until the statement commits the message is not dispatched, so a worker killed
 * before it runs the fan-out again, which sends the same deliveries under the same ids (src/deliveries/ids.ts)
 * and the receivers deduplicate them. The write waits for every first attempt to finish, or is held back,
 * but no longer than `waitMs`: then what is still in flight is written `pending` and its outcome goes
 * through the store's usual record (so a receiver that hangs keeps no row from the history for long).
 * Subscribers hear `pending` for every delivery written, then each outcome, in that order.
 */
import type { Runtime } from '../runtime.js';
import type { AttemptRecord, AttemptStore, DeliveryWithWebhook } from './store.js';
import { announceDeliveries } from './announce.js';
import { hotQuery } from '../db/hot-sql.js';
import { sqlTimestamp } from '../db/timestamps.js';

/** A delivery the fan-out plans: its row as it would be written `pending`. */
export interface PlannedDelivery {
  id: string;
  tenantId: string;
  webhookId: string;
  outboxId: string;
  topic: string;
  body: string;
}

/** The longest the write waits for first attempts before writing the unfinished ones `pending`. */
export const FIRST_WRITE_WAIT_MS = 1_000;

/** A time as epoch ms for the statement's JSON (a number: no text to build per row); SQL turns it back exactly. */
function ms(d: Date | null): number | null {
  return d ? d.getTime() : null;
}

/** What a delivery body starts with: its id, first (src/deliveries/fanout.ts builds bodies this way). */
const PLAIN_ID = /^[0-9A-Za-z-]+$/;

/**
 * The part every row's body shares after its `{"id":"…",` head, when they all have that shape (a
 * fan-out's bodies differ only in their id): the statement then carries it once, not once per row
 * (60 copies of a body's JSON-escaped text, ~1 KB each here, were most of the statement). Undefined
 * otherwise (then every body goes as it is). Ids of other characters than letters, digits and dashes
 * are not matched, so the SQL's concatenation gives exactly the same bytes.
 */
function sharedRest(rows: readonly PlannedDelivery[]): string | undefined {
  if (rows.length < 2) return undefined;
  const head = (id: string) => `{"id":"${id}",`;
  const first = rows[0];
  if (!PLAIN_ID.test(first.id) || !first.body.startsWith(head(first.id))) return undefined;
  const rest = first.body.slice(head(first.id).length);
  for (const r of rows) {
    const h = head(r.id);
    if (
      r.body.length !== h.length + rest.length ||
      !PLAIN_ID.test(r.id) ||
      !r.body.startsWith(h) ||
      !r.body.endsWith(rest)
    )
      return undefined;
  }
  return rest;
}

/**
 * One fan-out's write. Serves its attempts as their store: `record` holds a first attempt's outcome for
 * the write (and answers once the row is written), `done` says an attempt ended without one.
 */
export class FanOutWrite {
  private readonly outcomes = new Map<string, AttemptRecord>();
  private readonly ended = new Set<string>();
  private written: Promise<Set<string>> | undefined;
  private readonly timer: NodeJS.Timeout;
  private resolveWritten!: (ids: Set<string>) => void;
  private rejectWritten!: (err: unknown) => void;
  /** Resolves with the ids inserted (a concurrent run may have written some first). */
  readonly inserted: Promise<Set<string>>;

  constructor(
    private readonly rt: Runtime,
    private readonly store: AttemptStore,
    private readonly msg: { id: string; createdAt: Date },
    private readonly rows: readonly PlannedDelivery[],
    private readonly now: Date,
    waitMs = FIRST_WRITE_WAIT_MS,
  ) {
    this.inserted = new Promise((resolve, reject) => {
      this.resolveWritten = resolve;
      this.rejectWritten = reject;
    });
    // A rejection is seen by whoever awaits `inserted` or a record; none may be left unhandled.
    this.inserted.catch(() => undefined);
    this.timer = setTimeout(() => void this.write(), waitMs);
    if (rows.length === 0) void this.write();
  }

  load(deliveryId: string): Promise<DeliveryWithWebhook | null> {
    return this.store.load(deliveryId);
  }

  /** A first attempt's outcome: written with its row, or (after the write) recorded as usual. */
  async record(rec: AttemptRecord): Promise<boolean> {
    if (this.written) {
      // Not before the write has committed: the row it updates is in it.
      await this.written.catch(() => undefined);
      return this.store.record(rec);
    }
    this.outcomes.set(rec.deliveryId, rec);
    this.end(rec.deliveryId);
    return (await this.inserted).has(rec.deliveryId);
  }

  /** The attempt of `deliveryId` ended without an outcome to write (held back, skipped, failed to run). */
  done(deliveryId: string): void {
    this.end(deliveryId);
  }

  private end(deliveryId: string): void {
    this.ended.add(deliveryId);
    if (this.ended.size >= this.rows.length) void this.write();
  }

  /** Writes the rows (once): those with an outcome as it is, the others `pending`. */
  private write(): Promise<Set<string>> {
    if (this.written) return this.written;
    clearTimeout(this.timer);
    this.written = this.insert().then(
      (ids) => {
        this.resolveWritten(ids);
        return ids;
      },
      (err: unknown) => {
        this.rejectWritten(err);
        throw err;
      },
    );
    this.written.catch(() => undefined);
    return this.written;
  }

  private insert(): Promise<Set<string>> {
    return writeFanOutRows(this.rt, this.msg, this.rows, this.outcomes, this.now);
  }
}

/**
 * Writes a fan-out's rows in one statement (bodies are large; this is on the path of every announced
 * change): each with its first attempt's outcome from `outcomes` and that attempt's row, the others
 * `pending`; and marks the message dispatched in the same statement. The message is named by its whole
 * key, so the mark plans and probes its own day's partition, not every partition kept. Returns the ids
 * inserted (a delivery that exists is left alone) and announces them `pending`, before any outcome.
 */
export async function writeFanOutRows(
  rt: Runtime,
  msg: { id: string; createdAt: Date },
  rows: readonly PlannedDelivery[],
  outcomes: ReadonlyMap<string, AttemptRecord>,
  now: Date,
): Promise<Set<string>> {
  const at = sqlTimestamp(now);
  const rest = sharedRest(rows);
  // Every field spelled out: a spread followed by new properties costs V8 about 20 µs an object here
  // (a fifth of this module's time in a profile of bench:deliveries), the literal well under 1 µs.
  const input = rows.map((r) => {
    const o = outcomes.get(r.id);
    return {
      id: r.id,
      tenantId: r.tenantId,
      webhookId: r.webhookId,
      outboxId: r.outboxId,
      topic: r.topic,
      body: rest === undefined ? r.body : null,
      status: o ? o.status : 'pending',
      attempts: o ? o.attempt : 0,
      next: o ? ms(o.nextAttemptAt) : now.getTime(),
      err: o ? o.lastError : null,
      delivered: o?.status === 'delivered' ? ms(o.at) : null,
      failed: o?.status === 'failed' ? ms(o.at) : null,
      attemptId: o ? o.attemptId : null,
      headers: o ? o.requestHeaders : null,
      rs: o ? o.responseStatus : null,
      rb: o ? o.responseBody : null,
      dur: o ? o.durationMs : null,
      aerr: o ? o.attemptError : null,
      at: o ? ms(o.at) : null,
    };
  });
  const written = await hotQuery<{ id: string }>(rt.prisma, FIRST_WRITE, [
    sqlTimestamp(msg.createdAt),
    JSON.stringify(input),
    at,
    msg.id,
    rest ?? null,
  ]);
  const ids = new Set(written.map((r) => r.id));
  // Announced before any outcome is (the attempts' own announcements follow their records' answers).
  await announceDeliveries(
    rt,
    rows
      .filter((r) => ids.has(r.id))
      .map((r) => ({
        id: r.id,
        tenantId: r.tenantId,
        webhookId: r.webhookId,
        topic: r.topic,
        status: 'pending',
        attemptCount: 0,
        lastError: null,
        nextAttemptAt: now,
        responseStatus: null,
      })),
  );
  return ids;
}

/**
 * The fan-out's rows with their first outcomes, their attempt rows, and the message's dispatched mark,
 * in one statement. Idempotent: a delivery that exists (same webhook, message and time) is left alone,
 * and so is its attempt. Times come as epoch ms (exact: whole milliseconds added to the epoch); a body
 * as its own text, or (`body` null) as its id's head and the rest the rows share ($5, see `sharedRest`).
 */
const FIRST_WRITE = `
  WITH raw AS (
    SELECT * FROM jsonb_to_recordset($2::jsonb) AS i("id" text, "tenantId" text, "webhookId" text, "outboxId" text, "topic" text, "body" text,
      "status" text, "attempts" int, "next" bigint, "err" text, "delivered" bigint, "failed" bigint,
      "attemptId" text, "headers" jsonb, "rs" int, "rb" text, "dur" int, "aerr" text, "at" bigint)
  ), input AS (
    SELECT r."id", r."tenantId", r."webhookId", r."outboxId", r."topic", coalesce(r."body", '{"id":"' || r."id" || '",' || $5::text) AS "body",
           r."status", r."attempts", timestamp '1970-01-01' + r."next" * interval '1 millisecond' AS "next", r."err",
           timestamp '1970-01-01' + r."delivered" * interval '1 millisecond' AS "delivered", timestamp '1970-01-01' + r."failed" * interval '1 millisecond' AS "failed",
           r."attemptId", r."headers", r."rs", r."rb", r."dur", r."aerr", timestamp '1970-01-01' + r."at" * interval '1 millisecond' AS "at"
      FROM raw r
  ), ins AS (
    INSERT INTO "Delivery" ("id", "tenantId", "webhookId", "outboxId", "topic", "body", "status", "attemptCount", "nextAttemptAt", "lastError",
                            "deliveredAt", "failedAt", "windowStartedAt", "createdAt")
    SELECT i."id", i."tenantId", i."webhookId", i."outboxId", i."topic", i."body", i."status"::"DeliveryStatus", i."attempts", i."next", i."err",
           i."delivered", i."failed", $3::timestamp(3), $1::timestamp(3)
      FROM input i
    ON CONFLICT ("webhookId", "outboxId", "createdAt") DO NOTHING
    RETURNING "id"
  ), att AS (
    INSERT INTO "DeliveryAttempt" ("id", "deliveryId", "deliveryCreatedAt", "number", "requestHeaders", "responseStatus", "responseBody", "durationMs", "error", "createdAt")
    SELECT i."attemptId", i."id", $1::timestamp(3), i."attempts", i."headers", i."rs", i."rb", i."dur", i."aerr", i."at"
      FROM input i JOIN ins ON ins."id" = i."id"
     WHERE i."attemptId" IS NOT NULL
  ), mark AS (
    UPDATE "OutboxMessage" SET "dispatchedAt" = $3::timestamp(3) WHERE "id" = $4 AND "createdAt" = $1::timestamp(3) AND "dispatchedAt" IS NULL
  )
  SELECT "id" FROM ins`;
