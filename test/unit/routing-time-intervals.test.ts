import { describe, expect, it } from 'vitest';
import { parseSpecs, specsContain, type TimeIntervalSpec } from '../../src/routing/time-intervals.js';

function interval(...specs: TimeIntervalSpec[]) {
  const { specs: parsed, problems } = parseSpecs(specs);
  expect(problems).toEqual([]);
  return (iso: string) => specsContain(parsed, new Date(iso));
}

describe('time intervals (Alertmanager semantics)', () => {
  it('matches times with an exclusive end, in UTC when no location is set', () => {
    const inside = interval({ times: [{ start_time: '09:00', end_time: '17:30' }] });
    expect(inside('2026-03-02T09:00:00Z')).toBe(true);
    expect(inside('2026-03-02T17:29:59Z')).toBe(true);
    expect(inside('2026-03-02T17:30:00Z')).toBe(false);
    expect(inside('2026-03-02T08:59:59Z')).toBe(false);
    const toMidnight = interval({ times: [{ start_time: '22:00', end_time: '24:00' }] });
    expect(toMidnight('2026-03-02T23:59:00Z')).toBe(true);
    expect(toMidnight('2026-03-03T00:00:00Z')).toBe(false);
  });

  it('matches weekday ranges (Sunday is day 0) and single days, case-insensitively', () => {
    const weekdays = interval({ weekdays: ['Monday:Friday'] });
    expect(weekdays('2026-03-02T12:00:00Z')).toBe(true); // Monday
    expect(weekdays('2026-03-06T12:00:00Z')).toBe(true); // Friday
    expect(weekdays('2026-03-07T12:00:00Z')).toBe(false); // Saturday
    expect(weekdays('2026-03-08T12:00:00Z')).toBe(false); // Sunday
    expect(interval({ weekdays: ['sunday'] })('2026-03-08T12:00:00Z')).toBe(true);
  });

  it('counts negative days of month from the end of each month', () => {
    const last = interval({ days_of_month: ['-1'] });
    expect(last('2026-02-28T12:00:00Z')).toBe(true);
    expect(last('2028-02-28T12:00:00Z')).toBe(false); // leap year: the 29th is last
    expect(last('2028-02-29T12:00:00Z')).toBe(true);
    expect(last('2026-04-30T12:00:00Z')).toBe(true);
    expect(last('2026-05-30T12:00:00Z')).toBe(false);
    const lastThree = interval({ days_of_month: ['-3:-1'] });
    expect(lastThree('2026-02-26T00:00:00Z')).toBe(true);
    expect(lastThree('2026-02-25T23:59:00Z')).toBe(false);
    const firstToLast = interval({ days_of_month: ['1:5', '-1'] });
    expect(firstToLast('2026-03-05T00:00:00Z')).toBe(true);
    expect(firstToLast('2026-03-06T00:00:00Z')).toBe(false);
    // The 31st does not exist in April: no day matches (Alertmanager skips the range).
    expect(interval({ days_of_month: ['31'] })('2026-04-30T12:00:00Z')).toBe(false);
  });

  it('matches months by name or number, and years', () => {
    const q1 = interval({ months: ['january:march'], years: ['2026:2027'] });
    expect(q1('2026-03-31T23:00:00Z')).toBe(true);
    expect(q1('2026-04-01T00:00:00Z')).toBe(false);
    expect(q1('2028-01-10T00:00:00Z')).toBe(false);
    expect(interval({ months: ['12'] })('2026-12-24T00:00:00Z')).toBe(true);
  });

  it('needs every field of a spec, and any spec of the list', () => {
    const nights = interval(
      { weekdays: ['monday:friday'], times: [{ start_time: '00:00', end_time: '08:00' }] },
      { weekdays: ['saturday', 'sunday'] },
    );
    expect(nights('2026-03-02T07:00:00Z')).toBe(true);
    expect(nights('2026-03-02T09:00:00Z')).toBe(false);
    expect(nights('2026-03-07T15:00:00Z')).toBe(true);
  });

  it('keeps a weekly window at its local time across both DST changes (Europe/Berlin)', () => {
    const sundayNight = interval({
      weekdays: ['sunday'],
      times: [{ start_time: '02:00', end_time: '04:00' }],
      location: 'Europe/Berlin',
    });
    // Summer time (UTC+2): 02:00–04:00 local is 00:00–02:00 UTC.
    expect(sundayNight('2026-10-18T00:30:00Z')).toBe(true);
    expect(sundayNight('2026-10-18T02:30:00Z')).toBe(false);
    // Winter time (UTC+1), the week after the change: 01:00–03:00 UTC. A window repeated every
    // 604,800 s would have stayed at 00:00–02:00 UTC, an hour early.
    expect(sundayNight('2026-11-01T00:30:00Z')).toBe(false);
    expect(sundayNight('2026-11-01T01:30:00Z')).toBe(true);
    expect(sundayNight('2026-11-01T02:59:00Z')).toBe(true);
    // The change itself (25 Oct 2026, 03:00 CEST → 02:00 CET): 02:00 local happens twice, the window
    // runs from 00:00 UTC (02:00 CEST) to 03:00 UTC (04:00 CET).
    expect(sundayNight('2026-10-25T00:00:00Z')).toBe(true);
    expect(sundayNight('2026-10-25T02:59:00Z')).toBe(true);
    expect(sundayNight('2026-10-25T03:00:00Z')).toBe(false);
    // Spring forward (29 Mar 2026, 02:00 CET → 03:00 CEST): local 02:00–03:00 never happens, so the
    // window is 03:00–04:00 CEST = 01:00–02:00 UTC.
    expect(sundayNight('2026-03-29T00:59:00Z')).toBe(false);
    expect(sundayNight('2026-03-29T01:00:00Z')).toBe(true);
    expect(sundayNight('2026-03-29T02:00:00Z')).toBe(false);
  });

  it('evaluates days and weekdays in the location, not in UTC', () => {
    const tokyoMonday = interval({ weekdays: ['monday'], location: 'Asia/Tokyo' });
    expect(tokyoMonday('2026-03-01T16:00:00Z')).toBe(true); // Monday 01:00 in Tokyo, Sunday in UTC
    expect(tokyoMonday('2026-03-02T16:00:00Z')).toBe(false);
  });

  it('rejects what Alertmanager rejects, with the path of each problem', () => {
    const { problems } = parseSpecs([
      {
        times: [
          { start_time: '10:00', end_time: '09:00' },
          { start_time: '25:00', end_time: '26:00' },
        ],
        weekdays: ['friday:monday', 'funday'],
        days_of_month: ['0', '-1:5', '10:2'],
        months: ['march:january', '13'],
        years: ['2027:2026'],
        location: 'Mars/Olympus',
      },
      { frequency: 'weekly' },
    ]);
    expect(problems.map((p) => p.loc.join('.'))).toEqual([
      '0.times.0',
      '0.times.1',
      '0.weekdays.0',
      '0.weekdays.1',
      '0.days_of_month.0',
      '0.days_of_month.1',
      '0.days_of_month.2',
      '0.months.0',
      '0.months.1',
      '0.years.0',
      '0.location',
      '1.frequency',
    ]);
    expect(parseSpecs('weekly').problems[0].msg).toMatch(/list/);
  });

  it('accepts an empty spec (always) and an empty list (never)', () => {
    expect(interval({})('2026-03-02T00:00:00Z')).toBe(true);
    expect(specsContain(parseSpecs([]).specs, new Date())).toBe(false);
  });
});
