/**
 * Single-use links that let a person set their own password: an invitation (an admin created them) or a
 * reset (they forgot it, or an admin forced one). The token is 32 random bytes; only its SHA-256 is stored
 * and looked up, and the stored hash is compared again in constant time. A link expires (invitation 72 h,
 * reset 1 h, on the service clock), acts once (an atomic `usedAt` claim), and a newer link for the same
 * person ends the older ones. Opening a link (GET) changes nothing; only setting the password acts
 * (src/server/password-pages.ts, GraphQL `setPasswordWithLink`).
 */
import type { Runtime } from '../runtime.js';
import type { PasswordLinkPurpose, Prisma, PrismaClient, User } from '../generated/prisma/client.js';
import { ValidationFailed, type FieldProblem } from '../errors.js';
import { constantTimeEqual, hashPassword, randomSecret, tokenHash } from '../secrets.js';
import { sendMail } from '../mail/mailer.js';
import { publicBase } from '../public-url.js';

/** How long a link acts after it was sent. */
export const PASSWORD_LINK_TTL_MS: Record<PasswordLinkPurpose, number> = {
  invite: 72 * 3600 * 1000,
  reset: 3600 * 1000,
};

/** Where links point (GET shows the form, POST sets the password): `<base>/account/password?token=…`. */
export const PASSWORD_PAGE_PATH = '/account/password';

/** Token prefix, so a leaked one is recognisable (secret scanners, logs). */
const TOKEN_PREFIX = 'spwl_';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1000;

export interface IssuedLink {
  url: string;
  expiresAt: Date;
}

type Db = Pick<PrismaClient, 'passwordLink'> | Prisma.TransactionClient;

/**
 * Creates a link for `user` (ending their earlier unused ones) and returns its URL; the cleartext exists
 * only in that URL, which goes to the person's email and nowhere else.
 */
export async function issuePasswordLink(
  rt: Pick<Runtime, 'clock' | 'config'>,
  db: Db,
  user: Pick<User, 'id' | 'tenantId'>,
  purpose: PasswordLinkPurpose,
  createdById: string | null,
): Promise<IssuedLink> {
  const now = rt.clock.now();
  const token = randomSecret(TOKEN_PREFIX, 32);
  const expiresAt = new Date(now.getTime() + PASSWORD_LINK_TTL_MS[purpose]);
  await db.passwordLink.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } });
  await db.passwordLink.create({
    data: { tenantId: user.tenantId, userId: user.id, createdById, purpose, tokenHash: tokenHash(token), expiresAt },
  });
  return { url: `${publicBase(rt)}${PASSWORD_PAGE_PATH}?token=${encodeURIComponent(token)}`, expiresAt };
}

const SUBJECTS: Record<PasswordLinkPurpose, string> = {
  invite: 'You are invited to the Operations Service',
  reset: 'Reset your Operations Service password',
};

/** Mails the link to the person. Throws MailNotConfiguredError without SMTP_URL. */
export async function mailPasswordLink(
  rt: Pick<Runtime, 'mailer'>,
  user: Pick<User, 'email' | 'name'>,
  purpose: PasswordLinkPurpose,
  link: IssuedLink,
  invitedBy?: string | null,
): Promise<void> {
  const hello = `Hello${user.name ? ' ' + user.name : ''},`;
  const why =
    purpose === 'invite'
      ? `${invitedBy ?? 'An administrator'} created an account for you (${user.email}). Choose your password here:`
      : `Someone (hopefully you) asked to reset the password of ${user.email}. Choose a new password here:`;
  const tail =
    purpose === 'invite'
      ? 'The link works once and expires in 72 hours.'
      : 'The link works once and expires in 1 hour. If you did not ask for it, ignore this mail: your password stays as it is.';
  await sendMail(rt, {
    to: user.email,
    subject: SUBJECTS[purpose],
    text: `${hello}\n\n${why}\n\n${link.url}\n\n${tail}\n`,
  });
}

export interface LinkView {
  ok: boolean;
  /** Why the link cannot be used (unknown, used, expired): one message, the same for each. */
  problem?: string;
  purpose?: PasswordLinkPurpose;
  email?: string;
}

const UNUSABLE =
  'This link is not valid any more: it was used, replaced by a newer one, or expired. Ask for a new one.';

async function findLink(rt: Pick<Runtime, 'prisma' | 'clock'>, token: string) {
  if (typeof token !== 'string' || !token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const hash = tokenHash(token);
  const link = await rt.prisma.passwordLink.findUnique({
    where: { tokenHash: hash },
    include: { user: { select: { id: true, email: true, kind: true, tenantId: true } } },
  });
  if (!link || !constantTimeEqual(link.tokenHash, hash)) return null;
  if (link.usedAt || link.expiresAt <= rt.clock.now() || link.user.kind !== 'human') return null;
  return link;
}

/** What the link would do, for its page; changes nothing. */
export async function describePasswordLink(rt: Pick<Runtime, 'prisma' | 'clock'>, token: string): Promise<LinkView> {
  const link = await findLink(rt, token);
  if (!link) return { ok: false, problem: UNUSABLE };
  return { ok: true, purpose: link.purpose, email: link.user.email };
}

/** Problems with a new password (length only: the person chooses it). */
export function passwordProblems(password: unknown, loc: string[] = ['password']): FieldProblem[] {
  if (typeof password !== 'string' || password.length < PASSWORD_MIN_LENGTH)
    return [{ loc, msg: `must be at least ${PASSWORD_MIN_LENGTH} characters` }];
  if (password.length > PASSWORD_MAX_LENGTH) return [{ loc, msg: `must be at most ${PASSWORD_MAX_LENGTH} characters` }];
  return [];
}

/**
 * Sets the person's password through the link, once: claims the link atomically (a second use, even a
 * concurrent one, is refused with the same message as an unknown link), stores the password as one the
 * person set themselves (`invited_password` or `self_password`, which the four-eyes rule accepts) and ends
 * their sessions. PATs are kept: a self-service reset proves control of the mailbox, not that the tokens
 * leaked (an admin's forced reset revokes them when it is requested, src/users/password-reset.ts).
 */
export async function usePasswordLink(
  rt: Pick<Runtime, 'prisma' | 'clock'>,
  token: string,
  password: string,
): Promise<{ email: string; purpose: PasswordLinkPurpose; sessionsEnded: number }> {
  const problems = passwordProblems(password);
  if (problems.length) throw new ValidationFailed(problems);
  const link = await findLink(rt, token);
  if (!link) throw new ValidationFailed([{ loc: ['token'], msg: UNUSABLE }], 'PASSWORD_LINK_UNUSABLE');
  const passwordHash = await hashPassword(password);
  const now = rt.clock.now();
  return rt.prisma.$transaction(async (tx) => {
    const claimed = await tx.passwordLink.updateMany({
      where: { id: link.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (claimed.count !== 1) throw new ValidationFailed([{ loc: ['token'], msg: UNUSABLE }], 'PASSWORD_LINK_UNUSABLE');
    await tx.user.update({
      where: { id: link.userId },
      data: { passwordHash, credentialOrigin: link.purpose === 'invite' ? 'invited_password' : 'self_password' },
    });
    const ended = await tx.session.updateMany({
      where: { userId: link.userId, revokedAt: null },
      data: { revokedAt: now },
    });
    await tx.auditLog.create({
      data: {
        tenantId: link.tenantId,
        actorId: link.userId,
        credentialKind: 'system',
        action: link.purpose === 'invite' ? 'acceptInvitation' : 'completePasswordReset',
        targetType: 'User',
        targetId: link.userId,
      },
    });
    return { email: link.user.email, purpose: link.purpose, sessionsEnded: ended.count };
  });
}
