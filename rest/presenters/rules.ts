/**
 * The REST shape of an alert rule (match or absence/heartbeat): snake_case, lowercase enum values,
 * labels and payload condition values exactly as given. Used by every route of rest/routes/rules.ts.
 */
import { snakeKey } from '../shape.js';

type Node = Record<string, any>;

/** GraphQL selection that presentAlertRule reads. */
export const ALERT_RULE_FIELDS = `id name kind enabled typeGlob severities module source labels payloadConditions { path op value }
  windowSeconds alertSeverity summaryTemplate dedupKeyTemplate summaryFollowsLatest resolveTypeGlob resolveConditions { path op value }
  autoResolveAfterSeconds escalationPolicyId suggestionKey createdAt updatedAt`;

const conditions = (list: Node[] | null | undefined) =>
  (list ?? []).map((c: Node) => ({
    path: c.path,
    op: c.op,
    ...(c.value === null || c.value === undefined ? {} : { value: c.value }),
  }));

export function presentAlertRule(r: Node): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    enabled: r.enabled,
    type_glob: r.typeGlob,
    severities: r.severities,
    module: r.module,
    source: r.source,
    labels: r.labels,
    payload_conditions: conditions(r.payloadConditions),
    window_seconds: r.windowSeconds,
    alert_severity: r.alertSeverity,
    summary_template: r.summaryTemplate,
    dedup_key_template: r.dedupKeyTemplate,
    summary_follows_latest: r.summaryFollowsLatest,
    resolve_type_glob: r.resolveTypeGlob,
    resolve_conditions: conditions(r.resolveConditions),
    auto_resolve_after_seconds: r.autoResolveAfterSeconds,
    escalation_policy_id: r.escalationPolicyId,
    suggestion_key: r.suggestionKey,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

/** GraphQL selection that presentSuggestedRule reads. */
export const SUGGESTED_RULE_FIELDS = 'key name description kind input enabled ruleId';

/** A rule input (camelCase; enum values already mapped by the adapter) as the POST /alert-rules body it stands for. */
function restRuleBody(input: Node): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input ?? {}).map(([k, v]) => [snakeKey(k), v]));
}

export function presentSuggestedRule(s: Node): Record<string, unknown> {
  return {
    key: s.key,
    name: s.name,
    description: s.description,
    kind: s.kind,
    enabled: s.enabled,
    rule_id: s.ruleId,
    input: restRuleBody(s.input),
  };
}
