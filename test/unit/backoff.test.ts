import { describe, expect, it } from 'vitest';
import { nextAttemptAt, parseRetryAfter, retryDelayMs } from '../../src/deliveries/backoff.js';

const schedule = { retryBaseMs: 5_000, retryMaxDelayMs: 15 * 60_000, retryWindowMs: 60 * 60_000 };
const noJitter = () => 0.5;

describe('webhook retry backoff', () => {
  it('doubles the delay per attempt up to the cap', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, schedule, noJitter))).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(retryDelayMs(20, schedule, noJitter)).toBe(15 * 60_000);
  });

  it('spreads delays by ±20% jitter', () => {
    expect(retryDelayMs(1, schedule, () => 0)).toBe(4_000);
    expect(retryDelayMs(1, schedule, () => 1)).toBe(6_000);
  });

  it('schedules retries until one hour has passed, then gives up', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    let now = start;
    let attempts = 1;
    for (;;) {
      const next = nextAttemptAt({ attempt: attempts, windowStartedAt: start, now }, schedule, noJitter);
      if (!next) break;
      expect(next.getTime()).toBeGreaterThan(now.getTime());
      now = next;
      attempts++;
    }
    expect(now.getTime() - start.getTime()).toBe(60 * 60_000);
    expect(attempts).toBe(12);
  });

  it('pulls a retry that would overshoot the window back to the window end', () => {
    const start = new Date(0);
    const next = nextAttemptAt({ attempt: 10, windowStartedAt: start, now: new Date(59 * 60_000) }, schedule, noJitter);
    expect(next?.getTime()).toBe(60 * 60_000);
  });

  it('honours a longer Retry-After', () => {
    const start = new Date(0);
    const next = nextAttemptAt(
      { attempt: 1, windowStartedAt: start, now: start, retryAfterMs: 120_000 },
      schedule,
      noJitter,
    );
    expect(next?.getTime()).toBe(120_000);
  });

  it('parses Retry-After in seconds and as an HTTP date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
