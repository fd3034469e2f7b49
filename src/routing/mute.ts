/**
 * The one question every place that opens an alert asks before it pages: does an active silence mute
 * it? Loaded once per batch (`loadSilencesByTenant`), answered per alert (`silencedBy`). The answer is
 * what `openOrBumpAlert` records: the alert exists, marked with the silence, and pages no one.
 */
import type { PrismaClient } from '../generated/prisma/client.js';
import { alertLabelSet, loadActiveSilences, mutingSilence, type SilenceWithInterval } from './silences.js';

export type SilencesByTenant = Map<string, SilenceWithInterval[]>;

/** What an alert about to open is matched on. */
export interface MuteSubject {
  tenantId: string;
  labels: unknown;
  severity: string | null;
  source: string | null;
  ruleName?: string | null;
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

/** The silence muting the subject at `at` (as `{ id, comment }`), or null. */
export function silencedBy(
  silences: SilencesByTenant,
  subject: MuteSubject,
  at: Date,
): { id: string; comment: string } | null {
  const s = mutingSilence(silences.get(subject.tenantId) ?? [], alertLabelSet(subject), at);
  return s ? { id: s.id, comment: s.comment } : null;
}
