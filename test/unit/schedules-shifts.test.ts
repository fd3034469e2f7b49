/**
 * The shift computation (src/schedules/shifts.ts): rotations, handoffs kept at local wall-clock time across both
 * DST changes in Europe/Amsterdam and America/New_York, restrictions, layers and overrides.
 */
import { describe, expect, it } from 'vitest';
import { finalShifts, layerShifts, onCallAt, type LayerSpec, type ScheduleSpec } from '../../src/schedules/shifts.js';

const d = (iso: string) => new Date(iso);
const who = (s: ScheduleSpec, iso: string) => onCallAt(s, d(iso))?.userId ?? null;

function weekly(startsAt: string, users: string[], extra: Partial<LayerSpec> = {}): LayerSpec {
  return {
    position: 0,
    startsAt: d(startsAt),
    rotation: 'weekly',
    handoffTime: '09:00',
    handoffWeekday: 1,
    userIds: users,
    ...extra,
  };
}

describe('rotations and DST', () => {
  it('keeps a weekly Monday 09:00 handoff at 09:00 Amsterdam time across the spring change (CET → CEST)', () => {
    // 2026-03-16 is a Monday; DST starts Sunday 2026-03-29 (02:00 → 03:00).
    const s: ScheduleSpec = {
      timeZone: 'Europe/Amsterdam',
      layers: [weekly('2026-03-16T08:00:00Z', ['ann', 'bob'])],
      overrides: [],
    };
    expect(who(s, '2026-03-16T08:00:00Z')).toBe('ann');
    expect(who(s, '2026-03-23T07:59:00Z')).toBe('ann'); // 08:59 CET
    expect(who(s, '2026-03-23T08:00:00Z')).toBe('bob'); // 09:00 CET
    expect(who(s, '2026-03-30T06:59:00Z')).toBe('bob'); // 08:59 CEST
    expect(who(s, '2026-03-30T07:00:00Z')).toBe('ann'); // 09:00 CEST
    const shifts = finalShifts(s, d('2026-03-20T00:00:00Z'), d('2026-04-10T00:00:00Z'));
    expect(shifts.map((x) => [x.userId, x.start.toISOString()])).toEqual([
      ['ann', '2026-03-20T00:00:00.000Z'],
      ['bob', '2026-03-23T08:00:00.000Z'],
      ['ann', '2026-03-30T07:00:00.000Z'],
      ['bob', '2026-04-06T07:00:00.000Z'],
    ]);
  });

  it('keeps it across the autumn change in Amsterdam (CEST → CET)', () => {
    // DST ends Sunday 2026-10-25 (03:00 → 02:00); Mondays 10-19 and 10-26.
    const s: ScheduleSpec = {
      timeZone: 'Europe/Amsterdam',
      layers: [weekly('2026-10-12T07:00:00Z', ['ann', 'bob'])],
      overrides: [],
    };
    expect(who(s, '2026-10-19T06:59:00Z')).toBe('ann');
    expect(who(s, '2026-10-19T07:00:00Z')).toBe('bob'); // 09:00 CEST
    expect(who(s, '2026-10-26T07:59:00Z')).toBe('bob'); // 08:59 CET
    expect(who(s, '2026-10-26T08:00:00Z')).toBe('ann'); // 09:00 CET
  });

  it('keeps a daily 09:00 handoff in New York across both changes (2026-03-08 and 2026-11-01)', () => {
    const layer: LayerSpec = {
      position: 0,
      startsAt: d('2026-03-06T14:00:00Z'), // Friday 09:00 EST
      rotation: 'daily',
      handoffTime: '09:00',
      userIds: ['a', 'b', 'c'],
    };
    const s: ScheduleSpec = { timeZone: 'America/New_York', layers: [layer], overrides: [] };
    expect(who(s, '2026-03-07T14:00:00Z')).toBe('b'); // Sat 09:00 EST
    expect(who(s, '2026-03-08T12:59:00Z')).toBe('b'); // Sun 08:59 EDT
    expect(who(s, '2026-03-08T13:00:00Z')).toBe('c'); // Sun 09:00 EDT
    const fall: ScheduleSpec = { ...s, layers: [{ ...layer, startsAt: d('2026-10-30T13:00:00Z') }] }; // Fri 09:00 EDT
    expect(who(fall, '2026-10-31T13:00:00Z')).toBe('b'); // Sat 09:00 EDT
    expect(who(fall, '2026-11-01T13:59:00Z')).toBe('b'); // Sun 08:59 EST
    expect(who(fall, '2026-11-01T14:00:00Z')).toBe('c'); // Sun 09:00 EST
  });

  it('counts a custom rotation of whole days in local days, and other lengths in exact seconds', () => {
    const twoDays: LayerSpec = {
      position: 0,
      startsAt: d('2026-03-27T08:00:00Z'), // Fri 09:00 CET
      rotation: 'custom',
      turnLengthSeconds: 2 * 86400,
      handoffTime: '09:00',
      userIds: ['a', 'b'],
    };
    const zone = 'Europe/Amsterdam';
    const turns = layerShifts(twoDays, zone, d('2026-03-27T08:00:00Z'), d('2026-04-02T00:00:00Z'));
    expect(turns.map((t) => [t.userId, t.start.toISOString()])).toEqual([
      ['a', '2026-03-27T08:00:00.000Z'],
      ['b', '2026-03-29T07:00:00.000Z'], // Sunday 09:00 CEST
      ['a', '2026-03-31T07:00:00.000Z'],
    ]);
    const twelveHours = { ...twoDays, turnLengthSeconds: 12 * 3600 };
    const t2 = layerShifts(twelveHours, zone, d('2026-03-28T20:00:00Z'), d('2026-03-29T21:00:00Z'));
    expect(t2.map((t) => t.start.toISOString())).toEqual([
      '2026-03-28T20:00:00.000Z',
      '2026-03-29T08:00:00.000Z',
      '2026-03-29T20:00:00.000Z',
    ]);
  });
});

describe('restrictions, layers and overrides', () => {
  const base = weekly('2026-01-05T08:00:00Z', ['night']); // one person all the time
  const business: LayerSpec = {
    position: 1,
    startsAt: d('2026-01-05T08:00:00Z'),
    rotation: 'daily',
    handoffTime: '09:00',
    userIds: ['day1', 'day2'],
    restrictions: [{ kind: 'daily', start: '09:00', end: '17:00' }],
  };

  it('lets a higher layer win only inside its restricted hours', () => {
    const s: ScheduleSpec = { timeZone: 'Europe/Amsterdam', layers: [base, business], overrides: [] };
    expect(who(s, '2026-01-05T08:30:00Z')).toBe('day1'); // Mon 09:30 CET
    expect(who(s, '2026-01-05T16:30:00Z')).toBe('night'); // Mon 17:30 CET
    expect(who(s, '2026-01-06T10:00:00Z')).toBe('day2'); // Tue 11:00 CET
    expect(who(s, '2026-01-06T07:00:00Z')).toBe('night'); // Tue 08:00 CET
  });

  it('applies weekly restrictions (Monday 09:00 to Friday 17:00) and wraps spans over the week end', () => {
    const weekdays: LayerSpec = {
      ...business,
      restrictions: [{ kind: 'weekly', startDay: 1, start: '09:00', endDay: 5, end: '17:00' }],
    };
    const s: ScheduleSpec = { timeZone: 'Europe/Amsterdam', layers: [base, weekdays], overrides: [] };
    expect(who(s, '2026-01-07T02:00:00Z')).toBe('day2'); // Wed 03:00 CET: inside the Mon-Fri span, Tuesday's turn
    expect(who(s, '2026-01-10T12:00:00Z')).toBe('night'); // Saturday
    const weekend: LayerSpec = {
      ...business,
      restrictions: [{ kind: 'weekly', startDay: 5, start: '17:00', endDay: 1, end: '09:00' }],
    };
    const s2: ScheduleSpec = { timeZone: 'Europe/Amsterdam', layers: [base, weekend], overrides: [] };
    expect(who(s2, '2026-01-10T12:00:00Z')).not.toBe('night'); // Saturday: the weekend layer
    expect(who(s2, '2026-01-07T12:00:00Z')).toBe('night'); // Wednesday
  });

  it('lets an override win over every layer, the latest created over an earlier one', () => {
    const s: ScheduleSpec = {
      timeZone: 'Europe/Amsterdam',
      layers: [base, business],
      overrides: [
        { id: 'o1', userId: 'cover', startsAt: d('2026-01-05T10:00:00Z'), endsAt: d('2026-01-05T20:00:00Z') },
        { id: 'o2', userId: 'later', startsAt: d('2026-01-05T12:00:00Z'), endsAt: d('2026-01-05T13:00:00Z') },
      ],
    };
    expect(who(s, '2026-01-05T09:59:00Z')).toBe('day1');
    expect(who(s, '2026-01-05T10:00:00Z')).toBe('cover');
    expect(who(s, '2026-01-05T12:30:00Z')).toBe('later');
    expect(who(s, '2026-01-05T19:00:00Z')).toBe('cover');
    expect(who(s, '2026-01-05T20:00:00Z')).toBe('night');
    const shifts = finalShifts(s, d('2026-01-05T09:00:00Z'), d('2026-01-05T21:00:00Z'));
    expect(shifts.map((x) => [x.userId, x.overrideId])).toEqual([
      ['day1', null],
      ['cover', 'o1'],
      ['later', 'o2'],
      ['cover', 'o1'],
      ['night', null],
    ]);
  });

  it('has nobody before a layer starts or with no users', () => {
    const s: ScheduleSpec = { timeZone: 'UTC', layers: [weekly('2026-02-02T09:00:00Z', [])], overrides: [] };
    expect(who(s, '2026-02-03T00:00:00Z')).toBeNull();
    const s2: ScheduleSpec = { timeZone: 'UTC', layers: [weekly('2026-02-02T09:00:00Z', ['x'])], overrides: [] };
    expect(who(s2, '2026-02-02T08:59:00Z')).toBeNull();
    expect(who(s2, '2026-02-02T09:00:00Z')).toBe('x');
  });

  it('covers the start of any window with a rotation shorter than a day (the turn reaching into it included)', () => {
    // Hourly turns from 19:26 local (Kathmandu, +05:45): a window starting late in a local day begins mid-turn.
    const layer: LayerSpec = {
      position: 0,
      startsAt: d('2026-01-01T13:41:14Z'),
      rotation: 'custom',
      turnLengthSeconds: 3600,
      handoffTime: '00:00',
      userIds: ['a', 'b'],
    };
    const from = d('2026-04-16T23:02:00Z');
    const turns = layerShifts(layer, 'Asia/Kathmandu', from, d('2026-04-17T02:00:00Z'));
    expect(turns[0]!.start.toISOString()).toBe(from.toISOString());
    expect(turns.map((t) => t.start.toISOString())).toEqual([
      '2026-04-16T23:02:00.000Z',
      '2026-04-16T23:41:14.000Z',
      '2026-04-17T00:41:14.000Z',
      '2026-04-17T01:41:14.000Z',
    ]);
  });

  it('answers who is on call with the same shift, bounds included, as the final shifts of four weeks around it', () => {
    const s: ScheduleSpec = {
      timeZone: 'Europe/Amsterdam',
      layers: [
        weekly('2026-01-05T08:00:00Z', ['ann', 'bob', 'cy']),
        {
          ...weekly('2026-01-05T08:00:00Z', ['night1', 'night2'], { position: 1, rotation: 'daily' }),
          restrictions: [{ kind: 'daily', start: '18:00', end: '08:00' }],
        },
      ],
      overrides: [{ id: 'o', userId: 'cover', startsAt: d('2026-03-27T10:00:00Z'), endsAt: d('2026-03-30T10:00:00Z') }],
    };
    for (let h = 0; h < 24 * 14; h += 7) {
      const at = new Date(Date.parse('2026-03-20T00:30:00Z') + h * 3600_000);
      const wide = finalShifts(s, new Date(at.getTime() - 15 * 86400_000), new Date(at.getTime() + 15 * 86400_000));
      expect(onCallAt(s, at)).toEqual(wide.find((x) => x.start <= at && x.end > at) ?? null);
    }
  });
});
