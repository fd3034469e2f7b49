/**
 * Accepting events: validate and map the envelope, store it durably, then hand it to rule evaluation
 * and to live subscribers. `acceptEvent` resolves only after the row is committed, so a 202 means the
 * event survives any crash that follows. Evaluation is announced after commit (BullMQ `evaluate`, ids
 * only); if that enqueue is lost, the rules sweeper re-drives rows whose `evaluatedAt` is still null.
 */
import type { Ctx } from '../context.js';
import type { Runtime } from '../runtime.js';
import { Unauthenticated } from '../errors.js';
import { eventsAccepted } from '../metrics.js';
import { parseEnvelope, type EnvelopeEndpoint, type NewEvent } from './envelope.js';
import { InsertBatcher } from './batcher.js';
import { v7 as uuidv7 } from 'uuid';
import { serializeEvent, type ReceivedVia } from './announce.js';
import { enqueueEvaluation } from './evaluation-jobs.js';

export type { ReceivedVia };

/** A row as the batcher writes it. */
export interface EventRow extends NewEvent {
  id: string;
  tenantId: string;
  receivedVia: ReceivedVia;
  receivedAt: Date;
}

/** The process's ingest pipeline: the event batcher and the coalesced evaluation enqueue after it. */
export interface EventIngest {
  /**
   * Writes through the root client because one INSERT carries rows of several tenants; each row's tenantId
   * was stamped from its request's authenticated principal.
   */
  batcher: InsertBatcher<EventRow>;
  enqueuer: EvaluateEnqueuer;
}

declare module '../runtime.js' {
  interface RuntimeParts {
    eventIngest: EventIngest;
  }
}

/** Builds the runtime's ingest pipeline (src/server/runtime-parts.ts). */
export function createEventIngest(rt: Runtime): EventIngest {
  const enqueuer = new EvaluateEnqueuer(rt);
  const batcher = new InsertBatcher<EventRow>(
    (rows) => insertEventRows(rt, rows),
    (rows) => announceCommitted(rt, rows),
    { maxBatch: 200, maxInFlight: 4 },
  );
  // On shutdown: commit what was accepted, then enqueue its evaluation before the queues close.
  rt.onClose(async () => {
    await batcher.drain();
    enqueuer.flush();
  });
  return { batcher, enqueuer };
}

function batcherOf(rt: Runtime): InsertBatcher<EventRow> {
  return rt.parts.eventIngest.batcher;
}

/**
 * One INSERT for the whole batch: each column travels as one array parameter and `unnest` turns them
 * back into rows, so the statement text is the same whatever the batch size (no per-size query
 * planning in Prisma or Postgres). Autocommit: resolved means committed.
 */
async function insertEventRows(rt: Runtime, rows: EventRow[]): Promise<void> {
  const col = <T>(f: (r: EventRow) => T) => rows.map(f);
  await rt.prisma.$executeRaw`
    INSERT INTO "Event" ("id", "tenantId", "type", "module", "source", "summary", "severity", "labels", "payload", "receivedVia", "receivedAt")
    SELECT * FROM unnest(
      ${col((r) => r.id)}::text[], ${col((r) => r.tenantId)}::text[], ${col((r) => r.type)}::text[], ${col((r) => r.module)}::text[],
      ${col((r) => r.source)}::text[], ${col((r) => r.summary)}::text[], ${col((r) => r.severity)}::"Severity"[],
      ${col((r) => JSON.stringify(r.labels))}::jsonb[], ${col((r) => JSON.stringify(r.payload))}::jsonb[],
      ${col((r) => r.receivedVia)}::"ReceivedVia"[], ${col((r) => r.receivedAt.toISOString())}::timestamp(3)[]
    )`;
}

/**
 * Coalesces committed event ids into few `evaluate` jobs: ids gathered for up to EVALUATE_COALESCE_MS
 * (or EVALUATE_JOB_MAX ids) travel in one job. Under load this turns hundreds of small jobs a second
 * into a few large ones (far less Redis, BullMQ and transaction overhead in the worker) for a bounded
 * added latency. Ids not yet enqueued when a process dies are re-driven by the sweeper.
 */
const EVALUATE_COALESCE_MS = 50;
const EVALUATE_JOB_MAX = 500;

class EvaluateEnqueuer {
  private ids: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly rt: Runtime) {}

  add(ids: string[]): void {
    this.ids.push(...ids);
    if (this.ids.length >= EVALUATE_JOB_MAX) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), EVALUATE_COALESCE_MS);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.ids.length > 0) {
      const eventIds = this.ids.splice(0, EVALUATE_JOB_MAX);
      enqueueEvaluation(this.rt, eventIds).catch((err: Error) =>
        this.rt.logger.warn(
          { err: err.message, events: eventIds.length },
          'evaluate enqueue failed; the sweeper will re-drive these events',
        ),
      );
    }
  }
}

function enqueuerOf(rt: Runtime): EvaluateEnqueuer {
  return rt.parts.eventIngest.enqueuer;
}

/** After commit: evaluation is enqueued (coalesced), one pubsub message per event. Never throws. */
function announceCommitted(rt: Runtime, rows: EventRow[]): void {
  enqueuerOf(rt).add(rows.map((r) => r.id));
  for (const row of rows) {
    eventsAccepted.inc({ via: row.receivedVia });
    rt.pubsub.publish('eventAdded', row.tenantId, serializeEvent(row));
  }
}

export interface AcceptEventInput {
  /** The request body (shape A or B; see envelope.ts). */
  body: unknown;
  endpoint: EnvelopeEndpoint;
  via: ReceivedVia;
}

/**
 * Validates the envelope (422 listing fields), stores it for the caller's tenant and resolves with its
 * stored row once it is committed. `tenant_id` in the body is ignored: the tenant is the principal's.
 */
export async function acceptEvent(ctx: Ctx, input: AcceptEventInput): Promise<EventRow> {
  if (!ctx.principal) throw new Unauthenticated();
  const event = parseEnvelope(input.body, input.endpoint);
  const receivedAt = ctx.rt.clock.now();
  // uuid's v7 ids of one process strictly increase (a counter within the millisecond), so ids sort by
  // arrival: the SSE `Last-Event-ID` replay (src/events/timeline.ts) relies on that.
  const row: EventRow = {
    ...event,
    id: uuidv7(),
    tenantId: ctx.principal.tenantId,
    receivedVia: input.via,
    receivedAt,
  };
  await batcherOf(ctx.rt).add(row);
  return row;
}
