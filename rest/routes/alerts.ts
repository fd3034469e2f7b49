/**
 * REST routes of the alerts area: list, detail and the actions, each executing the GraphQL operation
 * of the same name with the caller's permissions.
 */
import type { RouteEntry, RestRequest } from '../route-types.js';
import {
  ALERT_DETAIL_FIELDS,
  ALERT_FIELDS,
  TIMELINE_ENTRY_FIELDS,
  presentAlert,
  presentBulkResult,
  presentTimelineEntry,
} from '../presenters/alerts.js';
import { itemsOf } from '../presenters/lists.js';
import { ValidationFailed } from '../../src/errors.js';

/**
 * Parses REST `label=key:value` query values (one string or a repeated list) into an exact-match
 * label filter; 422 naming `query.label` for a value without `key:` (a REST parameter, so named here).
 */
function parseLabelParams(raw: unknown): Record<string, string> | null {
  if (raw === undefined || raw === null) return null;
  const list = Array.isArray(raw) ? raw : [raw];
  const out: Record<string, string> = {};
  for (const item of list) {
    const s = String(item);
    const i = s.indexOf(':');
    if (i <= 0)
      throw new ValidationFailed([
        { loc: ['query', 'label'], msg: `"${s.slice(0, 100)}" is not key:value (e.g. label=service:checkout)` },
      ]);
    out[s.slice(0, i)] = s.slice(i + 1);
  }
  return out;
}

/** REST `sort=-last_seen_at` (a column, `-` for descending) as GraphQL's `orderBy`; absent: the default order. */
function orderOf(raw: unknown): { field: string; direction: 'asc' | 'desc' } | null {
  if (typeof raw !== 'string' || raw === '') return null;
  return raw.startsWith('-') ? { field: raw.slice(1), direction: 'desc' } : { field: raw, direction: 'asc' };
}

function listVariables(req: RestRequest): Record<string, unknown> {
  const q = req.query;
  const since =
    q.since_hours !== undefined ? new Date(req.now.getTime() - Number(q.since_hours) * 3600_000).toISOString() : null;
  return {
    first: Number(q.limit ?? 100),
    orderBy: orderOf(q.sort),
    filter: {
      severity: q.severity ?? null,
      // `any` (what the console offers) is the same as no status filter.
      status: q.status && q.status !== 'any' ? [q.status] : null,
      since,
      source: q.source ?? null,
      ruleId: q.rule ?? null,
      labels: parseLabelParams(q.label),
      dedupKey: q.dedup_key ?? null,
    },
  };
}

const action = (name: 'acknowledgeAlert' | 'resolveAlert', path: string): RouteEntry => ({
  method: 'post',
  path,
  operation: `mutation ${name[0]!.toUpperCase() + name.slice(1)}($id: ID!) { ${name}(id: $id) { ${ALERT_DETAIL_FIELDS} } }`,
  variables: (req) => ({ id: req.params.alertId }),
  respond: (data) => presentAlert(data[name]),
});

/** `POST /alerts/acknowledge` / `/alerts/resolve` with `{ids}`: 200 with one result per id (a bad id fails alone). */
const bulk = (name: 'acknowledgeAlerts' | 'resolveAlerts', path: string): RouteEntry => ({
  method: 'post',
  path,
  operation: `mutation ${name[0]!.toUpperCase() + name.slice(1)}($ids: [ID!]!) { ${name}(ids: $ids) { id ok code reason message alert { ${ALERT_FIELDS} } } }`,
  variables: (req) => ({ ids: req.body.ids }),
  respond: (data) => ({ items: data[name].map(presentBulkResult) }),
});

export const alertsRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: '/alerts',
    operation: `query Alerts($first: Int!, $filter: AlertFilter, $orderBy: AlertOrder) { alerts(first: $first, filter: $filter, orderBy: $orderBy) { edges { node { ${ALERT_FIELDS} } } } }`,
    variables: listVariables,
    respond: (data) => itemsOf(data.alerts, presentAlert),
  },
  {
    method: 'get',
    path: '/alerts/:alertId',
    operation: `query Alert($id: ID!) { alert(id: $id) { ${ALERT_DETAIL_FIELDS} } }`,
    variables: (req) => ({ id: req.params.alertId }),
    respond: (data) => presentAlert(data.alert),
  },
  action('acknowledgeAlert', '/alerts/:alertId/acknowledge'),
  {
    method: 'post',
    path: '/alerts/:alertId/snooze',
    operation: `mutation SnoozeAlert($id: ID!, $input: SnoozeAlertInput!) { snoozeAlert(id: $id, input: $input) { ${ALERT_DETAIL_FIELDS} } }`,
    variables: (req) => ({
      id: req.params.alertId,
      input: {
        duration: req.body.duration === undefined || req.body.duration === null ? null : String(req.body.duration),
        until: req.body.until ?? null,
      },
    }),
    respond: (data) => presentAlert(data.snoozeAlert),
  },
  action('resolveAlert', '/alerts/:alertId/resolve'),
  {
    method: 'post',
    path: '/alerts/:alertId/assign',
    operation: `mutation AssignAlert($id: ID!, $userId: ID) { assignAlert(id: $id, userId: $userId) { ${ALERT_DETAIL_FIELDS} } }`,
    variables: (req) => ({ id: req.params.alertId, userId: req.body.user_id ?? null }),
    respond: (data) => presentAlert(data.assignAlert),
  },
  {
    method: 'post',
    path: '/alerts/:alertId/notes',
    operation: `mutation AddAlertNote($id: ID!, $text: String!) { addAlertNote(id: $id, text: $text) { ${TIMELINE_ENTRY_FIELDS} } }`,
    variables: (req) => ({ id: req.params.alertId, text: req.body.text }),
    status: 201,
    respond: (data) => presentTimelineEntry(data.addAlertNote),
  },
  bulk('acknowledgeAlerts', '/alerts/acknowledge'),
  bulk('resolveAlerts', '/alerts/resolve'),
];
