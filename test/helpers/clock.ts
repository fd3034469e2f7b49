/**
 * A clock for tests that run the service at a chosen time of day: pass it as `startTestServer({ start:
 * { clock } })`, then `clock.setTimeOfDay('00:30')` moves the service's "now" to the most recent 00:30 UTC
 * (it keeps running from there). The database's own clock is untouched; the service's rules read this one.
 */
import { offsetToTimeOfDay, type Clock } from '../../src/clock.js';

export interface TestClock extends Clock {
  setTimeOfDay(hhmm: string): void;
  /** Moves "now" forward, as if that much time had passed. */
  advance(ms: number): void;
  reset(): void;
}

export function testClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    setTimeOfDay: (hhmm) => {
      offset = offsetToTimeOfDay(hhmm);
    },
    advance: (ms) => {
      offset += ms;
    },
    reset: () => {
      offset = 0;
    },
  };
}

/**
 * Times of day a time-sensitive test runs at: just after midnight, the hour a CI run once failed at,
 * noon and just before midnight. `TEST_TIMES_OF_DAY=00:05,00:45` overrides them.
 */
export const TIMES_OF_DAY: string[] = (process.env.TEST_TIMES_OF_DAY ?? '00:05,03:38,12:00,23:55')
  .split(',')
  .map((t) => t.trim());
