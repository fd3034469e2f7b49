/**
 * Relatedness-first scoring of triage candidates (docs/triage.md). A candidate earns relations by
 * what it shares with the alert: the same device, a shared entity (label or payload), the rule's dedup
 * labels, the same source, a topology link (a device's site, a GPU's node, an integration), and a
 * known-precursor bonus. Time never makes a candidate related: it only decays the score and breaks
 * ties. A candidate with no relation scores 0 and is never a cause. Pure: no database, no clock.
 */
import { normalizeEntity, type Entity } from './entities.js';
import type { Confidence, EvidenceItem, Relation, RelationKind } from './types.js';

/** Weights of the relations (0–100). A specific entity names one thing; a broad one a group. */
export const RELATION_WEIGHTS = {
  same_device: 60,
  specific_entity: 60,
  same_source: 35,
  broad_entity: 20,
  precursor_bonus: 20,
} as const;

/** Confidence thresholds on the final score: high ≥ 50, medium ≥ 25, low > 0. */
export const CONFIDENCE_THRESHOLDS = { high: 50, medium: 25 } as const;

/** Minutes over which the time part of the score halves (the score never falls below half). */
export const DECAY_HALF_LIFE_MINUTES = 30;

/** What the scorer knows of the alert. */
export interface AlertSide {
  deviceId: string | null;
  deviceName: string | null;
  sources: ReadonlySet<string>;
  entities: readonly Entity[];
  /** Lowercase words of the symptom (its event types, rule name and type glob), for precursor fit. */
  symptomText: string;
}

/** What the scorer knows of one candidate. */
export interface CandidateSide {
  deviceId: string | null;
  source: string;
  entities: readonly Entity[];
  minutesBefore: number;
  precursor: { symptoms: readonly string[]; note: string } | null;
}

export function confidenceOf(score: number): Confidence | null {
  if (score >= CONFIDENCE_THRESHOLDS.high) return 'high';
  if (score >= CONFIDENCE_THRESHOLDS.medium) return 'medium';
  return score > 0 ? 'low' : null;
}

/** 1 at the alert, ½ + ½·2^(−m/half-life) after: a related change an hour back still counts. */
export function timeFactor(minutesBefore: number): number {
  return 0.5 + 0.5 * Math.pow(2, -Math.max(0, minutesBefore) / DECAY_HALF_LIFE_MINUTES);
}

function entityRelation(alertSide: Entity, cand: Entity): Relation {
  const topo = [alertSide, cand].find((e) => e.topology)?.topology;
  const kind: RelationKind = topo ?? (cand.cls.startsWith('dedup:') ? 'dedup_label' : 'shared_label');
  const weight = cand.strength === 'broad' ? RELATION_WEIGHTS.broad_entity : RELATION_WEIGHTS.specific_entity;
  const how = cand.cls.startsWith('dedup:')
    ? "(the rule's dedup label)"
    : cand.via === 'payload'
      ? 'in the payload'
      : 'label';
  // An entity known through topology says how in its note rather than "label".
  const base = cand.topology ? `same ${cand.key}=${cand.value}` : `same ${cand.key}=${cand.value} ${how}`;
  const notes = [alertSide, cand].filter((e) => e.topology).map((e) => e.via);
  return { kind, weight, detail: (notes.length ? `${base}; ${[...new Set(notes)].join('; ')}` : base).slice(0, 500) };
}

/** The relations of a candidate to the alert, strongest first (at most one per entity class). */
export function relationsOf(a: AlertSide, c: CandidateSide): Relation[] {
  const out: Relation[] = [];
  if (a.deviceId && c.deviceId === a.deviceId)
    out.push({
      kind: 'same_device',
      weight: RELATION_WEIGHTS.same_device,
      detail: `same device ${a.deviceName ?? a.deviceId}`,
    });
  // Collectors send the device's name as the source.
  else if (a.deviceName && normalizeEntity('machine', c.source) === normalizeEntity('machine', a.deviceName)) {
    out.push({
      kind: 'same_device',
      weight: RELATION_WEIGHTS.same_device,
      detail: `same device ${a.deviceName} (its source)`,
    });
  }
  const byClass = new Map<string, Relation>();
  for (const ce of c.entities) {
    const ae = a.entities.find((x) => x.cls === ce.cls && x.norm === ce.norm);
    if (!ae) continue;
    // The device relation already says "same machine" when the machine is the alert's device.
    if (ce.cls === 'machine' && out[0]?.kind === 'same_device' && !ae.topology && !ce.topology) continue;
    const r = entityRelation(ae, ce);
    const prev = byClass.get(ce.cls);
    if (!prev || r.weight > prev.weight) byClass.set(ce.cls, r);
  }
  out.push(...byClass.values());
  if (a.sources.has(c.source))
    out.push({ kind: 'same_source', weight: RELATION_WEIGHTS.same_source, detail: `same source ${c.source}` });
  if (out.length && c.precursor) {
    const fits = c.precursor.symptoms.length === 0 || c.precursor.symptoms.some((w) => a.symptomText.includes(w));
    if (fits) out.push({ kind: 'precursor', weight: RELATION_WEIGHTS.precursor_bonus, detail: c.precursor.note });
  }
  return out.sort((x, y) => y.weight - x.weight);
}

/** The score: the strongest relation plus half of the others (at most 100), decayed by time. */
export function scoreOf(relations: readonly Relation[], minutesBefore: number): number {
  if (relations.length === 0) return 0;
  const [first, ...rest] = [...relations].sort((x, y) => y.weight - x.weight);
  const raw = Math.min(100, first!.weight + rest.reduce((s, r) => s + r.weight / 2, 0));
  return Math.round(raw * timeFactor(minutesBefore));
}

/** "2 min before", "under a minute before", "1 h 5 min before". */
export function agoText(minutes: number): string {
  if (minutes < 1) return 'under a minute before';
  const m = Math.round(minutes);
  return m < 120 ? `${m} min before` : `${Math.floor(m / 60)} h ${m % 60} min before`;
}

/** Ranking order: score, then closer in time, then the newer id. */
export function byRank<T extends { score: number; minutesBefore: number; event: { id: string } }>(x: T, y: T): number {
  return y.score - x.score || x.minutesBefore - y.minutesBefore || (x.event.id < y.event.id ? 1 : -1);
}

/** The sentence a cause states: what happened and the relation that earned it. */
export function causeText(type: string, source: string, relations: readonly Relation[], minutesBefore: number): string {
  return `${type} from ${source} (${[...relations.map((r) => r.detail), agoText(minutesBefore)].join(', ')})`.slice(
    0,
    1000,
  );
}

export function eventLabel(e: { type: string; source: string; receivedAt: Date }): string {
  return `${e.type} from ${e.source} at ${e.receivedAt.toISOString()}`;
}

/** Evidence items without repeats (first wins). */
export function uniqueItems(items: EvidenceItem[]): EvidenceItem[] {
  const seen = new Set<string>();
  return items.filter((i) => (seen.has(i.id) ? false : (seen.add(i.id), true)));
}
