/**
 * The facts a language model gets for a triage: the same ones the builtin provider uses, with each
 * candidate's relations to the alert spelled out, its score and the confidence it earns, and the
 * unrelated changes counted apart. The model is told how the ranking works and that an unrelated
 * change is not a cause; whatever it answers, src/assistant/evidence.ts sets confidence from the facts.
 */
import { changesMessage } from './checks.js';
import { CONFIDENCE_THRESHOLDS } from './relatedness.js';
import { rankedData } from './tool-data.js';
import type { TriageCheck, TriageFacts } from './types.js';

export const TRIAGE_INSTRUCTIONS =
  'Rank causes by how they are related to the alert, not by how recent they are: the same device, a shared entity label or payload key ' +
  '(host, node, service, namespace, pod, job, ...), the same source, a topology link (a device and its site, a GPU and its node, an integration ' +
  'and its alerts) or a known precursor fault. Time only breaks ties. A change that shares nothing with the alert is not a cause: never name ' +
  'one with high confidence. When nothing related exists, say so plainly ("no related change found") and give no cause. ' +
  `Confidence follows the score: high >= ${CONFIDENCE_THRESHOLDS.high}, medium >= ${CONFIDENCE_THRESHOLDS.medium}, low below. ` +
  'State in each cause the relation that earned it.';

/** The JSON-able facts of a triage for a model. */
export function triageFactsForModel(f: TriageFacts, checks: TriageCheck[]): Record<string, unknown> {
  const ranked = rankedData([...f.related, ...f.unrelatedChanges]).data as Record<string, unknown>;
  return {
    alert_id: f.alert.id,
    rule: f.rule ? { id: f.rule.id, name: f.rule.name, type_glob: f.rule.typeGlob } : null,
    window_minutes: f.windowMinutes,
    changes_summary: changesMessage(f),
    related_candidates: ranked.related,
    unrelated_change_count: ranked.unrelated_change_count,
    unrelated_changes: ranked.unrelated_changes,
    checks: checks.map((c) => ({ name: c.name, interesting: c.interesting, message: c.message, evidence: c.evidence })),
  };
}
