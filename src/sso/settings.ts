/**
 * A tenant's single sign-on settings (admins): its own OpenID Connect provider (the client secret is
 * sealed and never read back) and whether password sign-in is refused for its people, with the
 * break-glass admin who keeps a password.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { Conflict, NotFound, ValidationFailed, invalid, type FieldProblem } from '../errors.js';
import { isUniqueViolation } from '../db/errors.js';
import { assertMayManagePeople } from '../users/policy.js';
import { checkDiscovery, fromRow, installationProvider, tenantHasProvider } from './providers.js';

export interface SetSsoProviderInput {
  slug: string;
  displayName: string;
  discoveryUrl: string;
  clientId: string;
  /** Omitted: keep the secret already stored; empty string: a public client (PKCE only). */
  clientSecret?: string | null;
  groupsClaim?: string | null;
  adminGroups?: string[] | null;
  memberGroups?: string[] | null;
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

function validate(input: SetSsoProviderInput): void {
  const problems: FieldProblem[] = [];
  if (!SLUG.test(input.slug))
    problems.push({ loc: ['input', 'slug'], msg: 'must be lowercase letters, digits and dashes (up to 63)' });
  if (!input.displayName.trim() || input.displayName.length > 100)
    problems.push({ loc: ['input', 'displayName'], msg: 'must be 1 to 100 characters' });
  if (!URL.canParse(input.discoveryUrl) || !/^https?:$/.test(new URL(input.discoveryUrl).protocol))
    problems.push({
      loc: ['input', 'discoveryUrl'],
      msg: 'must be an http(s) URL: the issuer or its /.well-known/openid-configuration',
    });
  if (!input.clientId.trim()) problems.push({ loc: ['input', 'clientId'], msg: 'is required' });
  if (input.groupsClaim !== undefined && input.groupsClaim !== null && !input.groupsClaim.trim())
    problems.push({ loc: ['input', 'groupsClaim'], msg: 'must not be empty' });
  if (problems.length) throw new ValidationFailed(problems);
}

/** The tenant's provider row (admins), or null. */
export async function tenantSsoProvider(ctx: Ctx) {
  const me = requireUser(ctx);
  return ctx.rt.prisma.tenantSsoProvider.findUnique({ where: { tenantId: me.tenantId } });
}

/**
 * Creates or replaces the tenant's provider after checking that its discovery document answers (422 on
 * `discoveryUrl` otherwise). The slug is unique across the installation (409 ALREADY_EXISTS).
 */
export async function setSsoProvider(ctx: Ctx, input: SetSsoProviderInput) {
  const me = requireUser(ctx);
  assertMayManagePeople(me);
  validate(input);
  const rt = ctx.rt;
  if (rt.config.sso?.slug === input.slug)
    throw new Conflict(`"${input.slug}" is the installation's provider id; choose another.`, 'ALREADY_EXISTS');
  const current = await rt.prisma.tenantSsoProvider.findUnique({ where: { tenantId: me.tenantId } });
  const clientSecretSealed =
    input.clientSecret === undefined || input.clientSecret === null
      ? (current?.clientSecretSealed ?? null)
      : input.clientSecret
        ? rt.secretBox.seal(input.clientSecret)
        : null;
  const data = {
    slug: input.slug,
    displayName: input.displayName.trim(),
    discoveryUrl: input.discoveryUrl,
    clientId: input.clientId.trim(),
    clientSecretSealed,
    groupsClaim: input.groupsClaim?.trim() || current?.groupsClaim || 'groups',
    adminGroups: input.adminGroups ?? current?.adminGroups ?? [],
    memberGroups: input.memberGroups ?? current?.memberGroups ?? [],
  };
  try {
    await checkDiscovery(rt, fromRow(rt, { ...data, tenantId: me.tenantId }));
  } catch (err) {
    throw invalid(['input', 'discoveryUrl'], `discovery failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return await rt.prisma.tenantSsoProvider.upsert({
      where: { tenantId: me.tenantId },
      create: { ...data, tenantId: me.tenantId },
      update: data,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(`The provider id "${input.slug}" is taken.`, 'ALREADY_EXISTS');
    throw err;
  }
}

/** Removes the tenant's provider; refused (409) while SSO is required and no other provider serves the tenant. */
export async function clearSsoProvider(ctx: Ctx): Promise<boolean> {
  const me = requireUser(ctx);
  assertMayManagePeople(me);
  const tenant = await ctx.rt.prisma.tenant.findUniqueOrThrow({ where: { id: me.tenantId } });
  if (tenant.ssoRequired && (await installationProvider(ctx.rt))?.tenantId !== me.tenantId)
    throw new Conflict('Single sign-on is required: turn that off before removing the provider.', 'IN_USE');
  const { count } = await ctx.rt.prisma.tenantSsoProvider.deleteMany({ where: { tenantId: me.tenantId } });
  return count > 0;
}

export interface SetSsoPolicyInput {
  required: boolean;
  breakGlassUserId?: string | null;
}

/**
 * Turns required single sign-on on or off. On needs a provider for the tenant (409) and a break-glass
 * account: a human admin of the tenant with a password (422 on `breakGlassUserId`; another tenant's id is 404).
 */
export async function setSsoPolicy(ctx: Ctx, input: SetSsoPolicyInput) {
  const me = requireUser(ctx);
  assertMayManagePeople(me);
  const rt = ctx.rt;
  let breakGlassUserId: string | null = null;
  if (input.breakGlassUserId) {
    const user = await ctx.db.user.findUnique({ where: { id: input.breakGlassUserId } });
    if (!user) throw new NotFound('User');
    if (user.kind !== 'human' || user.role !== 'admin' || !user.passwordHash)
      throw invalid(['input', 'breakGlassUserId'], 'must be a person who is an admin and has a password');
    breakGlassUserId = user.id;
  }
  if (input.required) {
    if (!breakGlassUserId)
      throw invalid(['input', 'breakGlassUserId'], 'is required when SSO is required (an admin who keeps a password)');
    if (!(await tenantHasProvider(rt, me.tenantId)))
      throw new Conflict('Configure a single sign-on provider before requiring it.', 'CONFLICT');
  }
  return rt.prisma.tenant.update({
    where: { id: me.tenantId },
    data: { ssoRequired: input.required, ssoBreakGlassUserId: breakGlassUserId },
  });
}
