/**
 * The one wire shape of an alert outside GraphQL: REST naming (snake_case, ISO times, lowercase enum
 * values). The `alertChanged` publication, outbound webhook bodies, the assistant's tools and cluster
 * forwarding all send it; the REST presenter (rest/presenters/alerts.ts) answers the same fields from
 * GraphQL, and test/alerts-wire.test.ts holds the two equal. Only what depends on the caller
 * (`allowed_actions`) or on a join (the rule's name, the events) is added by the REST detail.
 */
import type { Alert } from '../generated/prisma/client.js';
import type { components } from '../openapi-types.js';

/** An alert as REST's contract (rest/openapi/alerts.yaml `AlertsAlert`) describes it. */
type RestAlert = components['schemas']['AlertsAlert'];

/**
 * Every field of the REST alert except what depends on the caller (`allowed_actions`), each present (null when
 * unset), plus the device the alert is about: the compiler holds this shape to the OpenAPI schema, so a field
 * added to one and not the other does not build (CONTRIBUTING, "Adding a field to Alert").
 */
export type AlertWire = Required<Omit<RestAlert, 'allowed_actions'>> & {
  device_id: string | null;
};

export function alertWire(a: Alert): AlertWire {
  return {
    id: a.id,
    status: a.status,
    severity: a.severity,
    summary: a.summary,
    source: a.source,
    labels: (a.labels ?? {}) as Record<string, string>,
    annotations: (a.annotations ?? {}) as Record<string, string>,
    dedup_key: a.dedupKey,
    count: a.count,
    rule_id: a.ruleId,
    device_id: a.deviceId,
    assignee_id: a.assigneeId,
    maintenance_window_id: a.maintenanceWindowId,
    silence_id: a.silenceId,
    inhibited_by_id: a.inhibitedById,
    suppressed: a.suppressed,
    first_seen_at: a.firstSeenAt.toISOString(),
    last_seen_at: a.lastSeenAt.toISOString(),
    acknowledged_at: a.acknowledgedAt?.toISOString() ?? null,
    snoozed_until: a.snoozedUntil?.toISOString() ?? null,
    resolved_at: a.resolvedAt?.toISOString() ?? null,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}
