/**
 * The REST shapes of contact methods, notification rules and notifications: snake_case, lowercase enum
 * values. Used by every route of rest/routes/notifications.ts.
 */
type Node = Record<string, any>;

export const CONTACT_METHOD_FIELDS = 'id kind name address topic enabled hasSecret createdAt updatedAt';
export const NOTIFICATION_RULE_FIELDS = 'id urgency delayMinutes contactMethod { id kind name } createdAt';
export const NOTIFICATION_FIELDS =
  'id user { id email } kind contactMethod { id name } groupId alert { id summary severity } step round reason status attempts error dueAt sentAt latencyMs readAt createdAt';

export function presentContactMethod(m: Node): Record<string, unknown> {
  return {
    id: m.id,
    kind: m.kind,
    name: m.name,
    address: m.address,
    topic: m.topic,
    enabled: m.enabled,
    has_secret: m.hasSecret,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
  };
}

export function presentNotificationRule(r: Node): Record<string, unknown> {
  return {
    id: r.id,
    urgency: r.urgency,
    delay_minutes: r.delayMinutes,
    contact_method: { id: r.contactMethod.id, kind: r.contactMethod.kind, name: r.contactMethod.name },
    created_at: r.createdAt,
  };
}

export function presentNotification(n: Node): Record<string, unknown> {
  return {
    id: n.id,
    user: { id: n.user.id, email: n.user.email },
    kind: n.kind,
    contact_method: n.contactMethod ? { id: n.contactMethod.id, name: n.contactMethod.name } : null,
    group_id: n.groupId,
    alert: n.alert ? { id: n.alert.id, summary: n.alert.summary, severity: n.alert.severity } : null,
    step: n.step,
    round: n.round,
    reason: n.reason,
    status: n.status,
    attempts: n.attempts,
    error: n.error,
    due_at: n.dueAt,
    sent_at: n.sentAt,
    latency_ms: n.latencyMs,
    read_at: n.readAt,
    created_at: n.createdAt,
  };
}
