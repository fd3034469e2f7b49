/**
 * REST shapes of integrations, their health and provider configs (snake_case, lowercase enum values
 * of docs/spec.md). Used by every route of rest/routes/integrations.ts.
 */
type Node = Record<string, any>;

/** GraphQL selection the presenters read. */
const CHECKS_FIELDS = `config { ok problems { field message } }
  reachable { ok latencyMs message }
  freshness { ok expectedSeconds lastEventAt ageSeconds message }
  errors { ok count lastError lastErrorAt }`;
export const HEALTH_FIELDS = `status reason checkedAt checks { ${CHECKS_FIELDS} }`;
export const INTEGRATION_FIELDS = `id provider name enabled config freshnessSeconds escalationPolicyId pushUrl pushTokenPrefix previousPushTokenValidUntil
  lastEventAt lastPullAt lastError lastErrorAt secretsCleared createdAt updatedAt health { status reason checkedAt }`;

function presentChecks(c: Node | null | undefined): Record<string, unknown> | null {
  if (!c) return null;
  return {
    config: { ok: c.config.ok, problems: c.config.problems },
    reachable: { ok: c.reachable.ok, latency_ms: c.reachable.latencyMs, message: c.reachable.message },
    freshness: {
      ok: c.freshness.ok,
      expected_seconds: c.freshness.expectedSeconds,
      last_event_at: c.freshness.lastEventAt,
      age_seconds: c.freshness.ageSeconds,
      message: c.freshness.message,
    },
    errors: {
      ok: c.errors.ok,
      count: c.errors.count,
      last_error: c.errors.lastError,
      last_error_at: c.errors.lastErrorAt,
    },
  };
}

/** `{status, checks, reason, checked_at}` (+ `history` when selected). */
export function presentHealth(h: Node): Record<string, unknown> {
  const out: Record<string, unknown> = {
    status: h.status,
    reason: h.reason,
    checked_at: h.checkedAt,
    checks: presentChecks(h.checks),
  };
  if (Array.isArray(h.history))
    out.history = h.history.map((x: Node) => ({
      status: x.status,
      reason: x.reason,
      checked_at: x.checkedAt,
      checks: presentChecks(x.checks),
    }));
  return out;
}

export function presentIntegration(i: Node): Record<string, unknown> {
  return {
    id: i.id,
    provider: i.provider,
    name: i.name,
    enabled: i.enabled,
    config: i.config,
    freshness_seconds: i.freshnessSeconds,
    escalation_policy_id: i.escalationPolicyId,
    push_url: i.pushUrl,
    push_token_prefix: i.pushTokenPrefix,
    previous_push_token_valid_until: i.previousPushTokenValidUntil,
    health: { status: i.health.status, reason: i.health.reason, checked_at: i.health.checkedAt },
    last_event_at: i.lastEventAt,
    last_pull_at: i.lastPullAt,
    last_error: i.lastError,
    last_error_at: i.lastErrorAt,
    secrets_cleared: i.secretsCleared,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
  };
}

export function presentDryRun(d: Node): Record<string, unknown> {
  return {
    dry_run: true,
    provider: d.provider,
    name: d.name,
    checks: {
      config: { ok: d.configOk, problems: [] },
      reachable: d.reachable
        ? { ok: d.reachable.ok, latency_ms: d.reachable.latencyMs, message: d.reachable.message }
        : null,
    },
  };
}

export function presentProviderConfig(c: Node): Record<string, unknown> {
  return {
    provider: c.provider,
    config: c.config,
    secret_fields: c.secretFields,
    updated_at: c.updatedAt,
    integration_count: c.integrationCount,
    hint: c.hint,
    secrets_cleared: c.secretsCleared,
  };
}

export function presentIngest(r: Node): Record<string, unknown> {
  return {
    provider: r.provider,
    events: r.events,
    alerts_opened: r.alertsOpened,
    alerts_resolved: r.alertsResolved,
    hint: r.hint,
    integrations: r.integrations.map((x: Node) => ({
      integration_id: x.integrationId,
      name: x.name,
      ok: x.ok,
      events: x.events,
      alerts_opened: x.alertsOpened,
      alerts_resolved: x.alertsResolved,
      error: x.error,
      summary: x.summary,
    })),
  };
}
