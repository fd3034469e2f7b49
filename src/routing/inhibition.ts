/**
 * Inhibition in Alertmanager's semantics (its `inhibit` package): a rule inhibits an alert matching its
 * target matchers while a live alert (firing, not resolved) matches its source matchers and carries the
 * same value of every `equal` label (a label missing on both sides counts as equal). When the alert also
 * matches the source side, only sources that do not match the target side count, so two alerts that are
 * each other's source and target do not silence each other (Alertmanager's "two-sided match").
 *
 * Loaded once per batch (`loadInhibitionsByTenant`: the tenants' rules and their live source alerts),
 * answered per alert (`inhibitingAlert`); an alert opened in the batch becomes a source for the alerts
 * after it (`addInhibitionSource`), as Alertmanager's source cache would hold it.
 */
import type { Prisma, PrismaClient, Severity } from '../generated/prisma/client.js';
import { matchersMatch, type Matcher } from './matchers.js';
import { alertLabelSet } from './silences.js';

/** A rule ready to evaluate. */
export interface CompiledInhibitRule {
  id: string;
  source: Matcher[];
  target: Matcher[];
  equal: string[];
}

/** A live alert that may inhibit others: its id and the label set rules match. */
export interface InhibitionSource {
  id: string;
  labels: Record<string, string>;
}

export interface TenantInhibition {
  rules: CompiledInhibitRule[];
  sources: InhibitionSource[];
}

export type InhibitionsByTenant = Map<string, TenantInhibition>;

/** Most live source alerts kept per load: a bound on what one batch reads (the oldest sources win). */
export const MAX_SOURCES_PER_LOAD = 5000;

/** The stored rule as the evaluator reads it. */
export function compileInhibitRule(r: {
  id: string;
  sourceMatchers: unknown;
  targetMatchers: unknown;
  equal: string[];
}): CompiledInhibitRule {
  return {
    id: r.id,
    source: (r.sourceMatchers ?? []) as Matcher[],
    target: (r.targetMatchers ?? []) as Matcher[],
    equal: r.equal,
  };
}

function sameEqualLabels(equal: string[], a: Record<string, string>, b: Record<string, string>): boolean {
  return equal.every((n) => (a[n] ?? '') === (b[n] ?? ''));
}

/**
 * The live alert that inhibits a target with these labels, and the rule that lets it; null when none.
 * `selfId` (the target's own id, when it has one) is never its own source.
 */
export function inhibitingAlert(
  inhibition: TenantInhibition | undefined,
  labels: Record<string, string>,
  selfId?: string,
): { alertId: string; ruleId: string } | null {
  if (!inhibition) return null;
  for (const rule of inhibition.rules) {
    if (!matchersMatch(rule.target, labels)) continue;
    const twoSided = matchersMatch(rule.source, labels);
    for (const s of inhibition.sources) {
      if (s.id === selfId || !matchersMatch(rule.source, s.labels)) continue;
      if (!sameEqualLabels(rule.equal, s.labels, labels)) continue;
      if (twoSided && matchersMatch(rule.target, s.labels)) continue;
      return { alertId: s.id, ruleId: rule.id };
    }
  }
  return null;
}

/** Adds an alert opened in this batch as a source, when some rule of its tenant has it on the source side. */
export function addInhibitionSource(
  inhibitions: InhibitionsByTenant,
  tenantId: string,
  source: InhibitionSource,
): void {
  const t = inhibitions.get(tenantId);
  if (!t || t.sources.some((s) => s.id === source.id)) return;
  if (t.rules.some((r) => matchersMatch(r.source, source.labels))) t.sources.push(source);
}

/**
 * What an alert must satisfy for SQL to return it when `matchers` hold on it: their `=` matchers with a value
 * (labels by JSON path, `severity`/`source`/`rule` by column); null when there are none (every alert may).
 * A narrowing only: the caller matches what SQL returns exactly.
 */
export function matchersWhere(matchers: Matcher[]): Prisma.AlertWhereInput | null {
  const conds: Prisma.AlertWhereInput[] = [];
  for (const m of matchers) {
    if (m.type !== '=' || m.value === '') continue;
    // alertLabelSet prefers a label of that name to the column, so either may carry it.
    const byLabel: Prisma.AlertWhereInput = { labels: { path: [m.name], equals: m.value } };
    if (m.name === 'severity' || m.name === 'source' || m.name === 'rule') {
      const byColumn: Prisma.AlertWhereInput =
        m.name === 'rule'
          ? { rule: { name: m.value } }
          : m.name === 'source'
            ? { source: m.value }
            : SEVERITIES.includes(m.value)
              ? { severity: m.value as Severity }
              : { id: { in: [] } };
      conds.push({ OR: [byLabel, byColumn] });
    } else conds.push(byLabel);
  }
  return conds.length ? { AND: conds } : null;
}

const SEVERITIES: string[] = ['info', 'warning', 'critical'];

/** The tenants' inhibition rules and, for tenants that have any, their live alerts on a rule's source side. */
export async function loadInhibitionsByTenant(
  db: Pick<PrismaClient, 'inhibitRule' | 'alert'>,
  tenantIds: string[],
): Promise<InhibitionsByTenant> {
  const out: InhibitionsByTenant = new Map();
  if (!tenantIds.length) return out;
  const rules = await db.inhibitRule.findMany({
    where: { tenantId: { in: tenantIds } },
    orderBy: { createdAt: 'asc' },
  });
  if (!rules.length) return out;
  for (const r of rules) {
    const t = out.get(r.tenantId) ?? { rules: [], sources: [] };
    t.rules.push(compileInhibitRule(r));
    out.set(r.tenantId, t);
  }
  const perTenant: Prisma.AlertWhereInput[] = [...out].map(([tenantId, t]) => {
    const wheres = t.rules.map((r) => matchersWhere(r.source));
    return wheres.includes(null)
      ? { tenantId }
      : { tenantId, OR: wheres.filter((w): w is Prisma.AlertWhereInput => w !== null) };
  });
  const live = await db.alert.findMany({
    where: { liveDedupKey: { not: null }, OR: perTenant },
    select: { id: true, tenantId: true, labels: true, severity: true, source: true, rule: { select: { name: true } } },
    orderBy: { firstSeenAt: 'asc' },
    take: MAX_SOURCES_PER_LOAD,
  });
  for (const a of live)
    addInhibitionSource(out, a.tenantId, {
      id: a.id,
      labels: alertLabelSet({ ...a, ruleName: a.rule?.name ?? null }),
    });
  return out;
}
