/**
 * When a silence stops muting (it expired, was expired, or its time interval ended), an alert it
 * muted that is still live pages as new: it loses its silence mark, its timeline says why, and its
 * opening is announced for outbound delivery then (the `alert.opened` message it never sent). Run
 * periodically (workers/routing.ts); each run takes at most `limit` alerts, locked so that two workers
 * never release one twice.
 */
import type { Runtime } from '../runtime.js';
import type { Prisma } from '../generated/prisma/client.js';
import { announceAlertChanges, type AlertChange } from '../alerts/lifecycle.js';
import { alertWire } from '../alerts/wire.js';
import { writeOutbox } from '../outbox/outbox.js';
import { alertLabelSet, silenceMutes } from './silences.js';

/** Releases the live alerts whose silence no longer mutes them; returns how many. */
export async function releaseUnmutedAlerts(rt: Runtime, limit = 500): Promise<number> {
  const changes: AlertChange[] = [];
  const outboxIds: Array<string | null> = [];
  await rt.prisma.$transaction(async (tx) => {
    const now = rt.clock.now();
    // Candidates: live alerts whose silence ended, has not started, recurs, or changed since.
    const ids = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT a.id FROM "Alert" a JOIN "Silence" s ON s.id = a."silenceId"
       WHERE a."liveDedupKey" IS NOT NULL
         AND (s."endsAt" <= ${now} OR s."startsAt" > ${now} OR s."timeIntervalId" IS NOT NULL
              OR s."updatedAt" > a."updatedAt")
       ORDER BY a."updatedAt" LIMIT ${limit} FOR UPDATE OF a SKIP LOCKED`;
    if (!ids.length) return;
    const alerts = await tx.alert.findMany({
      where: { id: { in: ids.map((r) => r.id) } },
      include: { silence: { include: { timeInterval: true } }, rule: { select: { name: true } } },
    });
    for (const { silence, rule, ...alert } of alerts) {
      const labels = alertLabelSet({ ...alert, ruleName: rule?.name ?? null });
      if (silence && silenceMutes(silence, labels, now)) continue;
      const row = await tx.alert.update({
        where: { id: alert.id },
        // Still suppressed when a maintenance window muted it too.
        data: { silenceId: null, suppressed: alert.maintenanceWindowId !== null },
      });
      await tx.alertTimelineEntry.create({
        data: {
          tenantId: row.tenantId,
          alertId: row.id,
          // "opened" again (the REST contract's actions): from here on it pages as a new alert would.
          action: 'opened',
          toStatus: row.status,
          note: `Silence ${alert.silenceId} no longer mutes it; it pages as new.`,
        },
      });
      if (!row.suppressed)
        outboxIds.push(
          await writeOutbox(tx, {
            createdAt: now,
            tenantId: row.tenantId,
            topic: 'alert.opened',
            subjectId: row.id,
            body: {
              source: row.source ?? 'ops-service',
              kind: 'alert.opened',
              severity: row.severity,
              labels: row.labels as Prisma.InputJsonValue,
              payload: alertWire(row) as unknown as Prisma.InputJsonValue,
            },
          }),
        );
      changes.push({ change: 'opened', alert: row });
    }
  });
  await announceAlertChanges(rt, changes, outboxIds);
  return changes.length;
}
