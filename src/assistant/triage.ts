/**
 * Triage of an alert: the deterministic checks, then the configured provider's summary, likely
 * causes and proposed actions. Evidence is kept only when it names a record the checks, the ranking or
 * the tools actually returned, and confidence follows from relatedness (src/assistant/evidence.ts);
 * actions are validated and stored as `proposed`. Re-running makes a new triage.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { DomainError } from '../errors.js';
import type { AssistantTriage, Prisma } from '../generated/prisma/client.js';
import { loadAlert } from '../alerts/actions.js';
import { gatherFacts, runChecks } from './checks.js';
import { createToolbox } from './tools.js';
import { assistantProvider } from './providers/index.js';
import { parseActionDraft } from './action-args.js';
import { storeProposedActions } from './actions.js';
import { recordUsage } from './usage.js';
import { settleCauses } from './evidence.js';
import type { ActionDraft } from './types.js';
import { consumeAssistantCall } from './rate-limit.js';

/** Keeps the drafts that pass validation for `alertId` (the others are logged and dropped). */
export function validDrafts(ctx: Ctx, drafts: ActionDraft[], alertId: string): ActionDraft[] {
  const out: ActionDraft[] = [];
  for (const d of drafts) {
    try {
      out.push(parseActionDraft(d, d.alertId ?? alertId));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      ctx.rt.logger.info({ tool: d.tool, problem: err.message }, 'assistant: dropped an invalid proposed action');
    }
  }
  return out;
}

/** Runs a triage of the alert for the caller and stores it with its proposed actions. */
export async function triageAlert(ctx: Ctx, input: { alertId: string }): Promise<AssistantTriage> {
  const me = requireUser(ctx);
  const alert = await loadAlert(ctx, input.alertId);
  await consumeAssistantCall(ctx.rt, me);
  const facts = await gatherFacts(ctx, alert);
  const checks = runChecks(facts);
  const toolbox = createToolbox(ctx, alert.id);
  const provider = assistantProvider(ctx.rt);
  const draft = await provider.triage({ ctx, alert, facts, checks, toolbox });
  await recordUsage(ctx, provider.name, 'triage', draft.usage);

  const causes = await settleCauses(ctx, facts, checks, draft.likelyCauses, toolbox.seenIds);
  // Actions for other alerts than the one triaged are not this triage's business.
  const drafts = validDrafts(ctx, draft.actions, alert.id).filter((d) => d.alertId === alert.id);

  return ctx.db.$transaction(async (tx) => {
    const triage = await tx.assistantTriage.create({
      data: {
        tenantId: me.tenantId,
        alertId: alert.id,
        provider: provider.name,
        summary: draft.summary,
        checks: checks as unknown as Prisma.InputJsonValue,
        likelyCauses: causes as unknown as Prisma.InputJsonValue,
        requestedById: me.userId,
      },
    });
    await storeProposedActions(tx, ctx, drafts, new Map([[alert.id, alert]]), { triageId: triage.id });
    return triage;
  });
}
