/**
 * Pure billing logic: exact money, the month-end forecast and budget thresholds, windows and periods
 * in a time zone (DST included), JSON paths of custom meters, GPU model matching, price segments.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, isCurrency, minorUnits, money, parseDecimal, quantity, sum } from '../../src/billing/money.js';
import { forecastMonthEnd, percentOf, thresholdsReached } from '../../src/billing/forecast.js';
import {
  dayOf,
  isTimeZone,
  lastDays,
  monthOf,
  parseBoundary,
  windowStartOf,
  windowsBetween,
} from '../../src/billing/periods.js';
import { globToPostgresRegex, jsonPathSegments } from '../../src/billing/metering.js';
import { gpuModelMatches } from '../../src/billing/catalogue.js';
import { priceSegments, type SkuView } from '../../src/billing/prices.js';

describe('money', () => {
  it('keeps amounts exact, with at least the minor-unit decimals of the currency', () => {
    expect(money('0.00003', 'USD')).toEqual({ amount: '0.00003', currency: 'USD' });
    expect(money('12.5', 'USD')).toEqual({ amount: '12.50', currency: 'USD' });
    expect(money('3', 'JPY')).toEqual({ amount: '3', currency: 'JPY' });
    expect(money('1.2345678901234', 'EUR').amount).toBe('1.2345678901');
    expect(minorUnits('USD')).toBe(2);
    expect(minorUnits('JPY')).toBe(0);
    // 0.1 + 0.2 is 0.3 (floats would say 0.30000000000000004).
    expect(sum(['0.1', '0.2']).toFixed()).toBe('0.3');
    expect(quantity(new Decimal('1').dividedBy(6))).toBe('0.1666666667');
  });

  it('parses only plain decimal strings', () => {
    expect(parseDecimal('0.25')?.toFixed()).toBe('0.25');
    for (const bad of ['1e3', '0.1.2', '', ' ', 'abc', '1.12345678901', 0.5]) expect(parseDecimal(bad)).toBeNull();
    expect(isCurrency('EUR')).toBe(true);
    expect(isCurrency('XYZ')).toBe(false);
    expect(isCurrency('usd')).toBe(false);
  });
});

describe('forecast and budget thresholds', () => {
  const start = new Date('2026-11-01T00:00:00Z');
  const end = new Date('2026-12-01T00:00:00Z');

  it('is a linear run rate: spend ÷ elapsed × month length', () => {
    // 10 days of a 30-day month at 1.00 per day → 30.00.
    expect(forecastMonthEnd(new Decimal(10), start, end, new Date('2026-11-11T00:00:00Z')).toFixed()).toBe('30');
    expect(forecastMonthEnd(new Decimal('7.5'), start, end, new Date('2026-11-16T00:00:00Z')).toFixed()).toBe('15');
    // At the start nothing has elapsed: the forecast is the spend; after the end, the spend.
    expect(forecastMonthEnd(new Decimal(3), start, end, start).toFixed()).toBe('3');
    expect(forecastMonthEnd(new Decimal(3), start, end, new Date('2027-01-01T00:00:00Z')).toFixed()).toBe('3');
  });

  it('reports the thresholds reached and the percentage', () => {
    expect(thresholdsReached(new Decimal('79.99'), new Decimal(100))).toEqual([]);
    expect(thresholdsReached(new Decimal(80), new Decimal(100))).toEqual([80]);
    expect(thresholdsReached(new Decimal('100'), new Decimal(100))).toEqual([80, 100]);
    expect(thresholdsReached(new Decimal(5), new Decimal(0))).toEqual([]);
    expect(percentOf(new Decimal(45), new Decimal(60))).toBe('75.00');
  });
});

describe('windows and periods', () => {
  it('windows are UTC hours', () => {
    expect(windowStartOf(new Date('2026-11-23T10:59:59.999Z')).toISOString()).toBe('2026-11-23T10:00:00.000Z');
    expect(
      windowsBetween(new Date('2026-11-23T10:30:00Z'), new Date('2026-11-23T13:00:00Z')).map((d) => d.toISOString()),
    ).toEqual(['2026-11-23T10:00:00.000Z', '2026-11-23T11:00:00.000Z', '2026-11-23T12:00:00.000Z']);
  });

  it('the calendar month and days follow the tenant time zone, DST included', () => {
    const m = monthOf(new Date('2026-11-01T03:00:00Z'), 'America/New_York');
    // 03:00 UTC on 1 November is still October in New York (UTC-4 until the 1 November DST change at 06:00 UTC).
    expect(m.label).toBe('2026-10');
    expect(m.start.toISOString()).toBe('2026-10-01T04:00:00.000Z');
    expect(m.end.toISOString()).toBe('2026-11-01T04:00:00.000Z');
    const nov = monthOf(new Date('2026-11-15T12:00:00Z'), 'America/New_York');
    expect(nov.start.toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(nov.end.toISOString()).toBe('2026-12-01T05:00:00.000Z');
    // The DST day is 25 hours long.
    const d = dayOf(new Date('2026-11-01T12:00:00Z'), 'America/New_York');
    expect((d.end.getTime() - d.start.getTime()) / 3600_000).toBe(25);
    expect(monthOf(new Date('2026-11-30T23:30:00Z'), 'Europe/Berlin').label).toBe('2026-12');
  });

  it('the last n days end today, oldest first', () => {
    const r = lastDays(new Date('2026-03-02T10:00:00Z'), 3, 'UTC');
    expect(r.labels).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
    expect(r.start.toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(r.end.toISOString()).toBe('2026-03-03T00:00:00.000Z');
  });

  it('period boundaries are dates in the zone or date-times with an offset', () => {
    expect(parseBoundary('2026-11-01', 'Europe/Berlin')?.toISOString()).toBe('2026-10-31T23:00:00.000Z');
    expect(parseBoundary('2026-11-01T10:00:00+02:00', 'UTC')?.toISOString()).toBe('2026-11-01T08:00:00.000Z');
    expect(parseBoundary('2026-11-01T10:00:00', 'UTC')).toBeNull();
    expect(parseBoundary('yesterday', 'UTC')).toBeNull();
    expect(isTimeZone('Asia/Kolkata')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('custom meters and catalogue matching', () => {
  it('JSON paths are $.key(.key)*', () => {
    expect(jsonPathSegments('$.cost')).toEqual(['cost']);
    expect(jsonPathSegments('$.usage.total_tokens')).toEqual(['usage', 'total_tokens']);
    for (const bad of ['cost', '$', '$.', '$.a[0]', '$..a', "$.a'b", '$.1a']) expect(jsonPathSegments(bad)).toBeNull();
  });

  it('type globs become anchored Postgres regexes with the alert-rule semantics', () => {
    const re = new RegExp(globToPostgresRegex('cloud.*'));
    expect(re.test('cloud.cost')).toBe(true);
    expect(re.test('cloud.cost.daily')).toBe(false);
    expect(new RegExp(globToPostgresRegex('cloud.**')).test('cloud.cost.daily')).toBe(true);
    expect(new RegExp(globToPostgresRegex('a.b')).test('aXb')).toBe(false);
  });

  it('GPU models match as whole words', () => {
    expect(gpuModelMatches('NVIDIA A100-SXM4-80GB', 'A100')).toBe(true);
    expect(gpuModelMatches('NVIDIA L40S', 'L4')).toBe(false);
    expect(gpuModelMatches('NVIDIA L4', 'L4')).toBe(true);
    expect(gpuModelMatches('NVIDIA H100 80GB HBM3', 'h100')).toBe(true);
  });

  it('price segments: the default until the first change, then each change until the next', () => {
    const sku = {
      id: 's',
      meter: 'm',
      unitPrice: '1',
      history: [
        { unitPrice: new Decimal(2), effectiveFrom: new Date('2026-11-10T00:00:00Z') },
        { unitPrice: new Decimal(3), effectiveFrom: new Date('2026-11-20T00:00:00Z') },
        { unitPrice: new Decimal(4), effectiveFrom: new Date('2026-11-20T00:00:00Z') },
      ],
    } as unknown as SkuView;
    const seg = priceSegments([sku]);
    expect(seg.price).toEqual(['1', '2', '4']);
    expect(seg.from).toEqual(['1970-01-01T00:00:00.000Z', '2026-11-10T00:00:00.000Z', '2026-11-20T00:00:00.000Z']);
    expect(seg.to).toEqual(['2026-11-10T00:00:00.000Z', '2026-11-20T00:00:00.000Z', '9999-12-31T00:00:00.000Z']);
  });
});
