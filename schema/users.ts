/**
 * Users, the caller (`me`), and the audit log.
 */
import { builder, upperCaseValues } from './builder.js';
import { createUser } from '../src/users/users.js';
import { requireUser } from '../src/context.js';

export const RoleEnum = builder.enumType('Role', { values: upperCaseValues(['admin', 'member'] as const) });
export const UserKindEnum = builder.enumType('UserKind', { values: upperCaseValues(['human', 'service'] as const) });
export const CredentialKindEnum = builder.enumType('CredentialKind', {
  values: upperCaseValues(['session', 'pat', 'ingest_key', 'webhook', 'system'] as const),
});

builder.prismaObject('Tenant', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
  }),
});

builder.prismaObject('User', {
  // Load only what a query asks for: never the password hash.
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name', { nullable: true }),
    role: t.expose('role', { type: RoleEnum }),
    kind: t.expose('kind', { type: UserKindEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    tenant: t.relation('tenant'),
  }),
});

const Viewer = builder.objectRef<{ userId: string; credentialKind: string; credentialId: string }>('Viewer').implement({
  description: 'The caller and the credential they used.',
  fields: (t) => ({
    user: t.prismaField({
      type: 'User',
      resolve: (query, v, _args, ctx) => ctx.db.user.findUniqueOrThrow({ ...query, where: { id: v.userId } }),
    }),
    credentialKind: t.field({ type: CredentialKindEnum, resolve: (v) => v.credentialKind as never }),
    credentialId: t.exposeString('credentialId'),
  }),
});

builder.queryFields((t) => ({
  me: t.prismaField({
    type: 'User',
    authScopes: { user: true },
    description: 'The calling user.',
    resolve: (query, _root, _args, ctx) => ctx.db.user.findUniqueOrThrow({ ...query, where: { id: requireUser(ctx).userId } }),
  }),
  viewer: t.field({
    type: Viewer,
    authScopes: { user: true },
    resolve: (_root, _args, ctx) => {
      const me = requireUser(ctx);
      return { userId: me.userId, credentialKind: me.credential.kind, credentialId: me.credential.id };
    },
  }),
  users: t.prismaField({
    type: ['User'],
    authScopes: { admin: true },
    description: 'Users of the caller\'s tenant (admins).',
    resolve: (query, _root, _args, ctx) => ctx.db.user.findMany({ ...query, orderBy: { createdAt: 'asc' } }),
  }),
}));

const CreateUserInput = builder.inputType('CreateUserInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    name: t.string(),
    password: t.string({ description: 'People only; service users cannot log in with a password.' }),
    role: t.field({ type: RoleEnum, defaultValue: 'member' }),
    kind: t.field({ type: UserKindEnum, defaultValue: 'human' }),
  }),
});

builder.mutationFields((t) => ({
  createUser: t.prismaField({
    type: 'User',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const user = await createUser(ctx, { ...input, role: input.role ?? 'member', kind: input.kind ?? 'human' });
      return ctx.db.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
}));

builder.prismaObject('AuditLog', {
  fields: (t) => ({
    id: t.exposeID('id'),
    actor: t.relation('actor', { nullable: true }),
    credentialKind: t.expose('credentialKind', { type: CredentialKindEnum }),
    action: t.exposeString('action'),
    targetType: t.exposeString('targetType', { nullable: true }),
    targetId: t.exposeString('targetId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  auditLog: t.prismaConnection({
    type: 'AuditLog',
    cursor: 'id',
    authScopes: { admin: true },
    description: 'Every mutation in the tenant, newest first (admins).',
    args: { action: t.arg.string(), actorId: t.arg.id() },
    resolve: (query, _root, args, ctx) =>
      ctx.db.auditLog.findMany({
        ...query,
        where: { ...(args.action ? { action: args.action } : {}), ...(args.actorId ? { actorId: String(args.actorId) } : {}) },
        orderBy: { id: 'desc' },
      }),
  }),
}));
