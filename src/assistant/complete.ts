/**
 * A plain model completion for other areas (the reports area's `translate`): the configured provider
 * (ASSISTANT_PROVIDER), the caller's tenant metered in AssistantUsage. Null with the builtin provider:
 * the caller keeps its own deterministic path, and nothing touches the network.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { assistantProvider } from './providers/index.js';
import type { Completion, CompletionRequest } from './types.js';
import { recordUsage } from './usage.js';

/** The model's answer to one system + user prompt, or null when no model is configured. */
export async function assistantComplete(ctx: Ctx, req: CompletionRequest): Promise<Completion | null> {
  requireUser(ctx);
  const provider = assistantProvider(ctx.rt);
  if (!provider.usesModel) return null;
  const c = await provider.complete(req);
  if (c) await recordUsage(ctx, provider.name, 'complete', c.usage);
  return c;
}
