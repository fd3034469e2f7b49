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
import type { AlertRule, Event, Prisma } from '../generated/prisma/client.js';
import { actOnLiveAlertByEvent, announceAlertChanges, openOrBumpAlert, type AlertChange } from '../alerts/lifecycle.js';
import { inhibitedBy, loadSilencesByTenant, noteOpenedAlert, silencedBy } from '../routing/mute.js';
import { loadInhibitionsByTenant } from '../routing/inhibition.js';
import { alertAnnotationsOf } from '../alerts/labels.js';
import { renderTemplate } from '../events/match.js';
import { matchableOf, planBatch, templateVars } from './plan.js';
import { recordHeartbeat } from './absence.js';
import { writeEventTriggerOutbox } from '../webhooks/event-triggers.js';
import { eventsEvaluationFailures, eventsEvaluationSetAside } from '../metrics.js';
import { announceLinkedEvents, linkEventsToDevices, type LinkedDevice } from '../devices/event-links.js';
import { actOnFamilies, liveLegacyKeys } from './evaluate-keys.js';
import { openRoutedGroups } from '../routing/route-group.js';

type Tx = Prisma.TransactionClient;

/** Default summary of a match alert. */
const DEFAULT_SUMMARY_TEMPLATE = '{{rule.name}}: {{type}} on {{source}}';

export interface EvaluationResult {
  /** Events this run evaluated (the rest were already evaluated or held by another evaluator). */
  evaluated: number;
  opened: number;
  bumped: number;
  resolved: number;
}

/**
 * Failed attempts after which an event is set aside: kept with its error (`evaluationError`), counted in
 * `events_evaluation_set_aside_total`, and never claimed or re-driven again.
 */
export const MAX_EVALUATION_ATTEMPTS = 3;

async function claim(tx: Tx, eventIds: string[]): Promise<Event[]> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM "Event" WHERE id = ANY(${eventIds}::text[]) AND "evaluatedAt" IS NULL
      AND "evaluationAttempts" < ${MAX_EVALUATION_ATTEMPTS} FOR UPDATE SKIP LOCKED`;
  if (rows.length === 0) return [];
  return tx.event.findMany({
    where: { id: { in: rows.map((r) => r.id) } },
    orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
  });
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
 * Whether an error says nothing about the events (the database or its connection failed): the batch is
 * retried as a whole and no event is blamed. Anything else (a RangeError from a pathological payload, a
 * data error from Postgres) may belong to one event.
 */
function isInfrastructureError(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  if (/^P1\d{3}$/.test(code) || ['P2024', 'P2028', 'P2034'].includes(code)) return true;
  if (/^(08|53|57|40)/.test(code)) return true; // Postgres: connection, resources, operator intervention, rollback
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code)) return true;
  const name = typeof e?.name === 'string' ? e.name : '';
  if (name === 'PrismaClientInitializationError' || name === 'PrismaClientRustPanicError') return true;
  return /connection|connect |terminat|timed? ?out|pool/i.test(typeof e?.message === 'string' ? e.message : '');
}

function add(total: EvaluationResult, r: EvaluationResult): void {
  total.evaluated += r.evaluated;
  total.opened += r.opened;
  total.bumped += r.bumped;
  total.resolved += r.resolved;
}

/** Records one failed attempt of an event; the last allowed one sets it aside. */
async function recordFailure(rt: Runtime, eventId: string, err: unknown): Promise<void> {
  const message = (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 1000);
  const rows = await rt.prisma.$queryRaw<Array<{ evaluationAttempts: number }>>`
    UPDATE "Event" SET "evaluationAttempts" = "evaluationAttempts" + 1, "evaluationError" = ${message}
    WHERE id = ${eventId} AND "evaluatedAt" IS NULL AND "evaluationAttempts" < ${MAX_EVALUATION_ATTEMPTS}
    RETURNING "evaluationAttempts"`;
  if (!rows.length) return;
  eventsEvaluationFailures.inc();
  const attempts = rows[0].evaluationAttempts;
  if (attempts >= MAX_EVALUATION_ATTEMPTS) {
    eventsEvaluationSetAside.inc();
    rt.logger.error({ eventId, attempts, error: message }, 'event set aside: its rule evaluation keeps failing');
  } else rt.logger.warn({ eventId, attempts, error: message }, 'event evaluation failed; the sweeper retries it');
}

/**
 * Evaluates the given events (ids from a job; already-evaluated and set-aside ones are skipped), then
 * publishes `alertChanged` and dispatches outbox messages after commit.
 *
 * The batch runs as one transaction. If it fails for a reason other than the database itself, each event
 * is evaluated on its own, so one poison event cannot hold back the others; the failing one gets an
 * attempt recorded (and is retried by the sweeper until MAX_EVALUATION_ATTEMPTS, then set aside).
 */
export async function evaluateEvents(rt: Runtime, eventIds: string[]): Promise<EvaluationResult> {
  try {
    return await evaluateBatch(rt, eventIds);
  } catch (err) {
    if (isInfrastructureError(err)) throw err;
    const total: EvaluationResult = { evaluated: 0, opened: 0, bumped: 0, resolved: 0 };
    if (eventIds.length === 1) {
      await recordFailure(rt, eventIds[0], err);
      return total;
    }
    for (const id of eventIds) {
      try {
        add(total, await evaluateBatch(rt, [id]));
      } catch (one) {
        if (isInfrastructureError(one)) throw one;
        await recordFailure(rt, id, one);
      }
    }
    return total;
  }
}

async function evaluateBatch(rt: Runtime, eventIds: string[]): Promise<EvaluationResult> {
  const result: EvaluationResult = { evaluated: 0, opened: 0, bumped: 0, resolved: 0 };
  if (eventIds.length === 0) return result;
  const changes: AlertChange[] = [];
  const outboxIds: Array<string | null> = [];
  let linked: LinkedDevice[] = [];
  await rt.prisma.$transaction(
    async (tx) => {
      changes.length = 0;
      outboxIds.length = 0;
      linked = [];
      const events = await claim(tx, eventIds);
      if (events.length === 0) return;
      const tenantIds = [...new Set(events.map((e) => e.tenantId))];
      const rulesByTenant = groupBy(
        await tx.alertRule.findMany({
          where: { tenantId: { in: tenantIds }, enabled: true },
          orderBy: { createdAt: 'asc' },
        }),
        (r) => r.tenantId,
      );
      const now = rt.clock.now();
      // Events find their device (one lookup for the batch) before the alerts they open take it.
      linked = await linkEventsToDevices(tx, events);
      // Plan the batch first: one alert write per run of triggers on a dedup key and one tracker write
      // per (rule, source), however many events of the batch share them.
      const plan = planBatch(events, rulesByTenant);
      // Outbound webhooks with an EVENT trigger: announced in this transaction, dispatched after commit.
      outboxIds.push(...(await writeEventTriggerOutbox(tx, events, now)));
      // Marked before the alert writes (same transaction, so still all-or-nothing): the hot alert
      // rows below are then locked only for the last statements before commit.
      await tx.event.updateMany({ where: { id: { in: events.map((e) => e.id) } }, data: { evaluatedAt: now } });
      // Rows are written in key order, so concurrent batches lock them in the same order (no deadlocks).
      for (const [, { rule, last }] of [...plan.heartbeats].sort(byKey)) {
        const hb = await recordHeartbeat(tx, rule, last, now);
        if (hb) {
          changes.push(hb.change);
          outboxIds.push(hb.outboxId);
          result.resolved++;
        }
      }
      // Resolve criteria on default keys first: they act on the alerts live before this batch.
      for (const t of await actOnFamilies(tx, plan, now)) {
        changes.push(t.change);
        outboxIds.push(t.outboxId);
        if (t.change.change === 'resolved') result.resolved++;
      }
      const legacyLive = await liveLegacyKeys(tx, plan);
      const silences = plan.keys.size ? await loadSilencesByTenant(tx, tenantIds, now) : new Map();
      const inhibitions = plan.keys.size ? await loadInhibitionsByTenant(tx, tenantIds) : new Map();
      for (const [key, steps] of [...plan.keys].sort(byKey)) {
        const tenantId = key.slice(0, key.indexOf('\u0000'));
        // An alert opened under the older default key keeps it while it is live.
        const dedupKey = legacyLive.get(key) ?? key.slice(key.indexOf('\u0000') + 1);
        // Consecutive triggers become one open-or-bump; an acknowledge/resolve step applies in between.
        let run: { rule: AlertRule; first: Event; last: Event; ids: string[] } | null = null;
        const flush = async () => {
          if (!run) return;
          const { rule, first, last, ids } = run;
          run = null;
          const m = matchableOf(first);
          const summaryOf = (ev: Event) =>
            renderTemplate(rule.summaryTemplate ?? DEFAULT_SUMMARY_TEMPLATE, templateVars(rule, matchableOf(ev)));
          const r = await openOrBumpAlert(tx, {
            now,
            tenantId,
            ruleId: rule.id,
            dedupKey,
            severity: rule.alertSeverity,
            summary: summaryOf(rule.summaryFollowsLatest ? last : first),
            followSummary: rule.summaryFollowsLatest,
            source: first.source,
            deviceId: first.deviceId,
            labels: m.labels,
            annotations: alertAnnotationsOf(first.payload),
            seenAt: last.receivedAt,
            eventIds: ids,
            silencedBy: silencedBy(
              silences,
              {
                tenantId,
                labels: m.labels,
                severity: rule.alertSeverity,
                source: first.source,
                ruleName: rule.name,
                deviceId: first.deviceId,
              },
              now,
            ),
            inhibitedBy: inhibitedBy(inhibitions, {
              tenantId,
              labels: m.labels,
              severity: rule.alertSeverity,
              source: first.source,
              ruleName: rule.name,
            }),
          });
          if (r.opened) await noteOpenedAlert(tx, inhibitions, r.alert, now, rule.name);
          // The routing tree forms its groups (src/routing/route-group.ts).
          const groups = r.opened ? await openRoutedGroups(tx, r.alert, now) : [];
          changes.push({ change: r.opened ? 'opened' : 'bumped', alert: r.alert, groups });
          outboxIds.push(r.outboxId);
          if (r.opened) result.opened++;
          else result.bumped++;
        };
        for (const step of steps) {
          if (step.action === 'trigger' && step.rule) {
            if (!run) run = { rule: step.rule, first: step.event, last: step.event, ids: [step.event.id] };
            else if (run.ids[run.ids.length - 1] !== step.event.id) {
              run.last = step.event;
              run.ids.push(step.event.id);
            }
            continue;
          }
          if (step.action === 'trigger') continue;
          await flush();
          const by = step.rule ? `rule "${step.rule.name}"` : 'its dedup key';
          const t = await actOnLiveAlertByEvent(tx, {
            tenantId,
            dedupKey,
            action: step.action,
            eventId: step.event.id,
            now,
            note: `${step.action === 'resolve' ? 'Resolved' : 'Acknowledged'} by event ${step.event.type} from ${step.event.source} (${by}).`,
          });
          if (t) {
            changes.push(t.change);
            outboxIds.push(t.outboxId);
            if (step.action === 'resolve') result.resolved++;
          }
        }
        await flush();
      }
      result.evaluated = events.length;
    },
    { timeout: 30_000, maxWait: 10_000 },
  );
  await announceAlertChanges(rt, changes, outboxIds);
  announceLinkedEvents(rt, linked);
  return result;
}
