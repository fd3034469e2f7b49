/**
 * Exact money: decimal.js (Prisma's Decimal) and Postgres `numeric` for every amount and price, never
 * floats. An amount is a decimal string with its currency, exact to 10 decimal places (micro-priced
 * usage such as 0.00001 per event stays visible), written with at least the currency's minor-unit
 * decimals (`12.50` USD, `3` JPY, `0.00003` USD). A total is the exact sum of its rows.
 */
import { Prisma } from '../generated/prisma/client.js';

export const Decimal = Prisma.Decimal;
export type Decimal = Prisma.Decimal;

export interface Money {
  amount: string;
  currency: string;
}

const minorUnitsCache = new Map<string, number>();

/** The number of decimals of the currency's minor unit (ISO 4217, through Intl). */
export function minorUnits(currency: string): number {
  let n = minorUnitsCache.get(currency);
  if (n === undefined) {
    n = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    minorUnitsCache.set(currency, n);
  }
  return n;
}

/** True for a three-letter ISO 4217 code Intl knows. */
export function isCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency: code });
    return Intl.supportedValuesOf ? Intl.supportedValuesOf('currency').includes(code) : true;
  } catch {
    return false;
  }
}

/** A decimal from a string, number-free input; null when it is not a plain decimal. */
export function parseDecimal(v: unknown): Decimal | null {
  if (typeof v !== 'string' || !/^-?\d{1,14}(\.\d{1,10})?$/.test(v.trim())) return null;
  return new Decimal(v.trim());
}

/** The amount (half-up at 10 decimals), written with at least the currency's minor-unit decimals, with its currency. */
export function money(value: Decimal | string | number, currency: string): Money {
  const d = new Decimal(value).toDecimalPlaces(MAX_DECIMALS, Decimal.ROUND_HALF_UP);
  return { amount: d.toFixed(Math.max(minorUnits(currency), d.decimalPlaces())), currency };
}

export const MAX_DECIMALS = 10;

/** A quantity as a plain decimal string without trailing zeros (at most 10 decimals). */
export function quantity(value: Decimal | string | number): string {
  return new Decimal(value).toDecimalPlaces(10, Decimal.ROUND_HALF_UP).toFixed();
}

/** Sum of decimals. */
export function sum(values: Array<Decimal | string>): Decimal {
  return values.reduce<Decimal>((a, v) => a.plus(v), new Decimal(0));
}
