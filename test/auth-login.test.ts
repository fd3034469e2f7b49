import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildUser, type BuiltTenant } from './factories.js';
import { call, gql, rest } from './helpers/http.js';
import { signSessionJwt } from '../src/auth/jwt.js';
import { LOGIN_ACCOUNTS_PER_ADDRESS } from '../src/auth/sessions.js';

const TTL = 60;
let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  // A short JWT lifetime so a token past half its life can be made without waiting.
  s = await startTestServer({ env: { JWT_TTL_SECONDS: String(TTL), TRUST_PROXY: 'true' } });
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

function login(email: string, password: string) {
  return rest(s.url).post('/auth/login', { email, password });
}

function claimsOf(jwt: string): { sub: string; sid: string; tid: string; iat: number; exp: number } {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());
}

/** The `name=value` part of the session cookie a response sets, and its attributes. */
function sessionCookie(headers: Headers): { pair: string; attrs: string } {
  const raw = headers.getSetCookie().find((c) => c.startsWith('ops_session='));
  if (!raw) throw new Error('no ops_session cookie set');
  const [pair, ...attrs] = raw.split(';');
  return { pair, attrs: attrs.join(';') };
}

function meWithCookie(cookie: string) {
  return call(s.url + '/api/v1', 'GET', '/auth/me', { headers: { cookie } });
}

function gqlWithCookie(cookie: string, query: string) {
  return call(s.url, 'POST', '/graphql', { headers: { cookie }, body: { query } });
}

describe('login', () => {
  it('returns a bearer JWT that works for /auth/me and { me { email } }', async () => {
    const res = await login(t.admin.email, t.adminPassword);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: TTL });
    const jwt = res.body.access_token;
    const me = await rest(s.url, jwt).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: t.admin.email,
      role: 'admin',
      credential_kind: 'session',
      tenant: { id: t.tenantId },
    });
    const g = await gql(s.url, jwt, '{ me { email } }');
    expect(g.data).toEqual({ me: { email: t.admin.email } });
  });

  it('sets an httpOnly session cookie that works for /auth/me and { me { email } }', async () => {
    const res = await login(t.admin.email, t.adminPassword);
    const { pair, attrs } = sessionCookie(res.headers);
    expect(pair).toBe(`ops_session=${res.body.access_token}`);
    expect(attrs).toMatch(/HttpOnly/i);
    expect(attrs).toMatch(/SameSite=Lax/i);
    expect(attrs).toMatch(/Path=\//);
    const me = await meWithCookie(pair);
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(t.admin.email);
    const g = await gqlWithCookie(pair, '{ me { email } }');
    expect(g.body.data).toEqual({ me: { email: t.admin.email } });
  });

  it('works through the GraphQL login mutation too, setting the cookie', async () => {
    const res = await call(s.url, 'POST', '/graphql', {
      body: {
        query:
          'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken tokenType expiresIn } }',
        variables: { e: t.admin.email, p: t.adminPassword },
      },
    });
    expect(res.body.data.login).toMatchObject({ tokenType: 'bearer', expiresIn: TTL });
    const { pair } = sessionCookie(res.headers);
    expect((await meWithCookie(pair)).status).toBe(200);
  });

  it('accepts the email in any case', async () => {
    const res = await login(t.admin.email.toUpperCase(), t.adminPassword);
    expect(res.status).toBe(200);
  });

  it('answers 401 for a wrong password', async () => {
    const res = await login(t.admin.email, 'wrong-password');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'LOGIN_FAILED', detail: 'Wrong email or password.' });
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('answers 401, indistinguishable from a wrong password, for an unknown email', async () => {
    const res = await login('nobody@nowhere.test', 'whatever-password');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'LOGIN_FAILED', detail: 'Wrong email or password.' });
  });

  it('answers 422 listing both fields when email and password are missing', async () => {
    const res = await rest(s.url).post('/auth/login', {});
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'email'], msg: expect.any(String) },
        { loc: ['body', 'password'], msg: expect.any(String) },
      ]),
    );
  });

  it('answers BAD_USER_INPUT with the fields over GraphQL for empty credentials', async () => {
    const g = await gql(s.url, undefined, 'mutation { login(email: "", password: "") { accessToken } }');
    expect(g.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(g.errors?.[0].extensions?.fields).toEqual([
      { loc: ['email'], msg: 'is required' },
      { loc: ['password'], msg: 'is required' },
    ]);
  });

  it('refuses a service user (no password login) with 401', async () => {
    const svc = await buildUser(s.app.rt, t.tenantId, { kind: 'service' });
    const res = await login(svc.email, 'any-password-at-all');
    expect(res.status).toBe(401);
  });

  it('answers 429 with Retry-After after 10 failed attempts on one account, even for the right password', async () => {
    const victim = await buildUser(s.app.rt, t.tenantId);
    for (let i = 0; i < 10; i++) expect((await login(victim.email, 'wrong-' + i)).status).toBe(401);
    const locked = await login(victim.email, victim.password!);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.body.detail).toMatch(/Too many failed login attempts/);
  });

  it('locks out only the client address that failed: the owner still logs in from elsewhere', async () => {
    const victim = await buildUser(s.app.rt, t.tenantId);
    const from = (ip: string, password: string) =>
      rest(s.url).post('/auth/login', { email: victim.email, password }, { headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 10; i++) expect((await from('203.0.113.7', 'wrong-' + i)).status).toBe(401);
    expect((await from('203.0.113.7', victim.password!)).status).toBe(429);
    expect((await from('198.51.100.20', victim.password!)).status).toBe(200);
  });

  it('answers 429 to one address trying many accounts (credential stuffing), and only to that address', async () => {
    const owner = await buildUser(s.app.rt, t.tenantId);
    const from = (ip: string, email: string, password: string) =>
      rest(s.url).post('/auth/login', { email, password }, { headers: { 'x-forwarded-for': ip } });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await from('203.0.113.99', `stuffed-${i}@nowhere.test`, 'hunter2')).status);
    expect(statuses.slice(0, LOGIN_ACCOUNTS_PER_ADDRESS)).toEqual(Array(LOGIN_ACCOUNTS_PER_ADDRESS).fill(401));
    expect(statuses.slice(LOGIN_ACCOUNTS_PER_ADDRESS)).toEqual(Array(25 - LOGIN_ACCOUNTS_PER_ADDRESS).fill(429));
    const blocked = await from('203.0.113.99', owner.email, owner.password!);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.body.detail).toMatch(/from this address/);
    expect((await from('198.51.100.99', owner.email, owner.password!)).status).toBe(200);
  });

  it('does not count repeated failures on one account as many accounts', async () => {
    const user = await buildUser(s.app.rt, t.tenantId);
    const from = (password: string) =>
      rest(s.url).post(
        '/auth/login',
        { email: user.email, password },
        { headers: { 'x-forwarded-for': '203.0.113.150' } },
      );
    for (let i = 0; i < 9; i++) expect((await from('wrong-' + i)).status).toBe(401);
    expect((await from(user.password!)).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await from('wrong-' + i)).status).toBe(401);
    expect((await from(user.password!)).status).toBe(200);
  });

  it('does not count successful logins against the limit', async () => {
    const user = await buildUser(s.app.rt, t.tenantId);
    for (let i = 0; i < 9; i++) await login(user.email, 'wrong-' + i);
    expect((await login(user.email, user.password!)).status).toBe(200);
    // The success cleared the failures: nine more mistakes and a success still get in.
    for (let i = 0; i < 9; i++) await login(user.email, 'wrong-' + i);
    const results = await Promise.all(Array.from({ length: 12 }, () => login(user.email, user.password!)));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
  });
});

describe('logout', () => {
  it('revokes the session server-side: the same JWT gets 401 afterwards', async () => {
    const jwt = (await login(t.admin.email, t.adminPassword)).body.access_token;
    const out = await rest(s.url, jwt).post('/auth/logout');
    expect(out.status).toBe(204);
    const me = await rest(s.url, jwt).get('/auth/me');
    expect(me.status).toBe(401);
    expect(me.body.detail).toMatch(/log in again/);
    const g = await gql(s.url, jwt, '{ me { email } }');
    expect(g.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('clears the cookie and ends the cookie session', async () => {
    const res = await login(t.admin.email, t.adminPassword);
    const { pair } = sessionCookie(res.headers);
    const out = await call(s.url + '/api/v1', 'POST', '/auth/logout', { headers: { cookie: pair } });
    expect(out.status).toBe(204);
    const cleared = sessionCookie(out.headers);
    expect(cleared.pair).toBe('ops_session=');
    expect(cleared.attrs).toMatch(/Max-Age=0/);
    expect((await meWithCookie(pair)).status).toBe(401);
  });

  it('leaves other sessions of the user working', async () => {
    const a = (await login(t.admin.email, t.adminPassword)).body.access_token;
    const b = (await login(t.admin.email, t.adminPassword)).body.access_token;
    await rest(s.url, a).post('/auth/logout');
    expect((await rest(s.url, b).get('/auth/me')).status).toBe(200);
  });

  it('answers 401 without a credential', async () => {
    expect((await rest(s.url).post('/auth/logout')).status).toBe(401);
  });
});

describe('silent refresh', () => {
  async function agedJwt(ageSeconds: number) {
    const fresh = (await login(t.admin.email, t.adminPassword)).body.access_token;
    const c = claimsOf(fresh);
    return signSessionJwt(
      s.app.rt.jwtKey,
      { userId: c.sub, sessionId: c.sid, tenantId: c.tid },
      TTL,
      s.app.rt.clock.now().getTime() - ageSeconds * 1000,
    );
  }

  it('sends X-Refreshed-Token for a bearer JWT past half its life, and the new token works', async () => {
    const old = await agedJwt(40);
    const me = await rest(s.url, old).get('/auth/me');
    expect(me.status).toBe(200);
    const fresh = me.headers.get('x-refreshed-token');
    expect(fresh).toBeTruthy();
    const c = claimsOf(fresh!);
    expect(c.exp - c.iat).toBe(TTL);
    expect(c.exp).toBeGreaterThan(claimsOf(old).exp);
    expect(c.sid).toBe(claimsOf(old).sid);
    expect((await rest(s.url, fresh!).get('/auth/me')).status).toBe(200);
  });

  it('refreshes over GraphQL too', async () => {
    const old = await agedJwt(40);
    const res = await call(s.url, 'POST', '/graphql', { token: old, body: { query: '{ me { email } }' } });
    expect(res.body.data.me.email).toBe(t.admin.email);
    const fresh = res.headers.get('x-refreshed-token');
    expect(fresh).toBeTruthy();
    expect((await gql(s.url, fresh!, '{ me { email } }')).data?.me.email).toBe(t.admin.email);
  });

  it('renews the cookie when the aged JWT came in the cookie', async () => {
    const old = await agedJwt(45);
    const me = await meWithCookie(`ops_session=${old}`);
    expect(me.status).toBe(200);
    const { pair, attrs } = sessionCookie(me.headers);
    expect(pair).not.toBe(`ops_session=${old}`);
    expect(attrs).toMatch(/HttpOnly/i);
    expect((await meWithCookie(pair)).status).toBe(200);
  });

  it('does not refresh a JWT in the first half of its life', async () => {
    const jwt = await agedJwt(5);
    const me = await rest(s.url, jwt).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.headers.get('x-refreshed-token')).toBeNull();
  });

  it('answers 401 for an expired JWT', async () => {
    const expired = await agedJwt(TTL + 5);
    const me = await rest(s.url, expired).get('/auth/me');
    expect(me.status).toBe(401);
  });

  it('does not refresh a logged-out session', async () => {
    const old = await agedJwt(40);
    await rest(s.url, old).post('/auth/logout');
    const me = await rest(s.url, old).get('/auth/me');
    expect(me.status).toBe(401);
    expect(me.headers.get('x-refreshed-token')).toBeNull();
  });
});
