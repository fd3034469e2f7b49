/**
 * The deprecated maintenance-window API over silences: a window is a silence with `windowName` set
 * (same id), mapped as src/routing/window-silences.ts says. Creates, updates and deletes validate a
 * window as before and write its silence (and, for a daily or weekly window, the time interval it owns,
 * named `maintenance window <id>`, in the tenant's zone: its billing time zone, else UTC); `windowView`
 * reads a silence back as the window it is. Silences alone decide what is muted (src/routing/mute.ts).
 */
import { v7 as uuidv7 } from 'uuid';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import type { Prisma, Silence, TimeInterval } from '../generated/prisma/client.js';
import type { Matcher } from './matchers.js';
import { silenceInForce } from './silences.js';
import { windowIntervalSpecs, windowMatchers, windowScope, WINDOW_FOREVER } from './window-silences.js';

export interface MaintenanceWindowInput {
  name?: string | null;
  startsAt?: Date | null;
  endsAt?: Date | null;
  repeatEverySeconds?: number | null;
  matchLabels?: unknown;
  source?: string | null;
  deviceId?: string | null;
}

/** A window as the deprecated API shows it. */
export interface MaintenanceWindowView {
  id: string;
  tenantId: string;
  name: string;
  startsAt: Date;
  endsAt: Date;
  repeatEverySeconds: number | null;
  matchLabels: Record<string, string>;
  source: string | null;
  deviceId: string | null;
  createdAt: Date;
}

/** The silences that are windows. */
export const WINDOW_WHERE = { windowName: { not: null } } satisfies Prisma.SilenceWhereInput;

/** A window silence read back as the window (its scope from its matchers, its times from the silence). */
export function windowView(s: Silence): MaintenanceWindowView {
  return {
    id: s.id,
    tenantId: s.tenantId,
    name: s.windowName ?? s.comment,
    startsAt: s.startsAt,
    endsAt: s.windowRepeatEverySeconds ? (s.windowEndsAt ?? s.endsAt) : s.endsAt,
    repeatEverySeconds: s.windowRepeatEverySeconds,
    ...windowScope(s.matchers as unknown as Matcher[]),
    createdAt: s.createdAt,
  };
}

/** Whether the window mutes its scope at `at` (its silence is active and inside its recurrence). */
export function windowActiveAt(s: Silence & { timeInterval: TimeInterval | null }, at: Date): boolean {
  return silenceInForce(s, at);
}

function check(m: MaintenanceWindowInput, present: (k: keyof MaintenanceWindowInput) => boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const at = (f: string, msg: string) => problems.push({ loc: ['input', f], msg });
  if (present('name') && (!m.name?.trim() || m.name.trim().length > 200)) at('name', 'must be 1 to 200 characters');
  if (!m.startsAt) at('startsAt', 'is required');
  if (!m.endsAt) at('endsAt', 'is required');
  if (m.startsAt && m.endsAt && m.endsAt.getTime() <= m.startsAt.getTime()) at('endsAt', 'must be after startsAt');
  if (m.repeatEverySeconds != null) {
    const span = m.startsAt && m.endsAt ? (m.endsAt.getTime() - m.startsAt.getTime()) / 1000 : 0;
    if (!Number.isInteger(m.repeatEverySeconds) || m.repeatEverySeconds < 60)
      at('repeatEverySeconds', 'must be an integer of at least 60 seconds');
    else if (m.repeatEverySeconds < span)
      at('repeatEverySeconds', 'must be at least the window length (endsAt - startsAt)');
  }
  if (m.matchLabels != null) {
    const l = m.matchLabels;
    if (typeof l !== 'object' || Array.isArray(l) || Object.values(l as object).some((v) => typeof v !== 'string'))
      at('matchLabels', 'must be an object of string keys to string values');
  }
  if (m.source != null && (m.source.length === 0 || m.source.length > 200)) at('source', 'must be 1 to 200 characters');
  return problems;
}

async function checkDevice(ctx: Ctx, deviceId: string | null | undefined): Promise<void> {
  if (!deviceId) return;
  const found = await ctx.db.device.count({ where: { id: deviceId } });
  if (!found) throw new ValidationFailed([{ loc: ['input', 'deviceId'], msg: 'no such device in this tenant' }]);
}

/** The zone recurring windows keep their local time in: the tenant's billing time zone, else UTC. */
async function tenantZone(ctx: Ctx): Promise<string> {
  return (await ctx.db.billingSettings.findFirst({ select: { timeZone: true } }))?.timeZone ?? 'UTC';
}

type Window = Required<Omit<MaintenanceWindowInput, 'matchLabels'>> & { matchLabels: Record<string, string> };

/** The silence columns of a whole window, and the specs of the time interval it needs (null: none). */
function silenceOf(w: Window, zone: string) {
  const specs = w.repeatEverySeconds ? windowIntervalSpecs(w.startsAt!, w.endsAt!, w.repeatEverySeconds, zone) : null;
  return {
    specs,
    data: {
      matchers: windowMatchers(w) as unknown as Prisma.InputJsonValue,
      startsAt: w.startsAt!,
      endsAt: w.repeatEverySeconds ? WINDOW_FOREVER : w.endsAt!,
      comment: `Maintenance window "${w.name!.trim()}"`,
      windowName: w.name!.trim(),
      windowRepeatEverySeconds: w.repeatEverySeconds ?? null,
      windowEndsAt: w.repeatEverySeconds ? w.endsAt! : null,
    },
  };
}

const intervalName = (id: string) => `maintenance window ${id}`;

/** Creates a window: its silence, and its time interval when it recurs daily or weekly. */
export async function createMaintenanceWindow(ctx: Ctx, input: MaintenanceWindowInput): Promise<Silence> {
  const user = requireUser(ctx);
  const problems = check(input, (k) => k === 'name' || input[k] !== undefined);
  if (problems.length) throw new ValidationFailed(problems);
  await checkDevice(ctx, input.deviceId);
  const w = { ...input, matchLabels: (input.matchLabels ?? {}) as Record<string, string> } as Window;
  const { specs, data } = silenceOf(w, await tenantZone(ctx));
  const id = uuidv7();
  return ctx.db.$transaction(async (tx) => {
    const interval = specs
      ? await tx.timeInterval.create({
          data: { name: intervalName(id), intervals: specs as unknown as Prisma.InputJsonValue } as never,
        })
      : null;
    return tx.silence.create({
      data: {
        ...data,
        id,
        createdBy: user.email || user.userId,
        createdById: user.userId,
        timeIntervalId: interval?.id ?? null,
      } as never,
    });
  });
}

/** Loads a window of the caller's tenant (its silence) or throws NotFound. */
export async function loadMaintenanceWindow(ctx: Ctx, id: string): Promise<Silence> {
  const s = await ctx.db.silence.findFirst({ where: { id, ...WINDOW_WHERE } });
  if (!s) throw new NotFound('Maintenance window');
  return s;
}

/** Applies a partial update; the merged window is validated as a whole and its silence rewritten. */
export async function updateMaintenanceWindow(ctx: Ctx, id: string, input: MaintenanceWindowInput): Promise<Silence> {
  const current = await loadMaintenanceWindow(ctx, id);
  const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as MaintenanceWindowInput;
  const merged = { ...windowView(current), ...patch };
  const problems = check(merged, (k) => patch[k] !== undefined);
  if (problems.length) throw new ValidationFailed(problems);
  await checkDevice(ctx, patch.deviceId);
  const w = { ...merged, matchLabels: (merged.matchLabels ?? {}) as Record<string, string> } as Window;
  const { specs, data } = silenceOf(w, await tenantZone(ctx));
  return ctx.db.$transaction(async (tx) => {
    let timeIntervalId = current.timeIntervalId;
    const intervals = specs as unknown as Prisma.InputJsonValue;
    if (specs && timeIntervalId) await tx.timeInterval.update({ where: { id: timeIntervalId }, data: { intervals } });
    else if (specs)
      timeIntervalId = (await tx.timeInterval.create({ data: { name: intervalName(id), intervals } as never })).id;
    const silence = await tx.silence.update({
      where: { id },
      data: { ...data, timeIntervalId: specs ? timeIntervalId : null },
    });
    if (!specs && current.timeIntervalId) await dropOwnInterval(tx, current.timeIntervalId, id);
    return silence;
  });
}

/** Deletes the interval a window made for itself once nothing uses it. */
async function dropOwnInterval(tx: Prisma.TransactionClient, intervalId: string, windowId: string): Promise<void> {
  await tx.timeInterval.deleteMany({
    where: { id: intervalId, name: intervalName(windowId), silences: { none: {} } },
  });
}

/** Deletes a window's silence (and its own interval); alerts it muted stay muted, their link becomes null. */
export async function deleteMaintenanceWindow(ctx: Ctx, id: string): Promise<Silence> {
  const w = await loadMaintenanceWindow(ctx, id);
  await ctx.db.$transaction(async (tx) => {
    await tx.silence.delete({ where: { id } });
    if (w.timeIntervalId) await dropOwnInterval(tx, w.timeIntervalId, id);
  });
  return w;
}
