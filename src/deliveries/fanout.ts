/**
 * Fan-out: one outbox message becomes one delivery per enabled webhook of its tenant, created before
 * the message, whose triggers match. The delivery body is fixed here, once, so every retry sends identical bytes. Idempotent: the
 * unique (webhookId, outboxId, createdAt) skips deliveries that exist (a delivery's createdAt is its
 * message's, so the key is stable across re-drives and also names the partition), and first attempts are enqueued under
 * deterministic job ids. Messages fanned out together share their statements: one read of the messages and
 * their webhooks, one insert of every delivery (which also marks the messages dispatched), one enqueue.
 */
import DataLoader from 'dataloader';
import type { Runtime } from '../runtime.js';
import type { Prisma } from '../generated/prisma/client.js';
import { newDeliveryId } from './ids.js';
import { storedTriggers, webhookWants, type AnnouncedBody } from '../webhooks/triggers.js';
import { enqueueFirstAttemptsOf } from './jobs.js';
import { announceDeliveries } from './announce.js';

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
}

/**
 * Creates the message's deliveries (once) and enqueues their first attempts; returns how many it
 * created, or null when the message no longer exists (purged after the retention period).
 */
export async function fanOutOutboxMessage(rt: Runtime, outboxId: string): Promise<number | null> {
  return (await fanOutOutboxMessages(rt, [outboxId]))[0];
}

/** `fanOutOutboxMessage` for several messages at once, in their statements; one answer per id, in order. */
export async function fanOutOutboxMessages(rt: Runtime, outboxIds: readonly string[]): Promise<Array<number | null>> {
  // The messages and their tenants' enabled webhooks in one statement. Only webhooks that existed when
  // the change happened: a message re-driven later (the sweeper, a crashed run) must not reach a
  // receiver created after it.
  const found = await rt.prisma.$queryRaw<MessageWithHook[]>`
    SELECT m."id", m."tenantId", m."topic", m."body", m."createdAt", m."dispatchedAt", w."id" AS "hookId", w."triggers"
      FROM "OutboxMessage" m
      LEFT JOIN "OutboundWebhook" w ON w."tenantId" = m."tenantId" AND w."enabled" AND w."createdAt" <= m."createdAt"
     WHERE m."id" = ANY(${[...outboxIds]}::text[])`;
  const messages = new Map<string, { msg: MessageWithHook; hooks: Array<{ id: string; triggers: Prisma.JsonValue }> }>();
  for (const r of found) {
    let m = messages.get(r.id);
    if (!m) messages.set(r.id, (m = { msg: r, hooks: [] }));
    if (r.hookId !== null) m.hooks.push({ id: r.hookId, triggers: r.triggers });
  }
  if (messages.size === 0) return outboxIds.map(() => null);
  const now = rt.clock.now();
  const at = now.toISOString().slice(0, -1);
  const rows: Array<{ id: string; tenantId: string; webhookId: string; outboxId: string; topic: string; body: string; createdAt: string }> = [];
  const wantedOf = new Map<string, number>();
  for (const { msg, hooks } of messages.values()) {
    const body = msg.body as AnnouncedBody;
    // A message addressed to one webhook (a report schedule's) goes to it; triggers select the rest.
    const addressedTo = (body as { addressedTo?: unknown }).addressedTo;
    const wanted = hooks.filter((h) => h.id === addressedTo || webhookWants(storedTriggers(h.triggers), msg.topic, body));
    wantedOf.set(msg.id, wanted.length);
    for (const h of wanted) {
      const id = newDeliveryId();
      rows.push({ id, tenantId: msg.tenantId, webhookId: h.id, outboxId: msg.id, topic: msg.topic, body: deliveryBody(id, msg), createdAt: msg.createdAt.toISOString().slice(0, -1) });
    }
  }
  // One statement for every row (bodies are large; this is on the path of every announced change), which
  // also marks the messages dispatched: if the process stops before the first attempts are enqueued, the
  // delivery sweeper re-drives the deliveries (src/deliveries/redrive.ts).
  const undispatched = [...messages.values()].filter((m) => !m.msg.dispatchedAt).map((m) => m.msg.id);
  let created: Array<{ id: string; webhookId: string; outboxId: string }> = [];
  if (rows.length) {
    created = await rt.prisma.$queryRaw<Array<{ id: string; webhookId: string; outboxId: string }>>`
      WITH ins AS (
        INSERT INTO "Delivery" ("id", "tenantId", "webhookId", "outboxId", "topic", "body", "nextAttemptAt", "windowStartedAt", "createdAt")
        SELECT i."id", i."tenantId", i."webhookId", i."outboxId", i."topic", i."body", ${at}::timestamp(3), ${at}::timestamp(3), i."createdAt"
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS i("id" text, "tenantId" text, "webhookId" text, "outboxId" text, "topic" text, "body" text, "createdAt" timestamp(3))
        ON CONFLICT ("webhookId", "outboxId", "createdAt") DO NOTHING
        RETURNING "id", "webhookId", "outboxId"
      ), mark AS (
        UPDATE "OutboxMessage" SET "dispatchedAt" = ${at}::timestamp(3) WHERE "id" = ANY(${undispatched}::text[]) AND "dispatchedAt" IS NULL
      )
      SELECT "id", "webhookId", "outboxId" FROM ins`;
  } else if (undispatched.length) {
    await rt.prisma.outboxMessage.updateMany({ where: { id: { in: undispatched }, dispatchedAt: null }, data: { dispatchedAt: now } });
  }
  // Announced before the first attempts are enqueued, so subscribers see `pending` before any outcome.
  const tenantOf = new Map([...messages.values()].map((m) => [m.msg.id, m.msg]));
  await announceDeliveries(
    rt,
    created.map((d) => ({ id: d.id, tenantId: tenantOf.get(d.outboxId)!.tenantId, webhookId: d.webhookId, topic: tenantOf.get(d.outboxId)!.topic, status: 'pending', attemptCount: 0, lastError: null, nextAttemptAt: now, responseStatus: null })),
  );
  // Enqueue every not-yet-attempted delivery of each message: also those a crashed earlier run created.
  const createdOf = new Map<string, Array<{ id: string; webhookId: string }>>();
  for (const d of created) {
    let list = createdOf.get(d.outboxId);
    if (!list) createdOf.set(d.outboxId, (list = []));
    list.push(d);
  }
  const jobs: Array<{ outboxId: string; deliveries: Array<{ id: string; webhookId: string }> }> = [];
  for (const { msg } of messages.values()) {
    const mine = createdOf.get(msg.id) ?? [];
    const due = mine.length === wantedOf.get(msg.id) && !msg.dispatchedAt ? mine : await rt.prisma.delivery.findMany({ where: { outboxId: msg.id, attemptCount: 0, status: 'pending' }, select: { id: true, webhookId: true } });
    jobs.push({ outboxId: msg.id, deliveries: due });
  }
  await enqueueFirstAttemptsOf(rt, jobs);
  return outboxIds.map((id) => (messages.has(id) ? (createdOf.get(id)?.length ?? 0) : null));
}

/**
 * Fans out the messages asked for within 2 ms together (`fanOutOutboxMessages`), up to 64 per batch:
 * the outbox worker's concurrent jobs share statements instead of each paying three. A failed batch fails
 * each of its jobs, which BullMQ and the sweeper retry (the fan-out is idempotent).
 */
export function fanOutBatcher(rt: Runtime): (outboxId: string) => Promise<number | null> {
  const loader = new DataLoader<string, number | null>((ids) => fanOutOutboxMessages(rt, ids), { cache: false, maxBatchSize: 64, batchScheduleFn: (cb) => setTimeout(cb, 2) });
  return (outboxId) => loader.load(outboxId);
}
