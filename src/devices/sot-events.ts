/**
 * Source-of-truth events on the tenant's timeline. Rows are inserted inside the caller's transaction
 * (so a device change and its event commit together); `announceTimelineEvents` runs after commit and
 * publishes `eventAdded` and queues rule evaluation, so a tenant's rules can alert on, e.g., drift.
 */
import type { Runtime } from '../runtime.js';
import type { Event, Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { SerializedEvent } from '../events/ingest.js';

export type SotEventType =
  | 'sot.device_created'
  | 'sot.device_updated'
  | 'sot.device_deleted'
  | 'sot.intent_changed'
  | 'sot.config_observed'
  | 'sot.drift_detected'
  | 'sot.in_sync'
  | 'sot.reconcile_skipped'
  | 'sot.proposal_opened'
  | 'sot.proposal_revised'
  | 'sot.proposal_approved'
  | 'sot.proposal_denied'
  | 'sot.proposal_applied'
  | 'sot.proposal_failed';

export interface TimelineEventInput {
  tenantId: string;
  type: SotEventType;
  summary: string;
  severity?: 'info' | 'warning' | 'critical';
  deviceId?: string | null;
  /** `sot` for changes pushed by an external source of truth (webhook), `system` for the service's own. */
  receivedVia: 'sot' | 'system';
  /** Who sent it: `sot` for the service, `sot/<webhook slug>` for a source-of-truth system. */
  source?: string;
  labels?: Record<string, string>;
  payload?: Prisma.InputJsonValue;
}

/** Inserts the event inside `tx`; pass the row to `announceTimelineEvents` after commit. */
export function insertTimelineEvent(tx: Pick<PrismaClient, 'event'>, e: TimelineEventInput): Promise<Event> {
  return tx.event.create({
    data: {
      tenantId: e.tenantId,
      type: e.type,
      module: 'sot',
      source: e.source ?? 'sot',
      summary: e.summary,
      severity: e.severity ?? 'info',
      labels: e.labels ?? {},
      payload: e.payload ?? {},
      receivedVia: e.receivedVia,
      deviceId: e.deviceId ?? null,
    },
  });
}

/** The serialized row carried by `eventAdded`, in the ingest service's form (src/events/ingest.ts). */
export function eventMessage(e: Event): SerializedEvent {
  return {
    id: e.id,
    tenantId: e.tenantId,
    type: e.type,
    module: e.module,
    source: e.source,
    summary: e.summary,
    severity: e.severity,
    labels: e.labels as Record<string, string>,
    payload: e.payload as Record<string, unknown>,
    receivedVia: e.receivedVia,
    receivedAt: e.receivedAt.toISOString(),
    evaluatedAt: e.evaluatedAt?.toISOString() ?? null,
    deviceId: e.deviceId,
  };
}

/**
 * After commit: publishes `eventAdded` and queues rule evaluation for the rows. Failures are logged;
 * the rows are stored with `evaluatedAt` null, so the ingest sweeper re-drives their evaluation.
 */
export async function announceTimelineEvents(rt: Runtime, events: Event[]): Promise<void> {
  if (events.length === 0) return;
  try {
    for (const e of events) rt.pubsub.publish('eventAdded', e.tenantId, eventMessage(e));
    await rt.queues.add('evaluate', { eventIds: events.map((e) => e.id) }, { jobId: `evaluate-${events[0].id}` });
  } catch (err) {
    rt.logger.warn({ err, eventIds: events.map((e) => e.id) }, 'could not announce source-of-truth events');
  }
}
