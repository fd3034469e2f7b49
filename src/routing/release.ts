/**
 * When a silence stops muting (it expired, was expired, or its time interval ended), or the alert that
 * inhibited an alert is no longer live (it resolved), an alert it muted that is still live pages as new:
 * it loses its mark, its timeline says why, its opening is announced for outbound delivery then (the
 * `alert.opened` message it never sent), and its group escalates from the first step. An inhibited alert
 * that another live alert still inhibits moves to that one instead. Run periodically (workers/routing.ts);
 * each run takes at most `limit` alerts, locked so that two workers never release one twice.
 */
import type { Runtime } from '../runtime.js';
import type { Alert, AlertGroup, Prisma } from '../generated/prisma/client.js';
import { announceAlertChanges, type AlertChange } from '../alerts/lifecycle.js';
import { alertWire } from '../alerts/wire.js';
import { writeOutbox } from '../outbox/outbox.js';
import { pageReleasedAlert } from '../escalation/join.js';
import { alertLabelSet, silenceMutes } from './silences.js';
import { inhibitingAlert, loadInhibitionsByTenant } from './inhibition.js';

type Tx = Prisma.TransactionClient;

interface Released {
  changes: AlertChange[];
  outboxIds: Array<string | null>;
}

/** Unmarks the alert (`data`), notes why, and, when nothing else mutes it, announces it and starts its paging. */
async function release(
  tx: Tx,
  alert: Alert,
  data: Prisma.AlertUncheckedUpdateInput,
  note: string,
  now: Date,
  out: Released,
): Promise<void> {
  const row = await tx.alert.update({ where: { id: alert.id }, data });
  await tx.alertTimelineEntry.create({
    // "opened" again (the REST contract's actions): from here on it pages as a new alert would.
    data: { tenantId: row.tenantId, alertId: row.id, action: 'opened', toStatus: row.status, note },
  });
  let group: AlertGroup | null = null;
  if (!row.suppressed) {
    out.outboxIds.push(
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
    group = await pageReleasedAlert(tx, row, now);
  }
  out.changes.push({ change: 'opened', alert: row, groups: group ? [group] : [] });
}

async function releaseSilenced(tx: Tx, now: Date, limit: number, out: Released): Promise<void> {
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
    // A maintenance window is a silence of the same id: its mark goes with the silence's.
    const window = alert.maintenanceWindowId !== null && alert.maintenanceWindowId === alert.silenceId;
    // Still suppressed when an older window's mark or an inhibiting alert mutes it too.
    const suppressed = (alert.maintenanceWindowId !== null && !window) || alert.inhibitedById !== null;
    const note = `Silence ${alert.silenceId} no longer mutes it; ${suppressed ? 'it stays muted otherwise' : 'it pages as new'}.`;
    const data = { silenceId: null, suppressed, ...(window ? { maintenanceWindowId: null } : {}) };
    await release(tx, alert, data, note, now, out);
  }
}

async function releaseInhibited(tx: Tx, now: Date, limit: number, out: Released): Promise<void> {
  // Candidates: live alerts whose inhibiting alert resolved.
  const ids = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT a.id FROM "Alert" a JOIN "Alert" src ON src.id = a."inhibitedById"
     WHERE a."liveDedupKey" IS NOT NULL AND src."liveDedupKey" IS NULL
     ORDER BY a."updatedAt" LIMIT ${limit} FOR UPDATE OF a SKIP LOCKED`;
  if (!ids.length) return;
  const alerts = await tx.alert.findMany({
    where: { id: { in: ids.map((r) => r.id) } },
    include: { rule: { select: { name: true } } },
  });
  const inhibitions = await loadInhibitionsByTenant(tx, [...new Set(alerts.map((a) => a.tenantId))]);
  for (const { rule, ...alert } of alerts) {
    const labels = alertLabelSet({ ...alert, ruleName: rule?.name ?? null });
    const still = inhibitingAlert(inhibitions.get(alert.tenantId), labels, alert.id);
    if (still) {
      // Another live alert inhibits it: it stays muted, now marked with that one.
      await tx.alert.update({ where: { id: alert.id }, data: { inhibitedById: still.alertId } });
      continue;
    }
    const suppressed = alert.maintenanceWindowId !== null || alert.silenceId !== null;
    const note = `Alert ${alert.inhibitedById}, which inhibited it, resolved; ${suppressed ? 'it stays muted otherwise' : 'it pages as new'}.`;
    await release(tx, alert, { inhibitedById: null, suppressed }, note, now, out);
  }
}

/** Releases the live alerts whose silence no longer mutes them or whose inhibiting alert resolved; returns how many. */
export async function releaseUnmutedAlerts(rt: Runtime, limit = 500): Promise<number> {
  const out: Released = { changes: [], outboxIds: [] };
  await rt.prisma.$transaction(async (tx) => {
    const now = rt.clock.now();
    await releaseSilenced(tx, now, limit, out);
    await releaseInhibited(tx, now, limit, out);
  });
  await announceAlertChanges(rt, out.changes, out.outboxIds);
  return out.changes.length;
}
