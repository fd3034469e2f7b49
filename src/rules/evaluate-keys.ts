/**
 * The evaluator's look-ups around default dedup keys (plan.ts): alerts still live under the older
 * default key `<rule id>:<source>`, and resolve/acknowledge steps that act on a whole key family.
 * Both run inside the evaluator's transaction.
 */
import type { Prisma } from '../generated/prisma/client.js';
import { actOnLiveAlertByEvent, type TransitionResult } from '../alerts/lifecycle.js';
import type { BatchPlan } from './plan.js';

type Tx = Prisma.TransactionClient;

const tenantOf = (k: string) => k.slice(0, k.indexOf('\u0000'));

/**
 * `<tenantId>\0<default key>` → the legacy key to use instead, for the planned keys whose rule and
 * source still have a live alert under the legacy key. One query for the batch.
 */
export async function liveLegacyKeys(tx: Tx, plan: BatchPlan): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const planned = [...plan.legacy].filter(([k]) => plan.keys.has(k));
  if (planned.length === 0) return out;
  const rows = await tx.alert.findMany({
    where: {
      tenantId: { in: [...new Set(planned.map(([k]) => tenantOf(k)))] },
      liveDedupKey: { in: [...new Set(planned.map(([, old]) => old))] },
    },
    select: { tenantId: true, liveDedupKey: true },
  });
  const live = new Set(rows.map((r) => `${r.tenantId}\u0000${r.liveDedupKey}`));
  for (const [k, old] of planned) if (live.has(`${tenantOf(k)}\u0000${old}`)) out.set(k, old);
  return out;
}

/**
 * Applies the family steps of the plan (an event meeting a rule's resolve criteria, for default keys):
 * each acts on every live alert of its rule whose key is in the family, or is the family's legacy key.
 */
export async function actOnFamilies(tx: Tx, plan: BatchPlan, now: Date): Promise<TransitionResult[]> {
  const done: TransitionResult[] = [];
  const entries = [...plan.families].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [k, steps] of entries) {
    const tenantId = tenantOf(k);
    const family = k.slice(k.indexOf('\u0000') + 1);
    const legacy = plan.legacy.get(k);
    for (const step of steps) {
      if (step.action === 'trigger' || !step.rule) continue;
      const live = await tx.alert.findMany({
        where: {
          tenantId,
          ruleId: step.rule.id,
          OR: [{ liveDedupKey: { startsWith: family } }, ...(legacy ? [{ liveDedupKey: legacy }] : [])],
        },
        select: { liveDedupKey: true },
        orderBy: { liveDedupKey: 'asc' },
      });
      // LIKE treats _ and % in a source as wildcards: keep exact prefixes only.
      for (const key of live.map((r) => r.liveDedupKey!)) {
        if (!key.startsWith(family) && key !== legacy) continue;
        const t = await actOnLiveAlertByEvent(tx, {
          tenantId,
          dedupKey: key,
          action: step.action,
          eventId: step.event.id,
          now,
          note: `${step.action === 'resolve' ? 'Resolved' : 'Acknowledged'} by event ${step.event.type} from ${step.event.source} (rule "${step.rule.name}").`,
        });
        if (t) done.push(t);
      }
    }
  }
  return done;
}
