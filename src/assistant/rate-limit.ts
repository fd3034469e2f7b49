/**
 * Assistant and copilot calls (a chat turn, a triage) per user and per tenant per minute
 * (ASSISTANT_RATE_PER_USER_PER_MINUTE, default 20; ASSISTANT_RATE_PER_TENANT_PER_MINUTE, default 60):
 * each call may cost a paid model's tokens (issue 40). Counted in Redis so the budget holds across
 * nodes, with an in-process limiter of the same budget standing in while Redis is unreachable (as the
 * inbound limit does, src/events/rate-limit.ts). Past either budget: RateLimited, 429 with Retry-After.
 */
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { redisLimiter } from '../limiter.js';
import type { Runtime } from '../runtime.js';
import { RateLimited } from '../errors.js';

export interface AssistantLimiters {
  perUser: RateLimiterRedis;
  perTenant: RateLimiterRedis;
}

declare module '../runtime.js' {
  interface RuntimeParts {
    assistantLimiters: AssistantLimiters;
  }
}

/** Builds the runtime's assistant limiters (src/server/runtime-parts.ts, before any traffic). */
export function createAssistantLimiters(rt: Runtime): AssistantLimiters {
  return {
    perUser: redisLimiter(rt, 'assistant:user', rt.config.assistantRatePerUserPerMinute, 60),
    perTenant: redisLimiter(rt, 'assistant:tenant', rt.config.assistantRatePerTenantPerMinute, 60),
  };
}

/** Counts one assistant call of the user; throws RateLimited (429) past the user's or the tenant's budget. */
export async function consumeAssistantCall(rt: Runtime, who: { userId: string; tenantId: string }): Promise<void> {
  const { perUser, perTenant } = rt.parts.assistantLimiters;
  try {
    await perUser.consume(who.userId);
  } catch (err) {
    if (err instanceof RateLimiterRes)
      throw new RateLimited(
        Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
        `You made ${rt.config.assistantRatePerUserPerMinute} assistant calls in the last minute (ASSISTANT_RATE_PER_USER_PER_MINUTE); retry later.`,
      );
    throw err;
  }
  try {
    await perTenant.consume(who.tenantId);
  } catch (err) {
    if (err instanceof RateLimiterRes)
      throw new RateLimited(
        Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
        `This tenant made ${rt.config.assistantRatePerTenantPerMinute} assistant calls in the last minute (ASSISTANT_RATE_PER_TENANT_PER_MINUTE); retry later.`,
      );
    throw err;
  }
}
