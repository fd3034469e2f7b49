/**
 * REST shapes of inhibition rules and of an alert's paging explanation (snake_case; matcher types as
 * Alertmanager writes them). Used by rest/routes/inhibit-rules.ts.
 */
type Node = Record<string, any>;

/** GraphQL selection that presentInhibitRule reads. */
export const INHIBIT_RULE_FIELDS =
  'id name sourceMatchers { name type value } targetMatchers { name type value } equal createdAt';

export function presentInhibitRule(r: Node): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    source_matchers: r.sourceMatchers,
    target_matchers: r.targetMatchers,
    equal: r.equal,
    created_at: r.createdAt,
  };
}

/** GraphQL selection that presentPagingExplanation reads. */
export const PAGING_EXPLANATION_FIELDS =
  'pages pagedCount summary reasons { kind message blocks silenceId inhibitingAlertId maintenanceWindowId groupId policyId routeId routePath receiver }';

export function presentPagingExplanation(e: Node): Record<string, unknown> {
  return {
    pages: e.pages,
    paged_count: e.pagedCount,
    summary: e.summary,
    reasons: (e.reasons as Node[]).map((r) => ({
      kind: r.kind,
      message: r.message,
      blocks: r.blocks,
      silence_id: r.silenceId,
      inhibiting_alert_id: r.inhibitingAlertId,
      maintenance_window_id: r.maintenanceWindowId,
      group_id: r.groupId,
      policy_id: r.policyId,
      route_id: r.routeId,
      route_path: r.routePath,
      receiver: r.receiver,
    })),
  };
}
