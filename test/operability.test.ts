import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, rest } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

const MiB = 1024 * 1024;
const EXTERNAL = /^(?:https?:)?\/\//i;

describe('health and metrics', () => {
  it('answers /healthz with 200', async () => {
    const res = await call(s.url, 'GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers /readyz with 200 once Postgres and Redis respond', async () => {
    const res = await call(s.url, 'GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
  });

  it('exposes request durations on /metrics in Prometheus format', async () => {
    await rest(s.url, t.adminToken).get('/auth/me');
    const res = await call(s.url, 'GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(res.body).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/auth\/me"[^}]*\} [1-9]/);
  });
});

describe('request ids', () => {
  it('echoes the caller’s x-request-id', async () => {
    const res = await call(s.url, 'GET', '/healthz', { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-abc-123');
  });

  it('assigns one when the caller sends none', async () => {
    const [a, b] = await Promise.all([call(s.url, 'GET', '/healthz'), call(s.url, 'GET', '/healthz')]);
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});

describe('REST error shapes', () => {
  it('answers 413 with a detail for a body over 1 MiB', async () => {
    const res = await rest(s.url, t.adminToken).post('/auth/tokens', {
      name: 'big',
      description: 'x'.repeat(MiB + 10),
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 'BODY_TOO_LARGE', detail: expect.stringMatching(/1048576 byte limit/) });
  });

  it('accepts a body just under 1 MiB up to validation', async () => {
    const res = await rest(s.url, t.adminToken).post('/auth/tokens', {
      name: 'big',
      description: 'x'.repeat(MiB - 100),
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'description']);
  });

  it('answers 404 with a JSON detail for an unknown /api/v1 path', async () => {
    const res = await rest(s.url, t.adminToken).get('/no/such/thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({ code: 'ROUTE_NOT_FOUND', detail: expect.any(String) });
  });

  it('answers 404 with a JSON detail outside /api/v1', async () => {
    for (const p of ['/api/v2/auth/me', '/nothing-here']) {
      const res = await call(s.url, 'GET', p);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'ROUTE_NOT_FOUND', detail: expect.any(String) });
    }
  });

  it('answers 422 with detail as a list of {loc, msg} for a body that fails validation', async () => {
    const res = await rest(s.url, t.adminToken).post('/auth/tokens', { name: 5, surprise: true });
    expect(res.status).toBe(422);
    expect(res.body.detail.length).toBeGreaterThanOrEqual(2);
    for (const d of res.body.detail) {
      expect(Object.keys(d).sort()).toEqual(['loc', 'msg']);
      expect(d.loc[0]).toBe('body');
      expect(typeof d.msg).toBe('string');
    }
    expect(res.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toContain('body.name');
  });

  it('answers 422 for a body that is not JSON', async () => {
    const res = await call(s.url + '/api/v1', 'POST', '/auth/tokens', {
      token: t.adminToken,
      raw: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 'INVALID_JSON', detail: [{ loc: ['body'], msg: 'is not valid JSON' }] });
  });
});

describe('GraphQL over HTTP limits', () => {
  it('answers 413 with a detail for a GraphQL body over 1 MiB', async () => {
    const res = await call(s.url, 'POST', '/graphql', {
      token: t.adminToken,
      body: { query: '{ me { email } }', variables: { pad: 'x'.repeat(MiB + 10) } },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 'BODY_TOO_LARGE', detail: expect.stringMatching(/1048576 byte limit/) });
  });

  it('allows cross-origin GraphQL calls with a Bearer credential but never with the session cookie (CORS)', async () => {
    const origin = 'https://elsewhere.example';
    const preflight = await fetch(`${s.url}/graphql`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, authorization',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const res = await call(s.url, 'POST', '/graphql', {
      token: t.adminToken,
      headers: { origin },
      body: { query: '{ me { email } }' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('answers 415 to GraphQL POSTs that are not JSON: no form-posted mutations with the cookie, no way around the body limit', async () => {
    const login = await call(s.url + '/api/v1', 'POST', '/auth/login', {
      body: { email: t.admin.email, password: t.adminPassword },
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const mutation = 'mutation { createToken(input: { name: "forged-by-form" }) { token } }';
    const form = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: mutation }),
    });
    expect(form.status).toBe(415);
    const multipart = new FormData();
    multipart.set('operations', JSON.stringify({ query: mutation }));
    multipart.set('map', '{}');
    expect((await fetch(`${s.url}/graphql`, { method: 'POST', headers: { cookie }, body: multipart })).status).toBe(
      415,
    );
    const big = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/graphql' },
      body: `{ me { email } } # ${'x'.repeat(MiB + 10)}`,
    });
    expect(big.status).toBe(415);
    const tokens = await call(s.url + '/api/v1', 'GET', '/auth/tokens', { token: t.adminToken });
    expect(tokens.body.map((x: { name: string }) => x.name)).not.toContain('forged-by-form');
    const json = await call(s.url, 'POST', '/graphql', { headers: { cookie }, body: { query: '{ me { email } }' } });
    expect(json.body.data.me.email).toBe(t.admin.email);
  });

  it('still serves ordinary GraphQL POSTs', async () => {
    const res = await call(s.url, 'POST', '/graphql', {
      token: t.adminToken,
      body: { query: 'query Q { me { email } }', operationName: 'Q' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.me.email).toBe(t.admin.email);
  });
});

describe('GraphiQL', () => {
  it('serves GraphiQL at /graphql to browsers with every asset from this server', async () => {
    const res = await call(s.url, 'GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = res.body as string;
    expect(html).toContain('YogaGraphiQL.renderYogaGraphiQL');
    const attrs = [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]);
    const quoted = [...html.matchAll(/["'](\/graphiql\/[^"']+)["']/g)].map((m) => m[1]);
    const urls = [...new Set([...attrs, ...quoted])];
    expect(urls.filter((u) => EXTERNAL.test(u))).toEqual([]);
    expect(html).not.toMatch(/unpkg|jsdelivr|cdn\./i);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/graphiql/assets/yoga-graphiql.js',
        '/graphiql/assets/graphiql.css',
        '/graphiql/assets/editor.worker.js',
      ]),
    );
    for (const u of urls) {
      const asset = await fetch(new URL(u, s.url));
      expect(asset.status, u).toBe(200);
      expect((await asset.arrayBuffer()).byteLength, u).toBeGreaterThan(100);
    }
  });

  it('caches assets and answers 404 for unknown ones', async () => {
    const first = await fetch(s.url + '/graphiql/assets/graphiql.css');
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toContain('max-age');
    const again = await fetch(s.url + '/graphiql/assets/graphiql.css', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await fetch(s.url + '/graphiql/assets/nope.js')).status).toBe(404);
  });

  it('passes the WebSocket protocol to GraphiQL so subscriptions work from the browser', async () => {
    const res = await call(s.url, 'GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(res.body).toContain('"subscriptionsProtocol":"WS"');
  });
});
