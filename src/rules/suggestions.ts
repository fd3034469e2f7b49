/**
 * Suggested (starter) rules: ready rules for what the service itself records (GPU XIDs, overheating and
 * missing GPUs, failing integrations, a spent budget) and a heartbeat rule for each source that has
 * sent heartbeats. An admin enables one in one step; a tenant may be created with a chosen set.
 * Each suggestion has a stable key (`gpu.xid`, `heartbeat.<source>`); the rule it creates remembers
 * the key, so a suggestion is enabled at most once per tenant.
 */
import type { Ctx } from '../context.js';
import type { AlertRule, Prisma } from '../generated/prisma/client.js';
import { NotFound, ValidationFailed } from '../errors.js';
import { isUniqueViolation } from '../db/errors.js';
import { createAlertRule, ruleCreateData, type AlertRuleInput } from './rules.js';

export interface SuggestedRule {
  key: string;
  name: string;
  description: string;
  /** The rule it creates (the fields of createAlertRule). */
  input: AlertRuleInput & { name: string };
}

/** Suggestions that need no data: valid for every tenant, so a new tenant can start with them. */
export const STATIC_SUGGESTIONS: readonly SuggestedRule[] = [
  {
    key: 'gpu.xid',
    name: 'Critical GPU XID',
    description: 'Pages on a critical NVIDIA XID error (e.g. XID 79, GPU fallen off the bus), one alert per GPU.',
    input: {
      name: 'Critical GPU XID',
      kind: 'match',
      typeGlob: 'gpu.xid',
      severities: ['critical'],
      alertSeverity: 'critical',
      summaryTemplate: '{{summary}}',
      dedupKeyTemplate: '{{rule.id}}:{{labels.uuid}}',
    },
  },
  {
    key: 'gpu.thermal',
    name: 'GPU overheating',
    description:
      'A GPU at or above the critical temperature, one alert per GPU; resolves when it comes back under the critical limit (gpu.thermal_recovered).',
    input: {
      name: 'GPU overheating',
      kind: 'match',
      typeGlob: 'gpu.thermal',
      severities: ['critical'],
      alertSeverity: 'critical',
      summaryTemplate: '{{summary}}',
      dedupKeyTemplate: '{{rule.id}}:{{labels.uuid}}',
      resolveTypeGlob: 'gpu.thermal_recovered',
    },
  },
  {
    key: 'gpu.missing',
    name: 'GPU stopped reporting',
    description: 'A GPU that stopped sending telemetry (gpu.missing), one alert per GPU.',
    input: {
      name: 'GPU stopped reporting',
      kind: 'match',
      typeGlob: 'gpu.missing',
      alertSeverity: 'critical',
      summaryTemplate: '{{summary}}',
      dedupKeyTemplate: '{{rule.id}}:{{labels.uuid}}',
    },
  },
  {
    key: 'integration.failing',
    name: 'Integration failing',
    description:
      'An integration whose health turned failing (its system cannot be reached or sends nothing), one alert per integration; resolves when it recovers.',
    input: {
      name: 'Integration failing',
      kind: 'match',
      typeGlob: 'integration.degraded',
      severities: ['critical'],
      alertSeverity: 'critical',
      summaryTemplate: '{{summary}}',
      dedupKeyTemplate: '{{rule.id}}:{{labels.integration_id}}',
      resolveTypeGlob: 'integration.recovered',
    },
  },
  {
    key: 'budget.exceeded',
    name: 'Monthly budget reached',
    description: 'The month’s spend forecast reaches 100 % of the budget, one alert per month.',
    input: {
      name: 'Monthly budget reached',
      kind: 'match',
      typeGlob: 'billing.budget',
      labels: { threshold: '100' },
      alertSeverity: 'critical',
      summaryTemplate: '{{summary}}',
      dedupKeyTemplate: '{{rule.id}}:{{labels.month}}',
    },
  },
];

/** Seconds of silence after which a suggested heartbeat rule opens its alert. */
export const HEARTBEAT_WINDOW_SECONDS = 300;
/** How far back the heartbeat senders are looked for. */
const HEARTBEAT_LOOKBACK_MS = 7 * 24 * 3600_000;
const MAX_HEARTBEAT_SUGGESTIONS = 50;

/** The heartbeat suggestions of the tenant: one absence rule per source that sent a `heartbeat` (or `*.heartbeat`) recently. */
async function heartbeatSuggestions(ctx: Ctx): Promise<SuggestedRule[]> {
  const since = new Date(ctx.rt.clock.now().getTime() - HEARTBEAT_LOOKBACK_MS);
  const rows = await ctx.db.event.groupBy({
    by: ['source', 'type'],
    where: { receivedAt: { gte: since }, OR: [{ type: 'heartbeat' }, { type: { endsWith: '.heartbeat' } }] },
    orderBy: [{ source: 'asc' }, { type: 'asc' }],
    take: MAX_HEARTBEAT_SUGGESTIONS * 2,
  });
  const bySource = new Map<string, string>();
  for (const r of rows)
    if (!bySource.has(r.source) && bySource.size < MAX_HEARTBEAT_SUGGESTIONS) bySource.set(r.source, r.type);
  return [...bySource].map(([source, type]) => ({
    key: `heartbeat.${source}`,
    name: `Heartbeat from ${source}`.slice(0, 200),
    description: `${source} sends ${type}; alert when none arrives for ${HEARTBEAT_WINDOW_SECONDS / 60} minutes (resolves with the next one).`,
    input: {
      name: `Heartbeat from ${source}`.slice(0, 200),
      kind: 'absence',
      typeGlob: type,
      source,
      windowSeconds: HEARTBEAT_WINDOW_SECONDS,
      alertSeverity: 'critical',
    },
  }));
}

export interface SuggestionState extends SuggestedRule {
  /** The rule enabled from it, when there is one. */
  rule: AlertRule | null;
}

/** Every suggestion for the caller's tenant, with the rule already enabled from it (if any). */
export async function listSuggestedRules(ctx: Ctx): Promise<SuggestionState[]> {
  const all = [...STATIC_SUGGESTIONS, ...(await heartbeatSuggestions(ctx))];
  const rules = await ctx.db.alertRule.findMany({ where: { suggestionKey: { in: all.map((s) => s.key) } } });
  const byKey = new Map(rules.map((r) => [r.suggestionKey!, r]));
  return all.map((s) => ({ ...s, rule: byKey.get(s.key) ?? null }));
}

/**
 * Creates the suggestion's rule (enabled). Idempotent: when the tenant already has a rule from this
 * suggestion, that rule is turned on (if it was off) and returned. NotFound for an unknown key.
 */
export async function enableSuggestedRule(ctx: Ctx, key: string): Promise<AlertRule> {
  const s =
    STATIC_SUGGESTIONS.find((x) => x.key === key) ??
    (key.startsWith('heartbeat.') ? (await heartbeatSuggestions(ctx)).find((x) => x.key === key) : undefined);
  if (!s) throw new NotFound(`Suggested rule "${key.slice(0, 200)}"`);
  const existing = await ctx.db.alertRule.findFirst({ where: { suggestionKey: key } });
  if (existing)
    return existing.enabled
      ? existing
      : ctx.db.alertRule.update({ where: { id: existing.id }, data: { enabled: true } });
  try {
    return await createAlertRule(ctx, { ...s.input, enabled: true }, { suggestionKey: key });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return (await ctx.db.alertRule.findFirst({ where: { suggestionKey: key } }))!; // enabled concurrently
  }
}

/**
 * Checks a chosen set of starter rules for a new tenant (static suggestions only; 422 naming `field`
 * for unknown keys) and returns the seed that enables them inside createTenant's transaction.
 */
export function starterRulesSeed(
  keys: string[],
  field: string[],
): (tx: Prisma.TransactionClient, tenantId: string) => Promise<void> {
  const unknown = keys.filter((k) => !STATIC_SUGGESTIONS.some((s) => s.key === k));
  if (unknown.length)
    throw new ValidationFailed([
      {
        loc: field,
        msg: `unknown starter rule ${unknown.join(', ')}; known: ${STATIC_SUGGESTIONS.map((s) => s.key).join(', ')}`,
      },
    ]);
  const chosen = STATIC_SUGGESTIONS.filter((s) => keys.includes(s.key));
  return async (tx, tenantId) => {
    for (const s of chosen)
      await tx.alertRule.create({
        data: {
          ...ruleCreateData({ ...s.input, enabled: true }, { suggestionKey: s.key }),
          tenantId,
        } as Prisma.AlertRuleUncheckedCreateInput,
      });
  };
}
