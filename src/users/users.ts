/**
 * Users of a tenant: people (who log in) and service users (who hold PATs minted by an admin).
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { PrismaClient, User } from '../generated/prisma/client.js';
import { Conflict, NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import { hashPassword } from '../secrets.js';
import { isUniqueViolation } from '../db/errors.js';
import { randomBytes } from 'node:crypto';
import { assertKeepsAnAdmin, assertMayManagePeople } from './policy.js';

export interface CreateUserInput {
  email: string;
  name?: string | null;
  password?: string | null;
  role: 'admin' | 'member';
  kind: 'human' | 'service';
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function validate(input: CreateUserInput): void {
  const problems: FieldProblem[] = [];
  if (!EMAIL.test(input.email ?? '')) problems.push({ loc: ['input', 'email'], msg: 'must be an email address' });
  if (input.kind === 'service' && input.password)
    problems.push({ loc: ['input', 'password'], msg: 'service users cannot have a password' });
  if (input.password != null && input.password.length < 8)
    problems.push({ loc: ['input', 'password'], msg: 'must be at least 8 characters' });
  if (problems.length) throw new ValidationFailed(problems);
}

/** Creates a user in `tenantId`. Emails are unique across the installation (login names no tenant). */
export async function insertUser(
  db: Pick<PrismaClient, 'user'>,
  tenantId: string,
  input: CreateUserInput,
): Promise<User> {
  validate(input);
  const email = input.email.trim().toLowerCase();
  try {
    return await db.user.create({
      data: {
        tenantId,
        email,
        name: input.name ?? null,
        role: input.role,
        kind: input.kind,
        passwordHash: input.password ? await hashPassword(input.password) : null,
      },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(`A user with email ${email} already exists.`, 'ALREADY_EXISTS');
    throw err;
  }
}

/** Creates a user in the caller's tenant (admin-only, declared on the mutation). */
export async function createUser(ctx: Ctx, input: CreateUserInput): Promise<User> {
  const me = requireUser(ctx);
  assertMayManagePeople(me);
  return insertUser(ctx.db, me.tenantId, input);
}

/** Looks a user up by login name across the installation (operator tooling only); NotFound if none. */
export async function findUserByEmail(db: Pick<PrismaClient, 'user'>, email: string): Promise<User> {
  const normalized = email.trim().toLowerCase();
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

/** GraphQL `resetUserPassword`: an admin sets a generated password for a person of their tenant, shown once. */
export async function resetUserPassword(
  ctx: Ctx,
  userId: string,
): Promise<{ user: User; password: string; sessionsEnded: number }> {
  assertMayManagePeople(requireUser(ctx));
  const user = await ctx.db.user.findUnique({ where: { id: userId } });
  if (!user) throw new NotFound(`User ${userId}`);
  const password = generatePassword();
  const { sessionsEnded } = await resetPassword(ctx.db, user, password, ctx.rt.clock.now(), ['input', 'userId']);
  return { user, password, sessionsEnded };
}

/**
 * Sets a new password for a person and ends their open sessions (a reset means the old password, and
 * whoever used it, are out). Service users have no password. PATs are left alone: revoke them separately.
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
  if (password.length < 8) throw new ValidationFailed([{ loc: ['password'], msg: 'must be at least 8 characters' }]);
  const passwordHash = await hashPassword(password);
  const [, ended] = await db.$transaction([
    db.user.update({ where: { id: user.id }, data: { passwordHash } }),
    db.session.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: now } }),
  ]);
  return { sessionsEnded: ended.count };
}
