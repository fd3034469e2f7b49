/**
 * A reference to an escalation policy from another area's input (an alert rule's or an integration's
 * `escalationPolicyId`): it must name a policy of the caller's tenant. Imports nothing of the escalation
 * engine, so the areas that name a policy depend on this file alone.
 */
import type { Ctx } from '../context.js';
import type { FieldProblem } from '../errors.js';

/**
 * The problem with `id` at `loc`, or none: null/undefined (no policy, or unchanged) is fine; an id that is not
 * a policy of the caller's tenant (missing, or another tenant's: indistinguishable) is a 422 naming the field.
 */
export async function escalationPolicyRefProblem(
  ctx: Ctx,
  id: string | null | undefined,
  loc: string[],
): Promise<FieldProblem | null> {
  if (id == null) return null;
  const found = await ctx.db.escalationPolicy.findUnique({ where: { id: String(id) }, select: { id: true } });
  return found ? null : { loc, msg: 'must be an escalation policy of this tenant' };
}
