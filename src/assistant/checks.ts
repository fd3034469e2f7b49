/**
 * The deterministic checks every triage runs, whatever the provider (after Grafana Sift: each check
 * says whether it ran, whether it found something worth a look, a message, and evidence ids). They
 * read through `ctx.db` with the asking user's tenant.
 */
import type { Ctx } from '../context.js';
import type { Alert } from '../generated/prisma/client.js';
import { changesBefore, relatedDeviceId, searchEvents, similarAlerts } from './tools.js';
import type { TriageCheck, TriageFacts } from './types.js';

/** How far before the alert a change counts as "shortly before". */
export const CHANGE_WINDOW_MINUTES = 60;
/** Alerts from one source in a day that make it "flapping". */
export const FLAPPING_ALERTS_PER_DAY = 3;

/** Reads everything the checks look at. */
export async function gatherFacts(ctx: Ctx, alert: Alert): Promise<TriageFacts> {
  const windowStart = new Date(alert.firstSeenAt.getTime() - CHANGE_WINDOW_MINUTES * 60_000);
  const deviceId = await relatedDeviceId(ctx, alert);
  const [changes, similar, sourceAlertsToday, reopenCount, related, device] = await Promise.all([
    changesBefore(ctx, alert, CHANGE_WINDOW_MINUTES),
    similarAlerts(ctx, alert, 10),
    alert.source ? ctx.db.alert.count({ where: { source: alert.source, firstSeenAt: { gte: new Date(alert.firstSeenAt.getTime() - 86_400_000), lte: alert.firstSeenAt } } }) : Promise.resolve(0),
    ctx.db.alertTimelineEntry.count({ where: { alertId: alert.id, action: 'reopened' } }),
    Promise.all(
      ['gpu.*', 'integration.*'].map((type) =>
        searchEvents(ctx, { type, after: new Date(alert.firstSeenAt.getTime() - 30 * 60_000), before: new Date(alert.firstSeenAt.getTime() + 30 * 60_000), limit: 10 }),
      ),
    ).then((r) => r.flat()),
    deviceId ? ctx.db.device.findUnique({ where: { id: deviceId } }) : Promise.resolve(null),
  ]);
  const [latestDrift, intents, appliedProposals] = device
    ? await Promise.all([
        ctx.db.driftReport.findFirst({ where: { deviceId: device.id }, orderBy: { createdAt: 'desc' } }),
        ctx.db.intentVersion.findMany({ where: { deviceId: device.id }, orderBy: { version: 'desc' }, take: 2 }),
        ctx.db.proposal.findMany({ where: { deviceId: device.id, status: 'applied', appliedAt: { gte: windowStart, lte: alert.firstSeenAt } }, orderBy: { appliedAt: 'desc' }, take: 5 }),
      ])
    : [null, [], []];
  return { alert, changes, appliedProposals, device, latestDrift, intents, similar, sourceAlertsToday, reopenCount, related };
}

function minutesBefore(alert: Alert, at: Date): number {
  return Math.max(0, Math.round((alert.firstSeenAt.getTime() - at.getTime()) / 60_000));
}

/** The checks, in a fixed order, from the gathered facts. Pure. */
export function runChecks(f: TriageFacts): TriageCheck[] {
  const a = f.alert;
  const checks: TriageCheck[] = [];

  const changeCount = f.changes.length + f.appliedProposals.length;
  checks.push({
    name: 'recent_changes',
    status: 'success',
    interesting: changeCount > 0,
    message:
      changeCount > 0
        ? `${changeCount} change(s) in the ${CHANGE_WINDOW_MINUTES} minutes before the alert; the latest: ` +
          (f.changes[0] ? `${f.changes[0].type} from ${f.changes[0].source}, ${minutesBefore(a, f.changes[0].receivedAt)} min before.` : `proposal "${f.appliedProposals[0]!.title}" applied.`)
        : `No deploy, release or config change in the ${CHANGE_WINDOW_MINUTES} minutes before the alert.`,
    evidence: [...f.changes.map((e) => e.id), ...f.appliedProposals.map((p) => p.id)],
  });

  if (!f.device) {
    checks.push({ name: 'device_drift', status: 'skipped', interesting: false, message: 'The alert names no device of the inventory.', evidence: [] });
  } else if (!f.latestDrift) {
    checks.push({ name: 'device_drift', status: 'success', interesting: false, message: `Device ${f.device.name} has not been reconciled yet: drift unknown.`, evidence: [f.device.id] });
  } else {
    checks.push({
      name: 'device_drift',
      status: 'success',
      interesting: !f.latestDrift.inSync,
      message: f.latestDrift.inSync
        ? `Device ${f.device.name} runs its intended configuration (last reconcile ${f.latestDrift.createdAt.toISOString()}).`
        : `Device ${f.device.name} drifts from its intended configuration${f.latestDrift.detail ? ` (${f.latestDrift.detail})` : ''}.`,
      evidence: [f.device.id, f.latestDrift.id],
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
          (resolved[0] ? `; the latest resolved by ${resolved[0].resolvedBy}${resolved[0].minutesToResolve !== null ? ` after ${resolved[0].minutesToResolve} min` : ''}.` : '.'),
    evidence: f.similar.map((s) => s.alert.id),
  });

  const flapping = f.sourceAlertsToday >= FLAPPING_ALERTS_PER_DAY || f.reopenCount >= 2;
  checks.push({
    name: 'flapping_source',
    status: a.source ? 'success' : 'skipped',
    interesting: flapping,
    message: !a.source
      ? 'The alert has no source.'
      : flapping
        ? `Source ${a.source} is flapping: ${f.sourceAlertsToday} alert(s) in 24 h, this one reopened ${f.reopenCount} time(s).`
        : `Source ${a.source} is steady: ${f.sourceAlertsToday} alert(s) in 24 h.`,
    evidence: flapping ? f.similar.filter((s) => s.alert.source === a.source).map((s) => s.alert.id) : [],
  });

  const loud = f.related.filter((e) => e.severity !== 'info');
  checks.push({
    name: 'related_gpu_integration_events',
    status: 'success',
    interesting: loud.length > 0,
    message: f.related.length === 0 ? 'No GPU or integration events within 30 minutes.' : `${f.related.length} GPU/integration event(s) within 30 minutes, ${loud.length} warning or critical.`,
    evidence: f.related.map((e) => e.id),
  });
  return checks;
}
