/**
 * Single sign-on with OpenID Connect against a real OpenID Provider (oidc-provider on 127.0.0.1,
 * test/helpers/oidc-provider.ts): the browser's part is played by fetch with a cookie jar following the
 * redirects, the provider's login and consent prompts answered through its interaction API. The service
 * has the installation's provider (OIDC_*) for one tenant; a second tenant configures its own over GraphQL.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { call, gql, rest } from './helpers/http.js';
import { freePort } from './helpers/processes.js';
import { testClock } from './helpers/clock.js';
import { buildTenant, buildUser, type BuiltTenant } from './factories.js';
import { CookieJar, followUntil, startOidcProvider, type TestOidcProvider } from './helpers/oidc-provider.js';

const ID_TOKEN_TTL_SECONDS = 120;
const clock = testClock();
let server: TestServer;
let idp: TestOidcProvider;
let acme: BuiltTenant;
let base: string;
let callbackPrefix: string;

beforeAll(async () => {
  const [serverPort, idpPort] = [await freePort(), await freePort()];
  const clientSecret = crypto.randomBytes(16).toString('hex');
  const tenantName = `acme-${crypto.randomBytes(3).toString('hex')}`;
  base = `http://127.0.0.1:${serverPort}`;
  callbackPrefix = `${base}/api/v1/auth/sso/callback`;
  server = await startTestServer({
    env: {
      PORT: String(serverPort),
      OIDC_DISCOVERY_URL: `http://127.0.0.1:${idpPort}`,
      OIDC_CLIENT_ID: 'ops-service',
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_TENANT: tenantName,
      OIDC_PROVIDER_ID: 'test-idp',
      OIDC_DISPLAY_NAME: 'Test IdP',
      OIDC_ADMIN_GROUPS: 'ops-admins',
      OIDC_MEMBER_GROUPS: 'ops-users,ops-viewers',
      // The second tenant's own provider is on loopback: the outbound address policy must allow it.
      WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
    },
    start: { clock },
  });
  idp = await startOidcProvider({
    port: idpPort,
    redirectUri: callbackPrefix,
    clientSecret,
    idTokenTtlSeconds: ID_TOKEN_TTL_SECONDS,
  });
  acme = await buildTenant(server.app.rt, { name: tenantName });
  idp.accounts.set('alice', { email: 'alice@acme.test', name: 'Alice', groups: ['ops-admins', 'staff'] });
  idp.accounts.set('bob', { email: 'bob@acme.test', groups: ['ops-users'] });
  idp.accounts.set('carol', { email: 'carol@acme.test', groups: ['contractors'] });
});

afterAll(async () => {
  await idp?.close();
  await server?.stop();
});

/** Starts a sign-in as `account` in a fresh browser and follows it to the callback URL (not yet opened). */
async function toCallback(account: string, provider = 'test-idp'): Promise<{ jar: CookieJar; callback: string }> {
  const jar = new CookieJar();
  idp.signInAs(account);
  const res = await fetch(`${base}/api/v1/auth/sso/providers/${provider}/start`, { method: 'POST' });
  expect(res.status).toBe(200);
  jar.store(base, res.headers);
  const { authorization_url } = (await res.json()) as { authorization_url: string };
  const callback = await followUntil(jar, authorization_url, (u) => u.startsWith(callbackPrefix));
  return { jar, callback };
}

/** Opens the callback in the browser `jar`: the status, the answer, and the session cookie it set. */
async function openCallback(jar: CookieJar, callback: string) {
  const res = await fetch(callback, { redirect: 'manual', headers: { cookie: jar.header(callback) } });
  jar.store(callback, res.headers);
  const text = await res.text();
  return {
    status: res.status,
    location: res.headers.get('location'),
    body: text && res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Record<string, any>) : {},
    session: jar.get(base, 'ops_session'),
  };
}

async function signIn(account: string, provider = 'test-idp') {
  const { jar, callback } = await toCallback(account, provider);
  return openCallback(jar, callback);
}

const me = (session: string) => call(base, 'GET', '/api/v1/auth/me', { headers: { cookie: `ops_session=${session}` } });

describe('OIDC sign-in', () => {
  it("lists the installation's provider for the sign-in page, without a credential", async () => {
    const res = await rest(base).get('/auth/sso/providers');
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({ slug: 'test-idp', display_name: 'Test IdP' });
  });

  it("creates the user on first sign-in in the provider's tenant, as admin from the group claim", async () => {
    const res = await signIn('alice');
    expect(res.status, JSON.stringify(res.body)).toBe(303);
    expect(res.location).toBe('/');
    const who = await me(res.session!);
    expect(who.status).toBe(200);
    expect(who.body).toMatchObject({
      email: 'alice@acme.test',
      role: 'admin',
      kind: 'human',
      credential_kind: 'session',
    });
    expect(who.body.tenant.name).toBe(acme.name);
    const row = await server.app.rt.prisma.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
    expect(row).toMatchObject({ tenantId: acme.tenantId, credentialOrigin: 'sso', passwordHash: null, name: 'Alice' });
    // A second sign-in lands in the same account.
    const again = await signIn('alice');
    expect(again.status).toBe(303);
    expect(await server.app.rt.prisma.user.count({ where: { email: 'alice@acme.test' } })).toBe(1);
  });

  it('gives member to a member group, and refuses someone in no mapped group (403)', async () => {
    const bob = await signIn('bob');
    expect(bob.status).toBe(303);
    expect((await me(bob.session!)).body.role).toBe('member');
    const carol = await signIn('carol');
    expect(carol.status).toBe(403);
    expect(carol.body.code).toBe('SSO_ROLE_NOT_GRANTED');
    expect(carol.session).toBeUndefined();
    expect(await server.app.rt.prisma.user.count({ where: { email: 'carol@acme.test' } })).toBe(0);
  });

  it('refuses a tampered state, and a callback opened in a browser that did not start the sign-in', async () => {
    const { jar, callback } = await toCallback('bob');
    const tampered = new URL(callback);
    tampered.searchParams.set('state', tampered.searchParams.get('state')! + 'x');
    const res = await openCallback(jar, tampered.href);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'SSO_FAILED' });
    expect(res.body.detail).toMatch(/state/);
    expect(res.session).toBeUndefined();
    // The genuine callback in another browser (no flow cookie): refused, and the flow is used up.
    const elsewhere = await openCallback(new CookieJar(), callback);
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.detail).toMatch(/did not start the sign-in/);
    const replay = await openCallback(jar, callback);
    expect(replay.status).toBe(401);
    expect(replay.body.detail).toMatch(/unknown or expired state/);
  });

  it('refuses a callback that names another issuer (mix-up)', async () => {
    const { jar, callback } = await toCallback('bob');
    const url = new URL(callback);
    expect(url.searchParams.get('iss')).toBe(idp.issuer);
    url.searchParams.set('iss', 'http://127.0.0.1:1');
    const res = await openCallback(jar, url.href);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SSO_FAILED');
    expect(res.body.detail).toMatch(/iss/);
    expect(res.session).toBeUndefined();
  });

  it("refuses an ID token that expired by the service's clock", async () => {
    const { jar, callback } = await toCallback('bob');
    clock.advance((ID_TOKEN_TTL_SECONDS + 120) * 1000);
    try {
      const res = await openCallback(jar, callback);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('SSO_FAILED');
      expect(res.body.detail).toMatch(/exp/);
      expect(res.session).toBeUndefined();
    } finally {
      clock.reset();
    }
  });

  it('logout revokes an SSO session; PATs are unaffected', async () => {
    const res = await signIn('bob');
    const cookie = { cookie: `ops_session=${res.session}` };
    expect((await call(base, 'POST', '/api/v1/auth/logout', { headers: cookie })).status).toBe(204);
    expect((await me(res.session!)).status).toBe(401);
    expect((await rest(base, acme.adminToken).get('/auth/me')).status).toBe(200);
  });
});

describe('SSO required', () => {
  it('refuses password sign-in for people (403 SSO_REQUIRED) but not for the break-glass admin', async () => {
    const api = rest(base, acme.adminToken);
    const member = await buildUser(server.app.rt, acme.tenantId);
    const otherAdmin = await buildUser(server.app.rt, acme.tenantId, { role: 'admin' });
    // Turning it on needs a break-glass account.
    const missing = await api.put('/auth/sso/policy', { required: true });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body.detail)).toContain('break_glass_user_id');
    const on = await api.put('/auth/sso/policy', { required: true, break_glass_user_id: acme.admin.id });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ required: true, break_glass_user: { id: acme.admin.id } });
    expect(on.body.installation_provider).toEqual({ slug: 'test-idp', display_name: 'Test IdP' });

    for (const u of [member, otherAdmin]) {
      const refused = await rest(base).post('/auth/login', { email: u.email, password: u.password });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('SSO_REQUIRED');
      expect(refused.body.detail).toMatch(/single sign-on/);
    }
    // A wrong password is still the plain 401: the 403 tells nothing to someone who lacks it.
    const wrong = await rest(base).post('/auth/login', { email: member.email, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    const breakGlass = await rest(base).post('/auth/login', { email: acme.admin.email, password: acme.adminPassword });
    expect(breakGlass.status).toBe(200);
    // SSO and PATs go on working; other tenants are unaffected.
    expect((await signIn('bob')).status).toBe(303);
    expect((await api.get('/auth/me')).status).toBe(200);
    const other = await buildTenant(server.app.rt);
    expect(
      (await rest(base).post('/auth/login', { email: other.admin.email, password: other.adminPassword })).status,
    ).toBe(200);

    const off = await api.put('/auth/sso/policy', { required: false });
    expect(off.status).toBe(200);
    expect((await rest(base).post('/auth/login', { email: member.email, password: member.password })).status).toBe(200);
  });

  it('is for admins, and a break-glass id of another tenant is not found', async () => {
    const member = await buildUser(server.app.rt, acme.tenantId);
    const login = await rest(base).post('/auth/login', { email: member.email, password: member.password });
    const asMember = await rest(base, login.body.access_token).put('/auth/sso/policy', { required: false });
    expect(asMember.status).toBe(403);
    const other = await buildTenant(server.app.rt);
    const foreign = await rest(base, acme.adminToken).put('/auth/sso/policy', {
      required: true,
      break_glass_user_id: other.admin.id,
    });
    expect(foreign.status).toBe(404);
  });
});

describe("a tenant's own provider", () => {
  it('is set over GraphQL with its secret sealed, and signs its users in to that tenant', async () => {
    const beta = await buildTenant(server.app.rt);
    const set = await gql(
      base,
      beta.adminToken,
      `mutation Set($input: SetSsoProviderInput!) { setSsoProvider(input: $input) {
        redirectUri provider { slug displayName clientId clientSecretSet groupsClaim adminGroups } } }`,
      {
        input: {
          slug: 'beta-idp',
          displayName: 'Beta Login',
          discoveryUrl: `${idp.issuer}/.well-known/openid-configuration`,
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
          adminGroups: ['staff'],
        },
      },
    );
    expect(set.errors).toBeUndefined();
    expect(set.data.setSsoProvider.provider).toEqual({
      slug: 'beta-idp',
      displayName: 'Beta Login',
      clientId: idp.clientId,
      clientSecretSet: true,
      groupsClaim: 'groups',
      adminGroups: ['staff'],
    });
    expect(set.data.setSsoProvider.redirectUri).toBe(callbackPrefix);
    const row = await server.app.rt.prisma.tenantSsoProvider.findUniqueOrThrow({ where: { slug: 'beta-idp' } });
    expect(row.clientSecretSealed).not.toContain(idp.clientSecret);
    const listed = await rest(base).get('/auth/sso/providers');
    expect(listed.body).toContainEqual({ slug: 'beta-idp', display_name: 'Beta Login' });

    idp.accounts.set('dave', { email: 'dave@beta.test', groups: ['staff'] });
    const res = await signIn('dave', 'beta-idp');
    expect(res.status, JSON.stringify(res.body)).toBe(303);
    const who = await me(res.session!);
    expect(who.body).toMatchObject({ email: 'dave@beta.test', role: 'admin' });
    expect(who.body.tenant.name).toBe(beta.name);
    // An account of another tenant cannot be taken over through this provider.
    idp.accounts.set('alice-at-beta', { email: 'alice@acme.test', groups: ['staff'] });
    const takeover = await signIn('alice-at-beta', 'beta-idp');
    expect(takeover.status).toBe(403);
    expect(takeover.body.code).toBe('SSO_ACCOUNT_ELSEWHERE');
  });

  it('refuses a discovery URL that answers no OpenID configuration (422)', async () => {
    const gamma = await buildTenant(server.app.rt);
    const res = await rest(base, gamma.adminToken).put('/auth/sso/provider', {
      slug: 'gamma-idp',
      display_name: 'Gamma',
      discovery_url: `${base}/healthz`,
      client_id: 'x',
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.detail)).toContain('discovery_url');
  });
});
