/**
 * Every Lua command the service defines on the runtime's Redis client, defined as the runtime starts,
 * before any traffic. ioredis copies a client's custom commands into an auto-pipeline when it creates the
 * pipeline; a command first defined while one is pending (a rate limiter built by the first request that
 * needs it) is missing from that pipeline, and ioredis then throws an uncaught TypeError ("results[i] is
 * not iterable", redis/ioredis#1931) that ends the process. A limiter or script added later belongs here.
 */
import type { Runtime } from '../runtime.js';
import { defineReceiverAdmission } from '../deliveries/receiver-limits.js';
import { prepareInboundRateLimit } from '../events/rate-limit.js';
import { prepareIntegrationIngestLimit } from '../integrations/ingest.js';
import { prepareLoginLimits } from '../auth/sessions.js';
import { defineReportSlots } from '../reports/slots.js';
import { prepareAssistantRateLimits } from '../assistant/rate-limit.js';

export function defineRedisCommands(rt: Runtime): void {
  defineReceiverAdmission(rt.redis);
  prepareInboundRateLimit(rt);
  prepareIntegrationIngestLimit(rt);
  prepareLoginLimits(rt);
  defineReportSlots(rt);
  prepareAssistantRateLimits(rt);
}
