/**
 * Password login and logout. A session row backs every JWT so logout takes effect server-side.
 */
import type { Runtime } from '../runtime.js';
import type { Ctx } from '../context.js';
import { Unauthenticated, ValidationFailed, RateLimited } from '../errors.js';
import { verifyPassword } from '../secrets.js';
import { signSessionJwt } from './jwt.js';
import { assertPasswordSignInAllowed, passwordLoginRefusal } from './policy.js';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { EMAIL_MAX_LENGTH } from '../email-address.js';

/** How long a session can be silently refreshed before a new login is needed. */
const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export interface LoginResult {
  accessToken: string;
  tokenType: 'bearer';
  expiresIn: number;
}

/** Failed logins allowed per account and client address per minute; a success clears the count. */
const LOGIN_FAILURES_PER_MINUTE = 10;
/** Failed logins allowed per account per minute from all addresses together (distributed guessing). */
export const LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE = 100;
/**
 * Different accounts one client address may fail to log in to within LOGIN_ADDRESS_WINDOW_SECONDS
 * (credential stuffing: one address trying many emails). Past it, every login from that address is
 * refused until the window ends; other addresses are unaffected.
 */
export const LOGIN_ACCOUNTS_PER_ADDRESS = 20;
export const LOGIN_ADDRESS_WINDOW_SECONDS = 15 * 60;

interface LoginLimiters {
  perClient: RateLimiterRedis;
  perAccount: RateLimiterRedis;
  /** One point per (account, address) pair that failed in the address window: first failures only. */
  pairSeen: RateLimiterRedis;
  perAddress: RateLimiterRedis;
}

declare module '../runtime.js' {
  interface RuntimeParts {
    loginLimiters: LoginLimiters;
  }
}

/** Builds the runtime's login limiters (src/server/runtime-parts.ts, before any traffic). */
export function createLoginLimiters(rt: Runtime): LoginLimiters {
  const prefix = `${rt.config.redisPrefix}:rl:login`;
  return {
    perClient: new RateLimiterRedis({
      storeClient: rt.redis,
      keyPrefix: `${prefix}:client`,
      points: LOGIN_FAILURES_PER_MINUTE,
      duration: 60,
    }),
    perAccount: new RateLimiterRedis({
      storeClient: rt.redis,
      keyPrefix: `${prefix}:account`,
      points: LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE,
      duration: 60,
    }),
    pairSeen: new RateLimiterRedis({
      storeClient: rt.redis,
      keyPrefix: `${prefix}:pair`,
      points: 1,
      duration: LOGIN_ADDRESS_WINDOW_SECONDS,
    }),
    perAddress: new RateLimiterRedis({
      storeClient: rt.redis,
      keyPrefix: `${prefix}:address`,
      points: LOGIN_ACCOUNTS_PER_ADDRESS,
      duration: LOGIN_ADDRESS_WINDOW_SECONDS,
    }),
  };
}

function loginLimiters(rt: Runtime): LoginLimiters {
  return rt.parts.loginLimiters;
}

/**
 * Exchanges email and password for a session JWT. Wrong email and wrong password look the same.
 * After 10 failed attempts on an account from one client address within a minute, further attempts
 * from that address (even correct ones) get RateLimited until the minute is over, so a stranger who
 * knows an email cannot lock its owner out from elsewhere; 100 failures from all addresses together
 * lock the account for the minute. A successful login clears its address's count.
 */
export async function login(
  rt: Runtime,
  email: string,
  password: string,
  clientIp: string | null = null,
): Promise<LoginResult> {
  const problems = [];
  if (!email) problems.push({ loc: ['email'], msg: 'is required' });
  else if (email.trim().length > EMAIL_MAX_LENGTH)
    problems.push({ loc: ['email'], msg: `must be at most ${EMAIL_MAX_LENGTH} characters` });
  if (!password) problems.push({ loc: ['password'], msg: 'is required' });
  if (problems.length) throw new ValidationFailed(problems);
  const normalized = email.trim().toLowerCase();
  const { perClient, perAccount, pairSeen, perAddress } = loginLimiters(rt);
  const address = clientIp ?? 'unknown';
  const clientKey = `${normalized}|${address}`;
  const [clientFailures, accountFailures, addressFailures] = await Promise.all([
    perClient.get(clientKey),
    perAccount.get(normalized),
    perAddress.get(address),
  ]);
  if (addressFailures && addressFailures.consumedPoints >= LOGIN_ACCOUNTS_PER_ADDRESS) {
    throw new RateLimited(
      Math.max(1, Math.ceil(addressFailures.msBeforeNext / 1000)),
      'Too many failed login attempts from this address; retry later.',
    );
  }
  for (const [res, limit] of [
    [clientFailures, LOGIN_FAILURES_PER_MINUTE],
    [accountFailures, LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE],
  ] as const) {
    if (res && res.consumedPoints >= limit) {
      throw new RateLimited(
        Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
        'Too many failed login attempts for this account; retry later.',
      );
    }
  }
  /** Counts a failure of a new (account, address) pair against the address: repeats on one account do not. */
  const countAgainstAddress = async (): Promise<void> => {
    const seen = await pairSeen.consume(clientKey).catch((r: unknown) => r as { consumedPoints?: number });
    if (seen?.consumedPoints === 1) await perAddress.consume(address).catch(() => undefined);
  };
  const fail = async (message: string): Promise<never> => {
    // Over a limit: the next attempt is refused above.
    await Promise.all([
      perClient.consume(clientKey).catch(() => undefined),
      perAccount.consume(normalized).catch(() => undefined),
      countAgainstAddress(),
    ]);
    throw new Unauthenticated(message, 'LOGIN_FAILED');
  };
  // Login names no tenant, so this lookup is the one place that searches users across tenants.
  const user = await rt.prisma.user.findUnique({ where: { email: normalized } });
  const ok = await verifyPassword(password, user?.passwordHash);
  if (!user || !ok) return fail('Wrong email or password.');
  const refused = passwordLoginRefusal(user);
  if (refused) return fail(refused);
  if (clientFailures) await perClient.delete(clientKey);
  // The password was right: a tenant that requires single sign-on still refuses it (403, not a failure).
  const tenant = await rt.prisma.tenant.findUniqueOrThrow({
    where: { id: user.tenantId },
    select: { ssoRequired: true, ssoBreakGlassUserId: true },
  });
  assertPasswordSignInAllowed(user, tenant);
  return openSession(rt, user);
}

/** Opens a session for a user who has proven who they are (password or single sign-on) and signs its JWT. */
export async function openSession(rt: Runtime, user: { id: string; tenantId: string }): Promise<LoginResult> {
  const now = rt.clock.now();
  const session = await rt.prisma.session.create({
    data: { tenantId: user.tenantId, userId: user.id, expiresAt: new Date(now.getTime() + SESSION_MAX_AGE_MS) },
  });
  const accessToken = await signSessionJwt(
    rt.jwtKey,
    { userId: user.id, sessionId: session.id, tenantId: user.tenantId },
    rt.config.jwtTtlSeconds,
    now.getTime(),
  );
  return { accessToken, tokenType: 'bearer', expiresIn: rt.config.jwtTtlSeconds };
}

/** Ends the caller's session (a no-op for other credential kinds, which have no session). */
export async function logout(ctx: Ctx): Promise<void> {
  if (!ctx.principal) throw new Unauthenticated();
  if (ctx.principal.credential.kind !== 'session') return;
  await ctx.db.session.updateMany({
    where: { id: ctx.principal.credential.id, revokedAt: null },
    data: { revokedAt: ctx.rt.clock.now() },
  });
}
