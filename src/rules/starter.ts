/**
 * The starter rules a fresh tenant is offered on first sign-in (the console asks once): the suggested
 * rules that need no data (src/rules/suggestions.ts STATIC_SUGGESTIONS): a critical GPU XID, an
 * overheating or missing GPU, a failing integration, a spent monthly budget. Without them these
 * events page no one.
 *
 * The offer stands while the tenant has no alert rule and no admin has answered it. Answering it
 * (adding the rules in one step, or dismissing the offer) is recorded on the tenant
 * (`starterRulesDecidedAt`), so it is made once per tenant, whoever signs in next.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { enableSuggestedRule, STATIC_SUGGESTIONS, type SuggestionState } from './suggestions.js';

/** The keys of the starter rules, in the order they are offered. */
export const STARTER_RULE_KEYS: readonly string[] = STATIC_SUGGESTIONS.map((s) => s.key);

export interface StarterRulesOffer {
  /** True while the tenant has no alert rule and nobody has added or dismissed the starter rules. */
  offered: boolean;
  /** When an admin added them or dismissed the offer (null: not yet). */
  decidedAt: Date | null;
  /** Each starter rule, with the rule enabled from it when there is one. */
  rules: SuggestionState[];
}

/** The offer as the caller's tenant sees it now. */
export async function starterRulesOffer(ctx: Ctx): Promise<StarterRulesOffer> {
  const me = requireUser(ctx);
  const [tenant, anyRule, fromStarter] = await Promise.all([
    ctx.rt.prisma.tenant.findUniqueOrThrow({ where: { id: me.tenantId }, select: { starterRulesDecidedAt: true } }),
    ctx.db.alertRule.findFirst({ select: { id: true } }),
    ctx.db.alertRule.findMany({ where: { suggestionKey: { in: [...STARTER_RULE_KEYS] } } }),
  ]);
  const byKey = new Map(fromStarter.map((r) => [r.suggestionKey!, r]));
  return {
    offered: !tenant.starterRulesDecidedAt && !anyRule,
    decidedAt: tenant.starterRulesDecidedAt,
    rules: STATIC_SUGGESTIONS.map((s) => ({ ...s, rule: byKey.get(s.key) ?? null })),
  };
}

/** Records that the offer was answered (the first answer's time is kept). */
async function decide(ctx: Ctx): Promise<void> {
  const me = requireUser(ctx);
  await ctx.rt.prisma.tenant.updateMany({
    where: { id: me.tenantId, starterRulesDecidedAt: null },
    data: { starterRulesDecidedAt: ctx.rt.clock.now() },
  });
}

/**
 * Enables every starter rule (idempotent: a rule already made from one is turned on, not duplicated)
 * and closes the offer. The caller's permission is checked by the field (admins).
 */
export async function addStarterRules(ctx: Ctx): Promise<StarterRulesOffer> {
  for (const key of STARTER_RULE_KEYS) await enableSuggestedRule(ctx, key);
  await decide(ctx);
  return starterRulesOffer(ctx);
}

/** Closes the offer without adding rules; the rules stay available under Alert rules → Suggested rules. */
export async function dismissStarterRules(ctx: Ctx): Promise<StarterRulesOffer> {
  await decide(ctx);
  return starterRulesOffer(ctx);
}
