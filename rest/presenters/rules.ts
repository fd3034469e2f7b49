/**
 * The REST shape of an alert rule (match or absence/heartbeat): snake_case, lowercase enum values,
 * labels and payload condition values exactly as given. Used by every route of rest/routes/rules.ts.
 */
type Node = Record<string, any>;

/** GraphQL selection that presentAlertRule reads. */
export const ALERT_RULE_FIELDS = `id name kind enabled typeGlob severities module source labels payloadConditions { path op value }
  windowSeconds alertSeverity summaryTemplate dedupKeyTemplate createdAt updatedAt`;

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
    payload_conditions: (r.payloadConditions ?? []).map((c: Node) => ({ path: c.path, op: c.op, ...(c.value === null || c.value === undefined ? {} : { value: c.value }) })),
    window_seconds: r.windowSeconds,
    alert_severity: r.alertSeverity,
    summary_template: r.summaryTemplate,
    dedup_key_template: r.dedupKeyTemplate,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}
