/**
 * Inhibition rules (Alertmanager's `inhibit_rules`): source matchers, target matchers and the `equal`
 * labels, optionally named. An empty target list means every alert (Alertmanager's `target_matchers: []`). Created, changed and deleted by admins (declared on the GraphQL fields), read
 * by members. Evaluation is src/routing/inhibition.ts; alerts already inhibited keep their mark until the
 * alert inhibiting them resolves (src/routing/release.ts).
 */
import type { Ctx } from '../context.js';
import { NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import type { InhibitRule, Prisma } from '../generated/prisma/client.js';
import { matcherProblem, MATCHERS_MAX, type Matcher } from './matchers.js';

export interface InhibitRuleInput {
  sourceMatchers?: Matcher[] | null;
  targetMatchers?: Matcher[] | null;
  equal?: string[] | null;
  name?: string | null;
}

const LABEL_NAME_RE = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
export const EQUAL_MAX = 50;

/** Matchers of one side: valid, at most MATCHERS_MAX, at least `min` (a target list may be empty: every alert). */
function checkMatchers(ms: unknown, field: string, min: number, problems: FieldProblem[]): void {
  if (!Array.isArray(ms) || ms.length < min || ms.length > MATCHERS_MAX) {
    problems.push({ loc: ['input', field], msg: `must be a list of ${min} to ${MATCHERS_MAX} matchers` });
    return;
  }
  ms.forEach((m: Matcher, i) => {
    const p = matcherProblem(m);
    if (p) problems.push({ loc: ['input', field, String(i)], msg: p });
  });
}

function check(r: InhibitRuleInput): FieldProblem[] {
  const problems: FieldProblem[] = [];
  checkMatchers(r.sourceMatchers, 'sourceMatchers', 1, problems);
  checkMatchers(r.targetMatchers ?? [], 'targetMatchers', 0, problems);
  const equal = r.equal ?? [];
  if (!Array.isArray(equal) || equal.length > EQUAL_MAX)
    problems.push({ loc: ['input', 'equal'], msg: `must be a list of at most ${EQUAL_MAX} label names` });
  else
    equal.forEach((n, i) => {
      if (typeof n !== 'string' || !LABEL_NAME_RE.test(n) || n.length > 100)
        problems.push({ loc: ['input', 'equal', String(i)], msg: 'must be a label name ([a-zA-Z_:][a-zA-Z0-9_:]*)' });
    });
  if (r.name != null && (!r.name.trim() || r.name.length > 200))
    problems.push({ loc: ['input', 'name'], msg: 'must be 1 to 200 characters' });
  return problems;
}

/** Creates a rule after validating both sides and the `equal` labels. */
export async function createInhibitRule(ctx: Ctx, input: InhibitRuleInput): Promise<InhibitRule> {
  const problems = check(input);
  if (problems.length) throw new ValidationFailed(problems);
  return ctx.db.inhibitRule.create({
    data: {
      sourceMatchers: input.sourceMatchers as unknown as Prisma.InputJsonValue,
      targetMatchers: (input.targetMatchers ?? []) as unknown as Prisma.InputJsonValue,
      equal: [...new Set(input.equal ?? [])],
      name: input.name?.trim() || null,
    } as never,
  });
}

/** Loads a rule of the caller's tenant or throws NotFound. */
export async function loadInhibitRule(ctx: Ctx, id: string): Promise<InhibitRule> {
  const r = await ctx.db.inhibitRule.findUnique({ where: { id } });
  if (!r) throw new NotFound('Inhibit rule');
  return r;
}

/** Applies a partial change; the merged rule is validated as a whole. */
export async function updateInhibitRule(ctx: Ctx, id: string, input: InhibitRuleInput): Promise<InhibitRule> {
  const current = await loadInhibitRule(ctx, id);
  const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as InhibitRuleInput;
  const merged: InhibitRuleInput = {
    sourceMatchers: current.sourceMatchers as unknown as Matcher[],
    targetMatchers: current.targetMatchers as unknown as Matcher[],
    equal: current.equal,
    name: current.name,
    ...patch,
  };
  const problems = check(merged);
  if (problems.length) throw new ValidationFailed(problems);
  const data: Prisma.InhibitRuleUpdateInput = {};
  if (patch.sourceMatchers) data.sourceMatchers = patch.sourceMatchers as unknown as Prisma.InputJsonValue;
  if (patch.targetMatchers) data.targetMatchers = patch.targetMatchers as unknown as Prisma.InputJsonValue;
  if (patch.equal) data.equal = [...new Set(patch.equal)];
  if (input.name !== undefined) data.name = input.name?.trim() || null;
  return ctx.db.inhibitRule.update({ where: { id }, data });
}

/** Deletes a rule; alerts it inhibited stay marked until their inhibiting alert resolves. */
export async function deleteInhibitRule(ctx: Ctx, id: string): Promise<InhibitRule> {
  const r = await loadInhibitRule(ctx, id);
  await ctx.db.inhibitRule.delete({ where: { id } });
  return r;
}
