/**
 * The REST shapes of alerts: a list item (`AlertsAlert`) and the detail (`AlertsAlertDetail`), whose
 * events are the one event shape (rest/presenters/events.ts, OpenAPI `EventsEvent`).
 */
import { snakeTop } from '../shape.js';
import { httpStatusByCode, type ErrorCode } from '../../src/errors.js';
import { EVENT_FIELDS, presentEvent, type EventSource } from './events.js';

export const ALERT_FIELDS =
  'id status severity summary source labels annotations dedupKey count firstSeenAt lastSeenAt acknowledgedAt snoozedUntil resolvedAt suppressed ruleId assigneeId maintenanceWindowId silenceId inhibitedById allowedActions createdAt updatedAt';

/** One entry of an alert's timeline (a change or a note), as the detail and `POST /alerts/{id}/notes` answer it. */
export const TIMELINE_ENTRY_FIELDS =
  'id action fromStatus toStatus note createdAt actor { id email name } actorEventId';

export const ALERT_DETAIL_FIELDS = `${ALERT_FIELDS}
  rule { id name kind }
  assignee { id email name }
  maintenanceWindow { id name startsAt endsAt repeatEverySeconds }
  events(limit: 20) { ${EVENT_FIELDS} }
  timeline { ${TIMELINE_ENTRY_FIELDS} }`;

/** An alert as REST shows it: snake_case; the detail's events in the one event shape. */
export function presentAlert(a: Record<string, any>): Record<string, unknown> {
  const out = snakeTop<Record<string, unknown>>(a, ['events', 'labels', 'annotations']);
  if (Array.isArray(a.events)) out.events = a.events.map((e: EventSource) => presentEvent(e));
  return out;
}

/** A timeline entry as REST shows it (`AlertsTimelineEntry`). */
export function presentTimelineEntry(e: Record<string, any>): Record<string, unknown> {
  return snakeTop<Record<string, unknown>>(e);
}

/**
 * One result of a bulk action: `{id, ok, alert}`, or `{id, ok: false, status, code, detail}`: the status the single
 * action would have answered and the body it would have sent (`code` the precise reason, as every REST error).
 */
export function presentBulkResult(r: Record<string, any>): Record<string, unknown> {
  if (r.ok) return { id: r.id, ok: true, alert: presentAlert(r.alert) };
  return {
    id: r.id,
    ok: false,
    status: httpStatusByCode[r.code as ErrorCode] ?? 500,
    code: r.reason ?? r.code,
    detail: r.message,
  };
}
