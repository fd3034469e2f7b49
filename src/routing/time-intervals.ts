/**
 * Time intervals in Alertmanager's semantics (its `timeinterval` package): a named interval is a list
 * of specs, and an instant is inside it when any spec contains it. A spec holds `times` (HH:MM ranges,
 * end exclusive, up to 24:00), `weekdays` (`monday:friday`), `days_of_month` (`1:5`, `-1` = the last
 * day: negatives count from the month's end), `months` (`january:march` or `1:3`), `years`
 * (`2025:2026`) and `location` (an IANA zone; UTC when absent). Every field present must match; a field
 * absent matches everything. Evaluation happens in the spec's zone with luxon, so "02:00–04:00
 * Europe/Berlin" keeps its wall-clock time across a DST change.
 *
 * Pure: parsing reports every problem with its path; `contains` takes the instant to test.
 */
import { DateTime, IANAZone } from 'luxon';

/** A spec as stored and as Alertmanager writes it (YAML/JSON field names). */
export interface TimeIntervalSpec {
  times?: Array<{ start_time: string; end_time: string }>;
  weekdays?: string[];
  days_of_month?: string[];
  months?: string[];
  years?: string[];
  location?: string;
}

interface Range {
  begin: number;
  end: number;
}

/** A parsed spec, ready to evaluate. Absent fields are `null` (match everything). */
export interface ParsedSpec {
  times: Range[] | null;
  weekdays: Range[] | null;
  daysOfMonth: Range[] | null;
  months: Range[] | null;
  years: Range[] | null;
  zone: string;
}

export interface SpecProblem {
  /** Path inside the list of specs, e.g. `['0', 'weekdays', '1']`. */
  loc: string[];
  msg: string;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const TIME_RE = /^(?:(?:[01][0-9]|2[0-3]):[0-5][0-9]|24:00)$/;
/** Most entries per list field and most specs per interval: a bound on what one evaluation costs. */
export const MAX_ENTRIES = 100;

function minutesOf(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

/** `a:b` or `a` → a range of members, each mapped by `member` (null: not a member). */
function rangeOf(text: string, member: (s: string) => number | null): Range | string {
  const parts = text.toLowerCase().split(':');
  if (parts.length > 2) return `couldn't parse range ${text}, invalid format`;
  const values = parts.map(member);
  if (values.some((v) => v === null)) return `${text} is not valid`;
  return { begin: values[0]!, end: values[values.length - 1]! };
}

const integer = (s: string): number | null => (/^-?\d{1,5}$/.test(s) ? Number(s) : null);
const weekday = (s: string): number | null => (WEEKDAYS.includes(s) ? WEEKDAYS.indexOf(s) : null);
const month = (s: string): number | null => (MONTHS.includes(s) ? MONTHS.indexOf(s) + 1 : integer(s));

/** The checks Alertmanager makes when it reads each kind of range. */
const CHECKS: Record<'weekdays' | 'days_of_month' | 'months' | 'years', (r: Range) => string | null> = {
  weekdays: (r) => (r.begin > r.end ? 'start day cannot be after end day' : null),
  days_of_month: (r) => {
    if (r.begin === 0 || r.begin < -31 || r.begin > 31) return `${r.begin} is not a valid day of the month`;
    if (r.end === 0 || r.end < -31 || r.end > 31) return `${r.end} is not a valid day of the month`;
    if (r.begin < 0 && r.end > 0) return 'end day must be negative if start day is negative';
    const b = r.begin < 0 ? 28 + r.begin : r.begin;
    const e = r.end < 0 ? 28 + r.end : r.end;
    return b > e ? `end day ${r.end} is always before start day ${r.begin}` : null;
  },
  months: (r) =>
    r.begin < 1 || r.end > 12 ? 'months are 1 to 12' : r.begin > r.end ? 'end month is before start month' : null,
  years: (r) => (r.begin > r.end ? `end year ${r.end} is before start year ${r.begin}` : null),
};

function parseList(
  value: unknown,
  field: keyof typeof CHECKS,
  member: (s: string) => number | null,
  loc: string[],
  problems: SpecProblem[],
): Range[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length > MAX_ENTRIES) {
    problems.push({ loc, msg: `must be a list of at most ${MAX_ENTRIES} strings` });
    return null;
  }
  const out: Range[] = [];
  value.forEach((v, i) => {
    const r = typeof v === 'string' ? rangeOf(v.trim(), member) : 'must be a string';
    const problem = typeof r === 'string' ? r : CHECKS[field](r);
    if (problem) problems.push({ loc: [...loc, String(i)], msg: problem });
    else out.push(r as Range);
  });
  return out;
}

/** True when `name` is a zone luxon (and so the IANA database of this Node) knows. */
export function isKnownZone(name: string): boolean {
  return name === 'UTC' || name === 'Local' || IANAZone.isValidZone(name);
}

/** Parses one spec; problems name paths under `loc`. */
export function parseSpec(spec: unknown, loc: string[], problems: SpecProblem[]): ParsedSpec | null {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    problems.push({ loc, msg: 'must be an object (times, weekdays, days_of_month, months, years, location)' });
    return null;
  }
  const s = spec as Record<string, unknown>;
  for (const k of Object.keys(s))
    if (!['times', 'weekdays', 'days_of_month', 'months', 'years', 'location'].includes(k))
      problems.push({ loc: [...loc, k], msg: 'is not a time interval field' });
  const before = problems.length;
  let times: Range[] | null = null;
  if (s.times !== undefined && s.times !== null) {
    if (!Array.isArray(s.times) || s.times.length > MAX_ENTRIES)
      problems.push({ loc: [...loc, 'times'], msg: `must be a list of at most ${MAX_ENTRIES} {start_time, end_time}` });
    else
      times = s.times.flatMap((t: unknown, i) => {
        const at = [...loc, 'times', String(i)];
        const { start_time: start, end_time: end } = (t ?? {}) as Record<string, unknown>;
        if (typeof start !== 'string' || typeof end !== 'string' || !TIME_RE.test(start) || !TIME_RE.test(end)) {
          problems.push({ loc: at, msg: 'start_time and end_time must both be HH:MM (00:00 to 24:00)' });
          return [];
        }
        if (minutesOf(start) >= minutesOf(end)) {
          problems.push({ loc: at, msg: 'start_time must be before end_time' });
          return [];
        }
        return [{ begin: minutesOf(start), end: minutesOf(end) }];
      });
  }
  const weekdays = parseList(s.weekdays, 'weekdays', weekday, [...loc, 'weekdays'], problems);
  const daysOfMonth = parseList(s.days_of_month, 'days_of_month', integer, [...loc, 'days_of_month'], problems);
  const months = parseList(s.months, 'months', month, [...loc, 'months'], problems);
  const years = parseList(s.years, 'years', integer, [...loc, 'years'], problems);
  let zone = 'UTC';
  if (s.location !== undefined && s.location !== null) {
    if (typeof s.location !== 'string' || !isKnownZone(s.location))
      problems.push({ loc: [...loc, 'location'], msg: 'must be an IANA time zone such as Europe/Berlin, or UTC' });
    else zone = s.location === 'Local' ? 'system' : s.location;
  }
  if (problems.length > before) return null;
  return { times, weekdays, daysOfMonth, months, years, zone };
}

/** Parses a list of specs (a named interval's `time_intervals`); null specs are skipped with a problem. */
export function parseSpecs(specs: unknown, loc: string[] = []): { specs: ParsedSpec[]; problems: SpecProblem[] } {
  const problems: SpecProblem[] = [];
  if (!Array.isArray(specs) || specs.length > MAX_ENTRIES) {
    problems.push({ loc, msg: `must be a list of at most ${MAX_ENTRIES} time interval specs` });
    return { specs: [], problems };
  }
  const out: ParsedSpec[] = [];
  specs.forEach((s, i) => {
    const p = parseSpec(s, [...loc, String(i)], problems);
    if (p) out.push(p);
  });
  return { specs: out, problems };
}

const within = (ranges: Range[] | null, v: number) => ranges === null || ranges.some((r) => v >= r.begin && v <= r.end);

/** Whether one spec contains the instant, as Alertmanager's `ContainsTime`. */
export function specContains(spec: ParsedSpec, at: Date): boolean {
  const t = DateTime.fromJSDate(at, { zone: spec.zone });
  const minute = t.hour * 60 + t.minute;
  if (spec.times && !spec.times.some((r) => minute >= r.begin && minute < r.end)) return false;
  if (spec.daysOfMonth) {
    const days = t.daysInMonth!;
    const clamp = (n: number) => Math.min(Math.max(n, -days), days);
    const hit = spec.daysOfMonth.some((r) => {
      const begin = r.begin < 0 ? days + r.begin + 1 : r.begin;
      const end = r.end < 0 ? days + r.end + 1 : r.end;
      if (begin > days) return false; // the 31st in a 30-day month: no day
      return t.day >= clamp(begin) && t.day <= clamp(end);
    });
    if (!hit) return false;
  }
  if (!within(spec.months, t.month)) return false;
  if (!within(spec.weekdays, t.weekday % 7)) return false; // luxon: Monday 1 … Sunday 7; Alertmanager: Sunday 0
  return within(spec.years, t.year);
}

/** Whether any of the specs contains the instant (an empty list contains nothing). */
export function specsContain(specs: ParsedSpec[], at: Date): boolean {
  return specs.some((s) => specContains(s, at));
}

/** Parses stored specs (already validated when written) and tests the instant; an unreadable list is never active. */
export function storedSpecsContain(stored: unknown, at: Date): boolean {
  const { specs, problems } = parseSpecs(stored);
  return problems.length === 0 && specsContain(specs, at);
}
