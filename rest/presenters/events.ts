/**
 * The REST shape of an event (GET /events items, the SSE `data`, the accepted inbound webhook, an
 * alert's events): snake_case, labels and payload exactly as sent. OpenAPI: `EventsEvent`.
 */

/** What presentEvent reads: a GraphQL node, a stored row, a just-accepted row or a pubsub message. */
export interface EventSource {
  id: string;
  type: string;
  module: string | null;
  source: string;
  summary: string | null;
  severity: string;
  labels: unknown;
  payload: unknown;
  receivedVia: string;
  receivedAt: Date | string;
}

/** GraphQL selection that presentEvent needs. */
export const EVENT_FIELDS = 'id type module source summary severity labels payload receivedVia receivedAt';

export function presentEvent(e: EventSource): Record<string, unknown> {
  return {
    id: e.id,
    type: e.type,
    module: e.module,
    source: e.source,
    summary: e.summary,
    severity: e.severity,
    labels: e.labels,
    payload: e.payload,
    received_via: e.receivedVia,
    received_at: typeof e.receivedAt === 'string' ? e.receivedAt : e.receivedAt.toISOString(),
  };
}
