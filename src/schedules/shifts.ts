/**
 * Shifts of an on-call schedule, computed for any window and never stored (pure: no database, no clock).
 *
 * A layer's first turn begins at its `startsAt` and belongs to its first user; each later turn begins at a
 * handoff: daily at `handoffTime` local, weekly at `handoffWeekday` + `handoffTime` local (both keep their
 * wall-clock time across DST changes: a 09:00 handoff stays at 09:00), custom every `turnLengthSeconds` from
 * `startsAt` (whole days counted in local days, so they keep the wall-clock time too). Restrictions
 * narrow a layer to daily or weekly spans of local time. The final schedule takes, at each instant, an
 * override if one covers it (the latest created wins), else the highest layer that has someone.
 */
import { DateTime, IANAZone } from 'luxon';
import { memoZone } from './zone-memo.js';

export type RotationKind = 'daily' | 'weekly' | 'custom';

export type Restriction =
  | { kind: 'daily'; start: string; end: string }
  | { kind: 'weekly'; startDay: number; start: string; endDay: number; end: string };

export interface LayerSpec {
  id?: string;
  /** Higher wins. */
  position: number;
  startsAt: Date;
  rotation: RotationKind;
  turnLengthSeconds?: number | null;
  /** "HH:mm" local. */
  handoffTime: string;
  /** ISO weekday 1-7 of the weekly handoff (default: the weekday of `startsAt` in the zone). */
  handoffWeekday?: number | null;
  userIds: string[];
  restrictions?: Restriction[];
}

export interface OverrideSpec {
  id?: string;
  userId: string;
  startsAt: Date;
  endsAt: Date;
}

export interface ScheduleSpec {
  timeZone: string;
  layers: LayerSpec[];
  overrides: OverrideSpec[];
}

/** Someone on call from `start` to `end` (end exclusive). */
export interface Shift {
  userId: string;
  start: Date;
  end: Date;
  /** Where it comes from: a layer (its id) or an override (its id). */
  layerId: string | null;
  overrideId: string | null;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** True for "HH:mm" (00:00-23:59). */
export function isHhmm(s: string): boolean {
  return HHMM.test(s);
}

/** True for an IANA zone luxon knows (Europe/Amsterdam, UTC). */
export function isTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

function hm(s: string): { hour: number; minute: number } {
  const m = HHMM.exec(s);
  if (!m) throw new Error(`time must be HH:mm, got "${s}"`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** The instant of a local date (its calendar day) at "HH:mm" in `zone` (a time skipped by DST moves forward). */
function at(day: DateTime, time: string): DateTime {
  return day.set({ ...hm(time), second: 0, millisecond: 0 });
}

/** The turns of a layer that overlap [from, to): [start, end) and the user. */
export function layerTurns(layer: LayerSpec, zone: string, from: Date, to: Date): Shift[] {
  const n = layer.userIds.length;
  if (n === 0 || to <= from) return [];
  const start = DateTime.fromJSDate(layer.startsAt, { zone: memoZone(zone) });
  if (to.getTime() <= start.toMillis()) return [];
  // A turn's end is the next turn's start: each handoff is computed once (luxon's zone arithmetic is the cost).
  const handoff = memoized(handoffFn(layer, start));
  // The first turn index whose end is after `from`: estimate from the elapsed local days, then step.
  let k = 0;
  if (from.getTime() > start.toMillis()) {
    const days = DateTime.fromJSDate(from, { zone: memoZone(zone) })
      .startOf('day')
      .diff(start.startOf('day'), 'days').days;
    k = Math.max(0, Math.floor(days / periodDays(layer)) - 2);
    // Counted in whole local days, the estimate can overshoot a rotation shorter than a day: step back first.
    while (k > 0 && handoff(k).toMillis() > from.getTime()) k--;
    while (handoff(k + 1).toMillis() <= from.getTime()) k++;
  }
  const out: Shift[] = [];
  for (; ; k++) {
    const s = k === 0 ? start : handoff(k);
    if (s.toMillis() >= to.getTime()) break;
    const e = handoff(k + 1);
    out.push({
      userId: layer.userIds[k % n]!,
      start: s.toJSDate(),
      end: e.toJSDate(),
      layerId: layer.id ?? null,
      overrideId: null,
    });
  }
  return out;
}

function memoized(f: (k: number) => DateTime): (k: number) => DateTime {
  const seen = new Map<number, DateTime>();
  return (k) => {
    let v = seen.get(k);
    if (v === undefined) seen.set(k, (v = f(k)));
    return v;
  };
}

function periodDays(layer: LayerSpec): number {
  if (layer.rotation === 'daily') return 1;
  if (layer.rotation === 'weekly') return 7;
  return Math.max(1 / 1440, (layer.turnLengthSeconds ?? 86400) / 86400);
}

/** handoff(k) for k ≥ 1: the start of turn k. */
function handoffFn(layer: LayerSpec, start: DateTime): (k: number) => DateTime {
  if (layer.rotation === 'custom') {
    const len = layer.turnLengthSeconds ?? 86400;
    if (len % 86400 === 0) return (k) => start.plus({ days: (k * len) / 86400 });
    return (k) => start.plus({ seconds: k * len });
  }
  // The first handoff strictly after the start, then every day or week of local dates.
  let first = at(start, layer.handoffTime);
  if (layer.rotation === 'weekly') {
    const weekday = layer.handoffWeekday ?? start.weekday;
    first = at(start.plus({ days: (weekday - start.weekday + 7) % 7 }), layer.handoffTime);
    if (first <= start) first = at(first.plus({ days: 7 }), layer.handoffTime);
  } else if (first <= start) first = at(start.plus({ days: 1 }), layer.handoffTime);
  const step = layer.rotation === 'weekly' ? 7 : 1;
  const firstDay = first.startOf('day');
  return (k) => at(firstDay.plus({ days: (k - 1) * step }), layer.handoffTime);
}

/** The spans [start, end) of local time the restrictions allow within [from, to), merged and sorted. */
export function restrictionSpans(
  restrictions: Restriction[],
  zone: string,
  from: Date,
  to: Date,
): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const fromDay = DateTime.fromJSDate(from, { zone: memoZone(zone) }).startOf('day');
  // A daily span lasts at most a day (and an hour, on a DST day), so only one that starts the day before `from`
  // can reach into the window; a weekly span may start up to a week before.
  const firstDaily = fromDay.minus({ days: 2 });
  const first = fromDay.minus({ days: 8 });
  const last = DateTime.fromJSDate(to, { zone: memoZone(zone) })
    .startOf('day')
    .plus({ days: 1 });
  for (const r of restrictions) {
    if (r.kind === 'daily') {
      for (let d = firstDaily; d <= last; d = d.plus({ days: 1 })) {
        const s = at(d, r.start);
        let e = at(d, r.end);
        if (e <= s) e = at(d.plus({ days: 1 }), r.end);
        spans.push([s.toMillis(), e.toMillis()]);
      }
    } else {
      for (let w = first.startOf('week'); w <= last; w = w.plus({ weeks: 1 })) {
        const s = at(w.plus({ days: r.startDay - 1 }), r.start);
        let e = at(w.plus({ days: r.endDay - 1 }), r.end);
        if (e <= s) e = at(w.plus({ days: r.endDay - 1 + 7 }), r.end);
        spans.push([s.toMillis(), e.toMillis()]);
      }
    }
  }
  const clipped = spans
    .map(([s, e]): [number, number] => [Math.max(s, from.getTime()), Math.min(e, to.getTime())])
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const sp of clipped) {
    const prev = merged[merged.length - 1];
    if (prev && sp[0] <= prev[1]) prev[1] = Math.max(prev[1], sp[1]);
    else merged.push([...sp]);
  }
  return merged;
}

/** A layer's shifts within [from, to): its turns, clipped to the window and to its restrictions. */
export function layerShifts(layer: LayerSpec, zone: string, from: Date, to: Date): Shift[] {
  const turns = layerTurns(layer, zone, from, to).map((t) => clip(t, from.getTime(), to.getTime()));
  const restrictions = layer.restrictions ?? [];
  if (restrictions.length === 0) return turns.filter((t): t is Shift => !!t);
  const spans = restrictionSpans(restrictions, zone, from, to);
  const out: Shift[] = [];
  let i = 0; // turns and spans are both sorted: walk them together
  for (const t of turns) {
    if (!t) continue;
    while (i < spans.length && spans[i]![1] <= t.start.getTime()) i++;
    for (let j = i; j < spans.length && spans[j]![0] < t.end.getTime(); j++) {
      const c = clip(t, spans[j]![0], spans[j]![1]);
      if (c) out.push(c);
    }
  }
  return out;
}

function clip(s: Shift, from: number, to: number): Shift | null {
  const start = Math.max(s.start.getTime(), from);
  const end = Math.min(s.end.getTime(), to);
  return end > start ? { ...s, start: new Date(start), end: new Date(end) } : null;
}

/**
 * The final shifts of a schedule within [from, to): overrides over layers, higher layers over lower, adjacent
 * pieces of the same person from the same source joined.
 */
export function finalShifts(schedule: ScheduleSpec, from: Date, to: Date): Shift[] {
  if (to <= from) return [];
  const byLayer = [...schedule.layers]
    .sort((a, b) => b.position - a.position)
    .map((l) => layerShifts(l, schedule.timeZone, from, to));
  // Later-created overrides win: the list is in creation order, the last one covering an instant takes it.
  const overrides: Shift[] = schedule.overrides
    .map((o) =>
      clip(
        { userId: o.userId, start: o.startsAt, end: o.endsAt, layerId: null, overrideId: o.id ?? null },
        from.getTime(),
        to.getTime(),
      ),
    )
    .filter((s): s is Shift => !!s)
    .reverse();
  const points = new Set<number>([from.getTime(), to.getTime()]);
  for (const s of [...overrides, ...byLayer.flat()]) points.add(s.start.getTime()).add(s.end.getTime());
  const sorted = [...points].sort((a, b) => a - b);
  const out: Shift[] = [];
  // A layer's shifts are sorted and do not overlap: one cursor per layer walks them with the points.
  const cursors = byLayer.map(() => 0);
  for (let i = 0; i + 1 < sorted.length; i++) {
    const s = sorted[i]!;
    const e = sorted[i + 1]!;
    let win = overrides.find((x) => x.start.getTime() <= s && x.end.getTime() >= e);
    for (let l = 0; l < byLayer.length && !win; l++) {
      const shifts = byLayer[l]!;
      let c = cursors[l]!;
      while (c < shifts.length && shifts[c]!.end.getTime() <= s) c++;
      cursors[l] = c;
      const x = shifts[c];
      if (x && x.start.getTime() <= s && x.end.getTime() >= e) win = x;
    }
    if (!win) continue;
    const prev = out[out.length - 1];
    if (
      prev &&
      prev.end.getTime() === s &&
      prev.userId === win.userId &&
      prev.layerId === win.layerId &&
      prev.overrideId === win.overrideId
    )
      prev.end = new Date(e);
    else out.push({ ...win, start: new Date(s), end: new Date(e) });
  }
  return out;
}

/** How far around the instant `onCallAt` looks, widening only while the shift found reaches the window's edge. */
const ON_CALL_REACH_DAYS = [1, 8, 15];

/**
 * Who is on call at `instant` (the final schedule's shift covering it), or null. The shift shows its real bounds up
 * to two weeks around the instant: computed first in a narrow window, widened only while the shift touches its
 * edge (the final shifts of a window are those of a wider one clipped to it, so the answer is the same).
 */
export function onCallAt(schedule: ScheduleSpec, instant: Date): Shift | null {
  const t = instant.getTime();
  for (const days of ON_CALL_REACH_DAYS) {
    const from = t - days * 86400_000;
    const to = t + days * 86400_000;
    const shift = finalShifts(schedule, new Date(from), new Date(to)).find(
      (s) => s.start <= instant && s.end > instant,
    );
    if (!shift) return null;
    const last = days === ON_CALL_REACH_DAYS[ON_CALL_REACH_DAYS.length - 1];
    if (last || (shift.start.getTime() > from && shift.end.getTime() < to)) return shift;
  }
  return null;
}
