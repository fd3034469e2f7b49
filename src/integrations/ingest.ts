/**
 * On-demand ingest (POST /integrations/<provider>/ingest): pulls every enabled integration of the
 * provider now and records what changed. Rate-limited per tenant and provider
 * (INTEGRATION_INGEST_PER_MINUTE), because each call makes the service call the remote systems.
 */
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { redisLimiter } from '../limiter.js';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { Integration } from '../generated/prisma/client.js';
import { Conflict, RateLimited } from '../errors.js';
import { getProvider, listProviders } from './registry.js';
import { configProblems, effectiveConfigOf, integrationUrlPolicy, missingIntegrationHint } from './integrations.js';
import { recordSignals } from './record.js';
import { noteIntegrationError, noteIntegrationSuccess } from './health.js';

declare module '../runtime.js' {
  interface RuntimeParts {
    integrationIngestLimiter: RateLimiterRedis;
  }
}

/** Builds the runtime's integration ingest limiter (src/server/runtime-parts.ts, before any traffic). */
export function createIntegrationIngestLimiter(rt: Runtime): RateLimiterRedis {
  return redisLimiter(rt, 'integration-ingest', rt.config.integrations.ingestPerMinute, 60);
}

function limiterOf(rt: Runtime): RateLimiterRedis {
  return rt.parts.integrationIngestLimiter;
}

async function consume(rt: Runtime, key: string): Promise<void> {
  try {
    await limiterOf(rt).consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes)
      throw new RateLimited(
        Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
        `On-demand ingest is limited to ${rt.config.integrations.ingestPerMinute} per minute per provider; retry later.`,
      );
    throw err;
  }
}

export interface PullOutcome {
  integrationId: string;
  name: string;
  ok: boolean;
  events: number;
  alertsOpened: number;
  alertsResolved: number;
  error: string | null;
  summary: Record<string, number>;
}

/** Pulls one integration and records the changes; failures are noted on it and returned, not thrown. */
export async function pullIntegration(rt: Runtime, integ: Integration): Promise<PullOutcome> {
  const p = getProvider(integ.provider);
  const base = {
    integrationId: integ.id,
    name: integ.name,
    events: 0,
    alertsOpened: 0,
    alertsResolved: 0,
    summary: {},
  };
  try {
    if (!p.pull) throw new Error(`${p.name} integrations cannot be pulled`);
    const config = await effectiveConfigOf(rt, integ);
    const problems = configProblems(p, config, ['config']);
    if (problems.length)
      throw new Error(`invalid config: ${problems.map((x) => `${x.loc.slice(1).join('.')} ${x.msg}`).join('; ')}`);
    if ('url' in p.configSchema.properties && !config.url) throw new Error('no url configured to pull from');
    const result = await p.pull({
      rt,
      config,
      policy: integrationUrlPolicy(rt),
      timeoutMs: rt.config.integrations.probeTimeoutMs,
      integration: integ,
    });
    const recorded = await recordSignals(rt, integ, result.signals, {
      via: 'system',
      onlyChanges: true,
      resolveMissing: result.complete,
    });
    if (result.error) {
      // Part of it failed (e.g. one target of several): what was pulled is recorded, the failure noted.
      const message = `pull partly failed: ${result.error}`;
      await noteIntegrationError(rt, integ, message);
      return { ...base, ok: false, error: message, ...recorded, summary: result.summary ?? {} };
    }
    await noteIntegrationSuccess(rt, integ, true);
    return { ...base, ok: true, error: null, ...recorded, summary: result.summary ?? {} };
  } catch (err) {
    const message = `pull failed: ${(err as Error).message}`;
    await noteIntegrationError(rt, integ, message);
    return { ...base, ok: false, error: message };
  }
}

/** Pulls every enabled integration of `provider` of the caller's tenant now; with none, a hint says what to do. */
export async function ingestProvider(
  ctx: Ctx,
  provider: string,
): Promise<{ provider: string; integrations: PullOutcome[]; hint: string | null }> {
  const me = requireUser(ctx);
  const p = getProvider(provider);
  if (!p.pull) throw new Conflict(`${p.name} integrations receive pushes and cannot be pulled.`);
  await consume(ctx.rt, `${me.tenantId}:${p.id}`);
  const rows = await ctx.db.integration.findMany({
    where: { provider: p.id, enabled: true },
    orderBy: { createdAt: 'asc' },
  });
  const outcomes: PullOutcome[] = [];
  for (const row of rows) outcomes.push(await pullIntegration(ctx.rt, row));
  const disabled = rows.length ? 0 : await ctx.db.integration.count({ where: { provider: p.id, enabled: false } });
  return {
    provider: p.id,
    integrations: outcomes,
    hint: missingIntegrationHint(p, { enabled: rows.length, disabled }),
  };
}

/** How often the `integration-pull` task looks for integrations due a scheduled pull. */
export const SCHEDULED_PULL_TICK_MS = 5_000;

/**
 * The periodic task: pulls each enabled integration whose provider schedules pulls
 * (`pullEverySeconds`, e.g. dcgm's `interval_seconds`) and whose interval has elapsed since its last
 * scheduled pull. A Redis key per integration that lives for the interval claims the pull, so across
 * workers and overlapping runs each interval pulls once. On-demand ingest does not move the schedule.
 */
export async function pullDueIntegrations(rt: Runtime): Promise<{ due: number; pulled: number; failed: number }> {
  const scheduled = listProviders()
    .filter((p) => p.pull && p.pullEverySeconds)
    .map((p) => p.id);
  if (scheduled.length === 0) return { due: 0, pulled: 0, failed: 0 };
  const rows = await rt.prisma.integration.findMany({
    where: { enabled: true, provider: { in: scheduled } },
    orderBy: { id: 'asc' },
  });
  let due = 0;
  let failed = 0;
  for (const row of rows) {
    try {
      const p = getProvider(row.provider);
      const everyS = p.pullEverySeconds!(await effectiveConfigOf(rt, row));
      if (!everyS || everyS <= 0) continue;
      const claimed = await rt.redis.set(
        `${rt.config.redisPrefix}:integration-pull:${row.id}`,
        String(rt.clock.now().getTime()),
        'PX',
        Math.max(1000, everyS * 1000 - 500),
        'NX',
      );
      if (claimed !== 'OK') continue;
      due++;
      if (!(await pullIntegration(rt, row)).ok) failed++;
    } catch (err) {
      failed++;
      rt.logger.warn({ err: (err as Error).message, integrationId: row.id }, 'scheduled integration pull failed');
    }
  }
  return { due, pulled: due - failed, failed };
}
