/**
 * Windows and periods. Usage is metered in hourly windows aligned to UTC hours; days and calendar
 * months are taken in the tenant's IANA time zone (luxon), and a window belongs to the day or month
 * its start falls in (exact for every whole-hour offset; a zone with a :30 or :45 offset assigns the
 * boundary hour by its start).
 */
import { DateTime } from 'luxon';

export const WINDOW_MS = 3600_000;

/** The start of the window containing `t`. */
export function windowStartOf(t: Date): Date {
  return new Date(Math.floor(t.getTime() / WINDOW_MS) * WINDOW_MS);
}

/** Window starts covering [from, to): from the window containing `from` up to the one containing `to - 1 ms`. */
export function windowsBetween(from: Date, to: Date): Date[] {
  const out: Date[] = [];
  for (let t = windowStartOf(from).getTime(); t < to.getTime(); t += WINDOW_MS) out.push(new Date(t));
  return out;
}

export function isTimeZone(tz: string): boolean {
  return typeof tz === 'string' && tz.length <= 64 && DateTime.now().setZone(tz).isValid;
}

export interface Period {
  start: Date;
  end: Date;
}

/** The calendar month containing `at` in the zone: [first midnight, next month's first midnight). */
export function monthOf(at: Date, tz: string): Period & { label: string } {
  const local = DateTime.fromJSDate(at, { zone: tz }).startOf('month');
  return { start: local.toJSDate(), end: local.plus({ months: 1 }).toJSDate(), label: local.toFormat('yyyy-MM') };
}

/** The local day containing `at`. */
export function dayOf(at: Date, tz: string): Period & { label: string } {
  const local = DateTime.fromJSDate(at, { zone: tz }).startOf('day');
  return { start: local.toJSDate(), end: local.plus({ days: 1 }).toJSDate(), label: local.toISODate()! };
}

/** The last `days` local days up to and including today: [midnight `days - 1` days ago, tomorrow's midnight). */
export function lastDays(now: Date, days: number, tz: string): Period & { labels: string[] } {
  const today = DateTime.fromJSDate(now, { zone: tz }).startOf('day');
  const first = today.minus({ days: days - 1 });
  const labels: string[] = [];
  for (let i = 0; i < days; i++) labels.push(first.plus({ days: i }).toISODate()!);
  return { start: first.toJSDate(), end: today.plus({ days: 1 }).toJSDate(), labels };
}

/**
 * A period boundary from the API: an ISO date (`2026-11-01`, local midnight in the zone) or an ISO
 * date-time with an offset. Null when unparseable.
 */
export function parseBoundary(v: string, tz: string): Date | null {
  if (typeof v !== 'string' || v.length > 40) return null;
  const d = /^\d{4}-\d{2}-\d{2}$/.test(v) ? DateTime.fromISO(v, { zone: tz }) : DateTime.fromISO(v, { setZone: true });
  if (!d.isValid) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) && !/(Z|[+-]\d{2}:?\d{2})$/i.test(v)) return null;
  return d.toJSDate();
}
