/**
 * The retry schedule of outbound deliveries: exponential backoff with jitter, bounded by a retry window
 * (one hour by default). Pure functions, so the schedule is unit-tested without clocks.
 */
import type { WebhookDeliveryConfig } from '../config.js';

export type RetrySchedule = Pick<WebhookDeliveryConfig, 'retryBaseMs' | 'retryMaxDelayMs' | 'retryWindowMs'>;

/** Jitter spreads retries of many deliveries that failed together: the delay is scaled by 0.8–1.2. */
const JITTER = 0.2;

/**
 * Delay before the retry that follows failed attempt `attempt` (1-based): base·2^(attempt-1), capped at
 * retryMaxDelayMs, times a jitter factor in [0.8, 1.2] drawn from `random()`.
 */
export function retryDelayMs(attempt: number, schedule: RetrySchedule, random: () => number = Math.random): number {
  const exp = Math.min(schedule.retryBaseMs * 2 ** Math.max(0, attempt - 1), schedule.retryMaxDelayMs);
  const factor = 1 - JITTER + 2 * JITTER * random();
  return Math.max(1, Math.round(exp * factor));
}

export interface NextAttemptInput {
  /** The attempt that just failed (1-based). */
  attempt: number;
  windowStartedAt: Date;
  now: Date;
  /** A receiver's Retry-After (429/503), honoured when longer than the backoff. */
  retryAfterMs?: number | null;
}

/**
 * When to try again after a retryable failure, or null when the retry window is spent (the delivery
 * becomes failed). A retry that would land past the window end is pulled back to the window end, so
 * the last attempt happens right at the limit rather than never.
 */
export function nextAttemptAt(
  input: NextAttemptInput,
  schedule: RetrySchedule,
  random: () => number = Math.random,
): Date | null {
  const windowEnd = input.windowStartedAt.getTime() + schedule.retryWindowMs;
  const now = input.now.getTime();
  if (now >= windowEnd) return null;
  const delay = Math.max(retryDelayMs(input.attempt, schedule, random), input.retryAfterMs ?? 0);
  return new Date(Math.min(now + delay, windowEnd));
}

/** Parses a Retry-After header (seconds or HTTP date) into milliseconds from `now`; null when absent or invalid. */
export function parseRetryAfter(value: string | undefined, now = new Date()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
