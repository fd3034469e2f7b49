/**
 * Monthly budgets (one per tenant, admin). After metering, the month-end forecast is compared with
 * the budget: crossing 80 % or 100 % writes a `billing.budget` event on the timeline once per threshold
 * and month (the BillingBudgetAlert row and the event commit together), announced like every timeline
 * event, so alert rules evaluate it and webhooks with an EVENT trigger receive it. Changing the
 * budget's amount clears the current month's fired thresholds (the new amount is watched afresh).
 */
import { v7 as uuidv7 } from 'uuid';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { Event } from '../generated/prisma/client.js';
import { ValidationFailed } from '../errors.js';
import { announceTimelineEvents } from '../events/announce.js';
import { thresholdsReached } from './forecast.js';
import { money, parseDecimal } from './money.js';
import { monthOf } from './periods.js';
import { loadSettings, scopeFor, scopeOf } from './prices.js';
import { currentSpendFor } from './queries.js';
import { assertCanManageBilling } from './policy.js';

export interface BudgetView {
  amount: { amount: string; currency: string };
  month: string;
  firedThresholds: number[];
  updatedAt: Date;
}

export async function getBudget(ctx: Ctx): Promise<BudgetView | null> {
  const scope = scopeOf(ctx);
  const b = await ctx.db.billingBudget.findUnique({ where: { tenantId: scope.tenantId } });
  if (!b) return null;
  const settings = await loadSettings(scope);
  const month = monthOf(ctx.rt.clock.now(), settings.timeZone).label;
  const fired = await ctx.db.billingBudgetAlert.findMany({
    where: { tenantId: scope.tenantId, month },
    orderBy: { threshold: 'asc' },
  });
  return {
    amount: money(b.amount, settings.currency),
    month,
    firedThresholds: fired.map((f) => f.threshold),
    updatedAt: b.updatedAt,
  };
}

/** Sets the monthly budget (admin), then checks it at once. */
export async function setBudget(ctx: Ctx, amount: string, base: string[] = ['input']): Promise<BudgetView> {
  assertCanManageBilling(ctx);
  const me = requireUser(ctx);
  const d = parseDecimal(amount);
  if (!d || !d.isPositive() || d.isZero())
    throw new ValidationFailed([
      { loc: [...base, 'amount'], msg: 'must be a positive decimal string, e.g. "1500.00"' },
    ]);
  const scope = scopeOf(ctx);
  const settings = await loadSettings(scope);
  const month = monthOf(ctx.rt.clock.now(), settings.timeZone).label;
  await ctx.rt.prisma.$transaction(async (tx) => {
    const before = await tx.billingBudget.findUnique({ where: { tenantId: me.tenantId } });
    await tx.billingBudget.upsert({
      where: { tenantId: me.tenantId },
      create: { tenantId: me.tenantId, amount: d.toFixed(), currency: settings.currency },
      update: { amount: d.toFixed(), currency: settings.currency },
    });
    if (!before || !before.amount.equals(d))
      await tx.billingBudgetAlert.deleteMany({ where: { tenantId: me.tenantId, month } });
  });
  await checkBudget(ctx.rt, me.tenantId);
  return (await getBudget(ctx))!;
}

export async function deleteBudget(ctx: Ctx): Promise<boolean> {
  assertCanManageBilling(ctx);
  const me = requireUser(ctx);
  const r = await ctx.db.billingBudget.deleteMany({ where: { tenantId: me.tenantId } });
  return r.count > 0;
}

/** Compares the forecast with the budget; writes one event per newly crossed threshold. Returns the thresholds fired now. */
export async function checkBudget(rt: Runtime, tenantId: string, now = rt.clock.now()): Promise<number[]> {
  const scope = scopeFor(rt, tenantId);
  const budget = await rt.prisma.billingBudget.findUnique({ where: { tenantId } });
  if (!budget) return [];
  const cur = await currentSpendFor(scope, now);
  const reached = thresholdsReached(cur.exactForecast, budget.amount);
  if (!reached.length) return [];
  const already = new Set(
    (
      await rt.prisma.billingBudgetAlert.findMany({
        where: { tenantId, month: cur.monthLabel },
        select: { threshold: true },
      })
    ).map((a) => a.threshold),
  );
  const fired: number[] = [];
  const events: Event[] = [];
  for (const threshold of reached.filter((t) => !already.has(t))) {
    const eventId = uuidv7();
    const event = await rt.prisma.$transaction(async (tx) => {
      const inserted = await tx.$executeRawUnsafe(
        `INSERT INTO "BillingBudgetAlert" ("tenantId", "month", "threshold", "eventId") VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        tenantId,
        cur.monthLabel,
        threshold,
        eventId,
      );
      if (!inserted) return null;
      const budgetMoney = money(budget.amount, cur.currency);
      return tx.event.create({
        data: {
          id: eventId,
          tenantId,
          receivedAt: rt.clock.now(), // its own time, not the check's: the thresholds' events stay in order
          type: 'billing.budget',
          module: 'billing',
          source: 'billing',
          severity: threshold >= 100 ? 'critical' : 'warning',
          summary: `Forecast ${cur.forecast.amount.amount} ${cur.currency} reaches ${threshold} % of the monthly budget ${budgetMoney.amount} ${cur.currency} (${cur.monthLabel})`,
          labels: { threshold: String(threshold), month: cur.monthLabel },
          payload: {
            threshold_percent: threshold,
            month: cur.monthLabel,
            time_zone: cur.period.timeZone,
            budget: { ...budgetMoney },
            spend_to_date: { ...cur.total },
            forecast: { ...cur.forecast.amount },
            forecast_method: cur.forecast.method,
            currency: cur.currency,
          },
          receivedVia: 'system',
        },
      });
    });
    if (event) {
      fired.push(threshold);
      events.push(event);
    }
  }
  await announceTimelineEvents(rt, events);
  return fired;
}
