/**
 * Retention of delivery history: deliveries (with their attempts) and dispatched outbox messages older
 * than the retention period (30 days) are deleted, in batches so no statement holds locks for long.
 */
import type { PrismaClient } from '../generated/prisma/client.js';

const BATCH = 5000;

/** Deletes history older than `retentionDays`; returns the number of deliveries and messages removed. */
export async function purgeDeliveryHistory(prisma: PrismaClient, retentionDays: number, now = new Date()): Promise<{ deliveries: number; outbox: number }> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 3600 * 1000);
  let deliveries = 0;
  for (;;) {
    const ids = await prisma.delivery.findMany({ where: { createdAt: { lt: cutoff } }, select: { id: true }, take: BATCH });
    if (ids.length === 0) break;
    deliveries += (await prisma.delivery.deleteMany({ where: { id: { in: ids.map((r) => r.id) } } })).count;
    if (ids.length < BATCH) break;
  }
  let outbox = 0;
  for (;;) {
    const ids = await prisma.outboxMessage.findMany({ where: { dispatchedAt: { lt: cutoff } }, select: { id: true }, take: BATCH });
    if (ids.length === 0) break;
    outbox += (await prisma.outboxMessage.deleteMany({ where: { id: { in: ids.map((r) => r.id) } } })).count;
    if (ids.length < BATCH) break;
  }
  return { deliveries, outbox };
}
