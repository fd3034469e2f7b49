/**
 * What people do to alerts (acknowledge, snooze, resolve) and what the service does on its own
 * (wake snoozed alerts when their time has passed). Every change goes through the state machine,
 * lands on the alert's timeline, is published on `alertChanged` and is written to the outbox.
 */
import type { Ctx } from '../context.js';
import type { Runtime } from '../runtime.js';
import { NotFound, ValidationFailed } from '../errors.js';
import type { Alert } from '../generated/prisma/client.js';
import { announceAlertChanges, transitionAlert, type TransitionInput } from './lifecycle.js';
import { parseDurationSeconds } from '../duration.js';
import { alertActor } from './policy.js';

/** Loads an alert of the caller's tenant or throws NotFound. */
export async function loadAlert(ctx: Ctx, id: string): Promise<Alert> {
  const alert = await ctx.db.alert.findUnique({ where: { id } });
  if (!alert) throw new NotFound('Alert');
  return alert;
}

async function act(ctx: Ctx, id: string, make: (alert: Alert, now: Date) => TransitionInput): Promise<Alert> {
  const current = await loadAlert(ctx, id);
  const result = await ctx.db.$transaction((tx) => transitionAlert(tx, current, make(current, ctx.rt.clock.now())));
  await announceAlertChanges(ctx.rt, [result.change], [result.outboxId]);
  return result.alert;
}

/** Acknowledges an open (or snoozed) alert and assigns it to the caller; 409 from other states. */
export async function acknowledgeAlert(ctx: Ctx, input: { id: string }): Promise<Alert> {
  const me = alertActor(ctx.principal);
  return act(ctx, input.id, (_a, now) => ({
    action: 'acknowledge',
    actorId: me.userId,
    now,
    data: { assigneeId: me.userId, acknowledgedAt: now },
  }));
}

export interface SnoozeInput {
  id: string;
  /** "2s", "15m", "1h30m", "PT1H", or a number of seconds. */
  duration?: string | number | null;
  /** An ISO time in the future. */
  until?: Date | null;
}

/** The time a snooze request ends at; 422 naming the field when it is missing, unreadable or past. */
export function snoozeUntil(input: Omit<SnoozeInput, 'id'>, now: Date): Date {
  const hasDuration = input.duration !== undefined && input.duration !== null && input.duration !== '';
  const hasUntil = input.until !== undefined && input.until !== null;
  if (hasDuration === hasUntil) {
    throw new ValidationFailed([
      {
        loc: ['input', hasDuration ? 'until' : 'duration'],
        msg: 'send exactly one of duration (e.g. "15m", "PT1H", 900) or until (an ISO time)',
      },
    ]);
  }
  if (hasDuration) {
    const seconds = parseDurationSeconds(input.duration!);
    if (seconds === null)
      throw new ValidationFailed([
        { loc: ['input', 'duration'], msg: 'must be seconds or a duration such as "30s", "15m", "2h", "1d", "PT1H"' },
      ]);
    if (seconds <= 0) throw new ValidationFailed([{ loc: ['input', 'duration'], msg: 'must be longer than zero' }]);
    const until = new Date(now.getTime() + seconds * 1000);
    if (Number.isNaN(until.getTime()) || until.getTime() > 8.64e15)
      throw new ValidationFailed([{ loc: ['input', 'duration'], msg: 'is too long' }]);
    return until;
  }
  if (input.until!.getTime() <= now.getTime())
    throw new ValidationFailed([{ loc: ['input', 'until'], msg: 'must be in the future' }]);
  return input.until!;
}

/** Snoozes an open, acknowledged or snoozed alert until a time; it reopens by itself then. */
export async function snoozeAlert(ctx: Ctx, input: SnoozeInput): Promise<Alert> {
  const me = alertActor(ctx.principal);
  const until = snoozeUntil(input, ctx.rt.clock.now());
  return act(ctx, input.id, (_a, now) => ({
    action: 'snooze',
    actorId: me.userId,
    now,
    note: `Snoozed until ${until.toISOString()}.`,
    data: { snoozedUntil: until },
  }));
}

/** Resolves an alert that is not resolved yet; a later matching event opens a new alert. */
export async function resolveAlert(ctx: Ctx, input: { id: string }): Promise<Alert> {
  const me = alertActor(ctx.principal);
  return act(ctx, input.id, (_a, now) => ({ action: 'resolve', actorId: me.userId, now }));
}

/**
 * Reopens every snoozed alert whose `snoozedUntil` has passed (at most `limit` per run, rows held by
 * a concurrent run skipped). Returns how many it reopened.
 */
export async function wakeSnoozedAlerts(rt: Runtime, limit = 500): Promise<number> {
  const changes: Parameters<typeof announceAlertChanges>[1] = [];
  const outboxIds: Array<string | null> = [];
  await rt.prisma.$transaction(async (tx) => {
    const now = rt.clock.now();
    const ids = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM "Alert" WHERE status = 'snoozed' AND "snoozedUntil" <= ${now}
       ORDER BY "snoozedUntil" LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
    if (ids.length === 0) return;
    const alerts = await tx.alert.findMany({ where: { id: { in: ids.map((r) => r.id) } } });
    for (const alert of alerts) {
      const r = await transitionAlert(tx, alert, {
        action: 'reopen',
        actorId: null,
        now,
        note: `Snooze ended at ${alert.snoozedUntil?.toISOString()}.`,
      });
      changes.push(r.change);
      outboxIds.push(r.outboxId);
    }
  });
  await announceAlertChanges(rt, changes, outboxIds);
  return changes.length;
}
