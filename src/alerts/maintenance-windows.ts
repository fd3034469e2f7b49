/**
 * Maintenance windows: one-off (`startsAt`..`endsAt`) or recurring (the same span repeated every
 * `repeatEverySeconds`), scoped by labels, source and/or device. An alert that opens inside a window
 * that covers it is marked suppressed and sends no outbound trigger.
 */
import type { Ctx } from '../context.js';
import { NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import type { MaintenanceWindow, Prisma, PrismaClient } from '../generated/prisma/client.js';

export interface MaintenanceWindowInput {
  name?: string | null;
  startsAt?: Date | null;
  endsAt?: Date | null;
  repeatEverySeconds?: number | null;
  matchLabels?: unknown;
  source?: string | null;
  deviceId?: string | null;
}

/** What a window's scope is compared with: the alert's source, the opening event's labels and device. */
export interface WindowSubject {
  source: string | null;
  labels: Record<string, unknown>;
  deviceId: string | null;
}

type WindowShape = Pick<
  MaintenanceWindow,
  'startsAt' | 'endsAt' | 'repeatEverySeconds' | 'matchLabels' | 'source' | 'deviceId'
>;

/** True when `at` falls inside the window (for recurring windows: inside any repetition). */
export function windowIsActive(w: WindowShape, at: Date): boolean {
  const t = at.getTime();
  const start = w.startsAt.getTime();
  const span = w.endsAt.getTime() - start;
  if (t < start) return false;
  if (!w.repeatEverySeconds) return t < w.endsAt.getTime();
  return (t - start) % (w.repeatEverySeconds * 1000) < span;
}

/** True when the window's scope covers the subject (an unscoped window covers the whole tenant). */
function windowCovers(w: WindowShape, s: WindowSubject): boolean {
  if (w.source && w.source !== s.source) return false;
  if (w.deviceId && w.deviceId !== s.deviceId) return false;
  for (const [k, v] of Object.entries((w.matchLabels ?? {}) as Record<string, unknown>))
    if (s.labels[k] !== v) return false;
  return true;
}

/** The first window active at `at` that covers the subject, if any. */
export function suppressingWindow<W extends WindowShape>(windows: W[], s: WindowSubject, at: Date): W | undefined {
  return windows.find((w) => windowIsActive(w, at) && windowCovers(w, s));
}

/** Windows of the tenants that may be active now or later (ended one-off windows are skipped). */
export async function loadCandidateWindows(
  db: Pick<PrismaClient, 'maintenanceWindow'>,
  tenantIds: string[],
  now: Date,
): Promise<MaintenanceWindow[]> {
  return db.maintenanceWindow.findMany({
    where: {
      tenantId: { in: tenantIds },
      startsAt: { lte: now },
      OR: [{ repeatEverySeconds: { not: null } }, { endsAt: { gt: now } }],
    },
    orderBy: { createdAt: 'asc' },
  });
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

function toData(m: MaintenanceWindowInput): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) {
    if (v === undefined) continue;
    if (k === 'name') data.name = (v as string).trim();
    else if (k === 'matchLabels') data.matchLabels = v ?? {};
    else data[k] = v;
  }
  return data;
}

/** Creates a window after validating times, period and scope. */
export async function createMaintenanceWindow(ctx: Ctx, input: MaintenanceWindowInput): Promise<MaintenanceWindow> {
  const problems = check(input, (k) => k === 'name' || input[k] !== undefined);
  if (problems.length) throw new ValidationFailed(problems);
  await checkDevice(ctx, input.deviceId);
  return ctx.db.maintenanceWindow.create({ data: toData(input) as Prisma.MaintenanceWindowUncheckedCreateInput });
}

/** Loads a window of the caller's tenant or throws NotFound. */
export async function loadMaintenanceWindow(ctx: Ctx, id: string): Promise<MaintenanceWindow> {
  const w = await ctx.db.maintenanceWindow.findUnique({ where: { id } });
  if (!w) throw new NotFound('Maintenance window');
  return w;
}

/** Applies a partial update; the merged window is validated as a whole. */
export async function updateMaintenanceWindow(
  ctx: Ctx,
  id: string,
  input: MaintenanceWindowInput,
): Promise<MaintenanceWindow> {
  const current = await loadMaintenanceWindow(ctx, id);
  const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as MaintenanceWindowInput;
  const problems = check({ ...current, ...patch }, (k) => patch[k] !== undefined);
  if (problems.length) throw new ValidationFailed(problems);
  await checkDevice(ctx, patch.deviceId);
  return ctx.db.maintenanceWindow.update({ where: { id }, data: toData(patch) });
}

/** Deletes a window; alerts it suppressed stay suppressed (their window link becomes null). */
export async function deleteMaintenanceWindow(ctx: Ctx, id: string): Promise<MaintenanceWindow> {
  const w = await loadMaintenanceWindow(ctx, id);
  await ctx.db.maintenanceWindow.delete({ where: { id } });
  return w;
}
