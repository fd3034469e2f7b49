import { describe, expect, it } from 'vitest';
import { offsetToTimeOfDay, shiftedClock } from '../../src/clock.js';

describe('offsetToTimeOfDay', () => {
  const from = Date.parse('2026-11-25T03:38:20.000Z');
  it('moves to the most recent moment at that UTC time, never into the future', () => {
    expect(new Date(from + offsetToTimeOfDay('00:30', from)).toISOString()).toBe('2026-11-25T00:30:00.000Z');
    expect(new Date(from + offsetToTimeOfDay('12:00', from)).toISOString()).toBe('2026-11-24T12:00:00.000Z');
    expect(new Date(from + offsetToTimeOfDay('03:38', from)).toISOString()).toBe('2026-11-25T03:38:00.000Z');
    for (const t of ['00:00', '23:59', '03:39']) {
      const off = offsetToTimeOfDay(t, from);
      expect(off).toBeLessThanOrEqual(0);
      expect(off).toBeGreaterThan(-24 * 3600_000);
    }
  });
  it('refuses what is not HH:MM', () => {
    for (const bad of ['24:00', '3:38', '12:60', 'noon']) expect(() => offsetToTimeOfDay(bad, from)).toThrow(/HH:MM/);
  });
  it('a shifted clock keeps running from its offset', () => {
    const c = shiftedClock(-3600_000);
    const d = Date.now() - 3600_000 - c.now().getTime();
    expect(Math.abs(d)).toBeLessThan(60_000);
  });
});
