/**
 * Getting back in: a person asks for a reset link by email ("Forgot password?"), or an admin forces a
 * reset. Self-service requests are limited per email and per client address in Redis (so the limits hold
 * across API nodes) and answer the same, at once, whether or not the email belongs to anyone: the lookup
 * and the mail happen after the answer, so neither the reply nor its timing tells who has an account.
 */
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { Runtime } from '../runtime.js';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { User } from '../generated/prisma/client.js';
import { NotFound, RateLimited, ValidationFailed } from '../errors.js';
import { MailNotConfiguredError } from '../mail/mailer.js';
import { emailProblem, normalizeEmail } from '../email-address.js';
import { issuePasswordLink, mailPasswordLink, type IssuedLink } from './password-links.js';
import { assertMayManagePeople } from './policy.js';

/** Reset mails one email address may ask for per hour (a mailbox is not flooded). */
export const RESET_REQUESTS_PER_EMAIL_PER_HOUR = 3;
/** Reset requests one client address may make per hour, whatever the emails. */
export const RESET_REQUESTS_PER_ADDRESS_PER_HOUR = 20;

interface ResetLimiters {
  perEmail: RateLimiterRedis;
  perAddress: RateLimiterRedis;
}

declare module '../runtime.js' {
  interface RuntimeParts {
    passwordResetLimiters: ResetLimiters;
  }
}

/** Builds the runtime's reset-request limiters (src/server/runtime-parts.ts, before any traffic). */
export function createPasswordResetLimiters(rt: Runtime): ResetLimiters {
  const prefix = `${rt.config.redisPrefix}:rl:password-reset`;
  return {
    perEmail: new RateLimiterRedis({
      storeClient: rt.redis,
      keyPrefix: `${prefix}:email`,
      points: RESET_REQUESTS_PER_EMAIL_PER_HOUR,
      duration: 3600,
    }),
    perAddress: new RateLimiterRedis({
      storeClient: rt.redis,
      keyPrefix: `${prefix}:address`,
      points: RESET_REQUESTS_PER_ADDRESS_PER_HOUR,
      duration: 3600,
    }),
  };
}

/** The one answer to a reset request, for known and unknown emails alike. */
export const RESET_REQUESTED =
  'If an account uses this email, a link to choose a new password is on its way. It works once and expires in 1 hour.';

async function consume(limiter: RateLimiterRedis, key: string, what: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (res) {
    if (res instanceof Error) throw res;
    const ms = (res as { msBeforeNext?: number }).msBeforeNext ?? 60_000;
    throw new RateLimited(Math.max(1, Math.ceil(ms / 1000)), `Too many password reset requests ${what}; retry later.`);
  }
}

/**
 * "Forgot password?": validates the email's form, counts the request against the email and the address
 * (429 past either, the same for every email), then answers. The link is made and mailed after the
 * answer, and only for a person of that email; a failure there is logged, never shown.
 */
export async function requestPasswordReset(rt: Runtime, email: string, clientIp: string | null): Promise<string> {
  const problem = emailProblem(email, ['email']);
  if (problem) throw new ValidationFailed([problem]);
  const normalized = normalizeEmail(email);
  const limiters = rt.parts.passwordResetLimiters;
  await consume(limiters.perAddress, clientIp ?? 'unknown', 'from this address');
  await consume(limiters.perEmail, normalized, 'for this email');
  void sendResetLink(rt, normalized).catch((err: unknown) => {
    rt.logger.error({ err: err instanceof MailNotConfiguredError ? err.message : err }, 'password reset mail failed');
  });
  return RESET_REQUESTED;
}

async function sendResetLink(rt: Runtime, email: string): Promise<void> {
  // Login names no tenant, so this lookup searches users across tenants, like login does.
  const user = await rt.prisma.user.findUnique({ where: { email } });
  if (!user || user.kind !== 'human') return;
  const link = await issuePasswordLink(rt, rt.prisma, user, 'reset', null);
  await mailPasswordLink(rt, user, 'reset', link);
  await rt.prisma.auditLog.create({
    data: {
      tenantId: user.tenantId,
      actorId: null,
      credentialKind: 'system',
      action: 'requestPasswordReset',
      targetType: 'User',
      targetId: user.id,
    },
  });
}

export interface ForcedReset {
  user: User;
  linkSentTo: string;
  linkExpiresAt: Date;
  sessionsEnded: number;
  tokensRevoked: number;
}

/**
 * An admin forces a reset for a person of their tenant: the current password stops working, the person's
 * sessions end and their PATs are revoked at once, and a reset link goes to their email. The admin never
 * sees a password or the link. Service users have no password (422); another tenant's user is 404.
 */
export async function forcePasswordReset(ctx: Ctx, userId: string): Promise<ForcedReset> {
  const me = requireUser(ctx);
  assertMayManagePeople(me);
  const user = await ctx.db.user.findUnique({ where: { id: userId } });
  if (!user) throw new NotFound(`User ${userId}`);
  if (user.kind === 'service')
    throw new ValidationFailed([
      { loc: ['userId'], msg: 'is a service user; service users have no password (manage their tokens instead)' },
    ]);
  if (!ctx.rt.mailer) throw mailNeeded(['userId']);
  const now = ctx.rt.clock.now();
  const { link, sessionsEnded, tokensRevoked } = await ctx.db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash: null } });
    const sessions = await tx.session.updateMany({
      where: { userId: user.id, revokedAt: null },
      data: { revokedAt: now },
    });
    const tokens = await tx.accessToken.updateMany({
      where: { userId: user.id, revokedAt: null },
      data: { revokedAt: now },
    });
    const issued: IssuedLink = await issuePasswordLink(ctx.rt, tx, user, 'reset', me.userId);
    return { link: issued, sessionsEnded: sessions.count, tokensRevoked: tokens.count };
  });
  await mailPasswordLink(ctx.rt, user, 'reset', link);
  return { user, linkSentTo: user.email, linkExpiresAt: link.expiresAt, sessionsEnded, tokensRevoked };
}

/** The 422 for an operation that must send mail while SMTP_URL is unset. */
export function mailNeeded(loc: string[]): ValidationFailed {
  return new ValidationFailed([
    {
      loc,
      msg: 'needs email to send the link, and this server has none: the operator sets SMTP_URL (docs/accounts.md)',
    },
  ]);
}
