/**
 * Silences in Alertmanager's model: matchers, start, end, author (`createdBy`) and comment, plus an
 * optional named time interval that makes a silence recurring ("every Sunday 02:00–04:00
 * Europe/Berlin" for as long as it lasts). State follows the clock: `pending` before `startsAt`,
 * `active` until `endsAt`, then `expired`. A silence mutes an alert when it is active, its time
 * interval (if any) contains the instant, and every matcher holds for the alert's labels (plus
 * `severity`, `source` and `rule`, see `alertLabelSet`). A muted alert is still recorded: marked
 * with the silence's id, it pages no one.
 *
 * Expiring ends a silence now (a pending one never starts); silences are never deleted, as in
 * Alertmanager, so an alert keeps the id of the silence that muted it.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { Conflict, NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import type { Prisma, PrismaClient, Silence, TimeInterval } from '../generated/prisma/client.js';
import { matcherProblem, matchersMatch, MATCHERS_MAX, type Matcher } from './matchers.js';
import { timeIntervalActive } from './time-interval-store.js';
import { DEDUP_KEY_LABEL, EVENT_ACTION_LABEL } from '../alerts/labels.js';
import { DEVICE_LABEL, fixedPeriodContains } from './window-silences.js';

export type SilenceState = 'pending' | 'active' | 'expired';

export interface SilenceInput {
  matchers?: Matcher[] | null;
  startsAt?: Date | null;
  endsAt?: Date | null;
  createdBy?: string | null;
  comment?: string | null;
  timeIntervalId?: string | null;
}

export type SilenceWithInterval = Silence & { timeInterval: TimeInterval | null };

/** Longest silence: ten years (Alertmanager has no limit; this bounds a typo). */
const MAX_SPAN_MS = 10 * 366 * 86_400_000;

/** A silence's state at `now`. */
export function silenceState(s: Pick<Silence, 'startsAt' | 'endsAt'>, now: Date): SilenceState {
  if (s.endsAt.getTime() <= now.getTime()) return 'expired';
  return s.startsAt.getTime() > now.getTime() ? 'pending' : 'active';
}

/**
 * The label set silences, inhibition and routes match: the alert's labels, plus `severity`, `source`,
 * `rule` (the rule's name) and `device_id` (its device, which maintenance windows scope by) unless a
 * label of that name exists.
 */
export function alertLabelSet(a: {
  labels: unknown;
  severity?: string | null;
  source?: string | null;
  ruleName?: string | null;
  deviceId?: string | null;
}): Record<string, string> {
  const out: Record<string, string> = {};
  if (a.severity) out.severity = a.severity;
  if (a.source) out.source = a.source;
  if (a.ruleName) out.rule = a.ruleName;
  if (a.deviceId) out[DEVICE_LABEL] = a.deviceId;
  if (a.labels && typeof a.labels === 'object')
    for (const [k, v] of Object.entries(a.labels as Record<string, unknown>))
      if (typeof v === 'string' && k !== DEDUP_KEY_LABEL && k !== EVENT_ACTION_LABEL) out[k] = v;
  return out;
}

/**
 * Whether the silence is in force at `at`: active, and inside its time interval when it has one (or,
 * for a maintenance window of a period no time interval can say, inside one of its repetitions).
 */
export function silenceInForce(s: SilenceWithInterval, at: Date): boolean {
  if (silenceState(s, at) !== 'active') return false;
  if (s.timeInterval) return timeIntervalActive(s.timeInterval, at);
  return fixedPeriodContains(s, at);
}

/** Whether the silence mutes these labels at `at`: in force, every matcher holding. */
export function silenceMutes(s: SilenceWithInterval, labels: Record<string, string>, at: Date): boolean {
  return silenceInForce(s, at) && matchersMatch(s.matchers as unknown as Matcher[], labels);
}

/** The first (oldest) silence muting the labels at `at`, if any. */
export function mutingSilence(
  silences: SilenceWithInterval[],
  labels: Record<string, string>,
  at: Date,
): SilenceWithInterval | undefined {
  return silences.find((s) => silenceMutes(s, labels, at));
}

/** The tenants' silences active at `now` (with their time intervals), oldest first. */
export function loadActiveSilences(
  db: Pick<PrismaClient, 'silence'>,
  tenantIds: string[],
  now: Date,
): Promise<SilenceWithInterval[]> {
  return db.silence.findMany({
    where: { tenantId: { in: tenantIds }, startsAt: { lte: now }, endsAt: { gt: now } },
    include: { timeInterval: true },
    orderBy: { createdAt: 'asc' },
  });
}

/** `spanChanged`: the start or end is being set (a recurring window's silence lasts until 9999 as migrated). */
function check(s: SilenceInput, now: Date, creating: boolean, spanChanged = true): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const at = (f: string, msg: string) => problems.push({ loc: ['input', f], msg });
  if (!Array.isArray(s.matchers) || s.matchers.length === 0 || s.matchers.length > MATCHERS_MAX)
    at('matchers', `must be a list of 1 to ${MATCHERS_MAX} matchers`);
  else {
    s.matchers.forEach((m, i) => {
      const p = matcherProblem(m);
      if (p) problems.push({ loc: ['input', 'matchers', String(i)], msg: p });
    });
    // Alertmanager refuses a silence that would mute every alert.
    if (!problems.length && matchersMatch(s.matchers, {}))
      at('matchers', 'at least one matcher must not match the empty string (this silence would mute every alert)');
  }
  if (!s.endsAt) at('endsAt', 'is required');
  else if (creating && s.endsAt.getTime() <= now.getTime()) at('endsAt', 'must be in the future');
  if (s.startsAt && s.endsAt && s.endsAt.getTime() <= s.startsAt.getTime()) at('endsAt', 'must be after startsAt');
  if (spanChanged && s.startsAt && s.endsAt && s.endsAt.getTime() - s.startsAt.getTime() > MAX_SPAN_MS)
    at('endsAt', 'a silence lasts at most ten years');
  if (typeof s.comment !== 'string' || !s.comment.trim() || s.comment.length > 2000)
    at('comment', 'must be 1 to 2000 characters (why it is silenced)');
  if (s.createdBy != null && (!s.createdBy.trim() || s.createdBy.length > 200))
    at('createdBy', 'must be 1 to 200 characters');
  return problems;
}

async function checkInterval(ctx: Ctx, id: string | null | undefined): Promise<void> {
  if (!id) return;
  if (!(await ctx.db.timeInterval.count({ where: { id } })))
    throw new ValidationFailed([{ loc: ['input', 'timeIntervalId'], msg: 'no such time interval in this tenant' }]);
}

/** Creates a silence; a start in the past (or none) means now, as in Alertmanager. */
export async function createSilence(ctx: Ctx, input: SilenceInput): Promise<Silence> {
  const user = requireUser(ctx);
  const now = ctx.rt.clock.now();
  const startsAt = !input.startsAt || input.startsAt.getTime() < now.getTime() ? now : input.startsAt;
  const s = { ...input, startsAt };
  const problems = check(s, now, true);
  if (problems.length) throw new ValidationFailed(problems);
  await checkInterval(ctx, input.timeIntervalId);
  return ctx.db.silence.create({
    data: {
      matchers: input.matchers as unknown as Prisma.InputJsonValue,
      startsAt,
      endsAt: input.endsAt!,
      createdBy: input.createdBy?.trim() || user.email || user.userId,
      comment: input.comment!.trim(),
      createdById: user.userId,
      timeIntervalId: input.timeIntervalId ?? null,
    } as never,
  });
}

/** Loads a silence of the caller's tenant or throws NotFound. */
export async function loadSilence(ctx: Ctx, id: string): Promise<Silence> {
  const s = await ctx.db.silence.findUnique({ where: { id } });
  if (!s) throw new NotFound('Silence');
  return s;
}

/** Changes a silence that has not expired (409 SILENCE_EXPIRED otherwise); the merged silence is validated. */
export async function updateSilence(ctx: Ctx, id: string, input: SilenceInput): Promise<Silence> {
  requireUser(ctx);
  const current = await loadSilence(ctx, id);
  const now = ctx.rt.clock.now();
  if (silenceState(current, now) === 'expired')
    throw new Conflict('This silence has expired; create a new one.', 'SILENCE_EXPIRED');
  const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as SilenceInput;
  const merged = { ...current, matchers: current.matchers as unknown as Matcher[], ...patch };
  const problems = check(merged, now, false, patch.startsAt !== undefined || patch.endsAt !== undefined);
  if (problems.length) throw new ValidationFailed(problems);
  await checkInterval(ctx, patch.timeIntervalId);
  const data: Prisma.SilenceUncheckedUpdateInput = {};
  if (patch.matchers) data.matchers = patch.matchers as unknown as Prisma.InputJsonValue;
  if (patch.startsAt) data.startsAt = silenceState(current, now) === 'active' ? current.startsAt : patch.startsAt;
  if (patch.endsAt) data.endsAt = patch.endsAt.getTime() < now.getTime() ? now : patch.endsAt;
  if (patch.comment) data.comment = patch.comment.trim();
  if (patch.createdBy) data.createdBy = patch.createdBy.trim();
  if (input.timeIntervalId !== undefined) data.timeIntervalId = input.timeIntervalId;
  return ctx.db.silence.update({ where: { id }, data });
}

/** Ends the silence now (a pending one never starts); 409 SILENCE_EXPIRED when it already has. */
export async function expireSilence(ctx: Ctx, id: string): Promise<Silence> {
  requireUser(ctx);
  const s = await loadSilence(ctx, id);
  const now = ctx.rt.clock.now();
  const state = silenceState(s, now);
  if (state === 'expired') throw new Conflict('This silence has already expired.', 'SILENCE_EXPIRED');
  return ctx.db.silence.update({
    where: { id },
    data: state === 'pending' ? { startsAt: now, endsAt: now } : { endsAt: now },
  });
}

/** The where clause of a state filter at `now`. */
export function silenceStateWhere(state: SilenceState | null | undefined, now: Date): Prisma.SilenceWhereInput {
  if (state === 'expired') return { endsAt: { lte: now } };
  if (state === 'active') return { startsAt: { lte: now }, endsAt: { gt: now } };
  if (state === 'pending') return { startsAt: { gt: now }, endsAt: { gt: now } };
  return {};
}
