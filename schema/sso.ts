/**
 * Single sign-on with OpenID Connect: the providers people sign in with (public), starting a sign-in
 * (public; the callback is the REST route GET /api/v1/auth/sso/callback, where the provider sends the
 * browser back), and a tenant's settings (admins): its own provider and whether SSO is required.
 */
import { builder } from './builder.js';
import { listProviders, installationProvider } from '../src/sso/providers.js';
import { SSO_FLOW_COOKIE, FLOW_TTL_SECONDS, startSsoSignIn, ssoRedirectUri } from '../src/sso/flow.js';
import { clearSsoProvider, setSsoPolicy, setSsoProvider } from '../src/sso/settings.js';
import { requireUser } from '../src/context.js';

const SsoProvider = builder.simpleObject('SsoProvider', {
  description: 'An OpenID Connect provider people sign in with ("Sign in with <displayName>").',
  fields: (t) => ({
    slug: t.string({ description: 'The provider id in sign-in URLs.' }),
    displayName: t.string(),
  }),
});

const SsoSignIn = builder.simpleObject('SsoSignIn', {
  description:
    'A started sign-in: send the browser to `authorizationUrl`. The response also sets a short-lived cookie that binds the sign-in to this browser.',
  fields: (t) => ({ authorizationUrl: t.string() }),
});

builder.prismaObject('TenantSsoProvider', {
  description: "The tenant's own OpenID Connect provider. Its client secret is never shown again.",
  fields: (t) => ({
    slug: t.exposeString('slug'),
    displayName: t.exposeString('displayName'),
    discoveryUrl: t.exposeString('discoveryUrl'),
    clientId: t.exposeString('clientId'),
    clientSecretSet: t.boolean({ resolve: (p) => p.clientSecretSealed !== null }),
    groupsClaim: t.exposeString('groupsClaim'),
    adminGroups: t.exposeStringList('adminGroups'),
    memberGroups: t.exposeStringList('memberGroups'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

interface SettingsOf {
  tenantId: string;
  ssoRequired: boolean;
  ssoBreakGlassUserId: string | null;
}

const SsoSettings = builder.objectRef<SettingsOf>('SsoSettings').implement({
  description: "The caller's tenant's single sign-on settings.",
  fields: (t) => ({
    required: t.boolean({
      description: 'Password sign-in is refused for the tenant’s people, except the break-glass admin.',
      resolve: (s) => s.ssoRequired,
    }),
    breakGlassUser: t.prismaField({
      type: 'User',
      nullable: true,
      description: 'The admin who may still sign in with a password while SSO is required.',
      resolve: (query, s, _args, ctx) =>
        s.ssoBreakGlassUserId ? ctx.db.user.findUnique({ ...query, where: { id: s.ssoBreakGlassUserId } }) : null,
    }),
    provider: t.prismaField({
      type: 'TenantSsoProvider',
      nullable: true,
      description: "The tenant's own provider, if it has one.",
      resolve: (query, s, _args, ctx) =>
        ctx.db.tenantSsoProvider.findUnique({ ...query, where: { tenantId: s.tenantId } }),
    }),
    installationProvider: t.field({
      type: SsoProvider,
      nullable: true,
      description: "The installation's provider (OIDC_* settings) when it signs people in to this tenant.",
      resolve: async (s, _args, ctx) => {
        const p = await installationProvider(ctx.rt);
        return p && p.tenantId === s.tenantId ? { slug: p.slug, displayName: p.displayName } : null;
      },
    }),
    redirectUri: t.string({
      description: 'The redirect URI to register at the provider.',
      resolve: (_s, _args, ctx) => ssoRedirectUri(ctx.rt),
    }),
  }),
});

const SetSsoProviderInput = builder.inputType('SetSsoProviderInput', {
  fields: (t) => ({
    slug: t.string({ required: true, description: 'Provider id in sign-in URLs: lowercase letters, digits, dashes.' }),
    displayName: t.string({ required: true }),
    discoveryUrl: t.string({ required: true, description: 'The issuer URL or its /.well-known/openid-configuration.' }),
    clientId: t.string({ required: true }),
    clientSecret: t.string({ description: 'Omitted: keep the stored secret; empty: a public client (PKCE only).' }),
    groupsClaim: t.string({ description: 'The claim holding the groups (default `groups`).' }),
    adminGroups: t.stringList({ description: 'Members of any of these groups become admins.' }),
    memberGroups: t.stringList({
      description: 'Members of any of these groups become members; empty: everyone else signing in is a member.',
    }),
  }),
});

const SetSsoPolicyInput = builder.inputType('SetSsoPolicyInput', {
  fields: (t) => ({
    required: t.boolean({ required: true }),
    breakGlassUserId: t.id({ description: 'A person who is an admin and keeps a password; required with `required`.' }),
  }),
});

async function settingsOf(ctx: Parameters<typeof requireUser>[0]): Promise<SettingsOf> {
  const me = requireUser(ctx);
  const tenant = await ctx.rt.prisma.tenant.findUniqueOrThrow({ where: { id: me.tenantId } });
  return { tenantId: tenant.id, ssoRequired: tenant.ssoRequired, ssoBreakGlassUserId: tenant.ssoBreakGlassUserId };
}

builder.queryFields((t) => ({
  ssoProviders: t.field({
    type: [SsoProvider],
    description: 'The single sign-on providers of this installation (public: the sign-in page lists them).',
    resolve: (_root, _args, ctx) => listProviders(ctx.rt),
  }),
  ssoSettings: t.field({
    type: SsoSettings,
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => settingsOf(ctx),
  }),
}));

builder.mutationFields((t) => ({
  startSsoSignIn: t.field({
    type: SsoSignIn,
    description: 'Starts a sign-in with a provider; the provider sends the browser back to /api/v1/auth/sso/callback.',
    args: { slug: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const started = await startSsoSignIn(ctx.rt, args.slug);
      ctx.responseCookies.push({ name: SSO_FLOW_COOKIE, value: started.binding, maxAgeSeconds: FLOW_TTL_SECONDS });
      return { authorizationUrl: started.authorizationUrl };
    },
  }),
  setSsoProvider: t.field({
    type: SsoSettings,
    authScopes: { admin: true },
    description: "Creates or replaces the tenant's provider (its discovery document is fetched first).",
    args: { input: t.arg({ type: SetSsoProviderInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      await setSsoProvider(ctx, input);
      return settingsOf(ctx);
    },
  }),
  clearSsoProvider: t.boolean({
    authScopes: { admin: true },
    description: "Removes the tenant's provider; true when there was one.",
    resolve: (_root, _args, ctx) => clearSsoProvider(ctx),
  }),
  setSsoPolicy: t.field({
    type: SsoSettings,
    authScopes: { admin: true },
    description: 'Requires single sign-on for the tenant’s people (or stops requiring it).',
    args: { input: t.arg({ type: SetSsoPolicyInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      await setSsoPolicy(ctx, {
        required: input.required,
        breakGlassUserId: input.breakGlassUserId ? String(input.breakGlassUserId) : null,
      });
      return settingsOf(ctx);
    },
  }),
}));
