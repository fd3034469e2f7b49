/**
 * Escalation policies: ordered steps `{delayMinutes, targets: [user | schedule]}` repeated `repeat` more times,
 * and which severities page with high urgency. A given `steps` list replaces the steps. The tenant default
 * policy is set and cleared here; rules and integrations name their own (their areas' inputs).
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { Conflict, NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import type { EscalationPolicy, Prisma, Severity } from '../generated/prisma/client.js';
import { isUniqueViolation } from '../db/errors.js';
import type { StepTarget } from './engine.js';
import { escalationPolicyRefProblem } from './policy-ref.js';

export interface StepInput {
  delayMinutes?: number | null;
  targets: StepTarget[];
}

export interface PolicyInput {
  name?: string | null;
  description?: string | null;
  repeat?: number | null;
  highUrgencySeverities?: Severity[] | null;
  steps?: StepInput[] | null;
}

async function checkPolicy(ctx: Ctx, input: PolicyInput, create: boolean): Promise<void> {
  const problems: FieldProblem[] = [];
  if ((create || input.name !== undefined) && !input.name?.trim())
    problems.push({ loc: ['input', 'name'], msg: 'must not be empty' });
  if (input.repeat != null && !(input.repeat >= 0 && input.repeat <= 20))
    problems.push({ loc: ['input', 'repeat'], msg: 'must be 0 to 20' });
  if (create && !input.steps?.length) problems.push({ loc: ['input', 'steps'], msg: 'must have at least one step' });
  const steps = input.steps ?? [];
  const userIds = steps.flatMap((s) => s.targets.filter((t) => t.type === 'user').map((t) => t.id));
  const scheduleIds = steps.flatMap((s) => s.targets.filter((t) => t.type === 'schedule').map((t) => t.id));
  const users = new Set(
    (await ctx.db.user.findMany({ where: { id: { in: userIds } }, select: { id: true } })).map((u) => u.id),
  );
  const schedules = new Set(
    (await ctx.db.schedule.findMany({ where: { id: { in: scheduleIds } }, select: { id: true } })).map((s) => s.id),
  );
  steps.forEach((s, i) => {
    const at = (...f: string[]) => ['input', 'steps', String(i), ...f];
    if (s.delayMinutes != null && !(Number.isInteger(s.delayMinutes) && s.delayMinutes >= 0 && s.delayMinutes <= 1440))
      problems.push({ loc: at('delayMinutes'), msg: 'must be 0 to 1440 minutes' });
    if (s.targets.length === 0) problems.push({ loc: at('targets'), msg: 'must name at least one user or schedule' });
    s.targets.forEach((t, j) => {
      if (!(t.type === 'user' ? users : schedules).has(t.id))
        problems.push({ loc: at('targets', String(j), 'id'), msg: `must be a ${t.type} of this tenant` });
    });
  });
  if (problems.length) throw new ValidationFailed(problems);
}

function stepRows(policy: EscalationPolicy, steps: StepInput[]): Prisma.EscalationStepCreateManyInput[] {
  return steps.map((s, i) => ({
    tenantId: policy.tenantId,
    policyId: policy.id,
    position: i,
    delayMinutes: i === 0 ? (s.delayMinutes ?? 0) : (s.delayMinutes ?? 5),
    targets: s.targets.map((t) => ({ type: t.type, id: t.id })),
  }));
}

function nameTaken(err: unknown): never {
  if (isUniqueViolation(err)) throw new Conflict('An escalation policy with this name exists already.', 'CONFLICT');
  throw err;
}

/** Creates a policy with its steps (admins). */
export async function createEscalationPolicy(ctx: Ctx, input: PolicyInput): Promise<EscalationPolicy> {
  await checkPolicy(ctx, input, true);
  return ctx.db.$transaction(async (tx) => {
    const p = await tx.escalationPolicy
      .create({
        data: {
          name: input.name!.trim(),
          description: input.description ?? null,
          repeat: input.repeat ?? 0,
          ...(input.highUrgencySeverities ? { highUrgencySeverities: input.highUrgencySeverities } : {}),
        } as Prisma.EscalationPolicyUncheckedCreateInput,
      })
      .catch(nameTaken);
    await tx.escalationStep.createMany({ data: stepRows(p, input.steps ?? []) });
    return p;
  });
}

/** Updates a policy; `steps`, when given, replaces its steps (groups escalating on it take the new steps). */
export async function updateEscalationPolicy(ctx: Ctx, id: string, input: PolicyInput): Promise<EscalationPolicy> {
  if (!(await ctx.db.escalationPolicy.findUnique({ where: { id } }))) throw new NotFound('Escalation policy');
  await checkPolicy(ctx, input, false);
  if (input.steps && input.steps.length === 0)
    throw new ValidationFailed([{ loc: ['input', 'steps'], msg: 'must have at least one step' }]);
  return ctx.db.$transaction(async (tx) => {
    const p = await tx.escalationPolicy
      .update({
        where: { id },
        data: {
          ...(input.name != null ? { name: input.name.trim() } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.repeat != null ? { repeat: input.repeat } : {}),
          ...(input.highUrgencySeverities ? { highUrgencySeverities: input.highUrgencySeverities } : {}),
        },
      })
      .catch(nameTaken);
    if (input.steps) {
      await tx.escalationStep.deleteMany({ where: { policyId: id } });
      await tx.escalationStep.createMany({ data: stepRows(p, input.steps) });
    }
    return p;
  });
}

/** Deletes a policy: groups, rules and integrations using it page no one until given another. */
export async function deleteEscalationPolicy(ctx: Ctx, id: string): Promise<EscalationPolicy> {
  const p = await ctx.db.escalationPolicy.findUnique({ where: { id } });
  if (!p) throw new NotFound('Escalation policy');
  await ctx.db.escalationPolicy.delete({ where: { id } });
  return p;
}

/** Makes a policy the tenant default (alerts whose rule and integration name none page through it). */
export async function setDefaultEscalationPolicy(ctx: Ctx, id: string): Promise<EscalationPolicy> {
  const me = requireUser(ctx);
  const p = await ctx.db.escalationPolicy.findUnique({ where: { id } });
  if (!p) throw new NotFound('Escalation policy');
  await ctx.rt.prisma.tenant.update({ where: { id: me.tenantId }, data: { defaultEscalationPolicyId: id } });
  return p;
}

/** Clears the tenant default policy. */
export async function clearDefaultEscalationPolicy(ctx: Ctx): Promise<void> {
  const me = requireUser(ctx);
  await ctx.rt.prisma.tenant.update({ where: { id: me.tenantId }, data: { defaultEscalationPolicyId: null } });
}

/** The tenant default policy, if any. */
export async function defaultEscalationPolicy(ctx: Ctx): Promise<EscalationPolicy | null> {
  const me = requireUser(ctx);
  const t = await ctx.rt.prisma.tenant.findUnique({
    where: { id: me.tenantId },
    select: { defaultEscalationPolicy: true },
  });
  return t?.defaultEscalationPolicy ?? null;
}

/** The tenant's paging settings: which policy pages alerts whose rule and integration name none. */
export interface PagingSettings {
  defaultEscalationPolicyId: string | null;
}

/** The tenant's paging settings. */
export async function pagingSettings(ctx: Ctx): Promise<PagingSettings> {
  return { defaultEscalationPolicyId: (await defaultEscalationPolicy(ctx))?.id ?? null };
}

/**
 * Changes the settings sent (admins): `defaultEscalationPolicyId` null clears the default, an id of another
 * tenant's or no policy is a 422 naming the field, omitted keeps it.
 */
export async function updatePagingSettings(
  ctx: Ctx,
  input: { defaultEscalationPolicyId?: string | null },
): Promise<PagingSettings> {
  const id = input.defaultEscalationPolicyId;
  if (id === null) await clearDefaultEscalationPolicy(ctx);
  else if (id !== undefined) {
    const problem = await escalationPolicyRefProblem(ctx, id, ['input', 'defaultEscalationPolicyId']);
    if (problem) throw new ValidationFailed([problem]);
    await setDefaultEscalationPolicy(ctx, id);
  }
  return pagingSettings(ctx);
}
