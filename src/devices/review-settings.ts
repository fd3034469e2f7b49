/**
 * Whether the tenant requires a reviewed proposal for every intent change. Off by default: an admin's
 * direct intent edit (SPEC's `PUT /sot/devices/<id>/intent`) is then possible, recorded in the audit log
 * as a change that bypassed review. On, the direct edit answers 403 PROPOSAL_REQUIRED and changes go
 * through `openProposal` and a second human's approval.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { Forbidden } from '../errors.js';

export interface ReviewSettings {
  /** Every intent change needs an approved proposal; the direct intent edit is refused. */
  requireProposals: boolean;
}

/** The caller's tenant's review settings. */
export async function reviewSettingsOf(ctx: Ctx): Promise<ReviewSettings> {
  const me = requireUser(ctx);
  const tenant = await ctx.rt.prisma.tenant.findUniqueOrThrow({
    where: { id: me.tenantId },
    select: { requireProposals: true },
  });
  return { requireProposals: tenant.requireProposals };
}

/** Changes the caller's tenant's review settings (admins, declared on the field). */
export async function setReviewSettings(ctx: Ctx, input: { requireProposals: boolean }): Promise<ReviewSettings> {
  const me = requireUser(ctx);
  await ctx.rt.prisma.tenant.update({
    where: { id: me.tenantId },
    data: { requireProposals: input.requireProposals },
  });
  return reviewSettingsOf(ctx);
}

/** Throws 403 PROPOSAL_REQUIRED when the tenant requires proposals for every intent change. */
export async function assertDirectIntentEditAllowed(ctx: Ctx): Promise<void> {
  if (!(await reviewSettingsOf(ctx)).requireProposals) return;
  throw new Forbidden(
    'This tenant requires a reviewed proposal for every intent change (review settings: requireProposals), so the direct intent edit is off. Open a proposal instead (POST /sot/proposals, GraphQL openProposal); a second person approves it.',
    'PROPOSAL_REQUIRED',
  );
}
