/**
 * REST routes of alert rules (match rules and absence/heartbeat rules): each executes the GraphQL
 * operation of schema/rules.ts with the caller's permissions (members read, admins write).
 * Lists answer `{"items": [...]}`.
 */
import type { RouteEntry } from '../route-types.js';
import {
  ALERT_RULE_FIELDS,
  presentAlertRule,
  presentSuggestedRule,
  SUGGESTED_RULE_FIELDS,
} from '../presenters/rules.js';

/** A rule body for an update: `kind` cannot change and is not an update field (the service says so). */
function updateInput(body: Record<string, unknown>): Record<string, unknown> {
  const { kind: _kind, ...input } = body;
  return input;
}

export const rulesRoutes: RouteEntry[] = [
  // Before /alert-rules/:ruleId, which would take "suggestions" for an id.
  {
    method: 'get',
    path: '/alert-rules/suggestions',
    operation: `query SuggestedAlertRules { suggestedAlertRules { ${SUGGESTED_RULE_FIELDS} } }`,
    variables: () => ({}),
    respond: (data) => ({ items: data.suggestedAlertRules.map(presentSuggestedRule) }),
  },
  {
    method: 'post',
    path: '/alert-rules/suggestions/:key/enable',
    operation: `mutation EnableSuggestedAlertRule($key: String!) { enableSuggestedAlertRule(key: $key) { ${ALERT_RULE_FIELDS} } }`,
    variables: (req) => ({ key: req.params.key }),
    respond: (data) => presentAlertRule(data.enableSuggestedAlertRule),
  },
  {
    method: 'get',
    path: '/alert-rules',
    operation: `query AlertRules($kind: AlertRuleKind, $enabled: Boolean) { alertRules(kind: $kind, enabled: $enabled) { ${ALERT_RULE_FIELDS} } }`,
    variables: (req) => ({
      kind: req.query.kind ?? null,
      enabled: req.query.enabled === undefined ? null : req.query.enabled === true || req.query.enabled === 'true',
    }),
    respond: (data) => ({ items: data.alertRules.map(presentAlertRule) }),
  },
  {
    method: 'post',
    path: '/alert-rules',
    operation: `mutation CreateAlertRule($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { ${ALERT_RULE_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentAlertRule(data.createAlertRule),
  },
  {
    method: 'get',
    path: '/alert-rules/:ruleId',
    operation: `query AlertRule($id: ID!) { alertRule(id: $id) { ${ALERT_RULE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.ruleId }),
    respond: (data) => presentAlertRule(data.alertRule),
  },
  {
    method: 'patch',
    path: '/alert-rules/:ruleId',
    operation: `mutation UpdateAlertRule($id: ID!, $input: UpdateAlertRuleInput!) { updateAlertRule(id: $id, input: $input) { ${ALERT_RULE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.ruleId, input: updateInput(req.body) }),
    respond: (data) => presentAlertRule(data.updateAlertRule),
  },
  {
    method: 'delete',
    path: '/alert-rules/:ruleId',
    operation: 'mutation DeleteAlertRule($id: ID!) { deleteAlertRule(id: $id) }',
    variables: (req) => ({ id: req.params.ruleId }),
    status: 204,
  },
];
