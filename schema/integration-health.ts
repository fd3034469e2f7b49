/**
 * GraphQL of integration health: the status enum, the checks that say why, the latest check and its
 * history (`Integration.health`, `healthHistory`), and the `integrationHealthChanged` subscription. The
 * integrations module (schema/integrations.ts) puts them on `Integration`.
 */
import { filter, pipe } from 'graphql-yoga';
import { builder } from './builder.js';
import type { Ctx } from '../src/context.js';
import { requireUser } from '../src/context.js';
import { healthHistory, type HealthChecks } from '../src/integrations/health.js';
import type { Integration, IntegrationHealthStatus } from '../src/generated/prisma/client.js';

export const IntegrationHealthStatusEnum = builder.enumType('IntegrationHealthStatus', {
  description:
    'HEALTHY: every check that applies passes. DEGRADED: reachable, freshness or errors fails (see reason). FAILING: the config is invalid. UNKNOWN: nothing observed yet.',
  values: {
    HEALTHY: { value: 'healthy' },
    DEGRADED: { value: 'degraded' },
    FAILING: { value: 'failing' },
    UNKNOWN: { value: 'unknown' },
  } as const,
});

const ConfigProblemRef = builder.objectRef<{ field: string; message: string }>('IntegrationConfigProblem').implement({
  fields: (t) => ({ field: t.exposeString('field'), message: t.exposeString('message') }),
});
const ConfigCheckRef = builder.objectRef<HealthChecks['config']>('IntegrationConfigCheck').implement({
  fields: (t) => ({
    ok: t.exposeBoolean('ok'),
    problems: t.field({ type: [ConfigProblemRef], resolve: (c) => c.problems }),
  }),
});
export const ReachableCheckRef = builder.objectRef<HealthChecks['reachable']>('IntegrationReachableCheck').implement({
  fields: (t) => ({
    ok: t.boolean({
      nullable: true,
      description: 'Null when the provider has no probe or no URL is configured.',
      resolve: (c) => c.ok,
    }),
    latencyMs: t.int({ nullable: true, resolve: (c) => c.latency_ms }),
    message: t.exposeString('message'),
  }),
});
const FreshnessCheckRef = builder.objectRef<HealthChecks['freshness']>('IntegrationFreshnessCheck').implement({
  fields: (t) => ({
    ok: t.boolean({ nullable: true, description: 'Null when the tenant turned the check off.', resolve: (c) => c.ok }),
    expectedSeconds: t.int({ nullable: true, resolve: (c) => c.expected_seconds }),
    lastEventAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.last_event_at }),
    ageSeconds: t.int({ nullable: true, resolve: (c) => c.age_seconds }),
    message: t.exposeString('message'),
  }),
});
const ErrorsCheckRef = builder.objectRef<HealthChecks['errors']>('IntegrationErrorsCheck').implement({
  fields: (t) => ({
    ok: t.exposeBoolean('ok', {
      description: 'False while pull or push errors of the last hour are unanswered by a success.',
    }),
    count: t.exposeInt('count'),
    lastError: t.string({ nullable: true, resolve: (c) => c.last_error }),
    lastErrorAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.last_error_at }),
  }),
});
const ChecksRef = builder.objectRef<HealthChecks>('IntegrationHealthChecks').implement({
  fields: (t) => ({
    config: t.field({ type: ConfigCheckRef, resolve: (c) => c.config }),
    reachable: t.field({ type: ReachableCheckRef, resolve: (c) => c.reachable }),
    freshness: t.field({ type: FreshnessCheckRef, resolve: (c) => c.freshness }),
    errors: t.field({ type: ErrorsCheckRef, resolve: (c) => c.errors }),
  }),
});

interface HealthView {
  integrationId?: string;
  tenantId?: string;
  status: IntegrationHealthStatus;
  checks: HealthChecks | null;
  reason: string | null;
  checkedAt: Date | null;
}

export const HealthEntryRef = builder.objectRef<HealthView>('IntegrationHealthEntry').implement({
  fields: (t) => ({
    status: t.field({ type: IntegrationHealthStatusEnum, resolve: (h) => h.status }),
    checks: t.field({ type: ChecksRef, nullable: true, resolve: (h) => h.checks }),
    reason: t.exposeString('reason', { nullable: true }),
    checkedAt: t.field({ type: 'DateTime', nullable: true, resolve: (h) => h.checkedAt }),
  }),
});

export const HealthRef = builder.objectRef<HealthView>('IntegrationHealth').implement({
  description: 'The latest health check: a status and the checks that explain it.',
  fields: (t) => ({
    status: t.field({ type: IntegrationHealthStatusEnum, resolve: (h) => h.status }),
    checks: t.field({
      type: ChecksRef,
      nullable: true,
      description: 'Null until the first check.',
      resolve: (h) => h.checks,
    }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why it is not healthy, one line.' }),
    checkedAt: t.field({ type: 'DateTime', nullable: true, resolve: (h) => h.checkedAt }),
    history: t.field({
      type: [HealthEntryRef],
      description: 'Recent checks, newest first (at most 50 are kept).',
      args: { limit: t.arg.int({ defaultValue: 20 }) },
      resolve: (h, args, ctx) => historyOf(ctx, h.integrationId!, h.tenantId!, args.limit ?? 20),
    }),
  }),
});

export async function historyOf(
  ctx: Ctx,
  integrationId: string,
  tenantId: string,
  limit: number,
): Promise<HealthView[]> {
  return (await healthHistory(ctx.rt, integrationId, tenantId, limit)).map((h) => ({
    status: h.status,
    checks: h.checks as unknown as HealthChecks,
    reason: h.reason,
    checkedAt: h.checkedAt,
  }));
}

export function healthOf(i: Integration): HealthView {
  const checks = i.healthCheckedAt ? (i.healthChecks as unknown as HealthChecks) : null;
  return {
    integrationId: i.id,
    tenantId: i.tenantId,
    status: i.healthStatus,
    checks,
    reason: i.healthReason,
    checkedAt: i.healthCheckedAt,
  };
}

interface HealthChangePayload {
  integrationId: string;
  provider: string;
  name: string;
  status: IntegrationHealthStatus;
  previousStatus: IntegrationHealthStatus;
  reason: string | null;
  checkedAt: string;
}

const HealthChangeRef = builder.objectRef<HealthChangePayload>('IntegrationHealthChange').implement({
  description: "An integration's health status changed.",
  fields: (t) => ({
    integrationId: t.exposeID('integrationId'),
    provider: t.exposeString('provider'),
    name: t.exposeString('name'),
    status: t.field({ type: IntegrationHealthStatusEnum, resolve: (c) => c.status }),
    previousStatus: t.field({ type: IntegrationHealthStatusEnum, resolve: (c) => c.previousStatus }),
    reason: t.exposeString('reason', { nullable: true }),
    checkedAt: t.field({ type: 'DateTime', resolve: (c) => c.checkedAt }),
  }),
});

builder.subscriptionFields((t) => ({
  integrationHealthChanged: t.field({
    type: HealthChangeRef,
    authScopes: { user: true },
    description:
      "Fires when the health status of an integration of the caller's tenant changes (optionally one integration).",
    args: { integrationId: t.arg.id() },
    subscribe: (_r, args, ctx) => {
      const me = requireUser(ctx);
      const only = args.integrationId ? String(args.integrationId) : null;
      return pipe(
        ctx.rt.pubsub.subscribe('integrationHealthChanged', me.tenantId),
        filter((p) => !only || p.integrationId === only),
      );
    },
    resolve: (p) => p as unknown as HealthChangePayload,
  }),
}));
