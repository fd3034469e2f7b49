/**
 * Evidence people can open: record ids turned into `{kind, id, label}` items, and a provider's draft
 * causes settled against the facts. Confidence follows from relatedness whoever drafted the cause:
 * a cause resting on a ranked candidate gets that candidate's score, confidence and relations; one
 * resting only on unrelated changes is at most `low`; any other is at most `medium` (no score backs it).
 */
import type { Ctx } from '../context.js';
import type { CauseDraft, Confidence, EvidenceItem, LikelyCause, TriageCheck, TriageFacts } from './types.js';
import { confidenceOf, eventLabel } from './relatedness.js';

const RANK: Record<Confidence, number> = { low: 1, medium: 2, high: 3 };
const atMost = (c: Confidence, cap: Confidence): Confidence => (RANK[c] <= RANK[cap] ? c : cap);

/** Items for ids of the tenant's records (events, alerts, devices, proposals, drift reports, ...); unknown ids are left out. */
export async function describeRecords(ctx: Ctx, ids: string[]): Promise<Map<string, EvidenceItem>> {
  const want = [...new Set(ids.map((i) => i.toLowerCase()))].filter((i) => /^[0-9a-f-]{36}$/.test(i));
  const out = new Map<string, EvidenceItem>();
  if (want.length === 0) return out;
  const where = { id: { in: want } };
  const [events, alerts, devices, proposals, drifts, intents, rules, integrations, gpus] = await Promise.all([
    ctx.db.event.findMany({ where, select: { id: true, type: true, source: true, receivedAt: true } }),
    ctx.db.alert.findMany({ where, select: { id: true, summary: true, severity: true } }),
    ctx.db.device.findMany({ where, select: { id: true, name: true } }),
    ctx.db.proposal.findMany({ where, select: { id: true, title: true } }),
    ctx.db.driftReport.findMany({ where, select: { id: true, createdAt: true } }),
    ctx.db.intentVersion.findMany({ where, select: { id: true, version: true } }),
    ctx.db.alertRule.findMany({ where, select: { id: true, name: true } }),
    ctx.db.integration.findMany({ where, select: { id: true, name: true } }),
    ctx.db.gpu.findMany({ where, select: { id: true, uuid: true, node: true } }),
  ]);
  for (const e of events) out.set(e.id, { kind: 'event', id: e.id, label: eventLabel(e) });
  for (const a of alerts)
    out.set(a.id, { kind: 'alert', id: a.id, label: `${a.severity} alert "${a.summary.slice(0, 80)}"` });
  for (const d of devices) out.set(d.id, { kind: 'device', id: d.id, label: `device ${d.name}` });
  for (const p of proposals) out.set(p.id, { kind: 'proposal', id: p.id, label: `proposal "${p.title.slice(0, 80)}"` });
  for (const d of drifts)
    out.set(d.id, { kind: 'drift_report', id: d.id, label: `drift report of ${d.createdAt.toISOString()}` });
  for (const v of intents) out.set(v.id, { kind: 'intent_version', id: v.id, label: `intent version ${v.version}` });
  for (const r of rules) out.set(r.id, { kind: 'rule', id: r.id, label: `rule "${r.name.slice(0, 80)}"` });
  for (const i of integrations) out.set(i.id, { kind: 'integration', id: i.id, label: `integration ${i.name}` });
  for (const g of gpus) out.set(g.id, { kind: 'gpu', id: g.id, label: `GPU ${g.uuid} on ${g.node}` });
  return out;
}

/**
 * The causes to store: each draft's evidence reduced to records that the checks, the ranking or the
 * tools showed (`known`), as items; its confidence, score and relations set by the facts.
 */
export async function settleCauses(
  ctx: Ctx,
  facts: TriageFacts,
  checks: TriageCheck[],
  drafts: Array<CauseDraft | LikelyCause>,
  known: Set<string>,
): Promise<LikelyCause[]> {
  const items = new Map<string, EvidenceItem>();
  for (const i of [
    ...checks.flatMap((c) => c.evidence),
    ...facts.related.flatMap((c) => c.evidence),
    ...facts.unrelatedChanges.flatMap((c) => c.evidence),
  ])
    if (!items.has(i.id)) items.set(i.id, i);
  const allowed = new Set([...known, ...items.keys()]);
  const ids = (d: CauseDraft | LikelyCause) =>
    d.evidence.map((e) => (typeof e === 'string' ? e : e.id).toLowerCase()).filter((id) => allowed.has(id));
  const missing = drafts.flatMap(ids).filter((id) => !items.has(id));
  for (const [id, item] of await describeRecords(ctx, missing)) items.set(id, item);
  const related = new Map(facts.related.map((c) => [c.event.id, c]));
  const unrelated = new Set(facts.unrelatedChanges.map((c) => c.event.id));
  return drafts.map((d) => {
    const evidence = [...new Set(ids(d))].map((id) => items.get(id)).filter((i): i is EvidenceItem => !!i);
    const backing = evidence
      .map((e) => related.get(e.id))
      .filter((c) => !!c)
      .sort((x, y) => y.score - x.score)[0];
    if (backing)
      return {
        cause: d.cause,
        confidence: confidenceOf(backing.score) ?? 'low',
        score: backing.score,
        relations: backing.relations.map((r) => ({ kind: r.kind, detail: r.detail })),
        evidence,
      };
    const onlyUnrelated =
      evidence.length > 0 &&
      evidence.every((e) => e.kind !== 'event' || unrelated.has(e.id)) &&
      evidence.some((e) => unrelated.has(e.id));
    const cap: Confidence = onlyUnrelated || evidence.length === 0 ? 'low' : 'medium';
    return {
      cause: d.cause,
      confidence: atMost(d.confidence, cap),
      score: d.score ?? null,
      relations: d.relations ?? [],
      evidence,
    };
  });
}
