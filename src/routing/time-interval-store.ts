/**
 * Named, tenant-owned time intervals: create, update, delete (admins, declared on the GraphQL fields),
 * read (members). Specs are validated with Alertmanager's rules (src/routing/time-intervals.ts); a name
 * is unique per tenant, and an interval a silence uses cannot be deleted.
 */
import type { Ctx } from '../context.js';
import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import type { Prisma, TimeInterval } from '../generated/prisma/client.js';
import { parseSpecs, specsContain } from './time-intervals.js';

export interface TimeIntervalInput {
  name?: string | null;
  intervals?: unknown;
}

const NAME_RE = /^[^\s].{0,198}[^\s]$|^[^\s]$/;

function check(input: TimeIntervalInput, create: boolean): void {
  const problems: Array<{ loc: string[]; msg: string }> = [];
  if ((create || input.name !== undefined) && (typeof input.name !== 'string' || !NAME_RE.test(input.name)))
    problems.push({ loc: ['input', 'name'], msg: 'must be 1 to 200 characters without surrounding spaces' });
  if (create || input.intervals !== undefined)
    problems.push(...parseSpecs(input.intervals, ['input', 'intervals']).problems);
  if (problems.length) throw new ValidationFailed(problems);
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string })?.code === 'P2002';
}

/** Whether the stored interval contains the instant. */
export function timeIntervalActive(ti: Pick<TimeInterval, 'intervals'>, at: Date): boolean {
  return specsContain(parseSpecs(ti.intervals).specs, at);
}

/** Creates a named interval (409 ALREADY_EXISTS when the tenant has one of that name). */
export async function createTimeInterval(ctx: Ctx, input: TimeIntervalInput): Promise<TimeInterval> {
  check(input, true);
  try {
    return await ctx.db.timeInterval.create({
      data: { name: input.name!, intervals: input.intervals as Prisma.InputJsonValue } as never,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(`A time interval named "${input.name}" exists.`, 'ALREADY_EXISTS');
    throw err;
  }
}

/** Loads an interval of the caller's tenant or throws NotFound. */
export async function loadTimeInterval(ctx: Ctx, id: string): Promise<TimeInterval> {
  const ti = await ctx.db.timeInterval.findUnique({ where: { id } });
  if (!ti) throw new NotFound('Time interval');
  return ti;
}

/** Renames it or replaces its specs. */
export async function updateTimeInterval(ctx: Ctx, id: string, input: TimeIntervalInput): Promise<TimeInterval> {
  await loadTimeInterval(ctx, id);
  check(input, false);
  const data: Prisma.TimeIntervalUpdateInput = {};
  if (input.name != null) data.name = input.name;
  if (input.intervals !== undefined) data.intervals = input.intervals as Prisma.InputJsonValue;
  try {
    return await ctx.db.timeInterval.update({ where: { id }, data });
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(`A time interval named "${input.name}" exists.`, 'ALREADY_EXISTS');
    throw err;
  }
}

/** Deletes it; 409 IN_USE while a silence that has not expired names it. */
export async function deleteTimeInterval(ctx: Ctx, id: string): Promise<TimeInterval> {
  const ti = await loadTimeInterval(ctx, id);
  const users = await ctx.db.silence.count({ where: { timeIntervalId: id } });
  if (users) throw new Conflict(`${users} silence(s) use this time interval; delete or change them first.`, 'IN_USE');
  await ctx.db.timeInterval.delete({ where: { id } });
  return ti;
}
