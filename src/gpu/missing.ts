/**
 * A GPU that stops reporting: after `GPU_MISSING_AFTER_INTERVALS` expected samples without one, its
 * verdict becomes `missing` and a `gpu.missing` event goes on the timeline (once, until it reports again).
 */
import type { Runtime } from '../runtime.js';
import type { Event } from '../generated/prisma/client.js';
import { announceTimelineEvents } from '../events/announce.js';
import { publishGpuHealth } from './telemetry.js';

export async function markMissingGpus(rt: Runtime, now = rt.clock.now()): Promise<number> {
  const c = rt.config.gpu;
  const cutoff = new Date(now.getTime() - c.sampleIntervalMs * c.missingAfterIntervals);
  const stale = await rt.prisma.gpu.findMany({
    where: { lastSeenAt: { lt: cutoff }, health: { not: 'missing' } },
    take: 1000,
  });
  const events: Event[] = [];
  for (const g of stale) {
    const reasons = [`no sample since ${g.lastSeenAt.toISOString()} (expected every ${c.sampleIntervalMs / 1000} s)`];
    const [updated, event] = await rt.prisma.$transaction(async (tx) => {
      const claimed = await tx.gpu.updateMany({
        where: { id: g.id, health: { not: 'missing' }, lastSeenAt: { lt: cutoff } },
        data: { health: 'missing', healthReasons: reasons },
      });
      if (claimed.count === 0) return [null, null] as const; // reported meanwhile, or another worker got it
      const e = await tx.event.create({
        data: {
          tenantId: g.tenantId,
          receivedAt: now,
          type: 'gpu.missing',
          module: 'gpu',
          source: `gpu/${g.node}`,
          severity: 'warning',
          summary: `GPU ${g.index} on ${g.node} stopped reporting`,
          labels: { node: g.node, gpu: String(g.index), uuid: g.uuid, ...(g.model ? { model: g.model } : {}) },
          payload: { uuid: g.uuid, last_seen_at: g.lastSeenAt.toISOString() },
          receivedVia: 'system',
        },
      });
      return [await tx.gpu.findUniqueOrThrow({ where: { id: g.id } }), e] as const;
    });
    if (updated && event) {
      events.push(event);
      publishGpuHealth({ rt }, updated);
    }
  }
  await announceTimelineEvents(rt, events);
  return events.length;
}
