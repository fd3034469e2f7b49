/**
 * Users, the caller (`me`), and the audit log.
 */
import { builder, upperCaseValues, NodeRef } from './builder.js';
import { AuditLogConnection } from './connections.js';
import { changeUserRole, createUser, resetUserPassword } from '../src/users/users.js';
import { requestPasswordReset, type ForcedReset } from '../src/users/password-reset.js';
import { usePasswordLink } from '../src/users/password-links.js';
import { requireUser } from '../src/context.js';

export const RoleEnum = builder.enumType('Role', { values: upperCaseValues(['admin', 'member'] as const) });
export const UserKindEnum = builder.enumType('UserKind', { values: upperCaseValues(['human', 'service'] as const) });
export const CredentialOriginEnum = builder.enumType('CredentialOrigin', {
  description:
    "Who set a person's credential. Only INVITED_PASSWORD, SELF_PASSWORD and SSO may approve proposals (four-eyes).",
  values: upperCaseValues(['invited_password', 'self_password', 'sso', 'admin_set', 'legacy'] as const),
});
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
  interfaces: [NodeRef],
  // Load the id always, every other column only when a query asks for it (schema/loaded-scalars.ts): never the password hash.
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name', { nullable: true }),
    role: t.expose('role', { type: RoleEnum }),
    kind: t.expose('kind', { type: UserKindEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    tenant: t.relation('tenant'),
    credentialOrigin: t.expose('credentialOrigin', {
      type: CredentialOriginEnum,
      description:
        'Who set the credential: the person (invitation or reset link, SSO) or an admin/the operator (ADMIN_SET; LEGACY: before this was recorded). Only the former may approve proposals.',
    }),
    createdBy: t.relation('createdBy', { nullable: true, description: 'The admin who created this user, if one did.' }),
  }),
});

export const Viewer = builder
  .objectRef<{ userId: string; credentialKind: string; credentialId: string }>('Viewer')
  .implement({
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
    resolve: (query, _root, _args, ctx) =>
      ctx.db.user.findUniqueOrThrow({ ...query, where: { id: requireUser(ctx).userId } }),
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
    description: "Users of the caller's tenant (admins).",
    resolve: (query, _root, _args, ctx) => ctx.db.user.findMany({ ...query, orderBy: { createdAt: 'asc' } }),
  }),
}));

const CreateUserInput = builder.inputType('CreateUserInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    name: t.string(),
    password: t.string({
      description:
        'Deprecated: without it a person is invited by email to choose their own password. An admin-set password cannot approve proposals.',
      deprecationReason:
        'Admins no longer set passwords: omit it and the person gets an invitation link by email. Removal after 2027-03-01.',
    }),
    role: t.field({ type: RoleEnum, defaultValue: 'member' }),
    kind: t.field({ type: UserKindEnum, defaultValue: 'human' }),
  }),
});

builder.mutationFields((t) => ({
  createUser: t.prismaField({
    type: 'User',
    authScopes: { admin: true },
    description:
      'Creates a user (admins). A person is invited: a single-use link (72 h) to choose their own password goes to their email (needs SMTP_URL). Service users hold PATs.',
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const user = await createUser(ctx, { ...input, role: input.role ?? 'member', kind: input.kind ?? 'human' });
      return ctx.db.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
}));

const PasswordReset = builder.objectRef<ForcedReset>('PasswordReset').implement({
  description: "A reset an admin forced: the person's password, sessions and PATs ended; a link went to their email.",
  fields: (t) => ({
    user: t.prismaField({
      type: 'User',
      resolve: (query, r, _a, ctx) => ctx.db.user.findUniqueOrThrow({ ...query, where: { id: r.user.id } }),
    }),
    // Non-null in the released contract, so it stays non-null (the guard refuses a type change that was not
    // deprecated first) and answers an empty string.
    password: t.string({
      description: 'Always empty: admins never see a password; the person chooses one through the emailed link.',
      deprecationReason:
        'Admins no longer get a password; the person gets a reset link by email. Removal after 2027-03-01.',
      resolve: () => '',
    }),
    sessionsEnded: t.exposeInt('sessionsEnded', { description: "The user's open sessions, ended by the reset." }),
    tokensRevoked: t.exposeInt('tokensRevoked', {
      description: "The user's personal access tokens, revoked by the reset.",
    }),
    linkSentTo: t.exposeString('linkSentTo', { description: 'The email the reset link went to.' }),
    linkExpiresAt: t.expose('linkExpiresAt', { type: 'DateTime', description: 'When the link stops working.' }),
  }),
});

builder.mutationFields((t) => ({
  requestPasswordReset: t.string({
    description:
      '"Forgot password?": mails a single-use link (1 h) to choose a new password, if a person uses this email. The answer is the same for every email; limited per email and per client address (429).',
    args: { email: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => requestPasswordReset(ctx.rt, args.email, ctx.clientIp),
  }),
  setPasswordWithLink: t.boolean({
    description:
      "Sets the person's password with the token of an invitation or reset link, once; ends their sessions. Then sign in with `login`.",
    args: { token: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await usePasswordLink(ctx.rt, args.token, args.password);
      return true;
    },
  }),
}));

builder.mutationFields((t) => ({
  setUserRole: t.prismaField({
    type: 'User',
    authScopes: { admin: true },
    description:
      "Changes a user's role (admins). The tenant always keeps a human admin: demoting the last one is a 409 LAST_ADMIN.",
    args: { userId: t.arg.id({ required: true }), role: t.arg({ type: RoleEnum, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const user = await changeUserRole(ctx, String(args.userId), args.role);
      return ctx.db.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
  resetUserPassword: t.field({
    type: PasswordReset,
    authScopes: { admin: true },
    description:
      'Forces a password reset for a person (admins): their password stops working, their sessions end and their PATs are revoked, and a single-use reset link (1 h) goes to their email. The admin never sees a password.',
    args: { userId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => resetUserPassword(ctx, String(args.userId)),
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
    bypassedReview: t.exposeBoolean('bypassedReview', {
      description: "The change skipped the four-eyes review (an admin's direct intent edit).",
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

function auditWhere(args: { action?: string | null; actorId?: string | number | null }) {
  return {
    ...(args.action ? { action: args.action } : {}),
    ...(args.actorId ? { actorId: String(args.actorId) } : {}),
  };
}

builder.queryFields((t) => ({
  auditLog: t.prismaConnection(
    {
      type: 'AuditLog',
      cursor: 'id',
      authScopes: { admin: true },
      description: 'Every mutation in the tenant, newest first (admins).',
      args: { action: t.arg.string(), actorId: t.arg.id() },
      totalCount: (_conn, args, ctx) => ctx.db.auditLog.count({ where: auditWhere(args) }),
      resolve: (query, _root, args, ctx) =>
        ctx.db.auditLog.findMany({ ...query, where: auditWhere(args), orderBy: { id: 'desc' } }),
    },
    AuditLogConnection,
  ),
}));
