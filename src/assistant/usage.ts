/**
 * Token usage per tenant, one row per provider call (builtin calls record zero tokens, so the number
 * of assistant calls is metered too). The billing area reads AssistantUsage.
 */
import type { Ctx } from '../context.js';
import type { TokenUsage } from './types.js';

export type UsagePurpose = 'triage' | 'alert_chat' | 'copilot_chat' | 'complete';

/** Records one call's usage for the caller's tenant. */
export async function recordUsage(ctx: Ctx, provider: string, purpose: UsagePurpose, usage: TokenUsage): Promise<void> {
  await ctx.db.assistantUsage.create({
    data: {
      tenantId: ctx.principal!.tenantId,
      userId: ctx.principal?.userId ?? null,
      provider,
      model: usage.model,
      purpose,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      totalTokens: usage.totalTokens,
    },
  });
}
