/**
 * GraphQL of integrations: the provider registry, the tenant's integrations with their health (types and
 * the `integrationHealthChanged` subscription in schema/integration-health.ts), per-tenant provider config
 * (secrets masked, with a hint while no integration uses it), and on-demand ingest. Reading and ingest
 * are open to every user of the tenant (docs/spec.md "Authentication" rule 3: a member can investigate); every
 * change is for admins.
 */
import { builder, requestOrigin, NodeRef } from './builder.js';
import { listProviders, secretFields } from '../src/integrations/registry.js';
import type { Provider } from '../src/integrations/types.js';
import {
  createIntegration,
  deleteIntegration,
  deleteProviderConfig,
  dryRunIntegration,
  getIntegration,
  getProviderConfig,
  listIntegrations,
  pushUrlOf,
  putProviderConfig,
  rotatePushToken,
  shownConfig,
  updateIntegration,
  type DryRunResult,
  type ProviderConfigView,
} from '../src/integrations/integrations.js';
import { refreshHealth } from '../src/integrations/health.js';
import { ingestProvider, type PullOutcome } from '../src/integrations/ingest.js';
import type { Integration } from '../src/generated/prisma/client.js';
import { HealthEntryRef, HealthRef, ReachableCheckRef, healthOf, historyOf } from './integration-health.js';

const CapabilitiesRef = builder.objectRef<Provider['capabilities']>('IntegrationCapabilities').implement({
  fields: (t) => ({
    push: t.exposeBoolean('push', { description: 'Has its own push URL and bearer token.' }),
    pull: t.exposeBoolean('pull', { description: 'Can be pulled on demand (ingestIntegration).' }),
    health: t.exposeBoolean('health', { description: 'Has a reachability probe.' }),
  }),
});

const ProviderRef = builder.objectRef<Provider>('IntegrationProvider').implement({
  description: 'A kind of monitoring system the service connects to.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    capabilities: t.field({ type: CapabilitiesRef, resolve: (p) => p.capabilities }),
    configSchema: t.field({
      type: 'JSON',
      description: 'JSON Schema of the config; secret fields carry `x-secret: true`.',
      resolve: (p) => p.configSchema,
    }),
    secretFields: t.stringList({ resolve: (p) => secretFields(p) }),
  }),
});

const IntegrationRef = builder.prismaObject('Integration', {
  interfaces: [NodeRef],
  description: 'A monitoring system connected to the tenant.',
  fields: (t) => ({
    id: t.exposeID('id'),
    provider: t.exposeString('provider'),
    name: t.exposeString('name'),
    enabled: t.exposeBoolean('enabled'),
    config: t.field({
      type: 'JSON',
      description: "The integration's own config; secret fields show `********`.",
      resolve: (i, _a, ctx) => shownConfig(ctx.rt, i),
    }),
    freshnessSeconds: t.exposeInt('freshnessSeconds', {
      nullable: true,
      description: 'Expected interval between events; null: freshness not checked.',
    }),
    pushUrl: t.string({
      nullable: true,
      description: 'Where the system pushes (push providers), with `Authorization: Bearer <push token>`.',
      resolve: (i, _a, ctx) => pushUrlOf(ctx.rt, i, requestOrigin(ctx)),
    }),
    pushTokenPrefix: t.exposeString('pushTokenPrefix', { nullable: true }),
    escalationPolicyId: t.exposeID('escalationPolicyId', {
      nullable: true,
      description: "The policy that pages this integration's alerts (a rule's own policy wins); null: the default.",
    }),
    escalationPolicy: t.relation('escalationPolicy', { nullable: true }),
    previousPushTokenValidUntil: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'After a rotation: until then the previous push token still works.',
      resolve: (i, _a, ctx) =>
        i.previousTokenValidUntil && i.previousTokenValidUntil.getTime() > ctx.rt.clock.now().getTime()
          ? i.previousTokenValidUntil
          : null,
    }),
    lastEventAt: t.expose('lastEventAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the last event from this integration was recorded.',
    }),
    lastPullAt: t.expose('lastPullAt', { type: 'DateTime', nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    lastErrorAt: t.expose('lastErrorAt', { type: 'DateTime', nullable: true }),
    health: t.field({ type: HealthRef, resolve: (i) => healthOf(i) }),
    healthHistory: t.field({
      type: [HealthEntryRef],
      description: 'Recent checks, newest first (at most 50 are kept).',
      args: { limit: t.arg.int({ defaultValue: 20 }) },
      resolve: (i, args, ctx) => historyOf(ctx, i.id, i.tenantId, args.limit ?? 20),
    }),
    secretsCleared: t.stringList({
      description:
        'In the answer of updateIntegration: stored secret fields the change dropped because the config now calls another origin (URL host, scheme or port) and did not give them again (`********` does not count). Empty elsewhere.',
      resolve: (i) => (i as { secretsCleared?: string[] }).secretsCleared ?? [],
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const ProviderConfigRef = builder.objectRef<ProviderConfigView>('IntegrationProviderConfig').implement({
  description: "The tenant's defaults for a provider; integrations of the provider inherit them.",
  fields: (t) => ({
    provider: t.exposeString('provider'),
    config: t.field({
      type: 'JSON',
      description: 'Secret fields show `********`; send that back to keep a stored secret.',
      resolve: (c) => c.config,
    }),
    secretFields: t.exposeStringList('secretFields'),
    updatedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.updatedAt }),
    integrationCount: t.exposeInt('integrationCount', {
      description: 'Integrations of the provider (enabled or not): the ones that inherit this config.',
    }),
    hint: t.exposeString('hint', {
      nullable: true,
      description:
        'What to do next when no enabled integration inherits the config (a provider config alone is never pulled); else null.',
    }),
    secretsCleared: t.exposeStringList('secretsCleared', {
      description:
        'In the answer of setIntegrationConfig: stored secret fields dropped because the config now calls another origin and did not give them again. Empty elsewhere.',
    }),
  }),
});

const DryRunRef = builder.objectRef<DryRunResult>('IntegrationDryRun').implement({
  description:
    'What a dry run found: the config is valid (otherwise the mutation fails naming the fields) and whether the remote answers.',
  fields: (t) => ({
    provider: t.exposeString('provider'),
    name: t.exposeString('name'),
    configOk: t.boolean({ resolve: (d) => d.config.ok }),
    reachable: t.field({
      type: ReachableCheckRef,
      nullable: true,
      resolve: (d) =>
        d.reachable ? { ok: d.reachable.ok, latency_ms: d.reachable.latencyMs, message: d.reachable.message } : null,
    }),
  }),
});

interface CreatedPayload {
  dryRun: DryRunResult | null;
  integration: Integration | null;
  pushToken: string | null;
}

const CreatedRef = builder.objectRef<CreatedPayload>('CreateIntegrationPayload').implement({
  fields: (t) => ({
    integration: t.field({
      type: IntegrationRef,
      nullable: true,
      description: 'Null for a dry run.',
      resolve: (p) => p.integration,
    }),
    pushToken: t.string({
      nullable: true,
      description: 'The push token (push providers), shown this once.',
      resolve: (p) => p.pushToken,
    }),
    dryRun: t.field({
      type: DryRunRef,
      nullable: true,
      description: 'Set for a dry run, which saves nothing.',
      resolve: (p) => p.dryRun,
    }),
  }),
});

const RotatedRef = builder
  .objectRef<{ integration: Integration; pushToken: string }>('RotatedIntegrationPushToken')
  .implement({
    fields: (t) => ({
      integration: t.field({ type: IntegrationRef, resolve: (p) => p.integration }),
      pushToken: t.exposeString('pushToken', {
        description: 'Shown this once; the previous token keeps working for 24 hours.',
      }),
    }),
  });

const PullRef = builder.objectRef<PullOutcome>('IntegrationPull').implement({
  fields: (t) => ({
    integrationId: t.exposeID('integrationId'),
    name: t.exposeString('name'),
    ok: t.exposeBoolean('ok'),
    events: t.exposeInt('events', { description: 'Timeline events recorded.' }),
    alertsOpened: t.exposeInt('alertsOpened'),
    alertsResolved: t.exposeInt('alertsResolved'),
    error: t.exposeString('error', { nullable: true }),
    summary: t.field({
      type: 'JSON',
      description: 'Provider figures, e.g. {firing, targets_up, targets_down}.',
      resolve: (p) => p.summary,
    }),
  }),
});

const IngestRef = builder
  .objectRef<{ provider: string; integrations: PullOutcome[]; hint: string | null }>('IntegrationIngestResult')
  .implement({
    fields: (t) => ({
      provider: t.exposeString('provider'),
      hint: t.exposeString('hint', {
        nullable: true,
        description:
          'Set when no enabled integration of the provider was there to pull: what to do (create one, or enable one).',
      }),
      integrations: t.field({ type: [PullRef], resolve: (r) => r.integrations }),
      events: t.int({ resolve: (r) => r.integrations.reduce((n, x) => n + x.events, 0) }),
      alertsOpened: t.int({ resolve: (r) => r.integrations.reduce((n, x) => n + x.alertsOpened, 0) }),
      alertsResolved: t.int({ resolve: (r) => r.integrations.reduce((n, x) => n + x.alertsResolved, 0) }),
    }),
  });

const CreateInput = builder.inputType('CreateIntegrationInput', {
  fields: (t) => ({
    provider: t.string({ required: true }),
    name: t.string({ required: true }),
    config: t.field({ type: 'JSON', description: "An object valid against the provider's configSchema." }),
    enabled: t.boolean({ defaultValue: true }),
    freshnessSeconds: t.int({
      description: 'Expected interval between events; omit or null to turn the freshness check off.',
    }),
    escalationPolicyId: t.id({
      description: "The policy that pages this integration's alerts (overrides the tenant default).",
    }),
  }),
});

const UpdateInput = builder.inputType('UpdateIntegrationInput', {
  fields: (t) => ({
    name: t.string(),
    enabled: t.boolean(),
    config: t.field({
      type: 'JSON',
      description: 'Replaces the own config; secret fields sent as `********` keep their value.',
    }),
    freshnessSeconds: t.int({ description: 'Null turns the freshness check off; omit to keep.' }),
    escalationPolicyId: t.id({ description: 'Null: the tenant default pages its alerts; omit to keep.' }),
  }),
});

builder.queryFields((t) => ({
  integrationProviders: t.field({ type: [ProviderRef], authScopes: { user: true }, resolve: () => listProviders() }),
  integrations: t.field({
    type: [IntegrationRef],
    authScopes: { user: true },
    description: "The tenant's integrations, oldest first.",
    args: { provider: t.arg.string() },
    resolve: (_r, args, ctx) => listIntegrations(ctx, { provider: args.provider }),
  }),
  integration: t.field({
    type: IntegrationRef,
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => getIntegration(ctx, String(args.id)),
  }),
  integrationHealth: t.field({
    type: HealthRef,
    authScopes: { user: true },
    description:
      'The latest health of an integration; with refresh: true it is checked now (the remote is probed and the result stored).',
    args: { id: t.arg.id({ required: true }), refresh: t.arg.boolean({ defaultValue: false }) },
    resolve: async (_r, args, ctx) => {
      const row = await getIntegration(ctx, String(args.id));
      return healthOf(args.refresh ? (await refreshHealth(ctx.rt, row)).integration : row);
    },
  }),
  integrationConfig: t.field({
    type: ProviderConfigRef,
    authScopes: { user: true },
    args: { provider: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => getProviderConfig(ctx, args.provider),
  }),
}));

builder.mutationFields((t) => ({
  createIntegration: t.field({
    type: CreatedRef,
    authScopes: { admin: true },
    description:
      'Creates an integration (config validated against the provider schema); with dryRun: true only tests the config and probes the remote, saving nothing.',
    args: { input: t.arg({ type: CreateInput, required: true }), dryRun: t.arg.boolean({ defaultValue: false }) },
    resolve: async (_r, { input, dryRun }, ctx) => {
      const i = { ...input, config: (input.config ?? null) as Record<string, unknown> | null };
      if (dryRun) return { dryRun: await dryRunIntegration(ctx, i), integration: null, pushToken: null };
      const created = await createIntegration(ctx, i);
      return { dryRun: null, ...created };
    },
  }),
  updateIntegration: t.field({
    type: IntegrationRef,
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateInput, required: true }) },
    resolve: (_r, { id, input }, ctx) =>
      updateIntegration(ctx, String(id), {
        ...input,
        config: (input.config ?? null) as Record<string, unknown> | null,
      }),
  }),
  deleteIntegration: t.id({
    authScopes: { admin: true },
    description: 'Deletes the integration and its health history; its alerts stay. Returns its id.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => (await deleteIntegration(ctx, String(id))).id,
  }),
  rotateIntegrationPushToken: t.field({
    type: RotatedRef,
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => rotatePushToken(ctx, String(id)),
  }),
  setIntegrationConfig: t.field({
    type: ProviderConfigRef,
    authScopes: { admin: true },
    description: "Replaces the tenant's config of a provider (validated against its schema; secrets sealed).",
    args: { provider: t.arg.string({ required: true }), config: t.arg({ type: 'JSON', required: true }) },
    resolve: (_r, args, ctx) => putProviderConfig(ctx, args.provider, args.config as Record<string, unknown>),
  }),
  deleteIntegrationConfig: t.id({
    authScopes: { admin: true },
    description: "Removes the tenant's config of a provider; returns the provider id.",
    args: { provider: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => deleteProviderConfig(ctx, args.provider),
  }),
  ingestIntegration: t.field({
    type: IngestRef,
    authScopes: { user: true },
    description: 'Pulls every enabled integration of the provider now (rate-limited per tenant and provider).',
    args: { provider: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => ingestProvider(ctx, args.provider),
  }),
}));
