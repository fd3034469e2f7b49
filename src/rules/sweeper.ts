/**
 * The re-drive sweeper: finds events that were committed but are still unevaluated after a grace
 * period (the enqueue after commit failed, Redis lost its jobs, a worker died mid-batch) and enqueues
 * them again. Re-evaluation is idempotent (src/rules/evaluate.ts), so a duplicate job is harmless.
 */
import type { Runtime } from '../runtime.js';
import { ConfigError } from '../config.js';

/** Sweeper and absence-check timing, from the environment (milliseconds). */
export interface AlertingTimings {
  /** How often the absence check runs (ABSENCE_CHECK_INTERVAL_MS, default 1000). */
  absenceCheckIntervalMs: number;
  /** How often snoozed alerts are woken (SNOOZE_WAKE_INTERVAL_MS, default 1000). */
  snoozeWakeIntervalMs: number;
  /** How often the sweeper runs (EVALUATE_SWEEP_INTERVAL_MS, default 2000). */
  sweepIntervalMs: number;
  /** How old an unevaluated event must be before it is re-driven (EVALUATE_SWEEP_AGE_MS, default 5000). */
  sweepAgeMs: number;
  /** How often each worker process re-registers these schedules, so they survive Redis losing its data (ALERTING_SCHEDULE_REFRESH_MS, default 10000). */
  scheduleRefreshMs: number;
}

function ms(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 100) throw new ConfigError(`${name} must be an integer of at least 100 (milliseconds), got "${raw}".`);
  return n;
}

/** Reads the timings; throws ConfigError naming the variable when one is invalid. */
export function alertingTimings(env: NodeJS.ProcessEnv = process.env): AlertingTimings {
  return {
    absenceCheckIntervalMs: ms(env, 'ABSENCE_CHECK_INTERVAL_MS', 1000),
    snoozeWakeIntervalMs: ms(env, 'SNOOZE_WAKE_INTERVAL_MS', 1000),
    sweepIntervalMs: ms(env, 'EVALUATE_SWEEP_INTERVAL_MS', 2000),
    sweepAgeMs: ms(env, 'EVALUATE_SWEEP_AGE_MS', 5000),
    scheduleRefreshMs: ms(env, 'ALERTING_SCHEDULE_REFRESH_MS', 10_000),
  };
}

/** Events per re-drive job. */
const BATCH = 200;

/**
 * Enqueues `evaluate` jobs for up to `limit` events still unevaluated `ageMs` after they were
 * received, oldest first. Returns how many events it re-drove.
 */
export async function redriveUnevaluatedEvents(rt: Runtime, ageMs = alertingTimings().sweepAgeMs, limit = 5000): Promise<number> {
  const cutoff = new Date(Date.now() - ageMs);
  const rows = await rt.prisma.event.findMany({
    where: { evaluatedAt: null, receivedAt: { lte: cutoff } },
    select: { id: true },
    orderBy: { receivedAt: 'asc' },
    take: limit,
  });
  for (let i = 0; i < rows.length; i += BATCH) {
    const ids = rows.slice(i, i + BATCH).map((r) => r.id);
    // While a re-drive job for the same ids waits or runs, adding it again is a no-op; once it is
    // done its id is free, so ids still unevaluated then are re-driven again.
    await rt.queues.add('evaluate', { eventIds: ids }, { jobId: `redrive-${ids[0]}-${ids[ids.length - 1]}-${ids.length}`, removeOnComplete: true, removeOnFail: true });
  }
  if (rows.length) rt.logger.info({ events: rows.length }, 're-drove unevaluated events');
  return rows.length;
}
