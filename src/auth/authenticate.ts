/**
 * Resolves the Principal from a request's credential: a PAT (`spat_…`, looked up by hash, no JWT
 * decoding) or a session JWT (Bearer header or the session cookie). A presented but invalid credential
 * is a 401; no credential at all yields a null principal (public operations still work).
 */
import { parse as parseCookie } from 'cookie';
import type { Runtime } from '../runtime.js';
import { Unauthenticated } from '../errors.js';
import { tokenHash } from '../secrets.js';
import { signSessionJwt, verifySessionJwt } from './jwt.js';
import { SESSION_COOKIE, type Principal } from '../principal.js';

export const PAT_PREFIX = 'spat_';
const LAST_USED_RESOLUTION_MS = 60_000;

export interface Authentication {
  principal: Principal | null;
  /** A fresh JWT when the presented one is past half its life (silent refresh). */
  refreshedJwt?: { token: string; viaCookie: boolean };
}

export interface CredentialSource {
  authorization?: string | null;
  cookie?: string | null;
}

/** Extracts the bearer token from an Authorization header value. */
function bearer(authorization: string | null | undefined): string | undefined {
  if (!authorization) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!m) throw new Unauthenticated('Authorization header must be "Bearer <token>".', 'CREDENTIAL_MALFORMED');
  return m[1];
}

/** True when a PAT row may authenticate right now. */
export function patIsUsable(
  t: { revokedAt: Date | null; expiresAt: Date | null; graceUntil: Date | null },
  now: Date,
): boolean {
  if (t.revokedAt) return false;
  if (t.expiresAt && t.expiresAt <= now) return false;
  if (t.graceUntil && t.graceUntil <= now) return false;
  return true;
}

interface PatRow {
  id: string;
  tenantId: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  graceUntil: Date | null;
  lastUsedAt: Date | null;
  userId: string;
  email: string;
  role: Principal['role'];
  kind: Principal['userKind'];
}

async function authenticatePat(rt: Runtime, token: string): Promise<Principal> {
  // The token with its owner in one statement (Prisma would send two: the token, then the user).
  const [row] = await rt.prisma.$queryRaw<PatRow[]>`
    SELECT t."id", t."tenantId", t."revokedAt", t."expiresAt", t."graceUntil", t."lastUsedAt",
           u."id" AS "userId", u."email", u."role"::text AS "role", u."kind"::text AS "kind"
    FROM "AccessToken" t JOIN "User" u ON u."id" = t."userId"
    WHERE t."tokenHash" = ${tokenHash(token)}`;
  if (!row) throw new Unauthenticated('Invalid personal access token.', 'TOKEN_INVALID');
  const now = rt.clock.now();
  if (row.revokedAt) throw new Unauthenticated('This personal access token has been revoked.', 'TOKEN_REVOKED');
  if (!patIsUsable(row, now)) throw new Unauthenticated('This personal access token has expired.', 'TOKEN_EXPIRED');
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    // At most one write a minute per token; the condition makes concurrent requests write once.
    // Awaited (once a minute, so cheap) so that last_used_at is current when the request is served.
    await rt.prisma.accessToken
      .updateMany({
        where: {
          id: row.id,
          OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: new Date(now.getTime() - LAST_USED_RESOLUTION_MS) } }],
        },
        data: { lastUsedAt: now },
      })
      .catch((err: Error) => rt.logger.warn({ err: err.message }, 'could not record token use'));
  }
  return {
    tenantId: row.tenantId,
    userId: row.userId,
    email: row.email,
    role: row.role,
    userKind: row.kind,
    credential: { kind: 'pat', id: row.id },
  };
}

async function authenticateJwt(rt: Runtime, jwt: string, viaCookie: boolean): Promise<Authentication> {
  const now = rt.clock.now();
  const claims = await verifySessionJwt(rt.jwtKey, jwt, now);
  if (!claims) throw new Unauthenticated('Session expired or invalid; log in again.', 'SESSION_EXPIRED');
  const session = await rt.prisma.session.findUnique({
    where: { id: claims.sid },
    select: {
      id: true,
      tenantId: true,
      revokedAt: true,
      expiresAt: true,
      user: { select: { id: true, email: true, role: true, kind: true } },
    },
  });
  if (!session || session.revokedAt || session.expiresAt <= now || session.user.id !== claims.sub) {
    throw new Unauthenticated('Session ended; log in again.', 'SESSION_ENDED');
  }
  const principal: Principal = {
    tenantId: session.tenantId,
    userId: session.user.id,
    email: session.user.email,
    role: session.user.role,
    userKind: session.user.kind,
    credential: { kind: 'session', id: session.id },
  };
  const remaining = claims.exp - now.getTime() / 1000;
  const lifetime = claims.exp - claims.iat;
  if (remaining < lifetime / 2) {
    const token = await signSessionJwt(
      rt.jwtKey,
      { userId: session.user.id, sessionId: session.id, tenantId: session.tenantId },
      rt.config.jwtTtlSeconds,
      now.getTime(),
    );
    return { principal, refreshedJwt: { token, viaCookie } };
  }
  return { principal };
}

/** Resolves the caller. Throws Unauthenticated for a presented credential that does not hold. */
export async function authenticate(rt: Runtime, source: CredentialSource): Promise<Authentication> {
  const token = bearer(source.authorization);
  if (token) {
    if (token.startsWith(PAT_PREFIX)) return { principal: await authenticatePat(rt, token) };
    return authenticateJwt(rt, token, false);
  }
  const cookieJwt = source.cookie ? parseCookie(source.cookie)[SESSION_COOKIE] : undefined;
  if (cookieJwt) return authenticateJwt(rt, cookieJwt, true);
  return { principal: null };
}
