import { describe, expect, it } from 'vitest';
import { MAX_DURATION_MS, parseDurationMs } from '../../src/duration.js';

describe('parseDurationMs (older_than)', () => {
  it('reads single and combined units', () => {
    expect(parseDurationMs('30m')).toBe(30 * 60_000);
    expect(parseDurationMs('24h')).toBe(24 * 3_600_000);
    expect(parseDurationMs('7d')).toBe(7 * 86_400_000);
    expect(parseDurationMs('2w')).toBe(14 * 86_400_000);
    expect(parseDurationMs('45s')).toBe(45_000);
    expect(parseDurationMs('1h30m')).toBe(90 * 60_000);
    expect(parseDurationMs(' 1H ')).toBe(3_600_000);
    expect(parseDurationMs('1.5h')).toBe(90 * 60_000); // same syntax as snooze lengths
    expect(parseDurationMs('PT1H')).toBe(3_600_000);
  });

  it('returns null for text that is not a positive duration of at most ten years', () => {
    for (const bad of ['', '24', 'h', '1y', '-5m', '1h 30m', 'yesterday', '0m', '0h0m'])
      expect(parseDurationMs(bad)).toBeNull();
    expect(parseDurationMs('3650d')).toBe(MAX_DURATION_MS);
    expect(parseDurationMs('3651d')).toBeNull();
  });
});
