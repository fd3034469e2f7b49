/**
 * Retention of delivery history: deliveries (with their attempts) and dispatched outbox messages older
 * than the retention period (30 days) are deleted, in batches so no statement holds locks for long.
 */
import type { PrismaClient } from '../generated/prisma/client.js';

const BATCH = 5000;

/** Deletes, a batch at a time, the rows `findBatch` returns (at most BATCH each); returns how many it deleted. */
async function deleteInBatches(findBatch: () => Promise<Array<{ id: string }>>, deleteIds: (ids: string[]) => Promise<{ count: number }>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await findBatch();
    if (rows.length === 0) break;
    deleted += (await deleteIds(rows.map((r) => r.id))).count;
    if (rows.length < BATCH) break;
  }
  return deleted;
}

/** Deletes history older than `retentionDays`; returns the number of deliveries and messages removed. */
export async function purgeDeliveryHistory(prisma: PrismaClient, retentionDays: number, now = new Date()): Promise<{ deliveries: number; outbox: number }> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 3600 * 1000);
  const deliveries = await deleteInBatches(
    () => prisma.delivery.findMany({ where: { createdAt: { lt: cutoff } }, select: { id: true }, take: BATCH }),
    (ids) => prisma.delivery.deleteMany({ where: { id: { in: ids } } }),
  );
  const outbox = await deleteInBatches(
    () => prisma.outboxMessage.findMany({ where: { dispatchedAt: { lt: cutoff } }, select: { id: true }, take: BATCH }),
    (ids) => prisma.outboxMessage.deleteMany({ where: { id: { in: ids } } }),
  );
  return { deliveries, outbox };
}
