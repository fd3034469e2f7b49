/**
 * The `assistantChat` subscription: one assistant turn (an alert's conversation or the copilot) with
 * the reply streamed as it is produced. The mutations (schema/assistant.ts) and REST return it whole.
 */
import { builder } from './builder.js';
import { ChatReplyRef } from './assistant.js';
import { requireUser } from '../src/context.js';
import { copilotChat, sendAlertChat, type ChatResult } from '../src/assistant/chat.js';

interface ChatChunk {
  delta: string;
  done: boolean;
  result: ChatResult | null;
}

const ChatChunkRef = builder.objectRef<ChatChunk>('AssistantChatChunk').implement({
  description: 'A piece of a streamed reply; the last one has done = true and the stored turn.',
  fields: (t) => ({
    delta: t.exposeString('delta'),
    done: t.exposeBoolean('done'),
    result: t.field({ type: ChatReplyRef, nullable: true, resolve: (c) => c.result }),
  }),
});

const AssistantChatInput = builder.inputType('AssistantChatInput', {
  fields: (t) => ({
    message: t.string({ required: true }),
    alertId: t.id({ description: "Write in this alert's conversation." }),
    conversationId: t.id({ description: 'Continue this copilot conversation (ignored with alertId).' }),
  }),
});

/** Runs a turn and yields its reply as it is produced, then the stored result. */
async function* streamTurn(run: (onDelta: (d: string) => void) => Promise<ChatResult>): AsyncGenerator<ChatChunk> {
  const queue: ChatChunk[] = [];
  let wake: (() => void) | null = null;
  let failure: unknown = null;
  const push = (c: ChatChunk) => {
    queue.push(c);
    wake?.();
  };
  run((delta) => push({ delta, done: false, result: null })).then(
    (result) => push({ delta: '', done: true, result }),
    (err) => {
      failure = err ?? new Error('failed');
      wake?.();
    },
  );
  for (;;) {
    const next = queue.shift();
    if (next) {
      yield next;
      if (next.done) return;
      continue;
    }
    if (failure) throw failure;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
}

builder.subscriptionFields((t) => ({
  assistantChat: t.field({
    type: ChatChunkRef,
    authScopes: { user: true },
    description:
      'One assistant turn with the reply streamed as it is produced (REST and the mutations return it whole).',
    args: { input: t.arg({ type: AssistantChatInput, required: true }) },
    subscribe: (_root, { input }, ctx) => {
      requireUser(ctx);
      return streamTurn((onDelta) =>
        input.alertId
          ? sendAlertChat(ctx, { alertId: String(input.alertId), message: input.message }, onDelta)
          : copilotChat(
              ctx,
              {
                message: input.message,
                conversationId: input.conversationId == null ? null : String(input.conversationId),
              },
              onDelta,
            ),
      );
    },
    resolve: (c) => c,
  }),
}));
