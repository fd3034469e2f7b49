/**
 * Every stateful piece the areas keep per process, built in one place when the runtime is created
 * (`createRuntime(…, { parts: buildRuntimeParts })`), so this file lists what a process holds.
 *
 * Building them here, before any traffic, also defines every Lua command on the runtime's Redis client
 * (the rate limiters' and the receivers' admission script). ioredis copies a client's custom commands into
 * an auto-pipeline when it creates the pipeline; a command first defined while one is pending (a limiter built
 * by the first request that needs it) is missing from that pipeline, and ioredis then throws an uncaught
 * TypeError ("results[i] is not iterable", redis/ioredis#1931) that ends the process. A limiter or script
 * added later is a part too.
 */
import type { Runtime, RuntimeParts } from '../runtime.js';
import { createUrlPolicy } from '../net/url-guard.js';
import { createLoginLimiters } from '../auth/sessions.js';
import { createPasswordResetLimiters } from '../users/password-reset.js';
import { createConnectionChecks } from '../auth/connection-credentials.js';
import { createDeliveryEngine } from '../deliveries/deps.js';
import { createEventIngest } from '../events/ingest.js';
import { createInboundRateLimiter } from '../events/rate-limit.js';
import { createApiRateLimiter } from '../http/api-rate-limit.js';
import { createIntegrationIngestLimiter } from '../integrations/ingest.js';
import { createAssistantProvider } from '../assistant/providers/index.js';
import { createReportSlots } from '../reports/slots.js';
import { createAssistantLimiters } from '../assistant/rate-limit.js';
import { createReplicaLagPool } from '../reports-replica.js';
import { createNotifyFetch } from '../notifications/send.js';
import { createSsoDiscovery } from '../sso/providers.js';
import { createEvaluationBudget } from '../rules/evaluation-budget.js';

/**
 * How each part is made, in the order they are built (the URL policy first: the delivery engine's sender
 * reads it). A part declared in `RuntimeParts` without a line here does not compile.
 */
const FACTORIES: { [K in keyof RuntimeParts]: (rt: Runtime) => RuntimeParts[K] } = {
  urlPolicy: createUrlPolicy,
  loginLimiters: createLoginLimiters,
  passwordResetLimiters: createPasswordResetLimiters,
  connectionChecks: createConnectionChecks,
  ingestKeyMemo: () => new Map(),
  inboundRateLimiter: createInboundRateLimiter,
  apiRateLimiter: createApiRateLimiter,
  integrationIngestLimiter: createIntegrationIngestLimiter,
  eventIngest: createEventIngest,
  deliveryEngine: createDeliveryEngine,
  assistantProvider: createAssistantProvider,
  reportSlots: createReportSlots,
  assistantLimiters: createAssistantLimiters,
  replicaLagPool: createReplicaLagPool,
  notifyFetch: createNotifyFetch,
  ssoDiscovery: createSsoDiscovery,
  evaluationBudget: createEvaluationBudget,
};

/** Builds every part of a service runtime now, before any traffic. */
export function buildRuntimeParts(rt: Runtime): RuntimeParts {
  const parts = rt.parts as unknown as Record<string, unknown>;
  for (const [name, make] of Object.entries(FACTORIES)) parts[name] = (make as (rt: Runtime) => unknown)(rt);
  return parts as unknown as RuntimeParts;
}

/**
 * The parts of an operator command's runtime, each built on first use: a command needs few of them, and
 * most need Redis, which a command may not have.
 */
export function lazyRuntimeParts(rt: Runtime): RuntimeParts {
  const parts = {} as RuntimeParts;
  for (const [name, make] of Object.entries(FACTORIES)) {
    let built: { value: unknown } | undefined;
    Object.defineProperty(parts, name, {
      enumerable: true,
      get: () => (built ??= { value: (make as (rt: Runtime) => unknown)(rt) }).value,
    });
  }
  return parts;
}
