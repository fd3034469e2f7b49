/**
 * The "event matching a filter" trigger. After rule evaluation, the evaluation worker hands over the
 * batch of events it evaluated; each event that matches an enabled EVENT trigger of its tenant becomes
 * one `event.received` outbox message (idempotent per event, so a re-run batch announces nothing twice),
 * which the outbox fans out like any other change. Events that match no webhook cost one query per batch.
 */
import type { PrismaClient } from '../generated/prisma/client.js';
import { storedTriggers, webhookWants, type AnnouncedBody } from './triggers.js';
import { writeOutboxBatch } from '../outbox/outbox.js';

/** The event fields the trigger looks at (a stored Event row has them all). */
export interface TriggerableEvent {
  id: string;
  tenantId: string;
  type: string;
  source: string;
  severity: string;
  labels: unknown;
  payload: unknown;
  module?: string | null;
  summary?: string | null;
}

/** The inbound-shaped body of the announcement: the event as it arrived. */
function announcedBody(e: TriggerableEvent): AnnouncedBody {
  return { source: e.source, kind: e.type, severity: e.severity, labels: e.labels ?? {}, payload: e.payload ?? {} };
}

/**
 * Writes an `event.received` outbox message for each event that some enabled EVENT trigger of its
 * tenant matches, using `db` (pass the transaction that marks the events evaluated, or the root client).
 * Returns the ids of the messages written now; dispatch them after commit with `dispatchOutbox`.
 */
export async function writeEventTriggerOutbox(
  db: Pick<PrismaClient, 'outboundWebhook' | '$queryRawUnsafe'>,
  events: TriggerableEvent[],
  now: Date,
): Promise<string[]> {
  if (events.length === 0) return [];
  const tenantIds = [...new Set(events.map((e) => e.tenantId))];
  const hooks = await db.outboundWebhook.findMany({
    where: { tenantId: { in: tenantIds }, enabled: true },
    select: { tenantId: true, triggers: true },
  });
  const eventHooks = hooks
    .map((h) => ({ tenantId: h.tenantId, triggers: storedTriggers(h.triggers).filter((t) => t.on === 'EVENT') }))
    .filter((h) => h.triggers.length);
  if (eventHooks.length === 0) return [];
  const rows = events
    .map((e) => ({ e, body: announcedBody(e) }))
    .filter(({ e, body }) =>
      eventHooks.some((h) => h.tenantId === e.tenantId && webhookWants(h.triggers, 'event.received', body)),
    )
    .map(({ e, body }) => ({
      tenantId: e.tenantId,
      topic: 'event.received' as const,
      subjectId: e.id,
      body: body as never,
      dedupKey: `event.received:${e.id}`,
      createdAt: now,
    }));
  if (rows.length === 0) return [];
  return writeOutboxBatch(db, rows);
}
