/**
 * Password login and logout. A session row backs every JWT so logout takes effect server-side.
 */
import type { Runtime } from '../runtime.js';
import type { Ctx } from '../context.js';
import { Unauthenticated, ValidationFailed, RateLimited } from '../errors.js';
import { verifyPassword } from './secrets.js';
import { signSessionJwt } from './jwt.js';
import { RateLimiterRedis } from 'rate-limiter-flexible';

/** How long a session can be silently refreshed before a new login is needed. */
export const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export interface LoginResult {
  accessToken: string;
  tokenType: 'bearer';
  expiresIn: number;
}

/** Failed logins allowed per account and client address per minute; a success clears the count. */
export const LOGIN_FAILURES_PER_MINUTE = 10;
/** Failed logins allowed per account per minute from all addresses together (distributed guessing). */
export const LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE = 100;

interface LoginLimiters {
  perClient: RateLimiterRedis;
  perAccount: RateLimiterRedis;
}

const limiters = new WeakMap<Runtime, LoginLimiters>();
function loginLimiters(rt: Runtime): LoginLimiters {
  let l = limiters.get(rt);
  if (!l) {
    const prefix = `${rt.config.redisPrefix}:rl:login`;
    l = {
      perClient: new RateLimiterRedis({ storeClient: rt.redis, keyPrefix: `${prefix}:client`, points: LOGIN_FAILURES_PER_MINUTE, duration: 60 }),
      perAccount: new RateLimiterRedis({ storeClient: rt.redis, keyPrefix: `${prefix}:account`, points: LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE, duration: 60 }),
    };
    limiters.set(rt, l);
  }
  return l;
}

/**
 * Exchanges email and password for a session JWT. Wrong email and wrong password look the same.
 * After 10 failed attempts on an account from one client address within a minute, further attempts
 * from that address (even correct ones) get RateLimited until the minute is over, so a stranger who
 * knows an email cannot lock its owner out from elsewhere; 100 failures from all addresses together
 * lock the account for the minute. A successful login clears its address's count.
 */
export async function login(rt: Runtime, email: string, password: string, clientIp: string | null = null): Promise<LoginResult> {
  const problems = [];
  if (!email) problems.push({ loc: ['body', 'email'], msg: 'is required' });
  if (!password) problems.push({ loc: ['body', 'password'], msg: 'is required' });
  if (problems.length) throw new ValidationFailed(problems);
  const normalized = email.trim().toLowerCase();
  const { perClient, perAccount } = loginLimiters(rt);
  const clientKey = `${normalized}|${clientIp ?? 'unknown'}`;
  const [clientFailures, accountFailures] = await Promise.all([perClient.get(clientKey), perAccount.get(normalized)]);
  for (const [res, limit] of [[clientFailures, LOGIN_FAILURES_PER_MINUTE], [accountFailures, LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE]] as const) {
    if (res && res.consumedPoints >= limit) {
      throw new RateLimited(Math.max(1, Math.ceil(res.msBeforeNext / 1000)), 'Too many failed login attempts for this account; retry later.');
    }
  }
  const fail = async (message: string): Promise<never> => {
    // Over a limit: the next attempt is refused above.
    await Promise.all([perClient.consume(clientKey).catch(() => undefined), perAccount.consume(normalized).catch(() => undefined)]);
    throw new Unauthenticated(message);
  };
  // Login names no tenant, so this lookup is the one place that searches users across tenants.
  const user = await rt.prisma.user.findUnique({ where: { email: normalized } });
  const ok = await verifyPassword(password, user?.passwordHash);
  if (!user || !ok) return fail('Wrong email or password.');
  if (user.kind !== 'human') return fail('Service users cannot log in with a password; use a personal access token.');
  if (clientFailures) await perClient.delete(clientKey);
  const session = await rt.prisma.session.create({
    data: { tenantId: user.tenantId, userId: user.id, expiresAt: new Date(Date.now() + SESSION_MAX_AGE_MS) },
  });
  const accessToken = await signSessionJwt(rt.jwtKey, { userId: user.id, sessionId: session.id, tenantId: user.tenantId }, rt.config.jwtTtlSeconds);
  return { accessToken, tokenType: 'bearer', expiresIn: rt.config.jwtTtlSeconds };
}

/** Ends the caller's session (a no-op for other credential kinds, which have no session). */
export async function logout(ctx: Ctx): Promise<void> {
  if (!ctx.principal) throw new Unauthenticated();
  if (ctx.principal.credential.kind !== 'session') return;
  await ctx.db.session.updateMany({ where: { id: ctx.principal.credential.id, revokedAt: null }, data: { revokedAt: new Date() } });
}
