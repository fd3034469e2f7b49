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
import { setTimeout as sleep } from 'node:timers/promises';
import type { Runtime } from '../runtime.js';
import type { Prisma } from '../generated/prisma/client.js';
import { deliveryIdOf, ID_CLOCK_MARGIN_MS, uuidv7Millis } from './ids.js';
import { storedTriggers, webhookWants, type AnnouncedBody } from '../webhooks/triggers.js';
import { enqueueFirstAttempts } from './jobs.js';
import { WAIT_HERE_EACH_MS } from './first-attempts.js';
import { attempt } from './engine.js';
import type { DeliveryEngine } from './deps.js';
import type { DeliveryWithWebhook } from './store.js';
import { FanOutWrite, FIRST_WRITE_WAIT_MS, writeFanOutRows, type PlannedDelivery } from './first-write.js';
import { hotQuery } from '../db/hot-sql.js';
import { sqlTimestamp, utcFromSql } from '../db/timestamps.js';

/**
 * The exact JSON a receiver gets: the inbound envelope (`source`, `kind`, `severity`, `labels`,
 * `payload`) plus the delivery `id`, the `timestamp` of the change and its `topic`. Returns a function of
 * the delivery id: the deliveries of one message differ only in their id, which comes first, so the rest
 * is serialized once per message (the same bytes as serializing each body whole).
 */
function deliveryBodies(msg: {
  topic: string;
  createdAt: Date;
  body: Prisma.JsonValue;
}): (deliveryId: string) => string {
  const b = (msg.body && typeof msg.body === 'object' && !Array.isArray(msg.body) ? msg.body : {}) as Record<
    string,
    unknown
  >;
  const rest = JSON.stringify({
    timestamp: msg.createdAt.toISOString(),
    topic: msg.topic,
    source: b.source ?? 'ops-service',
    kind: typeof b.kind === 'string' ? b.kind : msg.topic,
    severity: b.severity ?? null,
    labels: b.labels ?? {},
    payload: b.payload ?? {},
  });
  return (deliveryId) => `{"id":${JSON.stringify(deliveryId)},${rest.slice(1)}`;
}

/** One of the tenant's webhooks as the fan-out's statement gives it: what matching and a send need. */
interface Hook {
  id: string;
  triggers: Prisma.JsonValue;
  url: string;
  secretCiphertext: string;
  previousCiphertext: string | null;
  previousValidUntil: Date | null;
  previousSignsPrimary: boolean;
}

/** The fan-out's first statement: the message, and its tenant's webhooks then enabled. */
interface MessageWithHooks {
  id: string;
  tenantId: string;
  topic: string;
  body: Prisma.JsonValue;
  createdAt: Date;
  dispatchedAt: Date | null;
  hooks: Array<Omit<Hook, 'previousValidUntil'> & { previousValidUntil: string | null }>;
}

/**
 * The message and its tenant's enabled webhooks in one statement, as one row: the webhooks as a JSON
 * array beside the message, not one joined row each (which repeated the message's body per webhook and
 * had every column of every row parsed on its own). Only webhooks that existed when the change happened:
 * a message re-driven later (the sweeper, a crashed run) must not reach a receiver created after it.
 */
const READ_MESSAGE = `
  SELECT m."id", m."tenantId", m."topic", m."body", m."createdAt", m."dispatchedAt",
         (SELECT coalesce(json_agg(json_build_object('id', w."id", 'triggers', w."triggers", 'url', w."url", 'secretCiphertext', w."secretCiphertext",
                                                     'previousCiphertext', w."previousCiphertext", 'previousValidUntil', w."previousValidUntil",
                                                     'previousSignsPrimary', w."previousSignsPrimary")), '[]')
            FROM "OutboundWebhook" w
           WHERE w."tenantId" = m."tenantId" AND w."enabled" AND w."createdAt" <= m."createdAt") AS "hooks"
    FROM "OutboxMessage" m
   WHERE m."id" = $1`;

/**
 * Reads the message by its id within a day of the time its UUIDv7 carries, so Postgres plans and probes
 * those days' partitions only (by id alone it probes every partition kept: ~0.9 against ~0.4 ms of its CPU
 * per read with 9 of them, and a month of history keeps 38); by its id alone when not found there.
 */
async function readMessage(rt: Runtime, outboxId: string): Promise<MessageWithHooks | undefined> {
  const ms = uuidv7Millis(outboxId);
  if (ms !== undefined) {
    const near = await hotQuery<MessageWithHooks>(
      rt.prisma,
      `${READ_MESSAGE} AND m."createdAt" BETWEEN $2::timestamp(3) AND $3::timestamp(3)`,
      [outboxId, sqlTimestamp(new Date(ms - ID_CLOCK_MARGIN_MS)), sqlTimestamp(new Date(ms + ID_CLOCK_MARGIN_MS))],
    );
    if (near.length) return near[0];
  }
  return (await hotQuery<MessageWithHooks>(rt.prisma, READ_MESSAGE, [outboxId]))[0];
}

/** How long before the fan-out's write its deliveries stop waiting for their receivers' room (their sends still end in it). */
const FAN_OUT_WAIT_MARGIN_MS = 200;

/** The longest a fan-out keeps its place in the fan-out gate (src/deliveries/deps.ts). */
const GATE_HOLD_MAX_MS = 2_000;

/** The longest a fan-out waits, keeping its place in the gate, for its receivers' room to come near. */
const ROOM_WAIT_MAX_MS = 1_000;

/**
 * Waits, keeping the fan-out's place in the gate, until the first of the message's receivers this process
 * knows to be full has room within half a wait here (WAIT_HERE_EACH_MS). Without it, a fan-out whose receivers
 * are all full for longer (their window taken by earlier messages) handed every delivery at once to a
 * delayed first-attempts job and let the next fan-out in, which did the same: messages were fanned out far
 * ahead of the receivers' room, and their deliveries went the slow way (a job woken from Redis tens of ms
 * late, its rows read again) instead of waiting here for their slot. At most half the gate waits so
 * (`roomWaits`): the rest of the queue keeps moving, as before, whatever one tenant's receivers do.
 */
async function untilRoomNears(engine: DeliveryEngine, hooks: readonly Hook[]): Promise<void> {
  let soonest = Infinity;
  for (const h of hooks) soonest = Math.min(soonest, engine.limits.heldFor(h.id));
  if (soonest <= WAIT_HERE_EACH_MS || !engine.roomWaits.tryAcquire()) return;
  try {
    // Until half a wait is left (not a whole one: the next look adds its few ms of spread, and would hand the delivery on).
    await sleep(Math.min(soonest - WAIT_HERE_EACH_MS / 2, ROOM_WAIT_MAX_MS));
  } finally {
    engine.roomWaits.release();
  }
}

/**
 * Creates the message's deliveries (once) and makes their first attempts (with `engine`, from here;
 * else through a first-attempts job); returns how many it created, or null when the message no longer
 * exists (purged after the retention period).
 */
export async function fanOutOutboxMessage(
  rt: Runtime,
  outboxId: string,
  engine?: DeliveryEngine,
): Promise<number | null> {
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

async function fanOut(
  rt: Runtime,
  outboxId: string,
  engine?: DeliveryEngine,
  started?: () => void,
): Promise<number | null> {
  const msg = await readMessage(rt, outboxId);
  if (!msg) return null;
  // json_agg gives a timestamp as its text, without a zone; the column holds UTC.
  const hooks: Hook[] = msg.hooks.map((h) => ({
    id: h.id,
    triggers: h.triggers,
    url: h.url,
    secretCiphertext: h.secretCiphertext,
    previousCiphertext: h.previousCiphertext,
    previousValidUntil: h.previousValidUntil === null ? null : utcFromSql(h.previousValidUntil),
    previousSignsPrimary: h.previousSignsPrimary,
  }));
  const body = msg.body as AnnouncedBody;
  // A message addressed to webhooks (a report schedule's, a routing receiver's) goes to them; triggers select the rest.
  const to = (body as { addressedTo?: unknown }).addressedTo;
  const addressed = new Set(Array.isArray(to) ? to : [to]);
  const wanted = hooks.filter((h) => addressed.has(h.id) || webhookWants(storedTriggers(h.triggers), msg.topic, body));
  if (engine && wanted.length && !msg.dispatchedAt) await untilRoomNears(engine, wanted);
  const now = rt.clock.now();
  const bodyOf = deliveryBodies(msg);
  const rows: PlannedDelivery[] = wanted.map((h) => {
    const id = deliveryIdOf(msg.id, h.id, msg.createdAt);
    return { id, tenantId: msg.tenantId, webhookId: h.id, outboxId: msg.id, topic: msg.topic, body: bodyOf(id) };
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
    const due = await rt.prisma.delivery.findMany({
      where: { outboxId: msg.id, attemptCount: 0, status: 'pending' },
      select: { id: true, webhookId: true },
    });
    await enqueueFirstAttempts(rt, msg.id, due);
  }
  if (!msg.dispatchedAt && !rows.length)
    await rt.prisma.outboxMessage.updateMany({
      where: { id: msg.id, createdAt: msg.createdAt, dispatchedAt: null },
      data: { dispatchedAt: now },
    });
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
  msg: MessageWithHooks,
  rows: readonly PlannedDelivery[],
  hooks: readonly Hook[],
  now: Date,
  started?: () => void,
): Promise<number> {
  const hookOf = new Map(hooks.map((h) => [h.id, h]));
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
      webhook: {
        url: h.url,
        enabled: true,
        secretCiphertext: h.secretCiphertext,
        previousCiphertext: h.previousCiphertext,
        previousValidUntil: h.previousValidUntil,
        previousSignsPrimary: h.previousSignsPrimary,
      },
    };
  });
  // A delivery whose receiver's room frees within moments waits for it here and goes out in this write,
  // not as a pending row, a first-attempts job, a read and an update; the fan-out keeps its place in the
  // gate meanwhile, so later messages are fanned out as their receivers' room comes (src/deliveries/deps.ts).
  const waitHere = { eachMs: WAIT_HERE_EACH_MS, untilMs: now.getTime() + FIRST_WRITE_WAIT_MS - FAN_OUT_WAIT_MARGIN_MS };
  const { held } = await attempt(
    rt,
    { ...engine, store: write },
    { created: loaded, started, ended: (id) => write.done(id), waitHere },
  );
  const inserted = await write.inserted;
  // A delivery another run wrote first is that run's to attempt.
  const mine = held.filter((h) => inserted.has(h.deliveryId));
  if (mine.length) {
    const delayMs = Math.min(...mine.map((h) => h.retryInMs));
    await enqueueFirstAttempts(
      rt,
      msg.id,
      mine.map((h) => ({ id: h.deliveryId, webhookId: h.webhookId! })),
      delayMs,
    );
  }
  return inserted.size;
}
