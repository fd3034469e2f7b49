/**
 * Conversations: an alert's thread (shared by the tenant, one per alert) and copilot conversations
 * (the caller's own). The user's message is stored before the provider runs, so a model error or
 * timeout never loses it; the reply, its citations and its proposed actions are stored after.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { NotFound, invalid } from '../errors.js';
import type { Alert, AssistantAction, AssistantConversation, AssistantMessage } from '../generated/prisma/client.js';
import { loadAlert } from '../alerts/actions.js';
import { createToolbox } from './tools.js';
import { assistantProvider } from './providers/index.js';
import { storeProposedActions } from './actions.js';
import { validDrafts } from './triage.js';
import { assertMayReadConversation } from './policy.js';
import { recordUsage } from './usage.js';
import { consumeAssistantCall } from './rate-limit.js';

export const MAX_MESSAGE_CHARS = 4000;
/** Earlier messages handed to the provider with a new one. */
const HISTORY_TURNS = 20;
/** Most conversations GET /copilot/history returns. */
export const MAX_HISTORY_CONVERSATIONS = 50;

export interface ChatResult {
  conversation: AssistantConversation;
  message: AssistantMessage;
  reply: AssistantMessage;
  actions: AssistantAction[];
}

function checkMessage(message: string): string {
  const m = message?.trim() ?? '';
  if (!m) throw invalid('message', 'is required');
  if (m.length > MAX_MESSAGE_CHARS) throw invalid('message', `must be at most ${MAX_MESSAGE_CHARS} characters`);
  return m;
}

/** The alert's conversation, or null when nobody has written in it yet. */
export async function alertConversation(ctx: Ctx, alertId: string): Promise<AssistantConversation | null> {
  const alert = await loadAlert(ctx, alertId);
  return ctx.db.assistantConversation.findFirst({ where: { kind: 'alert', alertId: alert.id } });
}

/** A copilot conversation of the caller, or 404 (another user's is as missing as another tenant's). */
export async function loadConversation(ctx: Ctx, id: string): Promise<AssistantConversation> {
  const me = requireUser(ctx);
  const c = await ctx.db.assistantConversation.findUnique({ where: { id } });
  if (!c) throw new NotFound('Conversation');
  assertMayReadConversation(me, c);
  return c;
}

/** The caller's copilot conversations, most recently active first. */
export async function copilotHistory(ctx: Ctx, limit = 20): Promise<AssistantConversation[]> {
  const me = requireUser(ctx);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_HISTORY_CONVERSATIONS)
    throw invalid(['limit'], `must be an integer from 1 to ${MAX_HISTORY_CONVERSATIONS}`);
  return ctx.db.assistantConversation.findMany({
    where: { kind: 'copilot', userId: me.userId },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
}

async function runTurn(
  ctx: Ctx,
  conv: AssistantConversation,
  alert: Alert | null,
  text: string,
  onDelta?: (t: string) => void,
): Promise<ChatResult> {
  const me = requireUser(ctx);
  const history = (
    await ctx.db.assistantMessage.findMany({
      where: { conversationId: conv.id },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: HISTORY_TURNS,
    })
  ).reverse();
  const message = await ctx.db.assistantMessage.create({
    data: { tenantId: me.tenantId, conversationId: conv.id, role: 'user', authorId: me.userId, content: text },
  });
  await ctx.db.assistantConversation.update({ where: { id: conv.id }, data: { updatedAt: ctx.rt.clock.now() } });

  const provider = assistantProvider(ctx.rt);
  const toolbox = createToolbox(ctx, alert?.id ?? null);
  const draft = await provider.chat({
    ctx,
    alert,
    history: history.map((m) => ({ role: m.role, content: m.content })),
    message: text,
    toolbox,
    onDelta,
  });
  await recordUsage(ctx, provider.name, alert ? 'alert_chat' : 'copilot_chat', draft.usage);

  const drafts = validDrafts(
    ctx,
    draft.actions.map((d) => ({ ...d, alertId: d.alertId ?? alert?.id })),
    alert?.id ?? '',
  ).filter((d) => d.alertId);
  const alerts = new Map<string, Alert>();
  for (const id of new Set(drafts.map((d) => d.alertId!))) {
    const a = id === alert?.id ? alert : await ctx.db.alert.findUnique({ where: { id } });
    if (a) alerts.set(id, a);
  }
  const { reply, actions } = await ctx.db.$transaction(async (tx) => {
    const actions = await storeProposedActions(tx, ctx, drafts, alerts, { conversationId: conv.id });
    const reply = await tx.assistantMessage.create({
      data: {
        tenantId: me.tenantId,
        conversationId: conv.id,
        role: 'assistant',
        content: draft.reply || '(no answer)',
        citations: [...new Set(draft.citations)].slice(0, 100),
        actionIds: actions.map((a) => a.id),
        provider: provider.name,
      },
    });
    return { reply, actions };
  });
  const conversation = await ctx.db.assistantConversation.update({
    where: { id: conv.id },
    data: { updatedAt: ctx.rt.clock.now() },
  });
  return { conversation, message, reply, actions };
}

/** One turn in the alert's shared conversation (created on the first message). */
export async function sendAlertChat(
  ctx: Ctx,
  input: { alertId: string; message: string },
  onDelta?: (t: string) => void,
): Promise<ChatResult> {
  const me = requireUser(ctx);
  const text = checkMessage(input.message);
  await consumeAssistantCall(ctx.rt, me);
  const alert = await loadAlert(ctx, input.alertId);
  const conv = await ctx.db.assistantConversation.upsert({
    where: { tenantId_alertId: { tenantId: me.tenantId, alertId: alert.id } },
    create: { tenantId: me.tenantId, kind: 'alert', alertId: alert.id, title: `Alert ${alert.id}` },
    update: {},
  });
  return runTurn(ctx, conv, alert, text, onDelta);
}

/** One copilot turn: continues the caller's conversation, or starts one. */
export async function copilotChat(
  ctx: Ctx,
  input: { message: string; conversationId?: string | null },
  onDelta?: (t: string) => void,
): Promise<ChatResult> {
  const me = requireUser(ctx);
  const text = checkMessage(input.message);
  await consumeAssistantCall(ctx.rt, me);
  let conv: AssistantConversation;
  if (input.conversationId) {
    conv = await loadConversation(ctx, input.conversationId);
    if (conv.kind !== 'copilot') throw new NotFound('Conversation');
  } else {
    conv = await ctx.db.assistantConversation.create({
      data: {
        tenantId: me.tenantId,
        kind: 'copilot',
        userId: me.userId,
        title: text.replace(/\s+/g, ' ').slice(0, 80),
      },
    });
  }
  return runTurn(ctx, conv, null, text, onDelta);
}
