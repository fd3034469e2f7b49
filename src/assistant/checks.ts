/**
 * The deterministic checks every triage runs, whatever the provider (after Grafana Sift: each check
 * says whether it ran, whether it found something worth a look, a message, and evidence items). They
 * read through `ctx.db` with the asking user's tenant. Candidates are ranked by relatedness
 * (src/assistant/candidates.ts); only related ones are ever causes.
 */
import type { Ctx } from '../context.js';
import type { Alert } from '../generated/prisma/client.js';
import { alertScope, CANDIDATE_WINDOW_MINUTES, causeOf, rankCandidates } from './candidates.js';
import { similarAlerts } from './tool-data.js';
import { loadVocabulary } from './vocabulary.js';
import type { EvidenceItem, TriageCheck, TriageFacts } from './types.js';

/** Recurrences of the same dedup key (earlier alerts in 24 h plus reopenings) that make it flapping. */
export const FLAPPING_RECURRENCES = 2;

/** Reads everything the checks look at. */
export async function gatherFacts(ctx: Ctx, alert: Alert): Promise<TriageFacts> {
  const rule = alert.ruleId
    ? await ctx.db.alertRule.findUnique({
        where: { id: alert.ruleId },
        select: { id: true, name: true, typeGlob: true, dedupKeyTemplate: true },
      })
    : null;
  const [vocabulary, scope] = await Promise.all([loadVocabulary(ctx), alertScope(ctx, alert, rule)]);
  const device = scope.device;
  const [ranked, similar, recurrences, reopenCount, latestDrift, intents] = await Promise.all([
    rankCandidates(ctx, alert, scope, vocabulary),
    similarAlerts(ctx, alert, 10),
    ctx.db.alert.findMany({
      where: {
        id: { not: alert.id },
        dedupKey: alert.dedupKey,
        firstSeenAt: { gte: new Date(alert.firstSeenAt.getTime() - 86_400_000), lte: alert.firstSeenAt },
      },
      orderBy: { firstSeenAt: 'desc' },
      take: 20,
    }),
    ctx.db.alertTimelineEntry.count({ where: { alertId: alert.id, action: 'reopened' } }),
    device
      ? ctx.db.driftReport.findFirst({ where: { deviceId: device.id }, orderBy: { createdAt: 'desc' } })
      : Promise.resolve(null),
    device
      ? ctx.db.intentVersion.findMany({ where: { deviceId: device.id }, orderBy: { version: 'desc' }, take: 2 })
      : Promise.resolve([]),
  ]);
  return {
    alert,
    rule,
    vocabulary,
    windowMinutes: CANDIDATE_WINDOW_MINUTES,
    related: ranked.filter((c) => c.score > 0),
    unrelatedChanges: ranked
      .filter((c) => c.score === 0 && c.isChange)
      .sort((x, y) => x.minutesBefore - y.minutesBefore),
    device,
    latestDrift,
    intents,
    similar,
    recurrences,
    reopenCount,
  };
}

const alertItem = (a: Alert): EvidenceItem => ({
  kind: 'alert',
  id: a.id,
  label: `${a.severity} alert "${a.summary.slice(0, 80)}" (${a.status}, ${a.firstSeenAt.toISOString()})`,
});

/** True when the same dedup key keeps coming back (not: other alerts from the same source). */
export function isFlapping(f: Pick<TriageFacts, 'recurrences' | 'reopenCount'>): boolean {
  return f.recurrences.length + f.reopenCount >= FLAPPING_RECURRENCES;
}

/** "no related change found; 3 unrelated changes in the window" and its positive counterpart. */
export function changesMessage(f: TriageFacts): string {
  const changes = f.related.filter((c) => c.isChange);
  const unrelated = `${f.unrelatedChanges.length} unrelated change(s) in the window`;
  return changes[0]
    ? `${changes.length} related change(s) in the ${f.windowMinutes} minutes before the alert; the strongest: ${causeOf(changes[0]).cause}. ${unrelated}.`
    : `No related change found; ${unrelated} (${f.windowMinutes} minutes before the alert).`;
}

/** The checks, in a fixed order, from the gathered facts. Pure. */
export function runChecks(f: TriageFacts): TriageCheck[] {
  const a = f.alert;
  const checks: TriageCheck[] = [];
  const changes = f.related.filter((c) => c.isChange);
  checks.push({
    name: 'recent_changes',
    status: 'success',
    interesting: changes.length > 0,
    message: changesMessage(f),
    evidence: changes.slice(0, 10).map((c) => c.evidence[0]!),
  });

  const deviceItem: EvidenceItem | null = f.device
    ? { kind: 'device', id: f.device.id, label: `device ${f.device.name}` }
    : null;
  if (!f.device || !deviceItem) {
    checks.push({
      name: 'device_drift',
      status: 'skipped',
      interesting: false,
      message: 'The alert names no device of the inventory.',
      evidence: [],
    });
  } else if (!f.latestDrift) {
    checks.push({
      name: 'device_drift',
      status: 'success',
      interesting: false,
      message: `Device ${f.device.name} has not been reconciled yet: drift unknown.`,
      evidence: [deviceItem],
    });
  } else {
    checks.push({
      name: 'device_drift',
      status: 'success',
      interesting: !f.latestDrift.inSync,
      message: f.latestDrift.inSync
        ? `Device ${f.device.name} runs its intended configuration (last reconcile ${f.latestDrift.createdAt.toISOString()}).`
        : `Device ${f.device.name} drifts from its intended configuration${f.latestDrift.detail ? ` (${f.latestDrift.detail})` : ''}.`,
      evidence: [
        deviceItem,
        {
          kind: 'drift_report',
          id: f.latestDrift.id,
          label: `drift report of ${f.latestDrift.createdAt.toISOString()}`,
        },
      ],
    });
  }

  const resolved = f.similar.filter((s) => s.alert.status === 'resolved');
  checks.push({
    name: 'alert_history',
    status: 'success',
    interesting: f.similar.length > 0,
    message:
      f.similar.length === 0
        ? 'First alert of its kind in 30 days.'
        : `${f.similar.length} similar alert(s) in 30 days, ${resolved.length} resolved` +
          (resolved[0]
            ? `; the latest resolved by ${resolved[0].resolvedBy}${resolved[0].minutesToResolve !== null ? ` after ${resolved[0].minutesToResolve} min` : ''}.`
            : '.'),
    evidence: f.similar.map((s) => alertItem(s.alert)),
  });

  const flapping = isFlapping(f);
  checks.push({
    name: 'flapping',
    status: 'success',
    interesting: flapping,
    message:
      `Dedup key ${a.dedupKey}: ${f.recurrences.length} earlier alert(s) in 24 h, this one reopened ${f.reopenCount} time(s)` +
      (flapping ? ': flapping.' : ': not flapping (other alerts from the same source do not count).'),
    evidence: f.recurrences.map(alertItem),
  });

  const faults = f.related.filter((c) => !c.isChange);
  checks.push({
    name: 'related_faults',
    status: 'success',
    interesting: faults.length > 0,
    message: faults[0]
      ? `${faults.length} known precursor fault(s) related to the alert; the strongest: ${causeOf(faults[0]).cause}.`
      : 'No known precursor fault (GPU XID/ECC/thermal, interface or link, integration degradation, resource exhaustion) related to the alert.',
    evidence: faults.slice(0, 10).map((c) => c.evidence[0]!),
  });
  return checks;
}
