/**
 * Announcing committed timeline rows: the `eventAdded` message (one shape for SSE and subscriptions)
 * and rule evaluation. Every writer of the timeline (ingest, inbound webhooks, the source of truth,
 * integrations, clusters, GPU telemetry) announces through here after its transaction commits.
 */
import type { Runtime } from '../runtime.js';
import type { Event } from '../generated/prisma/client.js';
import { enqueueEvaluation } from './evaluation-jobs.js';

export type ReceivedVia = 'ingest' | 'webhook' | 'sot' | 'system';

/**
 * The event as published on the `eventAdded` channel (and sent as SSE `data`): the stored row with
 * ISO timestamps, camelCase, so SSE and subscriptions need no extra query.
 */
export interface SerializedEvent extends Record<string, unknown> {
  id: string;
  tenantId: string;
  type: string;
  module: string | null;
  source: string;
  summary: string | null;
  severity: string;
  labels: Record<string, string>;
  payload: Record<string, unknown>;
  receivedVia: ReceivedVia;
  receivedAt: string;
  evaluatedAt: string | null;
  deviceId: string | null;
}

/** A timeline row as stored (`Event`) or as the ingest batcher holds it before evaluation. */
export interface TimelineRow {
  id: string;
  tenantId: string;
  type: string;
  module: string | null;
  source: string;
  summary: string | null;
  severity: string;
  labels: unknown;
  payload: unknown;
  receivedVia: string;
  receivedAt: Date;
  evaluatedAt?: Date | null;
  deviceId?: string | null;
}

/** The pubsub/SSE form of a row. */
export function serializeEvent(row: TimelineRow): SerializedEvent {
  return {
    id: row.id,
    tenantId: row.tenantId,
    type: row.type,
    module: row.module,
    source: row.source,
    summary: row.summary,
    severity: row.severity,
    labels: row.labels as Record<string, string>,
    payload: row.payload as Record<string, unknown>,
    receivedVia: row.receivedVia as ReceivedVia,
    receivedAt: row.receivedAt.toISOString(),
    evaluatedAt: row.evaluatedAt?.toISOString() ?? null,
    deviceId: row.deviceId ?? null,
  };
}

/**
 * After commit: publishes `eventAdded` and queues rule evaluation for rows written inside a
 * transaction. Failures are logged; the rows are stored with `evaluatedAt` null, so the ingest sweeper
 * re-drives their evaluation. (The ingest hot path coalesces its enqueues instead: src/events/ingest.ts.)
 */
export async function announceTimelineEvents(rt: Runtime, events: Event[]): Promise<void> {
  if (events.length === 0) return;
  try {
    for (const e of events) rt.pubsub.publish('eventAdded', e.tenantId, serializeEvent(e));
    await enqueueEvaluation(
      rt,
      events.map((e) => e.id),
    );
  } catch (err) {
    rt.logger.warn({ err, eventIds: events.map((e) => e.id) }, 'could not announce timeline events');
  }
}
