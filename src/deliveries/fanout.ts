/**
 * Fan-out: one outbox message becomes one delivery per enabled webhook of its tenant, created before
 * the message, whose triggers match. The delivery body is fixed here, once, so every retry sends
 * identical bytes. Idempotent: the unique (webhookId, outboxId, createdAt) skips deliveries that exist (a
 * delivery's createdAt is its message's, so the key is stable across re-drives and also names the
 * partition).
 *
 * In a worker, the fan-out then makes the first attempts itself, from the rows in hand, and writes the
 * rows once with those attempts' outcomes (src/deliveries/first-write.ts): no queue hop and no second
 * read per delivery, and the sends of early messages start while later messages are still being fanned
 * out. Its job ends once every attempt is recorded or handed to the message's
 * first-attempts job (held back by the receiver's limits), so a job always stands for them: a killed
 * worker's fan-out job runs again (first attempts of deliveries an earlier run created go through that
 * job), and the sweeper leaves the deliveries alone while either job is live.
 */
import type { Runtime } from '../runtime.js';
import type { Prisma } from '../generated/prisma/client.js';
import { deliveryIdOf, ID_CLOCK_MARGIN_MS, uuidv7Millis } from './ids.js';
import { storedTriggers, webhookWants, type AnnouncedBody } from '../webhooks/triggers.js';
import { enqueueFirstAttempts } from './jobs.js';
import { attemptCreatedDeliveries } from './first-attempts.js';
import type { DeliveryEngine } from './deps.js';
import type { DeliveryWithWebhook } from './store.js';
import { FanOutWrite, writeFanOutRows, type PlannedDelivery } from './first-write.js';
import { hotQuery } from '../db/hot-sql.js';
import { sqlTimestamp } from '../db/timestamps.js';

/**
 * The exact JSON a receiver gets: the inbound envelope (`source`, `kind`, `severity`, `labels`,
 * `payload`) plus the delivery `id`, the `timestamp` of the change and its `topic`.
 */
function deliveryBody(deliveryId: string, msg: { topic: string; createdAt: Date; body: Prisma.JsonValue }): string {
  const b = (msg.body && typeof msg.body === 'object' && !Array.isArray(msg.body) ? msg.body : {}) as Record<string, unknown>;
  return JSON.stringify({
    id: deliveryId,
    timestamp: msg.createdAt.toISOString(),
    topic: msg.topic,
    source: b.source ?? 'ops-service',
    kind: typeof b.kind === 'string' ? b.kind : msg.topic,
    severity: b.severity ?? null,
    labels: b.labels ?? {},
    payload: b.payload ?? {},
  });
}

/** A row of the fan-out's first statement: the message, and one of its webhooks (none: nulls). */
interface MessageWithHook {
  id: string;
  tenantId: string;
  topic: string;
  body: Prisma.JsonValue;
  createdAt: Date;
  dispatchedAt: Date | null;
  hookId: string | null;
  triggers: Prisma.JsonValue;
  /** What a send needs of the webhook (its first attempts go out from here). */
  url: string | null;
  secretCiphertext: string | null;
  previousCiphertext: string | null;
  previousValidUntil: Date | null;
}

/**
 * The message and its tenant's enabled webhooks in one statement. Only webhooks that existed when the
 * change happened: a message re-driven later (the sweeper, a crashed run) must not reach a receiver
 * created after it.
 */
const READ_MESSAGE = `
  SELECT m."id", m."tenantId", m."topic", m."body", m."createdAt", m."dispatchedAt", w."id" AS "hookId", w."triggers",
         w."url", w."secretCiphertext", w."previousCiphertext", w."previousValidUntil"
    FROM "OutboxMessage" m
    LEFT JOIN "OutboundWebhook" w ON w."tenantId" = m."tenantId" AND w."enabled" AND w."createdAt" <= m."createdAt"
   WHERE m."id" = $1`;

/**
 * Reads the message by its id within a day of the time its UUIDv7 carries, so Postgres plans and probes
 * those days' partitions only (by id alone it probes every partition kept: ~0.9 against ~0.4 ms of its CPU
 * per read with 9 of them, and a month of history keeps 38); by its id alone when not found there.
 */
async function readMessage(rt: Runtime, outboxId: string): Promise<MessageWithHook[]> {
  const ms = uuidv7Millis(outboxId);
  if (ms !== undefined) {
    const near = await hotQuery<MessageWithHook>(rt.prisma, `${READ_MESSAGE} AND m."createdAt" BETWEEN $2::timestamp(3) AND $3::timestamp(3)`, [
      outboxId,
      sqlTimestamp(new Date(ms - ID_CLOCK_MARGIN_MS)),
      sqlTimestamp(new Date(ms + ID_CLOCK_MARGIN_MS)),
    ]);
    if (near.length) return near;
  }
  return hotQuery<MessageWithHook>(rt.prisma, READ_MESSAGE, [outboxId]);
}

/** The longest a fan-out keeps its place in the fan-out gate (src/deliveries/deps.ts). */
const GATE_HOLD_MAX_MS = 2_000;

/**
 * Creates the message's deliveries (once) and makes their first attempts (with `engine`, from here;
 * else through a first-attempts job); returns how many it created, or null when the message no longer
 * exists (purged after the retention period).
 */
export async function fanOutOutboxMessage(rt: Runtime, outboxId: string, engine?: DeliveryEngine): Promise<number | null> {
  if (!engine) return fanOut(rt, outboxId);
  await engine.fanOutGate.acquire();
  let open = true;
  const release = () => {
    if (!open) return;
    open = false;
    clearTimeout(bound);
    engine.fanOutGate.release();
  };
  // The gate paces; it never decides whether fan-out goes on: sends that cannot start (every send slot
  // held by receivers that do not answer, Redis failing over) give their place up after a while.
  const bound = setTimeout(release, GATE_HOLD_MAX_MS);
  try {
    return await fanOut(rt, outboxId, engine, release);
  } finally {
    release();
  }
}

async function fanOut(rt: Runtime, outboxId: string, engine?: DeliveryEngine, started?: () => void): Promise<number | null> {
  const found = await readMessage(rt, outboxId);
  if (found.length === 0) return null;
  const msg = found[0];
  const hooks = found.flatMap((r) => (r.hookId === null ? [] : [{ ...r, id: r.hookId }]));
  const body = msg.body as AnnouncedBody;
  // A message addressed to one webhook (a report schedule's) goes to it; triggers select the rest.
  const addressedTo = (body as { addressedTo?: unknown }).addressedTo;
  const wanted = hooks.filter((h) => h.id === addressedTo || webhookWants(storedTriggers(h.triggers), msg.topic, body));
  const now = rt.clock.now();
  const rows: PlannedDelivery[] = wanted.map((h) => {
    const id = deliveryIdOf(msg.id, h.id, msg.createdAt);
    return { id, tenantId: msg.tenantId, webhookId: h.id, outboxId: msg.id, topic: msg.topic, body: deliveryBody(id, msg) };
  });
  if (engine && rows.length && !msg.dispatchedAt) {
    // The usual case in a worker: the first attempts go out from here, from the rows in hand (no queue
    // hop, no second read), and the rows are written once, with those attempts' outcomes.
    return attemptHere(rt, engine, msg, rows, wanted, now, started);
  }
  // Otherwise (a process without an engine, a re-run) the rows go in `pending`, by the same statement, which
  // marks the message dispatched: if the process stops before the first attempts are enqueued, the
  // delivery sweeper re-drives them (src/deliveries/redrive.ts).
  const written = rows.length ? await writeFanOutRows(rt, msg, rows, new Map(), now) : new Set<string>();
  const created = rows.filter((r) => written.has(r.id)).map((r) => ({ id: r.id, webhookId: r.webhookId }));
  if (created.length === rows.length && !msg.dispatchedAt) {
    // This run created every delivery (a process without an engine): their first attempts go in one job.
    await enqueueFirstAttempts(rt, msg.id, created);
  } else {
    // A re-run (a crashed fan-out, the sweeper): every not-yet-attempted delivery of the message, also
    // those the earlier run created, goes to the first-attempts job.
    const due = await rt.prisma.delivery.findMany({ where: { outboxId: msg.id, attemptCount: 0, status: 'pending' }, select: { id: true, webhookId: true } });
    await enqueueFirstAttempts(rt, msg.id, due);
  }
  if (!msg.dispatchedAt && !rows.length) await rt.prisma.outboxMessage.updateMany({ where: { id: msg.id, createdAt: msg.createdAt, dispatchedAt: null }, data: { dispatchedAt: now } });
  return created.length;
}

/**
 * The first attempts of the message's deliveries, from the rows in hand, written once with their
 * outcomes (src/deliveries/first-write.ts). Waits for every send (so the fan-out's job stands for them
 * until they are recorded or handed on); the held ones go to the message's first-attempts job, delayed
 * until the first of them may go. Returns how many deliveries this run wrote.
 */
async function attemptHere(
  rt: Runtime,
  engine: DeliveryEngine,
  msg: MessageWithHook,
  rows: readonly PlannedDelivery[],
  hooks: readonly MessageWithHook[],
  now: Date,
  started?: () => void,
): Promise<number> {
  const hookOf = new Map(hooks.map((h) => [h.hookId!, h]));
  const write = new FanOutWrite(rt, engine.store, msg, rows, now);
  const loaded: DeliveryWithWebhook[] = rows.map((r) => {
    const h = hookOf.get(r.webhookId)!;
    return {
      id: r.id,
      tenantId: msg.tenantId,
      webhookId: r.webhookId,
      topic: msg.topic,
      attemptCount: 0,
      status: 'pending',
      body: r.body,
      nextAttemptAt: now,
      windowStartedAt: now,
      createdAt: msg.createdAt,
      webhook: { url: h.url!, enabled: true, secretCiphertext: h.secretCiphertext!, previousCiphertext: h.previousCiphertext, previousValidUntil: h.previousValidUntil },
    };
  });
  const { held } = await attemptCreatedDeliveries(rt, { ...engine, store: write }, loaded, started, (id) => write.done(id));
  const inserted = await write.inserted;
  // A delivery another run wrote first is that run's to attempt.
  const mine = held.filter((h) => inserted.has(h.deliveryId));
  if (mine.length) {
    const delayMs = Math.min(...mine.map((h) => h.retryInMs));
    await enqueueFirstAttempts(rt, msg.id, mine.map((h) => ({ id: h.deliveryId, webhookId: h.webhookId! })), delayMs);
  }
  return inserted.size;
}
