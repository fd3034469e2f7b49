/**
 * Live updates of deliveries: the `deliveryChanged` channel, per tenant.
 */
import type { Runtime } from '../runtime.js';

export interface DeliveryChange {
  id: string;
  tenantId: string;
  webhookId: string;
  topic: string;
  status: string;
  attemptCount: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
  responseStatus: number | null;
}

/** Publishes a delivery's new state to the tenant's subscribers; a publish failure never fails the delivery. */
export async function announceDelivery(rt: Runtime, change: DeliveryChange): Promise<void> {
  try {
    await rt.pubsub.publish('deliveryChanged', change.tenantId, {
      ...change,
      nextAttemptAt: change.nextAttemptAt ? change.nextAttemptAt.toISOString() : null,
    });
  } catch (err) {
    rt.logger.warn({ err, deliveryId: change.id }, 'deliveryChanged publish failed');
  }
}
