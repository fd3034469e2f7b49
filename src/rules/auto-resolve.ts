/**
 * Auto-resolve: a match rule with `autoResolveAfterSeconds` resolves its live alerts once no matching
 * event has arrived for that long (the alert's `lastSeenAt`). Run by the server's periodic
 * `auto-resolve-alerts` task. An alert is not resolved while its tenant has accepted events still
 * waiting for evaluation that arrived after it was last seen, so a backlog never looks like silence.
 */
import type { Runtime } from '../runtime.js';
import { announceAlertChanges, transitionAlert, type AlertChange } from '../alerts/lifecycle.js';

/** Resolves at most `limit` quiet alerts per run (rows held by a concurrent run are skipped). */
export async function autoResolveQuietAlerts(rt: Runtime, limit = 200): Promise<{ resolved: number }> {
  const changes: AlertChange[] = [];
  const outboxIds: Array<string | null> = [];
  await rt.prisma.$transaction(
    async (tx) => {
      const now = rt.clock.now();
      const due = await tx.$queryRaw<Array<{ id: string; after: number }>>`
        SELECT a.id, r."autoResolveAfterSeconds" AS after
          FROM "Alert" a JOIN "AlertRule" r ON r.id = a."ruleId"
         WHERE r."autoResolveAfterSeconds" IS NOT NULL AND r.kind = 'match' AND a."liveDedupKey" IS NOT NULL
           AND a."lastSeenAt" + make_interval(secs => r."autoResolveAfterSeconds") <= ${now}
           AND NOT EXISTS (SELECT 1 FROM "Event" e WHERE e."evaluatedAt" IS NULL AND e."tenantId" = a."tenantId" AND e."receivedAt" > a."lastSeenAt")
         ORDER BY a."lastSeenAt" LIMIT ${limit}
         FOR UPDATE OF a SKIP LOCKED`;
      if (due.length === 0) return;
      const after = new Map(due.map((d) => [d.id, d.after]));
      for (const alert of await tx.alert.findMany({ where: { id: { in: due.map((d) => d.id) } } })) {
        const t = await transitionAlert(tx, alert, {
          action: 'resolve',
          actorId: null,
          now,
          note: `No matching event for ${after.get(alert.id)} s: resolved by its rule (auto-resolve).`,
        });
        changes.push(t.change);
        outboxIds.push(t.outboxId);
      }
    },
    { timeout: 30_000, maxWait: 10_000 },
  );
  await announceAlertChanges(rt, changes, outboxIds);
  return { resolved: changes.length };
}
