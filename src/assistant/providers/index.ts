/**
 * The configured provider of a runtime (ASSISTANT_PROVIDER). Other areas (reports' translate) call
 * `assistantProvider(rt)` and use `complete()`, which is null for builtin: they keep their own
 * deterministic path then. The builtin provider never opens a connection.
 */
import type { Runtime } from '../../runtime.js';
import type { AssistantProvider } from '../types.js';
import { builtinProvider } from './builtin.js';
import { createOpenAIProvider } from './openai.js';

const byRuntime = new WeakMap<Runtime, AssistantProvider>();

/** The provider ASSISTANT_PROVIDER names, built once per runtime. */
export function assistantProvider(rt: Runtime): AssistantProvider {
  let p = byRuntime.get(rt);
  if (!p) {
    p = rt.config.assistant.provider === 'openai' ? createOpenAIProvider(rt.config.assistant) : builtinProvider;
    byRuntime.set(rt, p);
  }
  return p;
}
