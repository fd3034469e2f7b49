/**
 * Live updates of deliveries: the `deliveryChanged` channel, per tenant. A message carries every change
 * of one batch (`{ changes: [...] }`: a fan-out's new deliveries, the outcomes recorded together), so a
 * change of 60 deliveries is one PUBLISH, not 60; the subscription hands them out one by one. A lone
 * change object (what nodes before batching published) is still understood.
 */
import { Repeater } from 'graphql-yoga';
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

/** A change as it travels (the tenant is the channel's; the time as ISO text). */
export type DeliveryChangeMessage = Omit<DeliveryChange, 'tenantId' | 'nextAttemptAt'> & {
  nextAttemptAt: string | null;
};

function toMessage(c: DeliveryChange): DeliveryChangeMessage {
  // Fields spelled out: V8 builds a rest-and-spread object far more slowly (one per change announced).
  return {
    id: c.id,
    webhookId: c.webhookId,
    topic: c.topic,
    status: c.status,
    attemptCount: c.attemptCount,
    lastError: c.lastError,
    nextAttemptAt: c.nextAttemptAt ? c.nextAttemptAt.toISOString() : null,
    responseStatus: c.responseStatus,
  };
}

/**
 * Publishes the changes, one message per tenant; a publish failure never fails a delivery (this never
 * throws). Changes of one delivery keep their order within the call.
 */
export async function announceDeliveries(rt: Runtime, changes: readonly DeliveryChange[]): Promise<void> {
  if (changes.length === 0) return;
  const byTenant = new Map<string, DeliveryChangeMessage[]>();
  for (const c of changes) {
    let list = byTenant.get(c.tenantId);
    if (!list) byTenant.set(c.tenantId, (list = []));
    list.push(toMessage(c));
  }
  await Promise.all(
    [...byTenant].map(async ([tenantId, list]) => {
      try {
        rt.pubsub.publish('deliveryChanged', tenantId, { changes: list });
      } catch (err) {
        rt.logger.warn({ err, tenantId, deliveries: list.length }, 'deliveryChanged publish failed');
      }
    }),
  );
}

/** Publishes one delivery's new state (see `announceDeliveries`). */
export function announceDelivery(rt: Runtime, change: DeliveryChange): Promise<void> {
  return announceDeliveries(rt, [change]);
}

/**
 * Gathers the changes announced in one turn of the event loop (the outcomes of a recorded batch resolve
 * together) and publishes them as one message per tenant on the next tick.
 */
export class DeliveryAnnouncer {
  private pending: DeliveryChange[] = [];

  constructor(private readonly rt: Runtime) {}

  /** Queues the change; never throws, never waits. */
  announce(change: DeliveryChange): void {
    if (this.pending.push(change) === 1) process.nextTick(() => this.flush());
  }

  private flush(): void {
    const changes = this.pending;
    this.pending = [];
    void announceDeliveries(this.rt, changes);
  }
}

/** The changes one message carries, whichever shape it has. */
function changesOf(message: unknown): DeliveryChangeMessage[] {
  if (!message || typeof message !== 'object') return [];
  const changes = (message as { changes?: unknown }).changes;
  return Array.isArray(changes) ? (changes as DeliveryChangeMessage[]) : [message as DeliveryChangeMessage];
}

/** The tenant's delivery changes one by one (only those of `webhookId` when given), for the subscription. */
export function deliveryChanges(
  rt: Runtime,
  tenantId: string,
  webhookId: string | null,
): AsyncIterable<DeliveryChangeMessage> {
  const source = rt.pubsub.subscribe('deliveryChanged', tenantId);
  return new Repeater<DeliveryChangeMessage>(async (push, stop) => {
    const messages = source[Symbol.asyncIterator]();
    void stop.then(() => messages.return?.());
    for (let m = await messages.next(); !m.done; m = await messages.next()) {
      for (const c of changesOf(m.value)) if (!webhookId || c.webhookId === webhookId) await push(c);
    }
    stop();
  });
}
