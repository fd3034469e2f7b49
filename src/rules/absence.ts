/**
 * Absence (heartbeat) rules. Each matching event moves its source's tracker forward
 * (`lastSeenAt`, `dueAt = lastSeenAt + window`); the server's own periodic check opens an alert for
 * every tracker past `dueAt`, and the next heartbeat from that source resolves it. A source that never
 * sent a matching event has no tracker, so it is never "missing".
 */
import type { Runtime } from '../runtime.js';
import type { AlertRule, Event, Prisma } from '../generated/prisma/client.js';
import { announceAlertChanges, openOrBumpAlert, transitionAlert, type AlertChange } from '../alerts/lifecycle.js';
import { inhibitedBy, loadSilencesByTenant, noteOpenedAlert, silencedBy } from '../routing/mute.js';
import { loadInhibitionsByTenant } from '../routing/inhibition.js';
import { renderTemplate } from '../events/match.js';
import { openRoutedGroups } from '../routing/route-group.js';

type Tx = Prisma.TransactionClient;

/** Default summary of an absence alert. */
const DEFAULT_ABSENCE_SUMMARY = '{{rule.name}}: no {{type}} from {{source}} for {{windowSeconds}}s';

/**
 * Records a heartbeat of `ev.source` for the absence rule (inside the evaluation transaction). When
 * the tracker had an open absence alert, that alert is resolved and the change is returned.
 */
export async function recordHeartbeat(
  tx: Tx,
  rule: AlertRule,
  ev: Event,
  now: Date,
): Promise<{ change: AlertChange; outboxId: string | null } | null> {
  const windowMs = (rule.windowSeconds ?? 0) * 1000;
  const locked = await tx.$queryRaw<Array<{ id: string; alertId: string | null; lastSeenAt: Date }>>`
    SELECT id, "alertId", "lastSeenAt" FROM "AbsenceTracker" WHERE "ruleId" = ${rule.id} AND source = ${ev.source} FOR UPDATE`;
  const prev = locked[0];
  const lastSeenAt = prev && prev.lastSeenAt > ev.receivedAt ? prev.lastSeenAt : ev.receivedAt;
  const dueAt = new Date(lastSeenAt.getTime() + windowMs);
  await tx.absenceTracker.upsert({
    where: { ruleId_source: { ruleId: rule.id, source: ev.source } },
    create: { tenantId: ev.tenantId, ruleId: rule.id, source: ev.source, lastSeenAt, dueAt },
    update: { lastSeenAt, dueAt, alertId: null },
  });
  if (!prev?.alertId) return null;
  const alert = await tx.alert.findUnique({ where: { id: prev.alertId } });
  if (!alert || alert.status === 'resolved') return null;
  const t = await transitionAlert(tx, alert, {
    action: 'resolve',
    actorId: null,
    actorEventId: ev.id,
    now,
    note: `Heartbeat from ${ev.source} returned.`,
  });
  return { change: t.change, outboxId: t.outboxId };
}

/**
 * Opens an alert for every tracker past its due time whose rule is enabled (at most `limit` per run;
 * trackers held by a concurrent check are skipped). A tracker is not treated as missing while its
 * source has accepted events that are still waiting for evaluation, so a backlog never looks like
 * silence. Idempotent: the tracker remembers its alert, and the live dedup key admits one live alert.
 */
export async function checkAbsences(rt: Runtime, limit = 200): Promise<{ opened: number }> {
  const changes: AlertChange[] = [];
  const outboxIds: Array<string | null> = [];
  let opened = 0;
  await rt.prisma.$transaction(
    async (tx) => {
      const now = rt.clock.now();
      const due = await tx.$queryRaw<
        Array<{ id: string; tenantId: string; ruleId: string; source: string; lastSeenAt: Date }>
      >`
        SELECT t.id, t."tenantId", t."ruleId", t.source, t."lastSeenAt"
          FROM "AbsenceTracker" t JOIN "AlertRule" r ON r.id = t."ruleId"
         WHERE t."dueAt" <= ${now} AND t."alertId" IS NULL AND r.enabled AND r.kind = 'absence'
           AND NOT EXISTS (SELECT 1 FROM "Event" e WHERE e."evaluatedAt" IS NULL AND e."tenantId" = t."tenantId"
                            AND e.source = t.source AND e."receivedAt" > t."lastSeenAt")
         ORDER BY t."dueAt" LIMIT ${limit}
         FOR UPDATE OF t SKIP LOCKED`;
      if (due.length === 0) return;
      const rules = new Map(
        (await tx.alertRule.findMany({ where: { id: { in: [...new Set(due.map((d) => d.ruleId))] } } })).map((r) => [
          r.id,
          r,
        ]),
      );
      const silences = await loadSilencesByTenant(tx, [...new Set(due.map((d) => d.tenantId))], now);
      const inhibitions = await loadInhibitionsByTenant(tx, [...new Set(due.map((d) => d.tenantId))]);
      for (const d of due) {
        const rule = rules.get(d.ruleId)!;
        const vars = {
          type: rule.typeGlob ?? 'heartbeat',
          source: d.source,
          module: rule.module,
          severity: rule.alertSeverity,
          labels: {},
          payload: {},
          rule: { id: rule.id, name: rule.name },
          windowSeconds: rule.windowSeconds,
        };
        const r = await openOrBumpAlert(tx, {
          now,
          tenantId: d.tenantId,
          ruleId: rule.id,
          dedupKey: rule.dedupKeyTemplate ? renderTemplate(rule.dedupKeyTemplate, vars) : `${rule.id}:${d.source}`,
          severity: rule.alertSeverity,
          summary: renderTemplate(rule.summaryTemplate ?? DEFAULT_ABSENCE_SUMMARY, vars),
          source: d.source,
          deviceId: null,
          labels: {},
          seenAt: now,
          eventIds: [],
          silencedBy: silencedBy(
            silences,
            { tenantId: d.tenantId, labels: {}, severity: rule.alertSeverity, source: d.source, ruleName: rule.name },
            now,
          ),
          inhibitedBy: inhibitedBy(inhibitions, {
            tenantId: d.tenantId,
            labels: {},
            severity: rule.alertSeverity,
            source: d.source,
            ruleName: rule.name,
          }),
        });
        if (r.opened) await noteOpenedAlert(tx, inhibitions, r.alert, now, rule.name);
        await tx.absenceTracker.update({ where: { id: d.id }, data: { alertId: r.alert.id } });
        if (r.opened) opened++;
        // The routing tree forms its groups (src/routing/route-group.ts).
        const groups = r.opened ? await openRoutedGroups(tx, r.alert, now) : [];
        changes.push({ change: r.opened ? 'opened' : 'bumped', alert: r.alert, groups });
        outboxIds.push(r.outboxId);
      }
    },
    { timeout: 30_000, maxWait: 10_000 },
  );
  await announceAlertChanges(rt, changes, outboxIds);
  return { opened };
}
