/**
 * The REST shapes of alerts: a list item (`AlertsAlert`) and the detail (`AlertsAlertDetail`), whose
 * events are the one event shape (rest/presenters/events.ts, OpenAPI `EventsEvent`).
 */
import { snakeTop } from '../shape.js';
import { EVENT_FIELDS, presentEvent, type EventSource } from './events.js';

export const ALERT_FIELDS =
  'id status severity summary source labels annotations dedupKey count firstSeenAt lastSeenAt acknowledgedAt snoozedUntil resolvedAt suppressed ruleId assigneeId maintenanceWindowId silenceId inhibitedById allowedActions createdAt updatedAt';

export const ALERT_DETAIL_FIELDS = `${ALERT_FIELDS}
  rule { id name kind }
  assignee { id email name }
  maintenanceWindow { id name startsAt endsAt repeatEverySeconds }
  events(limit: 20) { ${EVENT_FIELDS} }
  timeline { id action fromStatus toStatus note createdAt actor { id email name } actorEventId }`;

/** An alert as REST shows it: snake_case; the detail's events in the one event shape. */
export function presentAlert(a: Record<string, any>): Record<string, unknown> {
  const out = snakeTop<Record<string, unknown>>(a, ['events', 'labels', 'annotations']);
  if (Array.isArray(a.events)) out.events = a.events.map((e: EventSource) => presentEvent(e));
  return out;
}
