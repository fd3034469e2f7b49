/**
 * Hostile input at the REST boundary (issue 10, items 2–5 and 8): deep and wide JSON, NUL bytes and
 * unpaired surrogates, malformed percent-encoding, numbers past the double range and unbounded strings
 * are refused with 422 (404 for a path id) naming the field, on every kind of route (ingest, both signed
 * webhooks, OpenAPI-validated routes); never a 500, and the server keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, gql, rest } from './helpers/http.js';
import { hmacHex } from '../src/signing.js';
import { JSON_LIMITS } from '../src/http/input-guards.js';

let s: TestServer;
let t: BuiltTenant;
let hook: { slug: string; secret: string };
let sotHook: { slug: string; secret: string };

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  const a = await gql(
    s.url,
    t.adminToken,
    'mutation { createInboundWebhook(input: { name: "guards" }) { slug secret } }',
  );
  hook = a.data.createInboundWebhook;
  const b = await gql(
    s.url,
    t.adminToken,
    'mutation { createInboundWebhook(input: { name: "guards sot", kind: SOT }) { slug secret } }',
  );
  sotHook = b.data.createInboundWebhook;
});
afterAll(async () => {
  await s?.stop();
});

/** `{"a":{"a":…1…}}` nested `depth` levels, as text (JSON.stringify itself overflows on very deep values). */
function deepJson(depth: number): string {
  return '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
}

function ingestRaw(raw: string) {
  return call(s.url + '/api/v1', 'POST', '/events', {
    raw,
    headers: { 'x-service-key': t.ingestKey, 'content-type': 'application/json' },
  });
}

function signed(path: string, secret: string, raw: string) {
  return call(s.url + '/api/v1', 'POST', path, {
    raw,
    headers: { 'x-service-signature': hmacHex(secret, raw), 'content-type': 'application/json' },
  });
}

function locs(body: { detail: Array<{ loc: string[] }> | string }): string[] {
  expect(Array.isArray(body.detail)).toBe(true);
  return (body.detail as Array<{ loc: string[] }>).map((d) => d.loc.join('.'));
}

describe('JSON depth and width', () => {
  it.each([3_000, 50_000])(
    'refuses a payload nested %i levels at ingest with 422 naming body.payload',
    async (depth) => {
      const r = await ingestRaw(`{"type":"deep","source":"probe","payload":${deepJson(depth)}}`);
      expect(r.status).toBe(422);
      expect(locs(r.body)).toContain('body.payload');
    },
  );

  it(`accepts a payload nested ${JSON_LIMITS.maxDepth - 1} levels (the body is the first level)`, async () => {
    const r = await ingestRaw(`{"type":"deep","source":"probe","payload":${deepJson(JSON_LIMITS.maxDepth - 1)}}`);
    expect(r.status).toBe(202);
  });

  it('refuses deep bodies on both signed webhook routes', async () => {
    const ev = await signed(
      `/webhooks/${hook.slug}`,
      hook.secret,
      `{"kind":"deep","source":"probe","payload":${deepJson(50_000)}}`,
    );
    expect(ev.status).toBe(422);
    expect(locs(ev.body)).toContain('body.payload');
    const sot = await signed(
      `/sot/webhooks/${sotHook.slug}`,
      sotHook.secret,
      `{"event":"created","model":"dcim.device","data":{"id":1,"name":"x"},"snapshots":${deepJson(50_000)}}`,
    );
    expect(sot.status).toBe(422);
    expect(locs(sot.body)).toContain('body.snapshots');
  });

  it('refuses deep bodies on OpenAPI-validated routes', async () => {
    const r = await call(s.url + '/api/v1', 'POST', '/sot/devices', {
      token: t.adminToken,
      raw: `{"name":"d","labels":${deepJson(5_000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(422);
    expect(locs(r.body)).toContain('body.labels');
  });

  it(`refuses an object with more than ${JSON_LIMITS.maxKeys} keys`, async () => {
    const payload = Object.fromEntries(Array.from({ length: JSON_LIMITS.maxKeys + 1 }, (_, i) => [`k${i}`, i]));
    const r = await ingestRaw(JSON.stringify({ type: 'wide', source: 'probe', payload }));
    expect(r.status).toBe(422);
    expect(locs(r.body)).toContain('body.payload');
  });
});

describe('NUL bytes and unpaired surrogates', () => {
  it.each([
    ['summary', { type: 'x', source: 'probe', summary: 'a\u0000b' }, 'body.summary'],
    ['source', { type: 'x', source: '\ud800x' }, 'body.source'],
    ['payload value', { type: 'x', source: 'probe', payload: { deep: ['ok', 'n\u0000'] } }, 'body.payload.deep.1'],
    ['label value', { type: 'x', source: 'probe', labels: { a: '\udc00' } }, 'body.labels.a'],
  ])('ingest: a bad %s is a 422 naming it', async (_what, body, loc) => {
    const r = await ingestRaw(JSON.stringify(body));
    expect(r.status).toBe(422);
    expect(locs(r.body)).toContain(loc);
  });

  it('ingest: a NUL in a payload key is a 422', async () => {
    const r = await ingestRaw('{"type":"x","source":"probe","payload":{"a\\u0000b":1}}');
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body.detail)).toMatch(/key must not contain a NUL/);
  });

  it('a signed SoT webhook timestamp of "\\ud800x" is a 422', async () => {
    const raw = JSON.stringify({
      event: 'created',
      model: 'dcim.device',
      timestamp: '\ud800x',
      data: { id: 7, name: 'sur-1' },
    });
    const r = await signed(`/sot/webhooks/${sotHook.slug}`, sotHook.secret, raw);
    expect(r.status).toBe(422);
    expect(locs(r.body)).toContain('body.timestamp');
  });

  it('a signed inbound webhook with a NUL in its summary is a 422', async () => {
    const r = await signed(
      `/webhooks/${hook.slug}`,
      hook.secret,
      JSON.stringify({ kind: 'x', source: 'probe', summary: '\u0000' }),
    );
    expect(r.status).toBe(422);
    expect(locs(r.body)).toContain('body.summary');
  });

  it('a query parameter with a NUL is a 422 naming it', async () => {
    const r = await rest(s.url, t.adminToken).get('/events?module=%00');
    expect(r.status).toBe(422);
    expect(locs(r.body)).toContain('query.module');
  });

  it('a body field of an OpenAPI-validated route with a NUL is a 422', async () => {
    const r = await rest(s.url, t.adminToken).post('/sot/devices', { name: 'n\u0000' });
    expect(r.status).toBe(422);
    expect(locs(r.body)).toContain('body.name');
  });

  it.each(['/alerts/%00', '/alerts/%ED%A0%80', '/proposals/%00/approve', '/sot/devices/a%00b'])(
    'a path id %s is a 404 with a JSON body',
    async (path) => {
      const r = await rest(s.url, t.adminToken).get(path);
      expect(r.status).toBe(404);
      expect(typeof r.body.detail).toBe('string');
    },
  );
});

describe('malformed percent-encoding in a path', () => {
  it.each(['/alerts/%E0%A4%A', '/alerts/%zz', '/sot/devices/%E0%A4%A/intent'])(
    '%s is a 404 with a JSON body, not a URIError 500',
    async (path) => {
      const r = await rest(s.url, t.adminToken).get(path);
      expect(r.status).toBe(404);
      expect(r.headers.get('content-type')).toMatch(/json/);
    },
  );
});

describe('number overflow', () => {
  it.each(['limit=1e309', 'since_hours=1e309', 'limit=99999999999999999999', 'since_hours=-1e309'])(
    'GET /events?%s is a 422',
    async (q) => {
      const r = await rest(s.url, t.adminToken).get(`/events?${q}`);
      expect(r.status).toBe(422);
      expect(locs(r.body)[0]).toMatch(/^query\./);
    },
  );

  it('GET /alerts?limit=1e309 is a 422', async () => {
    expect((await rest(s.url, t.adminToken).get('/alerts?limit=1e309')).status).toBe(422);
  });

  it('a JSON number past the double range (1e309) is a 422 naming it', async () => {
    const r = await ingestRaw('{"type":"x","source":"probe","payload":{"n":1e309}}');
    expect(r.status).toBe(422);
    expect(locs(r.body)).toContain('body.payload.n');
  });

  it('{"revision": 1e+308} on approve is a 422', async () => {
    const r = await call(s.url + '/api/v1', 'POST', '/proposals/p_nonexistent/approve', {
      token: t.adminToken,
      raw: '{"revision": 1e+308}',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(422);
    expect(locs(r.body)).toContain('body.revision');
  });
});

describe('unbounded strings (contract maxLength, enforced)', () => {
  it('a 600 KB SoT webhook timestamp or model is a 422', async () => {
    const big = 'x'.repeat(600_000);
    for (const field of ['timestamp', 'model']) {
      const raw = JSON.stringify({
        event: 'created',
        model: 'dcim.device',
        timestamp: '2026-11-21T05:00:00Z',
        data: { id: 8, name: 'big-1' },
        [field]: big,
      });
      const r = await signed(`/sot/webhooks/${sotHook.slug}`, sotHook.secret, raw);
      expect(r.status).toBe(422);
      expect(locs(r.body)).toContain(`body.${field}`);
    }
  });

  it('a 20,000-character login email is a 422', async () => {
    const r = await rest(s.url).post('/auth/login', { email: 'a'.repeat(20_000), password: 'x' });
    expect(r.status).toBe(422);
    expect(locs(r.body)).toContain('body.email');
  });

  it('still answers /healthz afterwards', async () => {
    expect((await call(s.url, 'GET', '/healthz')).status).toBe(200);
  });
});
