/**
 * Rule evaluation for a batch of stored events: the heart of "a 202 means nothing is lost".
 *
 * One transaction per batch claims the batch's still-unevaluated events (`FOR UPDATE SKIP LOCKED`, so
 * a concurrent evaluator of the same ids skips them), applies every enabled rule of their tenants,
 * and marks them evaluated. A crash anywhere before commit leaves them unevaluated for the sweeper;
 * after commit a re-run finds nothing to claim. Together with the live-dedup-key unique index this
 * makes evaluation idempotent: one alert per match, counts never doubled.
 */
import type { Runtime } from '../runtime.js';
import type { AlertRule, Event, MaintenanceWindow, Prisma } from '../generated/prisma/client.js';
import { announceAlertChanges, openOrBumpAlert, type AlertChange } from '../alerts/lifecycle.js';
import { loadCandidateWindows, suppressingWindow } from '../alerts/maintenance-windows.js';
import { eventMatches, renderTemplate, type MatchableEvent, type PayloadCondition, type RuleCriteria } from './match.js';
import { recordHeartbeat } from './absence.js';
import { writeEventTriggerOutbox } from '../webhooks/event-triggers.js';

type Tx = Prisma.TransactionClient;

/** Default summary of a match alert. */
export const DEFAULT_SUMMARY_TEMPLATE = '{{rule.name}}: {{type}} on {{source}}';

export interface EvaluationResult {
  /** Events this run evaluated (the rest were already evaluated or held by another evaluator). */
  evaluated: number;
  opened: number;
  bumped: number;
  resolved: number;
}

/** The rule as the matcher sees it. */
export function criteriaOf(rule: AlertRule): RuleCriteria {
  return {
    typeGlob: rule.typeGlob,
    severities: rule.severities,
    module: rule.module,
    source: rule.source,
    labels: (rule.labels ?? {}) as Record<string, unknown>,
    payloadConditions: (rule.payloadConditions ?? []) as unknown as PayloadCondition[],
  };
}

/** The event as the matcher and the templates see it. */
export function matchableOf(ev: Event): MatchableEvent {
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

/** The dedup key of a match: the rule's template, or `<rule id>:<source>`. */
export function dedupKeyOf(rule: AlertRule, ev: MatchableEvent): string {
  return rule.dedupKeyTemplate ? renderTemplate(rule.dedupKeyTemplate, templateVars(rule, ev)) : `${rule.id}:${ev.source}`;
}

async function claim(tx: Tx, eventIds: string[]): Promise<Event[]> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM "Event" WHERE id = ANY(${eventIds}::text[]) AND "evaluatedAt" IS NULL FOR UPDATE SKIP LOCKED`;
  if (rows.length === 0) return [];
  return tx.event.findMany({ where: { id: { in: rows.map((r) => r.id) } }, orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }] });
}

function byKey(a: [string, unknown], b: [string, unknown]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}

/**
 * Evaluates the given events (ids from a job; already-evaluated ones are skipped), then publishes
 * `alertChanged` and dispatches outbox messages after commit.
 */
export async function evaluateEvents(rt: Runtime, eventIds: string[]): Promise<EvaluationResult> {
  const result: EvaluationResult = { evaluated: 0, opened: 0, bumped: 0, resolved: 0 };
  if (eventIds.length === 0) return result;
  const changes: AlertChange[] = [];
  const outboxIds: Array<string | null> = [];
  await rt.prisma.$transaction(
    async (tx) => {
      changes.length = 0;
      outboxIds.length = 0;
      const events = await claim(tx, eventIds);
      if (events.length === 0) return;
      const tenantIds = [...new Set(events.map((e) => e.tenantId))];
      const rulesByTenant = groupBy(await tx.alertRule.findMany({ where: { tenantId: { in: tenantIds }, enabled: true }, orderBy: { createdAt: 'asc' } }), (r) => r.tenantId);
      const now = new Date();
      // Group the batch first: one alert write per dedup key and one tracker write per (rule, source),
      // however many events of the batch share them.
      const matches = new Map<string, { rule: AlertRule; first: Event; last: Event; eventIds: string[] }>();
      const heartbeats = new Map<string, { rule: AlertRule; last: Event }>();
      for (const ev of events) {
        const m = matchableOf(ev);
        for (const rule of rulesByTenant.get(ev.tenantId) ?? []) {
          if (!eventMatches(criteriaOf(rule), m)) continue;
          if (rule.kind === 'absence') {
            heartbeats.set(`${rule.id}\u0000${ev.source}`, { rule, last: ev });
            continue;
          }
          const key = `${ev.tenantId}\u0000${dedupKeyOf(rule, m)}`;
          const g = matches.get(key);
          if (g) {
            g.last = ev;
            if (g.eventIds[g.eventIds.length - 1] !== ev.id) g.eventIds.push(ev.id); // two rules, one key
          } else matches.set(key, { rule, first: ev, last: ev, eventIds: [ev.id] });
        }
      }
      // Outbound webhooks with an EVENT trigger: announced in this transaction, dispatched after commit.
      outboxIds.push(...(await writeEventTriggerOutbox(tx, events)));
      // Marked before the alert writes (same transaction, so still all-or-nothing): the hot alert
      // rows below are then locked only for the last statements before commit.
      await tx.event.updateMany({ where: { id: { in: events.map((e) => e.id) } }, data: { evaluatedAt: now } });
      // Rows are written in key order, so concurrent batches lock them in the same order (no deadlocks).
      for (const [, { rule, last }] of [...heartbeats].sort(byKey)) {
        const hb = await recordHeartbeat(tx, rule, last);
        if (hb) {
          changes.push(hb.change);
          outboxIds.push(hb.outboxId);
          result.resolved++;
        }
      }
      const windowsByTenant = matches.size ? groupBy(await loadCandidateWindows(tx, tenantIds, now), (w) => w.tenantId) : new Map<string, MaintenanceWindow[]>();
      for (const [key, { rule, first, last, eventIds: ids }] of [...matches].sort(byKey)) {
        const m = matchableOf(first);
        const window = suppressingWindow(windowsByTenant.get(first.tenantId) ?? [], { source: first.source, labels: m.labels, deviceId: first.deviceId }, now);
        const r = await openOrBumpAlert(tx, {
          tenantId: first.tenantId,
          ruleId: rule.id,
          dedupKey: key.slice(key.indexOf('\u0000') + 1),
          severity: rule.alertSeverity,
          summary: renderTemplate(rule.summaryTemplate ?? DEFAULT_SUMMARY_TEMPLATE, templateVars(rule, m)),
          source: first.source,
          deviceId: first.deviceId,
          labels: m.labels,
          seenAt: last.receivedAt,
          eventIds: ids,
          suppressedBy: window ? { id: window.id, name: window.name } : null,
        });
        changes.push({ change: r.opened ? 'opened' : 'bumped', alert: r.alert });
        outboxIds.push(r.outboxId);
        if (r.opened) result.opened++;
        else result.bumped++;
      }
      result.evaluated = events.length;
    },
    { timeout: 30_000, maxWait: 10_000 },
  );
  await announceAlertChanges(rt, changes, outboxIds);
  return result;
}
