/**
 * What a batch of events does to alerts, decided without I/O: per (tenant, dedup key) the ordered list
 * of steps (trigger, acknowledge, resolve), and per (absence rule, source) the last heartbeat. The
 * evaluator (evaluate.ts) applies the plan inside its transaction.
 *
 * - A `trigger` event (the default) that matches a match rule opens or bumps that rule's alert.
 * - An `acknowledge` / `resolve` event with a `dedup_key` acts on the live alert with that key.
 * - An event that meets a match rule's resolve criteria (`resolve_type_glob` + `resolve_conditions`),
 *   or that matches the rule and says `event_action: resolve`, resolves the rule's alert with the same
 *   dedup key; `acknowledge` likewise acknowledges it. Such events never open an alert.
 *
 * A rule's dedup key: its template when it has one; otherwise the event's `dedup_key` (for events from
 * an integration, the upstream alert's key), so each upstream alert gets its own alert; otherwise the
 * default key `<rule id>:<source>:<label fingerprint>:<type>` (fingerprint.ts), so two event types, two
 * sources or two label sets under one rule are two alerts. An event meeting the rule's resolve criteria
 * (another type, e.g. `link.up`) acts on the whole family `<rule id>:<source>:<fingerprint>:` instead.
 * Alerts opened under the older default `<rule id>:<source>` keep that key while they are live
 * (`legacy`): the evaluator bumps and resolves them under it.
 */
import type { AlertRule, Event } from '../generated/prisma/client.js';
import { eventDirectives, type EventAction } from '../alerts/labels.js';
import {
  eventMatches,
  eventResolves,
  renderTemplate,
  type MatchableEvent,
  type PayloadCondition,
  type RuleCriteria,
} from '../events/match.js';
import { defaultDedupKey, defaultKeyFamily, legacyDedupKey } from './fingerprint.js';

export interface KeyStep {
  action: EventAction;
  event: Event;
  /** The rule whose match made the step (null: the event's own dedup_key). */
  rule: AlertRule | null;
}

export interface BatchPlan {
  /** `<tenantId>\0<dedup key>` → steps in event order. */
  keys: Map<string, KeyStep[]>;
  /** `<ruleId>\0<source>` → the rule and its latest heartbeat. */
  heartbeats: Map<string, { rule: AlertRule; last: Event }>;
  /**
   * `<tenantId>\0<key family>` → resolve/acknowledge steps of resolve criteria on default keys: they act on
   * every live alert of the rule whose key is in the family (or is the family's legacy key).
   */
  families: Map<string, KeyStep[]>;
  /** `<tenantId>\0<default dedup key>` or `<tenantId>\0<family>` → the legacy key of the same rule and source. */
  legacy: Map<string, string>;
}

/** The rule as the matcher sees it. */
export function criteriaOf(
  rule: AlertRule,
): RuleCriteria & { resolveTypeGlob: string | null; resolveConditions: PayloadCondition[] } {
  return {
    typeGlob: rule.typeGlob,
    severities: rule.severities,
    module: rule.module,
    source: rule.source,
    labels: (rule.labels ?? {}) as Record<string, unknown>,
    payloadConditions: (rule.payloadConditions ?? []) as unknown as PayloadCondition[],
    resolveTypeGlob: rule.resolveTypeGlob,
    resolveConditions: (rule.resolveConditions ?? []) as unknown as PayloadCondition[],
  };
}

/** The event as the matcher and the templates see it. */
export function matchableOf(
  ev: Pick<Event, 'type' | 'module' | 'source' | 'severity' | 'summary' | 'labels' | 'payload'>,
): MatchableEvent {
  return {
    type: ev.type,
    module: ev.module,
    source: ev.source,
    severity: ev.severity,
    summary: ev.summary,
    labels: (ev.labels ?? {}) as Record<string, unknown>,
    payload: ev.payload,
  };
}

/** Template variables for a rule and an event. */
export function templateVars(rule: AlertRule, ev: MatchableEvent): Record<string, unknown> {
  return { ...ev, rule: { id: rule.id, name: rule.name }, windowSeconds: rule.windowSeconds };
}

/** The dedup key of a rule's alert for an event (see the module comment). */
export function ruleDedupKey(rule: AlertRule, ev: MatchableEvent): string {
  return explicitDedupKey(rule, ev) ?? defaultDedupKey(rule.id, ev);
}

/** The key a rule's template or the event's own `dedup_key` names, or null when the default applies. */
function explicitDedupKey(rule: AlertRule, ev: MatchableEvent): string | null {
  if (rule.dedupKeyTemplate) return renderTemplate(rule.dedupKeyTemplate, templateVars(rule, ev));
  return eventDirectives(ev.labels).dedupKey;
}

/**
 * Whether a match rule applies to the event, and how: `trigger` (opens/bumps), `resolve` or
 * `acknowledge`, or null. Shared with the integration recorder, which leaves an upstream alert that a
 * rule triggers on to that rule.
 */
export function ruleStep(rule: AlertRule, m: MatchableEvent, action: EventAction): EventAction | null {
  const c = criteriaOf(rule);
  if (eventResolves(c, m)) return 'resolve';
  if (!eventMatches(c, m)) return null;
  return action;
}

/** Plans the batch (events in arrival order; rules grouped by tenant, enabled only). */
export function planBatch(events: Event[], rulesByTenant: Map<string, AlertRule[]>): BatchPlan {
  const keys = new Map<string, KeyStep[]>();
  const heartbeats = new Map<string, { rule: AlertRule; last: Event }>();
  const families = new Map<string, KeyStep[]>();
  const legacy = new Map<string, string>();
  const pushTo = (map: Map<string, KeyStep[]>, k: string, step: KeyStep) => {
    const list = map.get(k);
    if (!list) map.set(k, [step]);
    // Two rules (or a rule and the event's own key) on one key: one step per event and action.
    else if (!list.some((s) => s.event.id === step.event.id && s.action === step.action)) list.push(step);
  };
  const push = (tenantId: string, key: string, step: KeyStep) => pushTo(keys, `${tenantId}\u0000${key}`, step);
  for (const ev of events) {
    const m = matchableOf(ev);
    const { action, dedupKey } = eventDirectives(ev.labels);
    if (action !== 'trigger' && dedupKey) push(ev.tenantId, dedupKey, { action, event: ev, rule: null });
    for (const rule of rulesByTenant.get(ev.tenantId) ?? []) {
      if (rule.kind === 'absence') {
        if (eventMatches(criteriaOf(rule), m)) heartbeats.set(`${rule.id}\u0000${ev.source}`, { rule, last: ev });
        continue;
      }
      const step = ruleStep(rule, m, action);
      if (!step) continue;
      const explicit = explicitDedupKey(rule, m);
      if (explicit !== null) {
        push(ev.tenantId, explicit, { action: step, event: ev, rule });
        continue;
      }
      const old = legacyDedupKey(rule.id, ev.source);
      if (step !== 'trigger' && eventResolves(criteriaOf(rule), m)) {
        // Resolve criteria name another type: the step acts on the family, and on the family's keys
        // already planned in this batch (after their earlier triggers).
        const family = defaultKeyFamily(rule.id, ev.source, m.labels);
        pushTo(families, `${ev.tenantId}\u0000${family}`, { action: step, event: ev, rule });
        legacy.set(`${ev.tenantId}\u0000${family}`, old);
        for (const k of keys.keys())
          if (k.startsWith(`${ev.tenantId}\u0000${family}`)) pushTo(keys, k, { action: step, event: ev, rule });
        continue;
      }
      const key = defaultDedupKey(rule.id, m);
      push(ev.tenantId, key, { action: step, event: ev, rule });
      legacy.set(`${ev.tenantId}\u0000${key}`, old);
    }
  }
  return { keys, heartbeats, families, legacy };
}
