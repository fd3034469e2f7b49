/**
 * The REST shapes of escalation policies, the tenant's paging settings and alert groups: snake_case, lowercase
 * enum values. Each returns its OpenAPI schema's type (src/openapi-types.ts), so presenter and contract agree.
 */
import type { components } from '../../src/openapi-types.js';

type Schemas = components['schemas'];
export type EscalationPolicyWire = Schemas['EscalationPolicy'];
export type AlertGroupWire = Schemas['AlertGroup'];
export type PagingSettingsWire = Schemas['PagingSettings'];
type Node = Record<string, any>;

export const ESCALATION_POLICY_FIELDS =
  'id name description repeat highUrgencySeverities steps { position delayMinutes targets { type id } } createdAt updatedAt';
export const PAGING_SETTINGS_FIELDS = 'defaultEscalationPolicyId';
export const ALERT_GROUP_FIELDS =
  'id groupKey status urgency policyId step round nextStepAt snoozedUntil acknowledgedAt acknowledgedById resolvedAt alerts { id } createdAt updatedAt';

export function presentEscalationPolicy(p: Node): EscalationPolicyWire {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    repeat: p.repeat,
    high_urgency_severities: p.highUrgencySeverities,
    steps: p.steps.map((s: Node) => ({
      position: s.position,
      delay_minutes: s.delayMinutes,
      targets: s.targets.map((t: Node) => ({ type: t.type, id: t.id })),
    })),
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

export function presentPagingSettings(s: Node): PagingSettingsWire {
  return { default_escalation_policy_id: s.defaultEscalationPolicyId };
}

export function presentAlertGroup(g: Node): AlertGroupWire {
  return {
    id: g.id,
    group_key: g.groupKey,
    status: g.status,
    urgency: g.urgency,
    policy_id: g.policyId,
    step: g.step,
    round: g.round,
    next_step_at: g.nextStepAt,
    snoozed_until: g.snoozedUntil,
    acknowledged_at: g.acknowledgedAt,
    acknowledged_by_id: g.acknowledgedById,
    resolved_at: g.resolvedAt,
    alert_ids: g.alerts.map((a: Node) => a.id),
    created_at: g.createdAt,
    updated_at: g.updatedAt,
  };
}
