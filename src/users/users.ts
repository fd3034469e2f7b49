/**
 * Users of a tenant: people (who log in) and service users (who hold PATs minted by an admin).
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { CredentialOrigin, PrismaClient, User } from '../generated/prisma/client.js';
import { NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import { hashPassword } from '../secrets.js';
import { isUniqueViolation } from '../db/errors.js';
import { randomBytes } from 'node:crypto';
import { assertKeepsAnAdmin, assertMayManagePeople } from './policy.js';
import { emailProblem, normalizeEmail } from '../email-address.js';
import { issuePasswordLink, mailPasswordLink, passwordProblems } from './password-links.js';
import { forcePasswordReset, mailNeeded, type ForcedReset } from './password-reset.js';

export interface CreateUserInput {
  email: string;
  name?: string | null;
  /** Deprecated for people: an admin-set password cannot approve proposals (four-eyes); invite instead. */
  password?: string | null;
  role: 'admin' | 'member';
  kind: 'human' | 'service';
}

/** Who set the new user's credential and who created the row (for the four-eyes rule and the audit). */
export interface UserOrigin {
  credentialOrigin: CredentialOrigin;
  createdById?: string | null;
}

function validate(input: CreateUserInput): void {
  const problems: FieldProblem[] = [];
  const email = emailProblem(input.email, ['input', 'email']);
  if (email) problems.push(email);
  if (input.kind === 'service' && input.password)
    problems.push({ loc: ['input', 'password'], msg: 'service users cannot have a password' });
  if (input.password != null) problems.push(...passwordProblems(input.password, ['input', 'password']));
  if (problems.length) throw new ValidationFailed(problems);
}

/**
 * Emails are unique across the installation (login names no tenant). A taken email answers like any
 * other invalid input and names no tenant, the caller's included, so creating users reveals nothing
 * about other tenants' people.
 */
const EMAIL_TAKEN = 'cannot be used for a new user; choose another address';

/**
 * Creates a user in `tenantId`. `origin` says who set its password: `admin_set` when the caller chose it
 * (the operator's CLI, the deprecated `password` of createUser), `invited_password` for an invitation.
 */
export async function insertUser(
  db: Pick<PrismaClient, 'user'>,
  tenantId: string,
  input: CreateUserInput,
  origin: UserOrigin = { credentialOrigin: 'admin_set' },
): Promise<User> {
  validate(input);
  const email = normalizeEmail(input.email);
  try {
    return await db.user.create({
      data: {
        tenantId,
        email,
        name: input.name ?? null,
        role: input.role,
        kind: input.kind,
        passwordHash: input.password ? await hashPassword(input.password) : null,
        credentialOrigin: origin.credentialOrigin,
        createdById: origin.createdById ?? null,
      },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ValidationFailed([{ loc: ['input', 'email'], msg: EMAIL_TAKEN }]);
    throw err;
  }
}

/**
 * Creates a user in the caller's tenant (admin-only, declared on the mutation). A person without a
 * password is invited: a single-use link to choose their own goes to their email (72 h). With the
 * deprecated `password`, the person's credential is admin-set and cannot approve proposals.
 */
export async function createUser(ctx: Ctx, input: CreateUserInput): Promise<User> {
  const me = requireUser(ctx);
  assertMayManagePeople(me);
  if (input.kind === 'human' && !input.password) return inviteUser(ctx, input);
  return insertUser(ctx.db, me.tenantId, input, { credentialOrigin: 'admin_set', createdById: me.userId });
}

/** Creates a person with no password yet and mails them an invitation link (422 without SMTP). */
export async function inviteUser(ctx: Ctx, input: CreateUserInput): Promise<User> {
  const me = requireUser(ctx);
  validate(input);
  if (!ctx.rt.mailer) throw mailNeeded(['input', 'email']);
  const { user, link } = await ctx.db.$transaction(async (tx) => {
    const created = await insertUser(
      tx,
      me.tenantId,
      { ...input, password: null },
      {
        credentialOrigin: 'invited_password',
        createdById: me.userId,
      },
    );
    return { user: created, link: await issuePasswordLink(ctx.rt, tx, created, 'invite', me.userId) };
  });
  await mailPasswordLink(ctx.rt, user, 'invite', link, me.email);
  return user;
}

/** Looks a user up by login name across the installation (operator tooling only); NotFound if none. */
export async function findUserByEmail(db: Pick<PrismaClient, 'user'>, email: string): Promise<User> {
  const normalized = normalizeEmail(email);
  const user = await db.user.findUnique({ where: { email: normalized } });
  if (!user) throw new NotFound(`User with email ${normalized}`);
  return user;
}

/**
 * Changes a user's role; the tenant always keeps an admin who is a person (LAST_ADMIN otherwise). The
 * tenant's admin rows are locked first, so two admins demoting each other at once cannot both succeed.
 * Takes effect on the user's next request (roles are read per credential check).
 */
export async function setUserRole(
  db: Pick<PrismaClient, 'user' | '$transaction'>,
  userId: string,
  role: 'admin' | 'member',
): Promise<User> {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId } });
    if (!user) throw new NotFound(`User ${userId}`);
    if (user.role === role) return user;
    if (role === 'member') {
      const admins = await tx.$queryRaw<Array<{ id: string; kind: string }>>`
        SELECT id, kind::text AS kind FROM "User" WHERE "tenantId" = ${user.tenantId} AND role = 'admin' ORDER BY id FOR UPDATE`;
      assertKeepsAnAdmin(admins.filter((a) => a.id !== user.id && a.kind === 'human').length, user.email);
    }
    return tx.user.update({ where: { id: user.id }, data: { role } });
  });
}

/** GraphQL `setUserRole`: an admin changes the role of a user of their own tenant (another tenant's: 404). */
export async function changeUserRole(ctx: Ctx, userId: string, role: 'admin' | 'member'): Promise<User> {
  assertMayManagePeople(requireUser(ctx));
  if (!(await ctx.db.user.findUnique({ where: { id: userId }, select: { id: true } })))
    throw new NotFound(`User ${userId}`);
  return setUserRole(ctx.db, userId, role);
}

/** A password people can type once and change: 20 characters of base64url (120 bits). */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/**
 * GraphQL `resetUserPassword`: an admin forces a reset for a person of their tenant. Since 2026-11 the
 * admin never gets a password: the person gets a link by email, and their sessions and PATs end now.
 */
export async function resetUserPassword(ctx: Ctx, userId: string): Promise<ForcedReset> {
  return forcePasswordReset(ctx, userId);
}

/**
 * The operator's CLI sets a password for a person (`user password-reset`) and ends their open sessions.
 * The password is chosen by the operator, so it counts as admin-set for the four-eyes rule. Service
 * users have no password. PATs are left alone: revoke them separately.
 */
export async function resetPassword(
  db: Pick<PrismaClient, 'user' | 'session' | '$transaction'>,
  user: User,
  password: string,
  now: Date,
  userLoc: string[] = ['email'],
): Promise<{ sessionsEnded: number }> {
  if (user.kind === 'service')
    throw new ValidationFailed([{ loc: userLoc, msg: 'is a service user; service users cannot have a password' }]);
  const problems = passwordProblems(password);
  if (problems.length) throw new ValidationFailed(problems);
  const passwordHash = await hashPassword(password);
  const [, ended] = await db.$transaction([
    db.user.update({ where: { id: user.id }, data: { passwordHash, credentialOrigin: 'admin_set' } }),
    db.session.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: now } }),
  ]);
  return { sessionsEnded: ended.count };
}
