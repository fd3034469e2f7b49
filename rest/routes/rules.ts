/**
 * REST routes of alert rules (match rules and absence/heartbeat rules): each executes the GraphQL
 * operation of schema/rules.ts with the caller's permissions (members read, admins write).
 * Lists answer `{"items": [...]}`.
 */
import type { RouteEntry } from '../route-types.js';
import { ALERT_RULE_FIELDS, presentAlertRule, presentSuggestedRule, SUGGESTED_RULE_FIELDS } from '../presenters/rules.js';

/** REST body field → GraphQL input field, for the fields a rule body may carry. */
const RULE_FIELDS = [
  ['name', 'name'],
  ['kind', 'kind'],
  ['enabled', 'enabled'],
  ['type_glob', 'typeGlob'],
  ['severities', 'severities'],
  ['module', 'module'],
  ['source', 'source'],
  ['labels', 'labels'],
  ['payload_conditions', 'payloadConditions'],
  ['window_seconds', 'windowSeconds'],
  ['alert_severity', 'alertSeverity'],
  ['summary_template', 'summaryTemplate'],
  ['dedup_key_template', 'dedupKeyTemplate'],
  ['resolve_type_glob', 'resolveTypeGlob'],
  ['resolve_conditions', 'resolveConditions'],
  ['auto_resolve_after_seconds', 'autoResolveAfterSeconds'],
] as const;

/** GraphQL rule input from a REST body: only the fields present (null clears an optional one). */
function ruleInput(body: Record<string, unknown>, create: boolean): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [rest, gql] of RULE_FIELDS) {
    if (rest === 'kind' && !create) continue;
    if (body[rest] !== undefined) input[gql] = body[rest];
  }
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
    variables: (req) => ({ kind: req.query.kind ?? null, enabled: req.query.enabled === undefined ? null : req.query.enabled === true || req.query.enabled === 'true' }),
    respond: (data) => ({ items: data.alertRules.map(presentAlertRule) }),
  },
  {
    method: 'post',
    path: '/alert-rules',
    operation: `mutation CreateAlertRule($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { ${ALERT_RULE_FIELDS} } }`,
    variables: (req) => ({ input: ruleInput(req.body, true) }),
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
    variables: (req) => ({ id: req.params.ruleId, input: ruleInput(req.body, false) }),
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
