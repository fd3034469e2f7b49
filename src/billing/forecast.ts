/**
 * The month-end forecast: a linear run rate. The spend so far divided by the time elapsed since the
 * month started, times the length of the month (so a month of 30 days at 1.00 per day forecasts 30.00
 * whatever day it is). Before any time has elapsed the forecast is the spend itself.
 */
import { Decimal } from './money.js';

export const FORECAST_METHOD = 'linear_run_rate';
export const FORECAST_DESCRIPTION =
  'month-to-date spend ÷ time elapsed since the start of the month × length of the month (linear run rate)';

export function forecastMonthEnd(spent: Decimal, periodStart: Date, periodEnd: Date, now: Date): Decimal {
  const total = periodEnd.getTime() - periodStart.getTime();
  const elapsed = Math.min(total, now.getTime() - periodStart.getTime());
  if (elapsed <= 0 || total <= 0) return new Decimal(spent);
  return new Decimal(spent).times(total).dividedBy(elapsed);
}

export const BUDGET_THRESHOLDS = [80, 100] as const;

/** The thresholds (percent of the budget) the forecast has reached. */
export function thresholdsReached(forecast: Decimal, budget: Decimal): number[] {
  if (budget.lte(0)) return [];
  return BUDGET_THRESHOLDS.filter((p) => forecast.gte(budget.times(p).dividedBy(100)));
}

/** The forecast as a percentage of the budget (2 decimals). */
export function percentOf(forecast: Decimal, budget: Decimal): string {
  if (budget.lte(0)) return '0';
  return forecast.times(100).dividedBy(budget).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}
