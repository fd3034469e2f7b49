/**
 * Cross-site request forgery on the session cookie (src/http/same-origin.ts): a state-changing REST or
 * GraphQL request authenticated by the cookie must come from the service's own origin and, where it has
 * a body, send JSON. A browser page is played by fetch with the headers a browser sets (Origin,
 * Sec-Fetch-Site) and the cookie a login set; Bearer credentials are not affected. The sweep over every
 * route is in test/sweep-rest.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, eventually, rest } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;
let cookie: string;
let own: string;
const FOREIGN = 'http://127.0.0.1:9999';

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  const login = await rest(s.url).post('/auth/login', { email: t.admin.email, password: t.adminPassword });
  expect(login.status).toBe(200);
  cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('ops_session='))!
    .split(';')[0]!;
  own = new URL(s.url).origin;
});

afterAll(async () => {
  await s?.stop();
});

async function ingestKeyRotations(): Promise<number> {
  return s.app.rt.prisma.ingestKey.count({ where: { tenantId: t.tenantId } });
}

describe('REST with the session cookie', () => {
  it('refuses POST /ingest-keys/rotate from a foreign origin with a form body (403 CROSS_ORIGIN_REQUEST), and rotates nothing', async () => {
    const before = await ingestKeyRotations();
    for (const [contentType, body] of [
      ['application/x-www-form-urlencoded', 'a=1'],
      ['text/plain', 'x'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'],
      ['application/json', '{}'],
      [undefined, undefined],
    ] as const) {
      const headers: Record<string, string> = { cookie, origin: FOREIGN };
      if (contentType) headers['content-type'] = contentType;
      await graceOver();
      const res = await call(s.url, 'POST', '/api/v1/ingest-keys/rotate', { headers, raw: body });
      expect(res.status, `${contentType}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(res.body.code).toBe('CROSS_ORIGIN_REQUEST');
      expect(res.body.detail).toContain('127.0.0.1:9999');
    }
    expect(await ingestKeyRotations()).toBe(before);
  });

  it('refuses Origin: null and Sec-Fetch-Site cross-site or same-site (a sibling origin)', async () => {
    const variants: Array<Record<string, string>> = [
      { origin: 'null' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site', origin: own },
      { origin: 'not a url' },
    ];
    for (const headers of variants) {
      const res = await call(s.url, 'POST', '/api/v1/auth/logout', { headers: { cookie, ...headers } });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.code).toBe('CROSS_ORIGIN_REQUEST');
    }
    // The session survived every attempt to end it.
    expect((await call(s.url, 'GET', '/api/v1/auth/me', { headers: { cookie } })).status).toBe(200);
  });

  it('accepts the service’s own origin (Origin and Sec-Fetch-Site: same-origin) with JSON or no body', async () => {
    const before = await ingestKeyRotations();
    await graceOver();
    const res = await call(s.url, 'POST', '/api/v1/ingest-keys/rotate', {
      headers: { cookie, origin: own, 'sec-fetch-site': 'same-origin' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await ingestKeyRotations()).toBe(before + 1);
    const token = await call(s.url, 'POST', '/api/v1/auth/tokens', {
      headers: { cookie, origin: own },
      body: { name: 'from the console' },
    });
    expect(token.status, JSON.stringify(token.body)).toBe(201);
  });

  it('needs JSON from its own origin too: a form body is 415 where the route takes a body, and wherever one is sent', async () => {
    const form = await call(s.url, 'POST', '/api/v1/auth/tokens', {
      headers: { cookie, origin: own, 'content-type': 'application/x-www-form-urlencoded' },
      raw: 'name=x',
    });
    expect(form.status).toBe(415);
    expect(form.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const empty = await call(s.url, 'POST', '/api/v1/auth/tokens', { headers: { cookie, origin: own } });
    expect(empty.status).toBe(415);
    await graceOver();
    const noBodyRoute = await call(s.url, 'POST', '/api/v1/ingest-keys/rotate', {
      headers: { cookie, origin: own, 'content-type': 'text/plain' },
      raw: 'x',
    });
    expect(noBodyRoute.status).toBe(415);
  });

  it('leaves reads alone, and Bearer credentials from any origin with any body', async () => {
    expect((await call(s.url, 'GET', '/api/v1/auth/me', { headers: { cookie, origin: FOREIGN } })).status).toBe(200);
    await graceOver();
    const bearer = await call(s.url, 'POST', '/api/v1/ingest-keys/rotate', {
      token: t.adminToken,
      headers: { origin: FOREIGN, 'content-type': 'text/plain' },
      raw: 'x',
    });
    expect(bearer.status, JSON.stringify(bearer.body)).toBe(201);
    // A script keeping the cookie (no Origin, no fetch metadata) is not a browser page.
    await graceOver();
    expect((await call(s.url, 'POST', '/api/v1/ingest-keys/rotate', { headers: { cookie } })).status).toBe(201);
  });

  it('honours X-Forwarded-Host only behind a trusted proxy, and PUBLIC_BASE_URL', async () => {
    const proxied = await startTestServer({
      env: { TRUST_PROXY: 'loopback', PUBLIC_BASE_URL: 'https://ops.example.test' },
    });
    try {
      const tt = await buildTenant(proxied.app.rt);
      const login = await rest(proxied.url).post('/auth/login', { email: tt.admin.email, password: tt.adminPassword });
      const c = login.headers
        .getSetCookie()
        .find((x) => x.startsWith('ops_session='))!
        .split(';')[0]!;
      await graceOver(proxied);
      const viaProxy = await call(proxied.url, 'POST', '/api/v1/ingest-keys/rotate', {
        headers: { cookie: c, origin: 'https://ops.internal', 'x-forwarded-host': 'ops.internal' },
      });
      expect(viaProxy.status, JSON.stringify(viaProxy.body)).toBe(201);
      await graceOver(proxied);
      const published = await call(proxied.url, 'POST', '/api/v1/ingest-keys/rotate', {
        headers: { cookie: c, origin: 'https://ops.example.test' },
      });
      expect(published.status).toBe(201);
      await graceOver(proxied);
      const sibling = await call(proxied.url, 'POST', '/api/v1/ingest-keys/rotate', {
        headers: { cookie: c, origin: 'https://other.example.test', 'x-forwarded-host': 'ops.internal' },
      });
      expect(sibling.status).toBe(403);
    } finally {
      await proxied.stop();
    }
    // Without TRUST_PROXY a client-sent X-Forwarded-Host counts for nothing.
    await graceOver();
    const spoofed = await call(s.url, 'POST', '/api/v1/ingest-keys/rotate', {
      headers: { cookie, origin: FOREIGN, 'x-forwarded-host': '127.0.0.1:9999' },
    });
    expect(spoofed.status).toBe(403);
  });
});

/**
 * Rotating the ingest key is this file's sample mutation; a rotation while the previous key is in its
 * grace period is a 409 (test/rotation-once.test.ts), so each sample rotation first ends that grace.
 */
async function graceOver(server: TestServer = s): Promise<void> {
  const past = new Date(server.app.rt.clock.now().getTime() - 1000);
  await server.app.rt.prisma.ingestKey.updateMany({ where: { validUntil: { gt: past } }, data: { validUntil: past } });
}

describe('GraphQL with the session cookie', () => {
  const rotate = JSON.stringify({ query: 'mutation { rotateIngestKey { key } }' });

  it('refuses a mutation from a foreign origin even as JSON (403 in GraphQL shape), and runs it from its own', async () => {
    const before = await ingestKeyRotations();
    await graceOver();
    const foreign = await call(s.url, 'POST', '/graphql', {
      headers: { cookie, origin: FOREIGN, 'content-type': 'application/json' },
      raw: rotate,
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'CROSS_ORIGIN_REQUEST' });
    await graceOver();
    const nul = await call(s.url, 'POST', '/graphql', {
      headers: { cookie, origin: 'null', 'content-type': 'application/json' },
      raw: rotate,
    });
    expect(nul.status).toBe(403);
    expect(await ingestKeyRotations()).toBe(before);
    await graceOver();
    const mine = await call(s.url, 'POST', '/graphql', {
      headers: { cookie, origin: own, 'content-type': 'application/json' },
      raw: rotate,
    });
    expect(mine.status).toBe(200);
    expect(mine.body.data.rotateIngestKey.key).toBeTruthy();
    await eventually(async () => (await ingestKeyRotations()) === before + 1);
  });

  it('still answers a form body with 415 before anything else', async () => {
    const res = await call(s.url, 'POST', '/graphql', {
      headers: { cookie, origin: FOREIGN, 'content-type': 'application/x-www-form-urlencoded' },
      raw: 'query=mutation%7BrotateIngestKey%7Bkey%7D%7D',
    });
    expect(res.status).toBe(415);
  });
});
