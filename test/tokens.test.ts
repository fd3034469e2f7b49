import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, gql, rest } from './helpers/http.js';

const DAY = 86400_000;
let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  [t, other] = await Promise.all([buildTenant(s.app.rt), buildTenant(s.app.rt)]);
});
afterAll(async () => {
  await s?.stop();
});

/** A fresh member with a PAT, so each test owns its tokens. */
async function member() {
  const user = await buildUser(s.app.rt, t.tenantId);
  return { user, token: await buildToken(s.app.rt, user) };
}

async function mint(token: string, body: Record<string, unknown>) {
  return rest(s.url, token).post('/auth/tokens', body);
}

describe('minting a PAT', () => {
  it('answers 201 with the spat_ token once, and the listing never shows it', async () => {
    const m = await member();
    const res = await mint(m.token, { name: 'ci', description: 'deploys' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      name: 'ci',
      description: 'deploys',
      status: 'active',
      expires_at: null,
      created_at: expect.any(String),
    });
    expect(res.body.token).toMatch(/^spat_[\w-]{40,}$/);
    expect(res.body.token.startsWith(res.body.token_prefix)).toBe(true);
    expect(res.body.token_prefix.length).toBeLessThan(16);
    const list = await rest(s.url, m.token).get('/auth/tokens');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);
    expect(list.body.every((x: object) => !('token' in x))).toBe(true);
    const me = await rest(s.url, res.body.token).get('/auth/me');
    expect(me.body).toMatchObject({ id: m.user.id, credential_kind: 'pat' });
  });

  it('lists the caller’s tokens as a bare array, newest first, with last_used_at, status and revoked_at', async () => {
    const m = await member();
    const a = await mint(m.token, { name: 'a' });
    const b = await mint(m.token, { name: 'b' });
    const list = await rest(s.url, m.token).get('/auth/tokens');
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.map((x: { name: string }) => x.name).slice(0, 2)).toEqual(['b', 'a']);
    expect(list.body[0]).toEqual(
      expect.objectContaining({
        id: b.body.id,
        status: 'active',
        last_used_at: null,
        revoked_at: null,
        expires_at: null,
        token_prefix: b.body.token_prefix,
      }),
    );
    expect(list.body).toHaveLength(3); // the factory's token too
    expect(a.status).toBe(201);
  });

  it('does not list another user’s tokens', async () => {
    const [m1, m2] = await Promise.all([member(), member()]);
    const res = await mint(m1.token, { name: 'private' });
    const list = await rest(s.url, m2.token).get('/auth/tokens');
    expect(list.body.map((x: { id: string }) => x.id)).not.toContain(res.body.id);
  });

  it('never expires when expires_in_days is omitted or null', async () => {
    const m = await member();
    for (const body of [{ name: 'omitted' }, { name: 'null', expires_in_days: null }]) {
      const res = await mint(m.token, body);
      expect(res.status).toBe(201);
      expect(res.body.expires_at).toBeNull();
    }
  });

  it.each([30, 90, 365, 7])('expires after %i days', async (days) => {
    const m = await member();
    const res = await mint(m.token, { name: `d${days}`, expires_in_days: days });
    expect(res.status).toBe(201);
    expect(
      Math.abs(new Date(res.body.expires_at).getTime() - (s.app.rt.clock.now().getTime() + days * DAY)),
    ).toBeLessThan(60_000);
  });

  it.each([0, 4000, 'x', 1.5, '30'])('answers 422 naming expires_in_days for %j', async (value) => {
    const m = await member();
    const res = await mint(m.token, { name: 'bad', expires_in_days: value });
    expect(res.status).toBe(422);
    // Every problem named is the field's (1.5 is both not an integer and not an int32).
    expect(res.body.detail.length).toBeGreaterThan(0);
    for (const problem of res.body.detail)
      expect(problem).toEqual(expect.objectContaining({ loc: ['body', 'expires_in_days'], msg: expect.any(String) }));
  });

  it('answers 422 naming name when it is missing, and listing every offending field', async () => {
    const m = await member();
    const res = await mint(m.token, { expires_in_days: 0 });
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.name', 'body.expires_in_days']));
  });

  it('answers BAD_USER_INPUT naming the input field expiresInDays over GraphQL', async () => {
    const m = await member();
    const g = await gql(
      s.url,
      m.token,
      'mutation { createToken(input: { name: "g", expiresInDays: 4000 }) { token } }',
    );
    expect(g.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((g.errors?.[0].extensions?.fields as Array<{ loc: string[] }>).map((f) => f.loc)).toEqual([
      ['input', 'expiresInDays'],
    ]);
  });

  it('answers 401 without a credential', async () => {
    expect((await rest(s.url).post('/auth/tokens', { name: 'x' })).status).toBe(401);
    expect((await rest(s.url).get('/auth/tokens')).status).toBe(401);
  });
});

describe('using a PAT', () => {
  it('answers 401 once the token has expired', async () => {
    const m = await member();
    const res = await mint(m.token, { name: 'short', expires_in_days: 1 });
    expect((await rest(s.url, res.body.token).get('/auth/me')).status).toBe(200);
    await s.app.rt.prisma.accessToken.update({
      where: { id: res.body.id },
      data: { expiresAt: new Date(s.app.rt.clock.now().getTime() - 1000) },
    });
    const me = await rest(s.url, res.body.token).get('/auth/me');
    expect(me.status).toBe(401);
    expect(me.body.detail).toMatch(/expired/);
    const list = await rest(s.url, m.token).get('/auth/tokens');
    expect(list.body.find((x: { id: string }) => x.id === res.body.id).status).toBe('expired');
  });

  it('writes last_used_at at most once a minute', async () => {
    const m = await member();
    const { body: tok } = await mint(m.token, { name: 'used' });
    const lastUsed = async () =>
      (await s.app.rt.prisma.accessToken.findUniqueOrThrow({ where: { id: tok.id } })).lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await rest(s.url, tok.token).get('/auth/me');
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await rest(s.url, tok.token).get('/auth/me');
    await rest(s.url, tok.token).get('/auth/me');
    expect((await lastUsed())!.getTime()).toBe(first!.getTime());

    const twoMinutesAgo = new Date(s.app.rt.clock.now().getTime() - 120_000);
    await s.app.rt.prisma.accessToken.update({ where: { id: tok.id }, data: { lastUsedAt: twoMinutesAgo } });
    await rest(s.url, tok.token).get('/auth/me');
    const updated = await lastUsed();
    expect(updated!.getTime()).toBeGreaterThanOrEqual(first!.getTime());
    const list = await rest(s.url, m.token).get('/auth/tokens');
    expect(list.body.find((x: { id: string }) => x.id === tok.id).last_used_at).toBe(updated!.toISOString());
  });

  it.each([
    ['no Authorization header', undefined],
    ['a garbage bearer token', 'Bearer not-a-real-token'],
    ['an unknown spat_ token', 'Bearer spat_doesnotexist0000000000000000000000000000'],
    ['a non-Bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['a Bearer scheme without a token', 'Bearer'],
  ])('answers 401 with a JSON detail for %s', async (_what, authorization) => {
    const res = await call(s.url + '/api/v1', 'GET', '/auth/me', { headers: authorization ? { authorization } : {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      code: expect.stringMatching(/^(UNAUTHENTICATED|TOKEN_INVALID|CREDENTIAL_MALFORMED|SESSION_EXPIRED)$/),
      detail: expect.any(String),
    });
    const g = await call(s.url, 'POST', '/graphql', {
      headers: authorization ? { authorization } : {},
      body: { query: '{ me { email } }' },
    });
    expect(g.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('revoking a PAT', () => {
  it('answers 204 and the token gets 401 on its next request', async () => {
    const m = await member();
    const { body: tok } = await mint(m.token, { name: 'doomed' });
    expect((await rest(s.url, tok.token).get('/auth/me')).status).toBe(200);
    const del = await rest(s.url, m.token).delete(`/auth/tokens/${tok.id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBe('');
    const me = await rest(s.url, tok.token).get('/auth/me');
    expect(me.status).toBe(401);
    expect(me.body.detail).toMatch(/revoked/);
    const list = await rest(s.url, m.token).get('/auth/tokens');
    expect(list.body.find((x: { id: string }) => x.id === tok.id)).toMatchObject({
      status: 'revoked',
      revoked_at: expect.any(String),
    });
  });

  it('lets a token revoke itself', async () => {
    const m = await member();
    const { body: tok } = await mint(m.token, { name: 'self' });
    expect((await rest(s.url, tok.token).delete(`/auth/tokens/${tok.id}`)).status).toBe(204);
    expect((await rest(s.url, tok.token).get('/auth/tokens')).status).toBe(401);
  });

  it('is idempotent: revoking twice answers 204 both times', async () => {
    const m = await member();
    const { body: tok } = await mint(m.token, { name: 'twice' });
    expect((await rest(s.url, m.token).delete(`/auth/tokens/${tok.id}`)).status).toBe(204);
    expect((await rest(s.url, m.token).delete(`/auth/tokens/${tok.id}`)).status).toBe(204);
  });
});

describe('reactivating a PAT', () => {
  it('works within 7 days of revocation and the token authenticates again', async () => {
    const m = await member();
    const { body: tok } = await mint(m.token, { name: 'back' });
    await rest(s.url, m.token).delete(`/auth/tokens/${tok.id}`);
    await s.app.rt.prisma.accessToken.update({
      where: { id: tok.id },
      data: { revokedAt: new Date(s.app.rt.clock.now().getTime() - 6 * DAY) },
    });
    const res = await rest(s.url, m.token).post(`/auth/tokens/${tok.id}/reactivate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: tok.id, status: 'active', revoked_at: null });
    expect((await rest(s.url, tok.token).get('/auth/me')).status).toBe(200);
  });

  it('answers 409 more than 7 days after revocation', async () => {
    const m = await member();
    const { body: tok } = await mint(m.token, { name: 'late' });
    await rest(s.url, m.token).delete(`/auth/tokens/${tok.id}`);
    await s.app.rt.prisma.accessToken.update({
      where: { id: tok.id },
      data: { revokedAt: new Date(s.app.rt.clock.now().getTime() - 7 * DAY - 60_000) },
    });
    const res = await rest(s.url, m.token).post(`/auth/tokens/${tok.id}/reactivate`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/7 days/);
    expect((await rest(s.url, tok.token).get('/auth/me')).status).toBe(401);
  });

  it('answers 409 for a token that is not revoked', async () => {
    const m = await member();
    const { body: tok } = await mint(m.token, { name: 'active' });
    expect((await rest(s.url, m.token).post(`/auth/tokens/${tok.id}/reactivate`)).status).toBe(409);
  });
});

describe('rotating a PAT', () => {
  it('returns a new token; the old one keeps working until its grace ends, then gets 401', async () => {
    const m = await member();
    const { body: old } = await mint(m.token, { name: 'rot', expires_in_days: 30 });
    const res = await rest(s.url, m.token).post(`/auth/tokens/${old.id}/rotate`);
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^spat_/);
    expect(res.body.id).not.toBe(old.id);
    expect(res.body.name).toBe('rot');
    expect(
      Math.abs(new Date(res.body.expires_at).getTime() - (s.app.rt.clock.now().getTime() + 30 * DAY)),
    ).toBeLessThan(60_000);
    expect((await rest(s.url, res.body.token).get('/auth/me')).status).toBe(200);
    expect((await rest(s.url, old.token).get('/auth/me')).status).toBe(200);
    const list = await rest(s.url, m.token).get('/auth/tokens');
    const oldRow = list.body.find((x: { id: string }) => x.id === old.id);
    expect(Math.abs(new Date(oldRow.grace_until).getTime() - (s.app.rt.clock.now().getTime() + DAY))).toBeLessThan(
      60_000,
    );

    await s.app.rt.prisma.accessToken.update({
      where: { id: old.id },
      data: { graceUntil: new Date(s.app.rt.clock.now().getTime() - 1000) },
    });
    expect((await rest(s.url, old.token).get('/auth/me')).status).toBe(401);
    expect((await rest(s.url, res.body.token).get('/auth/me')).status).toBe(200);
  });

  it('rotates over GraphQL too', async () => {
    const m = await member();
    const { body: old } = await mint(m.token, { name: 'g-rot' });
    const g = await gql(
      s.url,
      m.token,
      'mutation($id: ID!) { rotateToken(id: $id) { token accessToken { id name status } } }',
      { id: old.id },
    );
    expect(g.data.rotateToken).toMatchObject({
      token: expect.stringMatching(/^spat_/),
      accessToken: { name: 'g-rot', status: 'ACTIVE' },
    });
  });

  it('answers 409 for a revoked token', async () => {
    const m = await member();
    const { body: tok } = await mint(m.token, { name: 'gone' });
    await rest(s.url, m.token).delete(`/auth/tokens/${tok.id}`);
    expect((await rest(s.url, m.token).post(`/auth/tokens/${tok.id}/rotate`)).status).toBe(409);
  });
});

describe('tokens of others', () => {
  it.each([
    ['DELETE', (id: string) => `/auth/tokens/${id}`],
    ['POST', (id: string) => `/auth/tokens/${id}/reactivate`],
    ['POST', (id: string) => `/auth/tokens/${id}/rotate`],
  ])('%s %s answers 404 for another tenant’s token and leaves it working', async (method, path) => {
    const { body: theirs } = await mint(other.adminToken, { name: 'theirs' });
    const res = await call(s.url + '/api/v1', method, path(theirs.id), { token: t.adminToken });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'NOT_FOUND', detail: 'Token not found.' });
    expect((await rest(s.url, theirs.token).get('/auth/me')).status).toBe(200);
  });

  it('answers 404 when a member touches a colleague’s token', async () => {
    const [m1, m2] = await Promise.all([member(), member()]);
    const { body: tok } = await mint(m1.token, { name: 'mine' });
    expect((await rest(s.url, m2.token).delete(`/auth/tokens/${tok.id}`)).status).toBe(404);
    expect((await rest(s.url, tok.token).get('/auth/me')).status).toBe(200);
  });

  it('answers 404 for an id that does not exist', async () => {
    const res = await rest(s.url, t.adminToken).delete('/auth/tokens/01a1fc91-0000-7000-8000-000000000000');
    expect(res.status).toBe(404);
  });
});
