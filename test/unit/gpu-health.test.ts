/**
 * Pure GPU logic: the health verdict, the XID catalogue, and the hardware events derived from the
 * change between two samples.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEALTH_LIMITS, gpuHealth } from '../../src/gpu/health.js';
import { describeXid } from '../../src/gpu/xid.js';
import { deriveGpuEvents } from '../../src/gpu/telemetry.js';
import { dcgmValue } from '../../src/gpu/dcgm.js';

const now = new Date('2026-11-23T12:00:00Z');
const seen = new Date(now.getTime() - 1000);
const ok = { utilization: 50, temperatureC: 60, powerW: 200, powerLimitW: 400, eccDbe: 0 };

describe('gpuHealth', () => {
  it('is healthy with no reasons when every check passes', () => {
    expect(gpuHealth({ latest: ok, lastSeenAt: seen, lastXid: null, lastXidAt: null }, now)).toEqual({
      status: 'healthy',
      reasons: [],
    });
  });
  it('is unknown before the first sample, missing after the missed samples', () => {
    expect(gpuHealth({ latest: null, lastSeenAt: null, lastXid: null, lastXidAt: null }, now).status).toBe('unknown');
    const late = new Date(
      now.getTime() - DEFAULT_HEALTH_LIMITS.intervalMs * DEFAULT_HEALTH_LIMITS.missingAfterIntervals - 1,
    );
    const v = gpuHealth({ latest: ok, lastSeenAt: late, lastXid: null, lastXidAt: null }, now);
    expect(v.status).toBe('missing');
    expect(v.reasons[0]).toBe('no sample for 60 s (expected every 10 s)');
  });
  it('takes the worst of temperature, power, ECC and a recent XID, listing every reason', () => {
    const v = gpuHealth(
      { latest: { ...ok, temperatureC: 84, powerW: 399, eccDbe: 1 }, lastSeenAt: seen, lastXid: 13, lastXidAt: seen },
      now,
    );
    expect(v.status).toBe('critical');
    expect(v.reasons).toHaveLength(4);
    expect(
      gpuHealth({ latest: { ...ok, temperatureC: 90 }, lastSeenAt: seen, lastXid: null, lastXidAt: null }, now).status,
    ).toBe('critical');
    expect(gpuHealth({ latest: ok, lastSeenAt: seen, lastXid: 13, lastXidAt: seen }, now).status).toBe('warning');
  });
  it('forgets an XID after an hour', () => {
    const old = new Date(now.getTime() - 3600_001);
    expect(gpuHealth({ latest: ok, lastSeenAt: seen, lastXid: 79, lastXidAt: old }, now).status).toBe('healthy');
  });
});

describe('XID catalogue', () => {
  it('marks the uncontained and hardware faults critical, with an action', () => {
    for (const code of [48, 63, 64, 79]) expect(describeXid(code).severity).toBe('critical');
    expect(describeXid(13).severity).toBe('warning');
    expect(describeXid(79).action).toMatch(/Drain the node/);
    expect(describeXid(999)).toMatchObject({ code: 999, severity: 'warning' });
  });
});

describe('deriveGpuEvents', () => {
  const s = (o: Record<string, unknown>) => ({ uuid: 'GPU-1', node: 'n1', index: 0, at: now, ...o });
  it('reports an XID when its value changes, not while it stays', () => {
    const state = { lastXid: 0, lastXidAt: null, lastEccDbe: 0, hot: false, thermalCritical: false };
    expect(
      deriveGpuEvents(state, s({ xid: 48 }), DEFAULT_HEALTH_LIMITS, 'dcgm').map((e) => [e.type, e.severity]),
    ).toEqual([['gpu.xid', 'critical']]);
    expect(deriveGpuEvents(state, s({ xid: 48 }), DEFAULT_HEALTH_LIMITS, 'dcgm')).toEqual([]);
    expect(deriveGpuEvents(state, s({ xid: 0 }), DEFAULT_HEALTH_LIMITS, 'dcgm')).toEqual([]);
    expect(deriveGpuEvents(state, s({ xid: 48 }), DEFAULT_HEALTH_LIMITS, 'dcgm')).toHaveLength(1);
  });
  it('reports a thermal excursion once, its crossings of the critical limit, and its end with hysteresis', () => {
    const state = { lastXid: null, lastXidAt: null, lastEccDbe: null, hot: false, thermalCritical: false };
    const events = (t: number) =>
      deriveGpuEvents(state, s({ temperatureC: t }), DEFAULT_HEALTH_LIMITS, 'dcgm').map((e) => [
        e.type,
        e.severity,
        (e.payload as { level: string }).level,
      ]);
    expect(events(85)).toEqual([['gpu.thermal', 'warning', 'warning']]);
    expect(events(86)).toEqual([]);
    expect(events(96)).toEqual([['gpu.thermal', 'critical', 'critical']]); // crossed the critical limit: raised
    expect(events(97)).toEqual([]);
    expect(events(88)).toEqual([['gpu.thermal_recovered', 'info', 'warning']]); // back under it
    expect(events(92)).toEqual([['gpu.thermal', 'critical', 'critical']]); // and over it again
    expect(events(80)).toEqual([['gpu.thermal_recovered', 'info', 'warning']]);
    expect(events(79)).toEqual([]); // within 5 °C of the warning limit: still hot
    expect(events(77)).toEqual([['gpu.thermal_recovered', 'info', 'normal']]);
    expect(events(77)).toEqual([]);
    expect(events(99)).toEqual([['gpu.thermal', 'critical', 'critical']]); // straight to critical
    expect(events(60)).toEqual([['gpu.thermal_recovered', 'info', 'normal']]); // straight back: one event
  });
  it('reports the ECC double-bit counter when it rises', () => {
    const state = { lastXid: null, lastXidAt: null, lastEccDbe: 2, hot: false, thermalCritical: false };
    expect(deriveGpuEvents(state, s({ eccDbe: 2 }), DEFAULT_HEALTH_LIMITS, 'dcgm')).toEqual([]);
    const [e] = deriveGpuEvents(state, s({ eccDbe: 5 }), DEFAULT_HEALTH_LIMITS, 'dcgm');
    expect(e).toMatchObject({
      type: 'gpu.ecc',
      severity: 'critical',
      summary: 'GPU 0 on n1: 3 new uncorrected ECC error(s)',
    });
  });
});

describe('DCGM blank values', () => {
  it('are missing, not numbers', () => {
    expect(dcgmValue('2147483632', 'int32')).toBeNull();
    expect(dcgmValue('140737488355328', 'fp64')).toBeNull();
    expect(dcgmValue('9223372036854775792', 'int64')).toBeNull();
    expect(dcgmValue('87', 'int32')).toBe(87);
    expect(dcgmValue('3000000000', 'int64')).toBe(3000000000); // an energy counter past the int32 blank is a real value
    expect(dcgmValue('NaN', 'fp64')).toBeNull();
  });
});
