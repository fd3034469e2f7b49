/**
 * The transactional outbox. A change that must be announced to outbound webhooks writes an
 * OutboxMessage in the same transaction as the change itself (`writeOutbox(tx, …)`); after commit,
 * `dispatchOutbox(rt, ids)` enqueues fan-out jobs. A sweeper re-drives messages whose enqueue was lost
 * (crash between commit and enqueue), so nothing committed is ever lost.
 */
import type { Runtime } from '../runtime.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** Topics the service announces. Outbound webhook triggers select among these. */
export type OutboxTopic =
  | 'alert.opened'
  | 'alert.acknowledged'
  | 'alert.snoozed'
  | 'alert.resolved'
  | 'alert.reopened'
  | 'proposal.opened'
  | 'proposal.approved'
  | 'proposal.denied'
  | 'proposal.applied'
  | 'proposal.failed'
  | 'event.received';

export interface OutboxInput {
  tenantId: string;
  topic: OutboxTopic;
  subjectId: string;
  /** Inbound-shaped body: { source, kind, severity, labels, payload }. */
  body: Prisma.InputJsonValue;
}

/** Writes the message inside the caller's transaction; returns its id for `dispatchOutbox`. */
export async function writeOutbox(tx: Pick<PrismaClient, 'outboxMessage'>, msg: OutboxInput): Promise<string> {
  const row = await tx.outboxMessage.create({ data: { tenantId: msg.tenantId, topic: msg.topic, subjectId: msg.subjectId, body: msg.body } });
  return row.id;
}

/** After commit: enqueue fan-out, idempotently (job id = message id). Failures are left to the sweeper. */
export async function dispatchOutbox(rt: Runtime, outboxIds: string[]): Promise<void> {
  for (const id of outboxIds) {
    try {
      await rt.queues.add('outbox', { outboxId: id }, { jobId: `outbox-${id}` });
    } catch (err) {
      rt.logger.warn({ err, outboxId: id }, 'outbox enqueue failed; the sweeper will re-drive it');
    }
  }
}
