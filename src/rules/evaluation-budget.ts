/**
 * Each tenant's share of rule evaluation is bounded by time (issue 40), so one tenant flooding events
 * against many expensive rules cannot starve the others' evaluation.
 *
 * An `evaluate` job's events are split by tenant and evaluated in chunks of at most TENANT_CHUNK events,
 * one tenant after another. The wall time of each chunk (database included) is charged to its tenant
 * in Redis (src/limiter.ts), so the budget, EVALUATE_TENANT_BUDGET_MS per
 * EVALUATE_TENANT_BUDGET_WINDOW_SECONDS, holds across every worker process and node. Before each chunk
 * the tenant's use of the current window is read: a tenant past its budget has the rest of its events
 * deferred to a delayed job that runs when its window ends. A deferral costs two Redis round trips, so
 * the jobs of a flooding tenant queued ahead of another tenant's pass quickly, and that tenant's events
 * are evaluated promptly. Deferred events are never dropped: they stay unevaluated until a later job (or,
 * if that job is lost, the re-drive sweeper, src/rules/sweeper.ts) evaluates them, once.
 *
 * A chunk that starts under budget runs to its end, so a tenant may overrun its budget by the chunks its
 * evaluations had in flight. Deferrals are counted in /metrics and logged at warn once per window per
 * tenant in each process.
 */
import type { RateLimiterRedis } from 'rate-limiter-flexible';
import { redisLimiter } from '../limiter.js';
import type { Runtime } from '../runtime.js';
import { evaluateEvents, MAX_EVALUATION_ATTEMPTS, type EvaluationResult } from './evaluate.js';
import { enqueueEvaluation } from '../events/evaluation-jobs.js';
import { evaluationBudgetExceeded, eventsEvaluationDeferred } from '../metrics.js';

/** Events of one tenant evaluated in one transaction between two looks at its budget. */
export const TENANT_CHUNK = 50;

export interface EvaluationBudget {
  /** Milliseconds of evaluation used per tenant in the current window; null when the budget is off. */
  limiter: RateLimiterRedis | null;
  /** Tenant id → end of the window (service clock, ms) its warn line was logged for, in this process. */
  warned: Map<string, number>;
}

declare module '../runtime.js' {
  interface RuntimeParts {
    evaluationBudget: EvaluationBudget;
  }
}

/** Builds the runtime's evaluation budget (src/server/runtime-parts.ts, before any traffic). */
export function createEvaluationBudget(rt: Runtime): EvaluationBudget {
  const { tenantBudgetMs, tenantBudgetWindowSeconds } = rt.config.alerting;
  return {
    limiter: tenantBudgetMs > 0 ? redisLimiter(rt, 'evaluate', tenantBudgetMs, tenantBudgetWindowSeconds) : null,
    warned: new Map(),
  };
}

export interface BudgetedResult extends EvaluationResult {
  /** Events left for a later job because their tenant had used its budget. */
  deferred: number;
}

function deferredKey(rt: Runtime, tenantId: string): string {
  return `${rt.config.redisPrefix}:evaluate-deferred:${tenantId}`;
}

/** Milliseconds until the tenant's window ends when it has used its budget; 0 while it has time left. */
async function waitOf(rt: Runtime, limiter: RateLimiterRedis, tenantId: string): Promise<number> {
  const used = await limiter.get(tenantId);
  if (!used || used.consumedPoints < rt.config.alerting.tenantBudgetMs) return 0;
  return Math.max(1, used.msBeforeNext);
}

/** Leaves `ids` to a job delayed by `waitMs`, marks the tenant as deferred for the sweeper, counts and logs. */
async function defer(rt: Runtime, tenantId: string, ids: string[], waitMs: number): Promise<void> {
  const now = rt.clock.now().getTime();
  await enqueueEvaluation(rt, ids, { deferMs: waitMs, at: now });
  // While the mark lasts the sweeper leaves the tenant's events to its deferred jobs (src/rules/sweeper.ts).
  await rt.redis.set(deferredKey(rt, tenantId), '1', 'PX', waitMs + rt.config.alerting.sweepAgeMs);
  eventsEvaluationDeferred.inc(ids.length);
  const warnedUntil = rt.parts.evaluationBudget.warned.get(tenantId);
  if (warnedUntil !== undefined && warnedUntil > now) return;
  rt.parts.evaluationBudget.warned.set(tenantId, now + waitMs);
  evaluationBudgetExceeded.inc();
  rt.logger.warn(
    {
      tenantId,
      budgetMs: rt.config.alerting.tenantBudgetMs,
      windowSeconds: rt.config.alerting.tenantBudgetWindowSeconds,
      deferred: ids.length,
      retryInMs: waitMs,
    },
    'tenant used its rule-evaluation budget (EVALUATE_TENANT_BUDGET_MS); its events wait for the next window',
  );
}

/** The tenants among `tenantIds` whose events were deferred lately (their deferred jobs will evaluate them). */
export async function tenantsWithDeferredEvents(rt: Runtime, tenantIds: string[]): Promise<Set<string>> {
  if (!rt.parts.evaluationBudget.limiter) return new Set();
  const marked = await Promise.all(tenantIds.map((t) => rt.redis.exists(deferredKey(rt, t))));
  return new Set(tenantIds.filter((_, i) => marked[i]));
}

/**
 * Evaluates a job's events within their tenants' budgets (the `evaluate` worker's entry point); with the
 * budget off, the whole job is one batch as before.
 */
export async function evaluateWithinBudget(rt: Runtime, eventIds: string[]): Promise<BudgetedResult> {
  const limiter = rt.parts.evaluationBudget.limiter;
  if (!limiter) return { ...(await evaluateEvents(rt, eventIds)), deferred: 0 };
  const total: BudgetedResult = { evaluated: 0, opened: 0, bumped: 0, resolved: 0, deferred: 0 };
  if (eventIds.length === 0) return total;
  const rows = await rt.prisma.$queryRaw<Array<{ id: string; tenantId: string }>>`
    SELECT id, "tenantId" FROM "Event" WHERE id = ANY(${eventIds}::text[]) AND "evaluatedAt" IS NULL
      AND "evaluationAttempts" < ${MAX_EVALUATION_ATTEMPTS}`;
  const byTenant = new Map<string, string[]>();
  for (const r of rows) {
    const ids = byTenant.get(r.tenantId);
    if (ids) ids.push(r.id);
    else byTenant.set(r.tenantId, [r.id]);
  }
  for (const [tenantId, ids] of byTenant) {
    for (let i = 0; i < ids.length; i += TENANT_CHUNK) {
      const waitMs = await waitOf(rt, limiter, tenantId);
      if (waitMs > 0) {
        await defer(rt, tenantId, ids.slice(i), waitMs);
        total.deferred += ids.length - i;
        break;
      }
      const started = performance.now();
      const r = await evaluateEvents(rt, ids.slice(i, i + TENANT_CHUNK));
      await limiter.penalty(tenantId, Math.max(1, Math.ceil(performance.now() - started)));
      total.evaluated += r.evaluated;
      total.opened += r.opened;
      total.bumped += r.bumped;
      total.resolved += r.resolved;
    }
  }
  return total;
}
