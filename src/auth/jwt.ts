/**
 * Session JWTs (HS256 via jose). The token names its session; logout revokes the session row, so a
 * JWT stops working before it expires.
 */
import { SignJWT, jwtVerify, errors } from 'jose';

export interface SessionClaims {
  sub: string;
  sid: string;
  tid: string;
  exp: number;
  iat: number;
}

/** Signs a session JWT naming the session, valid `ttlSeconds` from `issuedAtMs` (the service clock's now). */
export async function signSessionJwt(
  key: Uint8Array,
  claims: { userId: string; sessionId: string; tenantId: string },
  ttlSeconds: number,
  issuedAtMs: number,
): Promise<string> {
  const iat = Math.floor(issuedAtMs / 1000);
  return new SignJWT({ sid: claims.sessionId, tid: claims.tenantId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .setIssuer('ops-service')
    .sign(key);
}

/** The verified claims, or null for anything expired at `now` (the service clock's), forged or malformed. */
export async function verifySessionJwt(key: Uint8Array, token: string, now: Date): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { issuer: 'ops-service', algorithms: ['HS256'], currentDate: now });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.tid !== 'string')
      return null;
    return payload as unknown as SessionClaims;
  } catch (err) {
    if (err instanceof errors.JOSEError) return null;
    throw err;
  }
}
