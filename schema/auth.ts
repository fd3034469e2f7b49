/**
 * Login, logout and personal access tokens.
 */
import { filter, pipe } from 'graphql-yoga';
import { builder, upperCaseValues, NodeRef } from './builder.js';
import { login, logout } from '../src/auth/sessions.js';
import { listTokens, mintToken, reactivateToken, revokeToken, rotateToken, tokenStatus } from '../src/auth/tokens.js';
import { requireUser } from '../src/context.js';
import { SESSION_COOKIE } from '../src/principal.js';
import { setAuditTarget } from '../src/audit/audit.js';
import { seesTokenChange } from '../src/auth/policy.js';

const TokenStatusEnum = builder.enumType('TokenStatus', {
  values: upperCaseValues(['active', 'revoked', 'expired'] as const),
});

builder.prismaObject('AccessToken', {
  interfaces: [NodeRef],
  description: 'A personal access token. The cleartext is never readable after minting.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    tokenPrefix: t.exposeString('tokenPrefix'),
    status: t.field({ type: TokenStatusEnum, resolve: (tok, _args, ctx) => tokenStatus(tok, ctx.rt.clock.now()) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    graceUntil: t.expose('graceUntil', {
      type: 'DateTime',
      nullable: true,
      description: 'After rotation: the time this token stops working.',
    }),
    user: t.relation('user'),
  }),
});

const LoginPayload = builder.simpleObject('LoginPayload', {
  fields: (t) => ({
    accessToken: t.string(),
    tokenType: t.string(),
    expiresIn: t.int({
      description: 'Seconds until the JWT expires; it is refreshed silently while the session lasts.',
    }),
  }),
});

const MintedToken = builder.objectRef<{ tokenId: string; cleartext: string }>('MintedToken').implement({
  description: 'A freshly minted token. `token` is shown this once.',
  fields: (t) => ({
    token: t.exposeString('cleartext'),
    accessToken: t.prismaField({
      type: 'AccessToken',
      resolve: (query, m, _args, ctx) => ctx.db.accessToken.findUniqueOrThrow({ ...query, where: { id: m.tokenId } }),
    }),
  }),
});

const CreateTokenInput = builder.inputType('CreateTokenInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    expiresInDays: t.int({
      description: 'Days until expiry (30, 90, 365 or any value up to 3650); null or omitted: never.',
    }),
    userId: t.id({ description: 'Admins only: mint on behalf of a service user.' }),
  }),
});

builder.queryFields((t) => ({
  tokens: t.prismaField({
    type: ['AccessToken'],
    authScopes: { user: true },
    description: "The caller's tokens (admins may pass a service user's id).",
    args: { userId: t.arg.id() },
    resolve: async (query, _root, args, ctx) => {
      const rows = await listTokens(ctx, args.userId ? String(args.userId) : null);
      return ctx.db.accessToken.findMany({
        ...query,
        where: { id: { in: rows.map((r) => r.id) } },
        orderBy: { createdAt: 'desc' },
      });
    },
  }),
}));

builder.mutationFields((t) => ({
  login: t.field({
    type: LoginPayload,
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const result = await login(ctx.rt, args.email, args.password, ctx.clientIp);
      ctx.responseCookies.push({ name: SESSION_COOKIE, value: result.accessToken, maxAgeSeconds: result.expiresIn });
      return result;
    },
  }),
  logout: t.boolean({
    authScopes: { user: true },
    resolve: async (_root, _args, ctx, info) => {
      if (ctx.principal?.credential.kind === 'session')
        setAuditTarget(ctx, info.path.key as string, 'Session', ctx.principal.credential.id);
      await logout(ctx);
      ctx.responseCookies.push({ name: SESSION_COOKIE, value: '', maxAgeSeconds: 0 });
      return true;
    },
  }),
  createToken: t.field({
    type: MintedToken,
    authScopes: { user: true },
    args: { input: t.arg({ type: CreateTokenInput, required: true }) },
    resolve: async (_root, { input }, ctx, info) => {
      const minted = await mintToken(ctx, { ...input, userId: input.userId ? String(input.userId) : null });
      setAuditTarget(ctx, info.path.key as string, 'AccessToken', minted.token.id);
      return { tokenId: minted.token.id, cleartext: minted.cleartext };
    },
  }),
  revokeToken: t.prismaField({
    type: 'AccessToken',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const tok = await revokeToken(ctx, String(args.id));
      return ctx.db.accessToken.findUniqueOrThrow({ ...query, where: { id: tok.id } });
    },
  }),
  reactivateToken: t.prismaField({
    type: 'AccessToken',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const tok = await reactivateToken(ctx, String(args.id));
      return ctx.db.accessToken.findUniqueOrThrow({ ...query, where: { id: tok.id } });
    },
  }),
  rotateToken: t.field({
    type: MintedToken,
    authScopes: { user: true },
    description: 'Mints a replacement; the old token keeps working for 24 hours.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx, info) => {
      const minted = await rotateToken(ctx, String(args.id));
      setAuditTarget(ctx, info.path.key as string, 'AccessToken', String(args.id));
      return { tokenId: minted.token.id, cleartext: minted.cleartext };
    },
  }),
}));

const TokenChange = builder.simpleObject('TokenChange', {
  fields: (t) => ({ id: t.id(), change: t.string() }),
});

builder.subscriptionFields((t) => ({
  tokenChanged: t.field({
    type: TokenChange,
    authScopes: { user: true },
    description: "Fires when one of the caller's tokens is created, revoked, reactivated or rotated.",
    subscribe: (_root, _args, ctx) => {
      const me = requireUser(ctx);
      return pipe(
        ctx.rt.pubsub.subscribe('tokenChanged', me.tenantId),
        filter((payload) => seesTokenChange(me, payload)),
      );
    },
    resolve: (payload) => ({ id: String(payload.id), change: String(payload.change) }),
  }),
}));
