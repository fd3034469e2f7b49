/**
 * The re-drive sweeper: finds events that were committed but are still unevaluated after a grace
 * period (the enqueue after commit failed, Redis lost its jobs, a worker died mid-batch) and enqueues
 * them again. Re-evaluation is idempotent (src/rules/evaluate.ts), so a duplicate job is harmless. Events of
 * a tenant whose evaluation was deferred lately (past its budget, src/rules/evaluation-budget.ts) are left
 * to the delayed jobs that hold them, so a flooding tenant's backlog is not queued again on every pass; if
 * those jobs are lost, the mark expires and the sweeper takes the events again.
 */
import type { Runtime } from '../runtime.js';
import { MAX_EVALUATION_ATTEMPTS } from './evaluate.js';
import { enqueueEvaluation } from '../events/evaluation-jobs.js';
import { tenantsWithDeferredEvents } from './evaluation-budget.js';

/** Events per re-drive job. */
const BATCH = 200;

/**
 * Enqueues `evaluate` jobs for up to `limit` events still unevaluated `ageMs` after they were
 * received, oldest first. Returns how many events it re-drove.
 */
export async function redriveUnevaluatedEvents(
  rt: Runtime,
  ageMs = rt.config.alerting.sweepAgeMs,
  limit = 5000,
): Promise<number> {
  const cutoff = new Date(rt.clock.now().getTime() - ageMs);
  const find = (skip: string[]) =>
    rt.prisma.event.findMany({
      // Set-aside events (evaluation failed MAX_EVALUATION_ATTEMPTS times) stay out.
      where: {
        evaluatedAt: null,
        receivedAt: { lte: cutoff },
        evaluationAttempts: { lt: MAX_EVALUATION_ATTEMPTS },
        ...(skip.length ? { tenantId: { notIn: skip } } : {}),
      },
      select: { id: true, tenantId: true },
      orderBy: { receivedAt: 'asc' },
      take: limit,
    });
  let rows = await find([]);
  const deferred = await tenantsWithDeferredEvents(rt, [...new Set(rows.map((r) => r.tenantId))]);
  if (deferred.size) rows = await find([...deferred]);
  for (let i = 0; i < rows.length; i += BATCH) {
    const ids = rows.slice(i, i + BATCH).map((r) => r.id);
    await enqueueEvaluation(rt, ids, { redrive: true });
  }
  if (rows.length) rt.logger.info({ events: rows.length }, 're-drove unevaluated events');
  return rows.length;
}
