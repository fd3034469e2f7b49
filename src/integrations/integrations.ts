/**
 * Integrations of a tenant: create (with a dry run that tests the config without saving), update,
 * delete, rotate the push token, and the per-tenant provider config. Config is validated against the
 * provider's schema (422 naming each field), URL fields pass the outbound SSRF guard when saved, secret
 * fields are sealed with the runtime's SecretBox and shown masked. Role rules (admin for changes) are
 * Pothos scopes on the fields; these functions need a user credential.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { Integration, IntegrationProviderConfig } from '../generated/prisma/client.js';
import { Conflict, NotFound, ValidationFailed, invalid, type FieldProblem } from '../errors.js';
import { isUniqueViolation } from '../db/errors.js';
import { escalationPolicyRefProblem } from '../escalation/policy-ref.js';
import { randomSecret, tokenHash } from '../secrets.js';
import { ROTATION_GRACE_MS, rotationInGrace } from '../auth/secret-rotation.js';
import { assertDeliverableUrl, type UrlPolicy } from '../net/url-guard.js';
import { urlPolicyOf } from '../net/url-guard.js';
import { findProvider, getProvider, listProviders, secretFields } from './registry.js';
import {
  configUrls,
  effectiveConfig,
  maskedConfig,
  openSecrets,
  carryOverSecrets,
  sealSecrets,
  splitSecrets,
  validateConfig,
} from './config.js';
import type { Provider, ProbeResult } from './types.js';
import './providers/index.js';

export const PUSH_TOKEN_PREFIX = 'sip_';
const NAME_MAX = 100;
const FRESHNESS_MAX = 30 * 24 * 3600;

/** The SSRF policy pulls and probes use: the outbound webhooks' (WEBHOOK_URL_ALLOWLIST). */
export function integrationUrlPolicy(rt: Runtime): UrlPolicy {
  return urlPolicyOf(rt);
}

/** The push URL of an integration: PUBLIC_BASE_URL if set, else the caller's origin, else a path. */
export function pushUrlOf(
  rt: Runtime,
  integ: Pick<Integration, 'id' | 'provider'>,
  requestOrigin?: string | null,
): string | null {
  if (!findProvider(integ.provider)?.capabilities.push) return null;
  const base = (rt.config.publicBaseUrl ?? requestOrigin ?? '').replace(/\/+$/, '');
  return `${base}/api/v1/integrations/${integ.id}/push`;
}

/** The stored config as shown: plain fields and masked secrets. */
export function shownConfig(
  rt: Runtime,
  row: { config: unknown; secretsCiphertext: string | null },
): Record<string, unknown> {
  return maskedConfig(row.config, Object.keys(openSecrets(rt.secretBox, row.secretsCiphertext)));
}

async function tenantDefaults(rt: Runtime, tenantId: string, provider: string): Promise<Record<string, unknown>> {
  const row = await rt.prisma.integrationProviderConfig.findUnique({
    where: { tenantId_provider: { tenantId, provider } },
  });
  return row ? { ...(row.config as Record<string, unknown>), ...openSecrets(rt.secretBox, row.secretsCiphertext) } : {};
}

/** Schema defaults, tenant provider config and the integration's own config (secrets opened). Never log it. */
export async function effectiveConfigOf(
  rt: Runtime,
  integ: Pick<Integration, 'tenantId' | 'provider' | 'config' | 'secretsCiphertext'>,
): Promise<Record<string, unknown>> {
  const p = getProvider(integ.provider);
  const own = { ...(integ.config as Record<string, unknown>), ...openSecrets(rt.secretBox, integ.secretsCiphertext) };
  return effectiveConfig(p.configSchema, await tenantDefaults(rt, integ.tenantId, integ.provider), own);
}

/** Problems of a config as the integration would run with it (required fields included). */
export function configProblems(p: Provider, effective: Record<string, unknown>, at: string[]): FieldProblem[] {
  return validateConfig(effective, p.configSchema, at);
}

/** Validates a submitted config (own fields, then the effective whole) and the URLs it will call. */
async function checkConfig(
  rt: Runtime,
  p: Provider,
  own: Record<string, unknown>,
  defaults: Record<string, unknown>,
  at: string[],
): Promise<Record<string, unknown>> {
  const problems = validateConfig(own, p.configSchema, at, { requireAll: false });
  if (problems.length) throw new ValidationFailed(problems);
  const effective = effectiveConfig(p.configSchema, defaults, own);
  const missing = validateConfig(effective, p.configSchema, at);
  if (missing.length) throw new ValidationFailed(missing);
  for (const { url, loc } of configUrls(p.configSchema, own))
    await assertDeliverableUrl(url, integrationUrlPolicy(rt), [...at, ...loc]);
  return effective;
}

function providerFor(id: string, at: string[]): Provider {
  const p = findProvider(id);
  if (!p)
    throw invalid(
      at,
      `unknown provider; one of ${listProviders()
        .map((x) => x.id)
        .join(', ')}`,
    );
  return p;
}

function checkName(name: string | undefined | null, at: string[]): string {
  const n = (name ?? '').trim();
  if (n.length === 0 || n.length > NAME_MAX) throw invalid(at, `must be 1 to ${NAME_MAX} characters`);
  return n;
}

function checkFreshness(v: number | null | undefined, at: string[]): number | null {
  if (v === undefined || v === null) return null;
  if (!Number.isInteger(v) || v < 1 || v > FRESHNESS_MAX)
    throw invalid(
      at,
      `must be a whole number of seconds from 1 to ${FRESHNESS_MAX}, or null to turn the freshness check off`,
    );
  return v;
}

export interface CreateIntegrationInput {
  provider: string;
  name: string;
  config?: Record<string, unknown> | null;
  enabled?: boolean | null;
  freshnessSeconds?: number | null;
  /** The policy that pages this integration's alerts (overrides the tenant default). */
  escalationPolicyId?: string | null;
}

/** 422 naming `escalationPolicyId` unless it is null or a policy of the caller's tenant. */
async function checkPolicyRef(ctx: Ctx, id: string | null | undefined): Promise<void> {
  const problem = await escalationPolicyRefProblem(ctx, id, ['input', 'escalationPolicyId']);
  if (problem) throw new ValidationFailed([problem]);
}

export interface DryRunResult {
  provider: string;
  name: string;
  config: { ok: boolean; problems: FieldProblem[] };
  reachable: ProbeResult | null;
}

/** Tests a config without saving: validation (422 on problems) and, when the provider can, a probe. */
export async function dryRunIntegration(ctx: Ctx, input: CreateIntegrationInput): Promise<DryRunResult> {
  const me = requireUser(ctx);
  const p = providerFor(input.provider, ['input', 'provider']);
  const name = checkName(input.name, ['input', 'name']);
  checkFreshness(input.freshnessSeconds, ['input', 'freshnessSeconds']);
  const effective = await checkConfig(ctx.rt, p, input.config ?? {}, await tenantDefaults(ctx.rt, me.tenantId, p.id), [
    'input',
    'config',
  ]);
  const reachable =
    p.probe && (!('url' in p.configSchema.properties) || effective.url)
      ? await p.probe({
          rt: ctx.rt,
          config: effective,
          policy: integrationUrlPolicy(ctx.rt),
          timeoutMs: ctx.rt.config.integrations.probeTimeoutMs,
        })
      : null;
  return { provider: p.id, name, config: { ok: true, problems: [] }, reachable };
}

/** Creates an integration; for push providers the cleartext push token is returned this once. */
export async function createIntegration(
  ctx: Ctx,
  input: CreateIntegrationInput,
): Promise<{ integration: Integration; pushToken: string | null }> {
  const me = requireUser(ctx);
  const p = providerFor(input.provider, ['input', 'provider']);
  const name = checkName(input.name, ['input', 'name']);
  const freshnessSeconds = checkFreshness(input.freshnessSeconds, ['input', 'freshnessSeconds']);
  const own = input.config ?? {};
  await checkPolicyRef(ctx, input.escalationPolicyId);
  await checkConfig(ctx.rt, p, own, await tenantDefaults(ctx.rt, me.tenantId, p.id), ['input', 'config']);
  const { plain, secrets } = splitSecrets(p, own);
  const pushToken = p.capabilities.push ? randomSecret(PUSH_TOKEN_PREFIX, 32) : null;
  try {
    const integration = await ctx.db.integration.create({
      data: {
        provider: p.id,
        name,
        enabled: input.enabled ?? true,
        config: plain as object,
        secretsCiphertext: sealSecrets(ctx.rt.secretBox, secrets),
        pushTokenHash: pushToken ? tokenHash(pushToken) : null,
        pushTokenPrefix: pushToken ? pushToken.slice(0, 10) : null,
        freshnessSeconds,
        escalationPolicyId: input.escalationPolicyId ?? null,
      } as never,
    });
    return { integration, pushToken };
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(`An integration named "${name}" already exists.`);
    throw err;
  }
}

/** The integration (another tenant's is a 404). */
export async function getIntegration(ctx: Ctx, id: string): Promise<Integration> {
  requireUser(ctx);
  const row = await ctx.db.integration.findUnique({ where: { id } });
  if (!row) throw new NotFound('Integration');
  return row;
}

export function listIntegrations(ctx: Ctx, filter: { provider?: string | null } = {}): Promise<Integration[]> {
  requireUser(ctx);
  return ctx.db.integration.findMany({
    where: filter.provider ? { provider: filter.provider } : {},
    orderBy: { createdAt: 'asc' },
  });
}

export interface UpdateIntegrationInput {
  name?: string | null;
  enabled?: boolean | null;
  /** Replaces the integration's own config; secret fields sent as the mask keep their value. */
  config?: Record<string, unknown> | null;
  /** Omit to keep; null turns the freshness check off. */
  freshnessSeconds?: number | null;
  /** Omit to keep; null: the tenant default pages its alerts. */
  escalationPolicyId?: string | null;
}

/**
 * Changes an integration. A config that calls a new origin (URL host, scheme or port) keeps no stored
 * secret unless it gives the secret again (MASK does not count): the answer's `secretsCleared` names them.
 */
export async function updateIntegration(
  ctx: Ctx,
  id: string,
  patch: UpdateIntegrationInput,
): Promise<Integration & { secretsCleared: string[] }> {
  const row = await getIntegration(ctx, id);
  let secretsCleared: string[] = [];
  const p = getProvider(row.provider);
  const data: Record<string, unknown> = {};
  if (patch.name !== undefined && patch.name !== null) data.name = checkName(patch.name, ['input', 'name']);
  if (patch.enabled !== undefined && patch.enabled !== null) data.enabled = patch.enabled;
  if (patch.freshnessSeconds !== undefined)
    data.freshnessSeconds = checkFreshness(patch.freshnessSeconds, ['input', 'freshnessSeconds']);
  if (patch.escalationPolicyId !== undefined) {
    await checkPolicyRef(ctx, patch.escalationPolicyId);
    data.escalationPolicyId = patch.escalationPolicyId;
  }
  if (patch.config) {
    const defaults = await tenantDefaults(ctx.rt, row.tenantId, p.id);
    const stored = {
      plain: row.config as Record<string, unknown>,
      secrets: openSecrets(ctx.rt.secretBox, row.secretsCiphertext),
    };
    const { config: own, cleared } = carryOverSecrets(p.configSchema, stored, patch.config, defaults);
    secretsCleared = cleared;
    await checkConfig(ctx.rt, p, own, defaults, ['input', 'config']);
    const { plain, secrets } = splitSecrets(p, own);
    data.config = plain;
    data.secretsCiphertext = sealSecrets(ctx.rt.secretBox, secrets);
  }
  try {
    return { ...(await ctx.db.integration.update({ where: { id: row.id }, data })), secretsCleared };
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(`An integration named "${String(data.name)}" already exists.`);
    throw err;
  }
}

export async function deleteIntegration(ctx: Ctx, id: string): Promise<Integration> {
  const row = await getIntegration(ctx, id);
  await ctx.db.integration.delete({ where: { id: row.id } });
  return row;
}

/** A new push token (cleartext returned once); the previous one keeps working for 24 hours. */
export async function rotatePushToken(ctx: Ctx, id: string): Promise<{ integration: Integration; pushToken: string }> {
  const row = await getIntegration(ctx, id);
  if (!row.pushTokenHash)
    throw new Conflict(`Provider ${row.provider} receives no pushes, so the integration has no push token.`);
  const pushToken = randomSecret(PUSH_TOKEN_PREFIX, 32);
  const now = ctx.rt.clock.now();
  // A conditional update: of parallel rotations one wins, and none while the previous token still works.
  const { count } = await ctx.db.integration.updateMany({
    where: {
      id: row.id,
      pushTokenHash: row.pushTokenHash,
      OR: [{ previousTokenValidUntil: null }, { previousTokenValidUntil: { lte: now } }],
    },
    data: {
      pushTokenHash: tokenHash(pushToken),
      pushTokenPrefix: pushToken.slice(0, 10),
      previousTokenHash: row.pushTokenHash,
      previousTokenValidUntil: new Date(now.getTime() + ROTATION_GRACE_MS),
    },
  });
  if (count === 0) throw rotationInGrace('push token', row.previousTokenValidUntil);
  return { integration: await getIntegration(ctx, id), pushToken };
}

// ---------------------------------------------------------------- per-tenant provider config

export interface ProviderConfigView {
  provider: string;
  config: Record<string, unknown>;
  secretFields: string[];
  updatedAt: Date | null;
  /** Integrations of the provider in the tenant (enabled or not): the ones that inherit this config. */
  integrationCount: number;
  /** What to do next when no integration inherits the config, else null. */
  hint: string | null;
  /** Stored secret fields this change dropped because the config now calls another origin. */
  secretsCleared: string[];
}

/**
 * What to do when a provider has no enabled integration: a provider config is defaults only, and a pull
 * (or a probe) needs an integration. Null when there is an enabled one.
 */
export function missingIntegrationHint(p: Provider, counts: { enabled: number; disabled: number }): string | null {
  if (counts.enabled > 0) return null;
  const create = `create one with POST /api/v1/integrations {"provider":"${p.id}","name":"prod"} (GraphQL createIntegration); it inherits the fields of the provider config (PUT /api/v1/integrations/config/${p.id}) it does not set itself`;
  if (counts.disabled > 0)
    return `No enabled ${p.name} integration: ${counts.disabled} ${counts.disabled === 1 ? 'is' : 'are'} disabled (PATCH /api/v1/integrations/<id> {"enabled":true}), or ${create}.`;
  return `No ${p.name} integration in this tenant: the provider config holds defaults only, and only integrations are pulled; ${create}.`;
}

async function view(
  ctx: Ctx,
  p: Provider,
  row: IntegrationProviderConfig | null,
  secretsCleared: string[] = [],
): Promise<ProviderConfigView> {
  const [enabled, disabled] = await Promise.all(
    [true, false].map((on) => ctx.db.integration.count({ where: { provider: p.id, enabled: on } })),
  );
  return {
    provider: p.id,
    config: row ? shownConfig(ctx.rt, row) : {},
    secretFields: secretFields(p),
    updatedAt: row?.updatedAt ?? null,
    integrationCount: enabled! + disabled!,
    hint: missingIntegrationHint(p, { enabled: enabled!, disabled: disabled! }),
    secretsCleared,
  };
}

/** The tenant's config of a provider, secrets masked (empty when never set). */
export async function getProviderConfig(ctx: Ctx, provider: string): Promise<ProviderConfigView> {
  requireUser(ctx);
  const p = getProvider(provider);
  const row = await ctx.db.integrationProviderConfig.findFirst({ where: { provider: p.id } });
  return view(ctx, p, row);
}

/** Replaces the tenant's config of a provider; secret fields sent as the mask keep their value. */
export async function putProviderConfig(
  ctx: Ctx,
  provider: string,
  config: Record<string, unknown>,
): Promise<ProviderConfigView> {
  const me = requireUser(ctx);
  const p = getProvider(provider);
  const existing = await ctx.db.integrationProviderConfig.findFirst({ where: { provider: p.id } });
  const stored = {
    plain: (existing?.config ?? {}) as Record<string, unknown>,
    secrets: openSecrets(ctx.rt.secretBox, existing?.secretsCiphertext),
  };
  const { config: own, cleared } = carryOverSecrets(p.configSchema, stored, config ?? {});
  const problems = validateConfig(own, p.configSchema, ['input', 'config'], { requireAll: false });
  if (problems.length) throw new ValidationFailed(problems);
  for (const { url, loc } of configUrls(p.configSchema, own))
    await assertDeliverableUrl(url, integrationUrlPolicy(ctx.rt), ['input', 'config', ...loc]);
  const { plain, secrets } = splitSecrets(p, own);
  const data = { config: plain as object, secretsCiphertext: sealSecrets(ctx.rt.secretBox, secrets) };
  const row = await ctx.db.integrationProviderConfig.upsert({
    where: { tenantId_provider: { tenantId: me.tenantId, provider: p.id } },
    create: { provider: p.id, ...data } as never,
    update: data,
  });
  return view(ctx, p, row, cleared);
}

/** Removes the tenant's config of a provider (404 when there is none). */
export async function deleteProviderConfig(ctx: Ctx, provider: string): Promise<string> {
  requireUser(ctx);
  const p = getProvider(provider);
  const { count } = await ctx.db.integrationProviderConfig.deleteMany({ where: { provider: p.id } });
  if (count === 0) throw new NotFound(`Config of provider "${p.id}"`);
  return p.id;
}
