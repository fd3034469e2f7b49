/**
 * Source-of-truth events on the tenant's timeline. Rows are inserted inside the caller's transaction
 * (so a device change and its event commit together); `announceTimelineEvents` (src/events/announce.ts)
 * runs after commit and publishes `eventAdded` and queues rule evaluation, so a tenant's rules can alert on, e.g., drift.
 */
import type { Event, Prisma, PrismaClient } from '../generated/prisma/client.js';

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
  /** The service clock's now: the timeline's windows compare receivedAt with that clock. */
  receivedAt: Date;
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
      receivedAt: e.receivedAt,
    },
  });
}
