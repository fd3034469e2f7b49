import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { patIsUsable } from '../../src/auth/authenticate.js';
import { tokenStatus } from '../../src/auth/tokens.js';
import { signSessionJwt, verifySessionJwt } from '../../src/auth/jwt.js';
import type { AccessToken } from '../../src/generated/prisma/client.js';

const now = new Date('2026-01-10T12:00:00Z');
const past = new Date(now.getTime() - 1000);
const future = new Date(now.getTime() + 1000);

function token(over: Partial<AccessToken>): AccessToken {
  return { revokedAt: null, expiresAt: null, graceUntil: null, ...over } as AccessToken;
}

describe('patIsUsable and tokenStatus', () => {
  it('accepts a token that never expires', () => {
    expect(patIsUsable(token({}), now)).toBe(true);
    expect(tokenStatus(token({}), now)).toBe('active');
  });

  it('refuses a revoked token, whatever its expiry', () => {
    expect(patIsUsable(token({ revokedAt: past, expiresAt: future }), now)).toBe(false);
    expect(tokenStatus(token({ revokedAt: past }), now)).toBe('revoked');
  });

  it('refuses a token at and after its expiry', () => {
    expect(patIsUsable(token({ expiresAt: future }), now)).toBe(true);
    expect(patIsUsable(token({ expiresAt: now }), now)).toBe(false);
    expect(tokenStatus(token({ expiresAt: past }), now)).toBe('expired');
  });

  it('keeps a rotated token active until its grace ends', () => {
    expect(tokenStatus(token({ graceUntil: future }), now)).toBe('active');
    expect(patIsUsable(token({ graceUntil: past }), now)).toBe(false);
    expect(tokenStatus(token({ graceUntil: past }), now)).toBe('expired');
  });
});

describe('session JWTs', () => {
  const key = new Uint8Array(32).fill(7);
  const claims = { userId: 'u1', sessionId: 's1', tenantId: 't1' };

  it('verifies what it signed, with the session, tenant and lifetime', async () => {
    const jwt = await signSessionJwt(key, claims, 3600, now.getTime());
    const c = await verifySessionJwt(key, jwt, now);
    expect(c).toMatchObject({ sub: 'u1', sid: 's1', tid: 't1' });
    expect(c!.exp - c!.iat).toBe(3600);
  });

  it('backdates issue time when asked, keeping the lifetime', async () => {
    const issued = now.getTime() - 100_000;
    const c = await verifySessionJwt(key, await signSessionJwt(key, claims, 3600, issued), now);
    expect(c!.iat).toBe(Math.floor(issued / 1000));
    expect(c!.exp).toBe(Math.floor(issued / 1000) + 3600);
  });

  it('returns null for an expired token, another key, or garbage', async () => {
    expect(await verifySessionJwt(key, await signSessionJwt(key, claims, 60, now.getTime() - 120_000), now)).toBeNull();
    expect(
      await verifySessionJwt(new Uint8Array(32).fill(8), await signSessionJwt(key, claims, 60, now.getTime()), now),
    ).toBeNull();
    expect(await verifySessionJwt(key, 'not.a.jwt', now)).toBeNull();
    expect(await verifySessionJwt(key, '', now)).toBeNull();
  });

  it('returns null for a token from another issuer or without the session claims', async () => {
    const exp = Math.floor(now.getTime() / 1000) + 60;
    const foreign = await new SignJWT({ sid: 's1', tid: 't1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuer('someone-else')
      .setExpirationTime(exp)
      .sign(key);
    expect(await verifySessionJwt(key, foreign, now)).toBeNull();
    const noSession = await new SignJWT({ tid: 't1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuer('ops-service')
      .setExpirationTime(exp)
      .sign(key);
    expect(await verifySessionJwt(key, noSession, now)).toBeNull();
  });

  it('returns null for an unsigned (alg none) token', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({
        sub: 'u1',
        sid: 's1',
        tid: 't1',
        iss: 'ops-service',
        exp: Math.floor(now.getTime() / 1000) + 60,
      }),
    ).toString('base64url');
    expect(await verifySessionJwt(key, `${header}.${payload}.`, now)).toBeNull();
  });
});
