/**
 * REST routes of the alerts area: list, detail and the actions, each executing the GraphQL operation
 * of the same name with the caller's permissions.
 */
import type { RouteEntry, RestRequest } from '../route-types.js';
import { snakeTop } from '../shape.js';

const ALERT_FIELDS =
  'id status severity summary source dedupKey count firstSeenAt lastSeenAt acknowledgedAt snoozedUntil resolvedAt suppressed ruleId assigneeId maintenanceWindowId allowedActions createdAt updatedAt';
const EVENT_FIELDS = 'id type module source summary severity labels payload receivedAt';
const DETAIL_FIELDS = `${ALERT_FIELDS}
  rule { id name kind }
  assignee { id email name }
  maintenanceWindow { id name startsAt endsAt repeatEverySeconds }
  events(limit: 20) { ${EVENT_FIELDS} }
  timeline { id action fromStatus toStatus note createdAt actor { id email name } }`;

/** The REST shape of an alert: snake_case, labels and payloads of its events left as sent. */
function restAlert(a: Record<string, any>): Record<string, unknown> {
  const out = snakeTop<Record<string, unknown>>(a, ['events']);
  if (Array.isArray(a.events)) out.events = a.events.map((e: Record<string, unknown>) => snakeTop(e, ['labels', 'payload']));
  return out;
}

function listVariables(req: RestRequest): Record<string, unknown> {
  const q = req.query;
  const since = q.since_hours !== undefined ? new Date(Date.now() - Number(q.since_hours) * 3600_000).toISOString() : null;
  return {
    first: Number(q.limit ?? 100),
    filter: {
      severity: q.severity ?? null,
      status: q.status ? [q.status] : null,
      since,
      source: q.source ?? null,
      ruleId: q.rule ?? null,
    },
  };
}

const action = (name: 'acknowledgeAlert' | 'resolveAlert', path: string): RouteEntry => ({
  method: 'post',
  path,
  operation: `mutation ${name[0]!.toUpperCase() + name.slice(1)}($id: ID!) { ${name}(id: $id) { ${DETAIL_FIELDS} } }`,
  variables: (req) => ({ id: req.params.alertId }),
  respond: (data) => restAlert(data[name]),
});

export const alertsRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: '/alerts',
    operation: `query Alerts($first: Int!, $filter: AlertFilter) { alerts(first: $first, filter: $filter) { edges { node { ${ALERT_FIELDS} } } } }`,
    variables: listVariables,
    respond: (data) => ({ items: data.alerts.edges.map((e: { node: Record<string, unknown> }) => restAlert(e.node)) }),
  },
  {
    method: 'get',
    path: '/alerts/:alertId',
    operation: `query Alert($id: ID!) { alert(id: $id) { ${DETAIL_FIELDS} } }`,
    variables: (req) => ({ id: req.params.alertId }),
    respond: (data) => restAlert(data.alert),
  },
  action('acknowledgeAlert', '/alerts/:alertId/acknowledge'),
  {
    method: 'post',
    path: '/alerts/:alertId/snooze',
    operation: `mutation SnoozeAlert($id: ID!, $input: SnoozeAlertInput!) { snoozeAlert(id: $id, input: $input) { ${DETAIL_FIELDS} } }`,
    variables: (req) => ({
      id: req.params.alertId,
      input: { duration: req.body.duration === undefined || req.body.duration === null ? null : String(req.body.duration), until: req.body.until ?? null },
    }),
    respond: (data) => restAlert(data.snoozeAlert),
  },
  action('resolveAlert', '/alerts/:alertId/resolve'),
];
