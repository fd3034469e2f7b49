/**
 * The service's clock. Code that needs "now" takes it from `rt.clock` (or a `Clock` parameter) rather
 * than `Date.now()`, so tests can run the service at any time of day: `shiftedClock` moves the system
 * clock by a fixed offset, `atTimeOfDay` picks the offset that puts "now" at a chosen UTC time.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The system clock moved by `offsetMs` (negative: the past). */
export function shiftedClock(offsetMs: number): Clock {
  return { now: () => new Date(Date.now() + offsetMs) };
}

/**
 * The offset (≤ 0, under a day) that makes the system clock read `hh:mm` UTC at `from`: the most recent
 * such moment, so nothing the shifted clock stamps lies in the database's future.
 */
export function offsetToTimeOfDay(hhmm: string, from: number = Date.now()): number {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  if (!m) throw new Error(`time of day must be HH:MM (UTC), got "${hhmm}"`);
  const target = new Date(from);
  target.setUTCHours(Number(m[1]), Number(m[2]), 0, 0);
  if (target.getTime() > from) target.setTime(target.getTime() - 24 * 3600_000);
  return target.getTime() - from;
}

/** A clock that reads `hh:mm` UTC now and runs on from there. */
export function atTimeOfDay(hhmm: string): Clock {
  return shiftedClock(offsetToTimeOfDay(hhmm));
}
