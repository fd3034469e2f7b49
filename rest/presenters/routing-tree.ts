/**
 * REST shapes of the routing tree, its receivers, the "which route" answer and an import's report
 * (snake_case; matcher types as Alertmanager writes them). Used by rest/routes/routing-tree.ts.
 */
type Node = Record<string, any>;

/** GraphQL selection that presentRoute reads. */
export const ROUTE_FIELDS =
  'id parentId matchers { name type value } continue receiver groupBy groupWait groupInterval repeatInterval muteTimeIntervals activeTimeIntervals';
export const TREE_FIELDS = `routes { ${ROUTE_FIELDS} } custom updatedAt`;

export function presentRoute(r: Node): Record<string, unknown> {
  return {
    id: r.id,
    parent_id: r.parentId,
    matchers: r.matchers,
    continue: r.continue,
    receiver: r.receiver,
    group_by: r.groupBy,
    group_wait: r.groupWait,
    group_interval: r.groupInterval,
    repeat_interval: r.repeatInterval,
    mute_time_intervals: r.muteTimeIntervals,
    active_time_intervals: r.activeTimeIntervals,
  };
}

export function presentTree(t: Node): Record<string, unknown> {
  return { routes: t.routes.map(presentRoute), custom: t.custom, updated_at: t.updatedAt };
}

/** GraphQL selection that presentReceiver reads. */
export const RECEIVER_FIELDS = 'id name escalationPolicyId outboundWebhookIds importedConfig createdAt updatedAt';

export function presentReceiver(r: Node): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    escalation_policy_id: r.escalationPolicyId,
    outbound_webhook_ids: r.outboundWebhookIds,
    imported_config: r.importedConfig,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

/** GraphQL selection that presentRouteMatch reads. */
export const ROUTE_MATCH_FIELDS = `routeId path receiver receiverDetail { ${RECEIVER_FIELDS} } groupBy groupByAll groupWaitSeconds groupIntervalSeconds repeatIntervalSeconds continue mutedNow`;

export function presentRouteMatch(m: Node): Record<string, unknown> {
  return {
    route_id: m.routeId,
    path: m.path,
    receiver: m.receiver,
    receiver_detail: m.receiverDetail ? presentReceiver(m.receiverDetail) : null,
    group_by: m.groupBy,
    group_by_all: m.groupByAll,
    group_wait_seconds: m.groupWaitSeconds,
    group_interval_seconds: m.groupIntervalSeconds,
    repeat_interval_seconds: m.repeatIntervalSeconds,
    continue: m.continue,
    muted_now: m.mutedNow,
  };
}

export const IMPORT_FIELDS = 'routes receivers inhibitRules timeIntervals unmapped';

export function presentImport(r: Node): Record<string, unknown> {
  return {
    routes: r.routes,
    receivers: r.receivers,
    inhibit_rules: r.inhibitRules,
    time_intervals: r.timeIntervals,
    unmapped: r.unmapped,
  };
}
