/**
 * Users of a tenant: people (who log in) and service users (who hold PATs minted by an admin).
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { PrismaClient, User } from '../generated/prisma/client.js';
import { Conflict, NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import { hashPassword } from '../auth/secrets.js';
import { isUniqueViolation } from '../db/errors.js';

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
  if (!EMAIL.test(input.email ?? '')) problems.push({ loc: ['body', 'email'], msg: 'must be an email address' });
  if (input.kind === 'service' && input.password) problems.push({ loc: ['body', 'password'], msg: 'service users cannot have a password' });
  if (input.password != null && input.password.length < 8) problems.push({ loc: ['body', 'password'], msg: 'must be at least 8 characters' });
  if (problems.length) throw new ValidationFailed(problems);
}

/** Creates a user in `tenantId`. Emails are unique across the installation (login names no tenant). */
export async function insertUser(db: Pick<PrismaClient, 'user'>, tenantId: string, input: CreateUserInput): Promise<User> {
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
  return insertUser(ctx.db, me.tenantId, input);
}

/** Looks a user up by login name across the installation (operator tooling only); NotFound if none. */
export async function findUserByEmail(db: Pick<PrismaClient, 'user'>, email: string): Promise<User> {
  const normalized = email.trim().toLowerCase();
  const user = await db.user.findUnique({ where: { email: normalized } });
  if (!user) throw new NotFound(`User with email ${normalized}`);
  return user;
}

/** Changes a user's role. Takes effect on the user's next request (roles are read per credential check). */
export async function setUserRole(db: Pick<PrismaClient, 'user'>, userId: string, role: 'admin' | 'member'): Promise<User> {
  return db.user.update({ where: { id: userId }, data: { role } });
}

/**
 * Sets a new password for a person and ends their open sessions (a reset means the old password, and
 * whoever used it, are out). Service users have no password. PATs are left alone: revoke them separately.
 */
export async function resetPassword(db: Pick<PrismaClient, 'user' | 'session' | '$transaction'>, user: User, password: string): Promise<{ sessionsEnded: number }> {
  if (user.kind === 'service') throw new ValidationFailed([{ loc: ['body', 'email'], msg: 'is a service user; service users cannot have a password' }]);
  if (password.length < 8) throw new ValidationFailed([{ loc: ['body', 'password'], msg: 'must be at least 8 characters' }]);
  const passwordHash = await hashPassword(password);
  const [, ended] = await db.$transaction([
    db.user.update({ where: { id: user.id }, data: { passwordHash } }),
    db.session.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: new Date() } }),
  ]);
  return { sessionsEnded: ended.count };
}
