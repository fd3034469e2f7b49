/**
 * The questions every place that opens an alert asks before it pages: does an active silence mute it,
 * and does a live alert inhibit it? Loaded once per batch (`loadSilencesByTenant`,
 * `loadInhibitionsByTenant`), answered per alert (`silencedBy`, `inhibitedBy`). The answers are what
 * `openOrBumpAlert` records: the alert exists, marked with the silence or the inhibiting alert, and pages
 * no one. An alert opened in the batch may inhibit the ones after it and the live ones before it (`noteOpenedAlert`).
 */
import type { Alert, Prisma, PrismaClient } from '../generated/prisma/client.js';
import { alertLabelSet, loadActiveSilences, mutingSilence, type SilenceWithInterval } from './silences.js';
import { addInhibitionSource, inhibitingAlert, type InhibitionsByTenant } from './inhibition.js';
import { inhibitLiveTargets } from './inhibit-later.js';

export type SilencesByTenant = Map<string, SilenceWithInterval[]>;

/** What an alert about to open is matched on. */
export interface MuteSubject {
  tenantId: string;
  labels: unknown;
  severity: string | null;
  source: string | null;
  ruleName?: string | null;
  deviceId?: string | null;
}

/** The active silences of these tenants at `now`, by tenant. */
export async function loadSilencesByTenant(
  db: Pick<PrismaClient, 'silence'>,
  tenantIds: string[],
  now: Date,
): Promise<SilencesByTenant> {
  const out: SilencesByTenant = new Map();
  if (!tenantIds.length) return out;
  for (const s of await loadActiveSilences(db, tenantIds, now)) {
    const list = out.get(s.tenantId);
    if (list) list.push(s);
    else out.set(s.tenantId, [s]);
  }
  return out;
}

/** The silence muting the subject at `at` (as `{ id, comment, windowName }`: a window's name, else null), or null. */
export function silencedBy(
  silences: SilencesByTenant,
  subject: MuteSubject,
  at: Date,
): { id: string; comment: string; windowName: string | null } | null {
  const s = mutingSilence(silences.get(subject.tenantId) ?? [], alertLabelSet(subject), at);
  return s ? { id: s.id, comment: s.comment, windowName: s.windowName } : null;
}

/** The live alert inhibiting the subject (as `{ id, ruleId }`: the alert's id and the rule's), or null. */
export function inhibitedBy(
  inhibitions: InhibitionsByTenant,
  subject: MuteSubject,
): { id: string; ruleId: string } | null {
  const hit = inhibitingAlert(inhibitions.get(subject.tenantId), alertLabelSet(subject));
  return hit ? { id: hit.alertId, ruleId: hit.ruleId } : null;
}

/**
 * After an alert opens in a batch: it may inhibit the alerts after it in the same batch, and the live alerts
 * that opened before it (inhibit-later.ts). Returns how many of those it inhibited.
 */
export async function noteOpenedAlert(
  tx: Prisma.TransactionClient,
  inhibitions: InhibitionsByTenant,
  alert: Pick<Alert, 'id' | 'tenantId' | 'labels' | 'severity' | 'source'>,
  now: Date,
  ruleName?: string | null,
): Promise<number> {
  const labels = alertLabelSet({ ...alert, ruleName });
  addInhibitionSource(inhibitions, alert.tenantId, { id: alert.id, labels });
  return inhibitLiveTargets(tx, inhibitions.get(alert.tenantId), alert, labels, now);
}
