/**
 * Redelivering: a settled delivery sent again on request (admins, declared on the mutation).
 */
import type { Ctx } from '../context.js';
import { Conflict, NotFound } from '../errors.js';
import type { Delivery } from '../generated/prisma/client.js';
import { enqueueDeliveryAttempt } from './jobs.js';
import { announceDelivery } from './announce.js';

/**
 * Sends a settled (delivered or failed) delivery again: same body and `webhook-id`, a fresh one-hour
 * retry window. A delivery still in progress is a Conflict; so is one whose webhook is disabled.
 */
export async function redeliverDelivery(ctx: Ctx, deliveryId: string): Promise<Delivery> {
  const d = await ctx.db.delivery.findUnique({
    where: { id: deliveryId },
    include: { webhook: { select: { enabled: true } } },
  });
  if (!d) throw new NotFound('Delivery');
  if (d.status === 'pending' || d.status === 'retrying')
    throw new Conflict(
      'The delivery is still in progress; wait until it is delivered or failed.',
      'DELIVERY_IN_PROGRESS',
    );
  if (!d.webhook.enabled)
    throw new Conflict('The webhook is disabled; enable it before redelivering.', 'WEBHOOK_DISABLED');
  const now = ctx.rt.clock.now();
  const { count } = await ctx.db.delivery.updateMany({
    where: { id: d.id, status: d.status, attemptCount: d.attemptCount },
    data: {
      status: 'pending',
      windowStartedAt: now,
      nextAttemptAt: now,
      deliveredAt: null,
      failedAt: null,
      lastError: null,
    },
  });
  if (count === 0) throw new Conflict('The delivery changed meanwhile; try again.', 'CONCURRENT_CHANGE');
  await enqueueDeliveryAttempt(ctx.rt, d.id, d.attemptCount + 1);
  await announceDelivery(ctx.rt, {
    id: d.id,
    tenantId: d.tenantId,
    webhookId: d.webhookId,
    topic: d.topic,
    status: 'pending',
    attemptCount: d.attemptCount,
    lastError: null,
    nextAttemptAt: now,
    responseStatus: null,
  });
  return ctx.db.delivery.findUniqueOrThrow({ where: { id: d.id } });
}
