import { describe, expect, it } from 'vitest';
import { allowedActions, nextStatus } from '../../src/alerts/state.js';
import { parseDurationSeconds } from '../../src/duration.js';
import { snoozeUntil } from '../../src/alerts/actions.js';
import { suppressingWindow, windowIsActive } from '../../src/alerts/maintenance-windows.js';
import { Conflict, ValidationFailed } from '../../src/errors.js';

describe('alert state machine', () => {
  it('follows open → acknowledged → resolved, and snoozed back to open', () => {
    expect(nextStatus('open', 'acknowledge')).toBe('acknowledged');
    expect(nextStatus('acknowledged', 'snooze')).toBe('snoozed');
    expect(nextStatus('snoozed', 'reopen')).toBe('open');
    expect(nextStatus('open', 'resolve')).toBe('resolved');
    expect(nextStatus('snoozed', 'acknowledge')).toBe('acknowledged');
  });
  it('rejects invalid transitions with a Conflict naming the state and the allowed actions', () => {
    expect(() => nextStatus('acknowledged', 'acknowledge')).toThrow(Conflict);
    expect(() => nextStatus('acknowledged', 'acknowledge')).toThrow(/acknowledged; allowed actions: snooze, resolve/);
    expect(() => nextStatus('resolved', 'resolve')).toThrow(/resolved.*no further actions/);
    expect(() => nextStatus('open', 'reopen')).toThrow(Conflict);
  });
  it('lists the actions a person may take', () => {
    expect(allowedActions('open')).toEqual(['acknowledge', 'snooze', 'resolve']);
    expect(allowedActions('acknowledged')).toEqual(['snooze', 'resolve']);
    expect(allowedActions('resolved')).toEqual([]);
  });
});

describe('snooze durations', () => {
  it('reads seconds, short units, combinations and ISO-8601', () => {
    expect(parseDurationSeconds(90)).toBe(90);
    expect(parseDurationSeconds('90')).toBe(90);
    expect(parseDurationSeconds('2s')).toBe(2);
    expect(parseDurationSeconds('15m')).toBe(900);
    expect(parseDurationSeconds('1h30m')).toBe(5400);
    expect(parseDurationSeconds('2d')).toBe(172800);
    expect(parseDurationSeconds('PT1H')).toBe(3600);
    expect(parseDurationSeconds('P1DT12H')).toBe(129600);
    expect(parseDurationSeconds('P2W')).toBe(1209600);
  });
  it('refuses what it cannot read', () => {
    for (const bad of ['', 'soon', '5 minutes', 'P', 'PT', '1x', '-5']) expect(parseDurationSeconds(bad)).toBeNull();
  });
  it('needs exactly one of duration and until, in the future', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    expect(snoozeUntil({ duration: '2s' }, now).toISOString()).toBe('2030-01-01T00:00:02.000Z');
    expect(snoozeUntil({ until: new Date('2031-01-01T00:00:00Z') }, now).toISOString()).toBe(
      '2031-01-01T00:00:00.000Z',
    );
    expect(() => snoozeUntil({}, now)).toThrow(ValidationFailed);
    expect(() => snoozeUntil({ duration: '1m', until: new Date('2031-01-01T00:00:00Z') }, now)).toThrow(
      ValidationFailed,
    );
    expect(() => snoozeUntil({ duration: '0' }, now)).toThrow(/longer than zero/);
    expect(() => snoozeUntil({ until: new Date('2029-01-01T00:00:00Z') }, now)).toThrow(/future/);
  });
});

describe('maintenance windows', () => {
  const base = { matchLabels: {}, source: null, deviceId: null, repeatEverySeconds: null };
  const start = new Date('2030-01-01T10:00:00Z');
  const end = new Date('2030-01-01T11:00:00Z');
  it('covers [startsAt, endsAt) for a one-off window', () => {
    const w = { ...base, startsAt: start, endsAt: end };
    expect(windowIsActive(w, new Date('2030-01-01T10:30:00Z'))).toBe(true);
    expect(windowIsActive(w, end)).toBe(false);
    expect(windowIsActive(w, new Date('2030-01-01T09:59:59Z'))).toBe(false);
    expect(windowIsActive(w, new Date('2030-01-02T10:30:00Z'))).toBe(false);
  });
  it('repeats the span every period for a recurring window', () => {
    const w = { ...base, startsAt: start, endsAt: end, repeatEverySeconds: 86400 };
    expect(windowIsActive(w, new Date('2030-01-08T10:30:00Z'))).toBe(true);
    expect(windowIsActive(w, new Date('2030-01-08T11:30:00Z'))).toBe(false);
  });
  it('applies only to alerts inside its scope', () => {
    const scoped = { ...base, startsAt: start, endsAt: end, source: 'db-1', matchLabels: { env: 'prod' } };
    const at = new Date('2030-01-01T10:30:00Z');
    expect(suppressingWindow([scoped], { source: 'db-1', labels: { env: 'prod', x: 'y' }, deviceId: null }, at)).toBe(
      scoped,
    );
    expect(
      suppressingWindow([scoped], { source: 'db-2', labels: { env: 'prod' }, deviceId: null }, at),
    ).toBeUndefined();
    expect(suppressingWindow([scoped], { source: 'db-1', labels: { env: 'dev' }, deviceId: null }, at)).toBeUndefined();
    const device = { ...base, startsAt: start, endsAt: end, deviceId: 'd1' };
    expect(suppressingWindow([device], { source: 'x', labels: {}, deviceId: 'd2' }, at)).toBeUndefined();
  });
});
