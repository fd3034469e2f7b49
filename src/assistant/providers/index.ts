/**
 * The configured provider of a runtime (ASSISTANT_PROVIDER). Other areas (reports' translate) call
 * `assistantProvider(rt)` and use `complete()`, which is null for builtin: they keep their own
 * deterministic path then. The builtin provider never opens a connection.
 */
import type { Runtime } from '../../runtime.js';
import type { AssistantProvider } from '../types.js';
import { builtinProvider } from './builtin.js';
import { createOpenAIProvider } from './openai.js';

declare module '../../runtime.js' {
  interface RuntimeParts {
    assistantProvider: AssistantProvider;
  }
}

/** Builds the provider ASSISTANT_PROVIDER names (src/server/runtime-parts.ts). */
export function createAssistantProvider(rt: Runtime): AssistantProvider {
  return rt.config.assistant.provider === 'openai' ? createOpenAIProvider(rt.config.assistant) : builtinProvider;
}

/** The runtime's provider. */
export function assistantProvider(rt: Runtime): AssistantProvider {
  return rt.parts.assistantProvider;
}
