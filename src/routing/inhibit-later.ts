/**
 * Inhibition decided later: when an alert that is an inhibition rule's source opens after its targets, the live
 * targets it inhibits (inhibition.ts semantics, `equal` labels included) become inhibited as if it had been there
 * first: marked with it (`inhibitedById`, `suppressed`), their timeline says why, and a group left with no
 * unmuted live alert stops paging (no policy, no next step, no further notification). When the source resolves,
 * release.ts pages them as new, as it does for inhibition decided at open. Called where alerts open, in the
 * opening transaction, only for an alert on some rule's source side: one query for its candidate targets.
 */
import type { Alert, Prisma } from '../generated/prisma/client.js';
import { matchersMatch } from './matchers.js';
import { alertLabelSet } from './silences.js';
import { inhibitingAlert, matchersWhere, type CompiledInhibitRule, type TenantInhibition } from './inhibition.js';
import { groupAlertsWhere, groupIdsOfAlert } from '../alerts/group-alerts.js';

type Tx = Prisma.TransactionClient;

/** Targets inhibited per opened source at most (the oldest first): a bound on one opening's work. */
export const MAX_LATE_TARGETS = 1000;

const COLUMN_LABELS = new Set(['severity', 'source', 'rule']);

/** SQL narrowing for a rule's targets of this source: its target `=` matchers and the source's `equal` values. */
function targetWhere(rule: CompiledInhibitRule, source: Record<string, string>): Prisma.AlertWhereInput {
  const conds: Prisma.AlertWhereInput[] = [];
  const target = matchersWhere(rule.target);
  if (target) conds.push(target);
  for (const n of rule.equal) {
    const v = source[n] ?? '';
    if (v !== '' && !COLUMN_LABELS.has(n)) conds.push({ labels: { path: [n], equals: v } });
  }
  return { AND: conds };
}

/**
 * Inhibits the live alerts of `source`'s tenant that `source` (just opened, with its label set `labels`) inhibits
 * and that nothing mutes yet; returns how many. Their groups with no unmuted live alert left stop paging.
 */
export async function inhibitLiveTargets(
  tx: Tx,
  inhibition: TenantInhibition | undefined,
  source: Pick<Alert, 'id' | 'tenantId'>,
  labels: Record<string, string>,
  now: Date,
): Promise<number> {
  const rules = (inhibition?.rules ?? []).filter((r) => matchersMatch(r.source, labels));
  if (!rules.length) return 0;
  const candidates = await tx.alert.findMany({
    where: {
      tenantId: source.tenantId,
      liveDedupKey: { not: null },
      suppressed: false,
      id: { not: source.id },
      OR: rules.map((r) => targetWhere(r, labels)),
    },
    include: { rule: { select: { name: true } } },
    orderBy: { firstSeenAt: 'asc' },
    take: MAX_LATE_TARGETS,
  });
  const only: TenantInhibition = { rules, sources: [{ id: source.id, labels }] };
  let inhibited = 0;
  for (const { rule, ...alert } of candidates) {
    const hit = inhibitingAlert(only, alertLabelSet({ ...alert, ruleName: rule?.name ?? null }), alert.id);
    if (!hit) continue;
    inhibited++;
    await tx.alert.update({ where: { id: alert.id }, data: { inhibitedById: source.id, suppressed: true } });
    await tx.alertTimelineEntry.create({
      data: {
        tenantId: alert.tenantId,
        alertId: alert.id,
        action: 'inhibited',
        createdAt: now,
        note: `Inhibited by alert ${source.id} (inhibition rule ${hit.ruleId}), which opened after it: it pages no one until that alert resolves.`,
      },
    });
    for (const groupId of await groupIdsOfAlert(tx, alert)) {
      const unmuted = await tx.alert.count({
        where: groupAlertsWhere(groupId, { liveDedupKey: { not: null }, suppressed: false }),
      });
      if (unmuted === 0)
        await tx.alertGroup.updateMany({
          where: { id: groupId, status: { not: 'resolved' } },
          data: { policyId: null, nextStepAt: null, nextNotifyAt: null },
        });
    }
  }
  return inhibited;
}
