/**
 * The one wire shape of an alert outside GraphQL: REST naming (snake_case, ISO times, lowercase enum
 * values). The `alertChanged` publication, outbound webhook bodies, the assistant's tools and cluster
 * forwarding all send it; the REST presenter (rest/presenters/alerts.ts) answers the same fields from
 * GraphQL, and test/alerts-wire.test.ts holds the two equal. Only what depends on the caller
 * (`allowed_actions`) or on a join (the rule's name, the events) is added by the REST detail.
 */
import type { Alert } from '../generated/prisma/client.js';

export interface AlertWire {
  id: string;
  status: Alert['status'];
  severity: Alert['severity'];
  summary: string;
  source: string | null;
  dedup_key: string;
  count: number;
  rule_id: string | null;
  device_id: string | null;
  assignee_id: string | null;
  maintenance_window_id: string | null;
  suppressed: boolean;
  first_seen_at: string;
  last_seen_at: string;
  acknowledged_at: string | null;
  snoozed_until: string | null;
  resolved_at: string | null;
  created_at: string;
  updated_at: string;
}

export function alertWire(a: Alert): AlertWire {
  return {
    id: a.id,
    status: a.status,
    severity: a.severity,
    summary: a.summary,
    source: a.source,
    dedup_key: a.dedupKey,
    count: a.count,
    rule_id: a.ruleId,
    device_id: a.deviceId,
    assignee_id: a.assigneeId,
    maintenance_window_id: a.maintenanceWindowId,
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
