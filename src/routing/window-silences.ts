/**
 * Maintenance windows as silences (pure). A window's scope becomes matchers: each `matchLabels` entry
 * `name="value"`, `source` a `source` matcher, `deviceId` a `device_id` matcher, and an unscoped window
 * (the whole tenant) `severity=~".+"`, which every alert has. A one-off window keeps its start and end.
 * A recurring window becomes a silence from its start until `WINDOW_FOREVER`, recurring through a time
 * interval when its period is a day or a week and its start and end fall on whole minutes: one spec per
 * local day the window touches (`times`, plus `weekdays` when weekly) in the tenant's zone, so it keeps
 * its wall-clock time across DST. Any other period keeps its exact fixed-period meaning: the silence
 * carries the period and the first occurrence's end, and mutes only inside the repetitions
 * (`fixedPeriodContains`). The migration of the old table (prisma/migrations/*_maintenance_windows_as_silences)
 * applies the same mapping in SQL.
 */
import { DateTime } from 'luxon';
import { windowIsActive } from '../alerts/maintenance-windows.js';
import type { Matcher } from './matchers.js';
import type { TimeIntervalSpec } from './time-intervals.js';

export const DAY_SECONDS = 86_400;
export const WEEK_SECONDS = 604_800;
/** The label a window's device scope matches (see `alertLabelSet`). */
export const DEVICE_LABEL = 'device_id';
/** End of a recurring window's silence: it recurs until the window is deleted. */
export const WINDOW_FOREVER = new Date('9999-12-31T00:00:00.000Z');
/** The matcher of an unscoped window: every alert has a severity, so it covers the whole tenant. */
export const WHOLE_TENANT: Matcher = { name: 'severity', type: '=~', value: '.+' };

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

export interface WindowScope {
  matchLabels: Record<string, string>;
  source: string | null;
  deviceId: string | null;
}

/** The matchers of a window's scope (labels in name order, then source, then device). */
export function windowMatchers(w: WindowScope): Matcher[] {
  const out: Matcher[] = Object.keys(w.matchLabels)
    .sort()
    .map((name) => ({ name, type: '=', value: w.matchLabels[name]! }));
  if (w.source) out.push({ name: 'source', type: '=', value: w.source });
  if (w.deviceId) out.push({ name: DEVICE_LABEL, type: '=', value: w.deviceId });
  return out.length ? out : [WHOLE_TENANT];
}

/** A window's scope read back from its silence's matchers (the inverse of `windowMatchers`). */
export function windowScope(matchers: Matcher[]): WindowScope {
  const scope: WindowScope = { matchLabels: {}, source: null, deviceId: null };
  for (const m of matchers) {
    if (m.type !== '=') continue;
    if (m.name === 'source' && scope.source === null) scope.source = m.value;
    else if (m.name === DEVICE_LABEL && scope.deviceId === null) scope.deviceId = m.value;
    else scope.matchLabels[m.name] = m.value;
  }
  return scope;
}

const hhmm = (t: DateTime) => t.toFormat('HH:mm');

/**
 * The time interval specs of a daily or weekly window in `zone`, or null when a time interval cannot
 * say it exactly (another period, or a start or end off the minute). The window's local start plus its
 * length in wall-clock time is cut at local midnights, one spec per piece.
 */
export function windowIntervalSpecs(
  startsAt: Date,
  endsAt: Date,
  repeatEverySeconds: number,
  zone: string,
): TimeIntervalSpec[] | null {
  if (repeatEverySeconds !== DAY_SECONDS && repeatEverySeconds !== WEEK_SECONDS) return null;
  const span = endsAt.getTime() - startsAt.getTime();
  const local = DateTime.fromJSDate(startsAt, { zone });
  if (!local.isValid || span <= 0 || span % 60_000 !== 0 || local.second !== 0 || local.millisecond !== 0) return null;
  // Wall-clock arithmetic: the local start as a zone-less time, plus the length.
  let cursor = DateTime.fromObject(
    { year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute },
    { zone: 'UTC' },
  );
  const end = cursor.plus({ milliseconds: span });
  const specs: TimeIntervalSpec[] = [];
  while (cursor < end) {
    const midnight = cursor.startOf('day').plus({ days: 1 });
    const pieceEnd = end < midnight ? end : midnight;
    specs.push({
      ...(repeatEverySeconds === WEEK_SECONDS ? { weekdays: [WEEKDAYS[cursor.weekday % 7]!] } : {}),
      times: [{ start_time: hhmm(cursor), end_time: pieceEnd.equals(midnight) ? '24:00' : hhmm(pieceEnd) }],
      location: zone,
    });
    cursor = pieceEnd;
  }
  return specs;
}

/** Whether a fixed-period window silence (no time interval) is inside one of its repetitions at `at`. */
export function fixedPeriodContains(
  s: { startsAt: Date; windowEndsAt: Date | null; windowRepeatEverySeconds: number | null },
  at: Date,
): boolean {
  if (!s.windowEndsAt || !s.windowRepeatEverySeconds) return true;
  return windowIsActive(
    { startsAt: s.startsAt, endsAt: s.windowEndsAt, repeatEverySeconds: s.windowRepeatEverySeconds },
    at,
  );
}
