/**
 * Schedules, their layers and overrides: create, update (a given `layers` list replaces the layers, in order:
 * the last layer is the highest), delete; overrides added and removed one by one. Input problems are 422 naming
 * the field (GraphQL input paths); users must be of the caller's tenant.
 */
import type { Ctx } from '../context.js';
import { Conflict, NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import { isUniqueViolation } from '../db/errors.js';
import type { Prisma, Schedule, ScheduleOverride } from '../generated/prisma/client.js';
import { isHhmm, isTimeZone, type Restriction, type RotationKind } from './shifts.js';

export interface LayerInput {
  name?: string | null;
  startsAt: Date;
  rotation: RotationKind;
  turnLengthSeconds?: number | null;
  handoffTime?: string | null;
  handoffWeekday?: number | null;
  userIds: string[];
  restrictions?: unknown;
}

export interface ScheduleInput {
  name?: string | null;
  description?: string | null;
  timeZone?: string | null;
  layers?: LayerInput[] | null;
}

function checkRestriction(r: unknown, loc: string[], problems: FieldProblem[]): Restriction | null {
  const o = (r ?? {}) as Record<string, unknown>;
  const time = (k: string) => typeof o[k] === 'string' && isHhmm(o[k] as string);
  const day = (k: string) => Number.isInteger(o[k]) && (o[k] as number) >= 1 && (o[k] as number) <= 7;
  if (o.kind === 'daily' && time('start') && time('end'))
    return { kind: 'daily', start: o.start as string, end: o.end as string };
  if (o.kind === 'weekly' && time('start') && time('end') && day('startDay') && day('endDay'))
    return {
      kind: 'weekly',
      startDay: o.startDay as number,
      start: o.start as string,
      endDay: o.endDay as number,
      end: o.end as string,
    };
  problems.push({
    loc,
    msg: 'must be {"kind":"daily","start":"HH:mm","end":"HH:mm"} or {"kind":"weekly","startDay":1-7,"start":"HH:mm","endDay":1-7,"end":"HH:mm"}',
  });
  return null;
}

/** Validated layer rows (positions in list order) or ValidationFailed naming each problem. */
async function layerRows(
  ctx: Ctx,
  layers: LayerInput[],
): Promise<Array<Omit<Prisma.ScheduleLayerCreateManyInput, 'tenantId' | 'scheduleId'>>> {
  const problems: FieldProblem[] = [];
  const wantedUsers = [...new Set(layers.flatMap((l) => l.userIds))];
  const known = new Set(
    (await ctx.db.user.findMany({ where: { id: { in: wantedUsers } }, select: { id: true } })).map((u) => u.id),
  );
  const rows = layers.map((l, i) => {
    const at = (f: string): string[] => ['input', 'layers', String(i), f];
    if (l.rotation === 'custom' && !(Number.isInteger(l.turnLengthSeconds) && l.turnLengthSeconds! >= 3600))
      problems.push({ loc: at('turnLengthSeconds'), msg: 'a custom rotation needs a whole number of seconds ≥ 3600' });
    if (l.handoffTime != null && !isHhmm(l.handoffTime))
      problems.push({ loc: at('handoffTime'), msg: 'must be HH:mm' });
    if (l.handoffWeekday != null && !(l.handoffWeekday >= 1 && l.handoffWeekday <= 7))
      problems.push({ loc: at('handoffWeekday'), msg: 'must be 1 (Monday) to 7 (Sunday)' });
    if (l.userIds.length === 0) problems.push({ loc: at('userIds'), msg: 'must name at least one user' });
    l.userIds.forEach((u, j) => {
      if (!known.has(u))
        problems.push({
          loc: ['input', 'layers', String(i), 'userIds', String(j)],
          msg: 'must be a user of this tenant',
        });
    });
    const rs = l.restrictions == null ? [] : Array.isArray(l.restrictions) ? l.restrictions : [l.restrictions];
    const restrictions = rs.map((r, j) =>
      checkRestriction(r, ['input', 'layers', String(i), 'restrictions', String(j)], problems),
    );
    return {
      position: i,
      name: l.name ?? null,
      startsAt: l.startsAt,
      rotation: l.rotation,
      turnLengthSeconds: l.rotation === 'custom' ? l.turnLengthSeconds! : null,
      handoffTime: l.handoffTime ?? '09:00',
      handoffWeekday: l.rotation === 'weekly' ? (l.handoffWeekday ?? 1) : null,
      userIds: l.userIds,
      restrictions: restrictions as unknown as Prisma.InputJsonValue,
    };
  });
  if (problems.length) throw new ValidationFailed(problems);
  return rows;
}

function nameTaken(err: unknown): never {
  if (isUniqueViolation(err)) throw new Conflict('A schedule with this name exists already.', 'CONFLICT');
  throw err;
}

function checkSchedule(input: ScheduleInput, create: boolean): void {
  const problems: FieldProblem[] = [];
  if ((create || input.name !== undefined) && !input.name?.trim())
    problems.push({ loc: ['input', 'name'], msg: 'must not be empty' });
  if ((create || input.timeZone !== undefined) && !(input.timeZone && isTimeZone(input.timeZone)))
    problems.push({ loc: ['input', 'timeZone'], msg: 'must be an IANA time zone such as "Europe/Amsterdam"' });
  if (problems.length) throw new ValidationFailed(problems);
}

/** Creates a schedule with its layers (admins). */
export async function createSchedule(ctx: Ctx, input: ScheduleInput): Promise<Schedule> {
  checkSchedule(input, true);
  const rows = await layerRows(ctx, input.layers ?? []);
  return ctx.db.$transaction(async (tx) => {
    const s = await tx.schedule
      .create({
        data: {
          name: input.name!.trim(),
          description: input.description ?? null,
          timeZone: input.timeZone!,
        } as Prisma.ScheduleUncheckedCreateInput,
      })
      .catch(nameTaken);
    if (rows.length)
      await tx.scheduleLayer.createMany({ data: rows.map((r) => ({ ...r, tenantId: s.tenantId, scheduleId: s.id })) });
    return s;
  });
}

/** Updates a schedule; `layers`, when given, replaces its layers. */
export async function updateSchedule(ctx: Ctx, id: string, input: ScheduleInput): Promise<Schedule> {
  const current = await ctx.db.schedule.findUnique({ where: { id } });
  if (!current) throw new NotFound('Schedule');
  checkSchedule(input, false);
  const rows = input.layers ? await layerRows(ctx, input.layers) : null;
  return ctx.db.$transaction(async (tx) => {
    const s = await tx.schedule
      .update({
        where: { id },
        data: {
          ...(input.name != null ? { name: input.name.trim() } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.timeZone != null ? { timeZone: input.timeZone } : {}),
        },
      })
      .catch(nameTaken);
    if (rows) {
      await tx.scheduleLayer.deleteMany({ where: { scheduleId: id } });
      if (rows.length)
        await tx.scheduleLayer.createMany({ data: rows.map((r) => ({ ...r, tenantId: s.tenantId, scheduleId: id })) });
    }
    return s;
  });
}

/** Deletes a schedule (its layers, overrides and feeds go with it; policy steps naming it page no one there). */
export async function deleteSchedule(ctx: Ctx, id: string): Promise<Schedule> {
  const s = await ctx.db.schedule.findUnique({ where: { id } });
  if (!s) throw new NotFound('Schedule');
  await ctx.db.schedule.delete({ where: { id } });
  return s;
}

export interface OverrideInput {
  scheduleId: string;
  userId: string;
  startsAt: Date;
  endsAt: Date;
}

/** Puts a person on call for a schedule from `startsAt` to `endsAt`, over every layer. */
export async function createScheduleOverride(ctx: Ctx, input: OverrideInput): Promise<ScheduleOverride> {
  const s = await ctx.db.schedule.findUnique({ where: { id: input.scheduleId } });
  if (!s) throw new NotFound('Schedule');
  const problems: FieldProblem[] = [];
  if (!(await ctx.db.user.findUnique({ where: { id: input.userId }, select: { id: true } })))
    problems.push({ loc: ['input', 'userId'], msg: 'must be a user of this tenant' });
  if (input.endsAt.getTime() <= input.startsAt.getTime())
    problems.push({ loc: ['input', 'endsAt'], msg: 'must be after startsAt' });
  if (problems.length) throw new ValidationFailed(problems);
  return ctx.db.scheduleOverride.create({
    data: {
      tenantId: s.tenantId,
      scheduleId: s.id,
      userId: input.userId,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
    },
  });
}

/** Removes an override (of `scheduleId` when given: an override of another schedule is then not found). */
export async function deleteScheduleOverride(
  ctx: Ctx,
  id: string,
  scheduleId?: string | null,
): Promise<ScheduleOverride> {
  const o = await ctx.db.scheduleOverride.findUnique({ where: { id } });
  if (!o || (scheduleId != null && o.scheduleId !== scheduleId)) throw new NotFound('Schedule override');
  await ctx.db.scheduleOverride.delete({ where: { id } });
  return o;
}
