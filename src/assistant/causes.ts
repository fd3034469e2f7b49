/**
 * The builtin provider's likely causes from the gathered facts: related candidates (strongest first,
 * each stating the relations that earned it), the device's drift, and a flapping key. Never an
 * unrelated change: with nothing related the list is empty and the summary says so.
 */
import { isFlapping } from './checks.js';
import { causeOf } from './candidates.js';
import type { LikelyCause, TriageFacts } from './types.js';

/** Related candidates that become causes (the rest stay in the checks). */
const MAX_CAUSES = 3;
/** Score of "the device drifts from its intent": same device, no time to decay (a state, not an event). */
const DRIFT_SCORE = 40;

/**
 * Likely causes, strongest first, each stating the relation that earned it. Only related records
 * are causes: with none, the list is empty (the summary says so) rather than an invented cause.
 */
export function likelyCauses(f: TriageFacts): LikelyCause[] {
  const causes: LikelyCause[] = f.related.slice(0, MAX_CAUSES).map(causeOf);
  if (f.device && f.latestDrift && !f.latestDrift.inSync) {
    causes.push({
      cause: `Device ${f.device.name} runs a configuration that differs from its intent (same device ${f.device.name}, reconciled ${f.latestDrift.createdAt.toISOString()})`,
      confidence: 'medium',
      score: DRIFT_SCORE,
      relations: [{ kind: 'same_device', detail: `same device ${f.device.name}` }],
      evidence: [
        { kind: 'device', id: f.device.id, label: `device ${f.device.name}` },
        {
          kind: 'drift_report',
          id: f.latestDrift.id,
          label: `drift report of ${f.latestDrift.createdAt.toISOString()}`,
        },
      ],
    });
  }
  causes.sort((x, y) => (y.score ?? 0) - (x.score ?? 0));
  if (isFlapping(f)) {
    causes.push({
      cause: `The alert keeps coming back: dedup key ${f.alert.dedupKey} recurred ${f.recurrences.length} time(s) in 24 h and reopened ${f.reopenCount} time(s)`,
      confidence: 'low',
      score: null,
      relations: [],
      evidence: f.recurrences.slice(0, 5).map((a) => ({
        kind: 'alert' as const,
        id: a.id,
        label: `alert "${a.summary.slice(0, 80)}" (${a.firstSeenAt.toISOString()})`,
      })),
    });
  }
  return causes;
}
