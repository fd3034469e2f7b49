/**
 * A person's notification rules: for each urgency (high: the policy's high-urgency severities, low: the
 * rest), which of their contact methods is used how many minutes after they are paged ("push and email
 * at once, email again after 5"). A person without rules for an urgency gets the in-app inbox and, when
 * SMTP is configured, an email to their login address at once (src/notifications/plan.ts).
 */
import { v7 as uuidv7 } from 'uuid';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { NotFound, ValidationFailed } from '../errors.js';
import type { NotificationRule } from '../generated/prisma/client.js';
import { loadOwnContactMethod } from './contact-methods.js';

export const URGENCIES = ['high', 'low'] as const;
export type Urgency = (typeof URGENCIES)[number];

/** The longest delay a rule may have (one day). */
const MAX_DELAY_MINUTES = 24 * 60;

export interface NotificationRuleInput {
  urgency: Urgency;
  contactMethodId: string;
  delayMinutes?: number | null;
}

function checkDelay(delay: number | null | undefined): number | undefined {
  if (delay == null) return undefined;
  if (!Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_MINUTES)
    throw new ValidationFailed([
      { loc: ['input', 'delayMinutes'], msg: `must be a whole number of minutes from 0 to ${MAX_DELAY_MINUTES}` },
    ]);
  return delay;
}

async function ownMethod(ctx: Ctx, id: string): Promise<void> {
  try {
    await loadOwnContactMethod(ctx, id);
  } catch (err) {
    if (err instanceof NotFound)
      throw new ValidationFailed([{ loc: ['input', 'contactMethodId'], msg: 'is not one of your contact methods' }]);
    throw err;
  }
}

/** The caller's rule; anyone else's is NotFound. */
export async function loadOwnRule(ctx: Ctx, id: string): Promise<NotificationRule> {
  const me = requireUser(ctx);
  const r = await ctx.db.notificationRule.findFirst({ where: { id, userId: me.userId } });
  if (!r) throw new NotFound('NotificationRule');
  return r;
}

/** Adds a rule for the caller, on one of their own contact methods. */
export async function createNotificationRule(ctx: Ctx, input: NotificationRuleInput): Promise<NotificationRule> {
  const me = requireUser(ctx);
  const delayMinutes = checkDelay(input.delayMinutes) ?? 0;
  await ownMethod(ctx, input.contactMethodId);
  return ctx.db.notificationRule.create({
    data: {
      id: uuidv7(),
      userId: me.userId,
      urgency: input.urgency,
      contactMethodId: input.contactMethodId,
      delayMinutes,
    } as never,
  });
}

/** Changes a rule's urgency, method or delay. */
export async function updateNotificationRule(
  ctx: Ctx,
  id: string,
  patch: Partial<NotificationRuleInput>,
): Promise<NotificationRule> {
  const r = await loadOwnRule(ctx, id);
  const delayMinutes = checkDelay(patch.delayMinutes);
  if (patch.contactMethodId) await ownMethod(ctx, patch.contactMethodId);
  return ctx.db.notificationRule.update({
    where: { id: r.id },
    data: {
      ...(patch.urgency ? { urgency: patch.urgency } : {}),
      ...(patch.contactMethodId ? { contactMethodId: patch.contactMethodId } : {}),
      ...(delayMinutes !== undefined ? { delayMinutes } : {}),
    },
  });
}

/** Removes a rule. */
export async function deleteNotificationRule(ctx: Ctx, id: string): Promise<NotificationRule> {
  const r = await loadOwnRule(ctx, id);
  await ctx.db.notificationRule.delete({ where: { id: r.id } });
  return r;
}
