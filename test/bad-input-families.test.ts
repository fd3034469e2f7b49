/**
 * The bad-input families the third hardening probe found answered with a 5xx (issue 26, point 2), each
 * sent against the real service with random members of its family (fast-check): a corrupt compressed
 * body on every REST route that takes JSON, report filter values that do not fit their column, extreme
 * numbers for every numeric argument of `gpuEvents`, and GET /graphql with `variables` that are not JSON.
 * None may be a 5xx; each is refused with its own code and says what is wrong.
 */
import zlib from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { gql, rest } from './helpers/http.js';
import { routes } from '../rest/routes/index.js';
import { FUZZ_SEED } from './fuzz/hostile.js';

let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

const RUNS = { numRuns: 8, seed: FUZZ_SEED };

describe('bad input families answer 4xx, never 5xx', () => {
  it('a corrupt gzip, deflate or brotli body on every REST route that takes one is 415 CONTENT_ENCODING_INVALID', async () => {
    const withBody = routes.filter((r) => ['post', 'put', 'patch'].includes(r.method));
    expect(withBody.length).toBeGreaterThan(30);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...withBody),
        fc.constantFrom('gzip', 'deflate', 'br'),
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        async (route, encoding, garbage) => {
          // A valid header and a broken stream: the decompressor fails part-way.
          const valid =
            encoding === 'gzip'
              ? zlib.gzipSync('{"a":1}')
              : encoding === 'br'
                ? zlib.brotliCompressSync('{"a":1}')
                : zlib.deflateSync('{"a":1}');
          const body = Buffer.concat([valid.subarray(0, 4), Buffer.from(garbage)]);
          const path = '/api/v1' + route.path.replace(/:(\w+)/g, '00000000-0000-7000-8000-000000000000');
          const res = await fetch(s.url + path, {
            method: route.method.toUpperCase(),
            body,
            headers: {
              'content-type': 'application/json',
              'content-encoding': encoding,
              authorization: `Bearer ${t.adminToken}`,
            },
          });
          const text = await res.text();
          expect(res.status, `${route.method} ${route.path}: ${text}`).toBeLessThan(500);
          if (res.status === 415) expect(JSON.parse(text).code).toMatch(/^CONTENT_ENCODING_/);
        },
      ),
      { ...RUNS, numRuns: 40 },
    );
    const login = await fetch(`${s.url}/api/v1/auth/login`, {
      method: 'POST',
      body: Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(login.status).toBe(415);
    expect((await login.json()).code).toBe('CONTENT_ENCODING_INVALID');
    // Bytes that are no brotli stream at all (the brotli decoder's own error codes, ERR__ERROR_FORMAT_*).
    const brotli = await fetch(`${s.url}/api/v1/reports/query`, {
      method: 'POST',
      body: Buffer.from('t5t7', 'base64'),
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'br',
        authorization: `Bearer ${t.adminToken}`,
      },
    });
    expect(brotli.status).toBe(415);
    expect((await brotli.json()).code).toBe('CONTENT_ENCODING_INVALID');
  });

  it('a report filter value that does not fit its column is 422 naming the filter', async () => {
    const badTimestamp = fc.oneof(
      fc.constantFrom('May 1', '2026-13-01T00:00:00Z', '2026-02-30', 'yesterday', '99999-01-01'),
      fc.string({ maxLength: 12 }).filter((x) => Number.isNaN(Date.parse(x))),
    );
    const badInteger = fc.constantFrom(1e308, -1e308, 2 ** 63, -(2 ** 63), Number.MAX_VALUE);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          badTimestamp.map((v) => ({ field: 'received_at', entity: 'events', value: v as unknown })),
          badInteger.map((v) => ({ field: 'count', entity: 'alerts', value: v as unknown })),
        ),
        fc.constantFrom('gt', 'lt', 'eq'),
        async ({ field, entity, value }, op) => {
          const r = await rest(s.url, t.adminToken).post('/reports/query', { entity, filters: [{ field, op, value }] });
          expect(r.status, JSON.stringify({ field, op, value, body: r.body })).toBe(422);
          expect(
            r.body.detail
              .map((d: { loc: string[] }) => d.loc.join('.'))
              .some((loc: string) => loc.startsWith('body.filters.0.')),
            JSON.stringify(r.body),
          ).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('extreme numbers for gpuEvents are refused as bad input (or as a too-large page), never an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('sinceHours', 'limit'),
        fc.constantFrom(1e308, -1e308, 0, -1, 2 ** 31 - 1, 1e9),
        async (arg, value) => {
          const type = arg === 'limit' ? 'Int' : 'Float';
          const r = await gql(s.url, t.adminToken, `query($v: ${type}) { gpuEvents(${arg}: $v) { id } }`, { v: value });
          if (r.errors)
            expect(['BAD_USER_INPUT', 'QUERY_TOO_COMPLEX'], JSON.stringify(r.errors)).toContain(
              r.errors[0].extensions?.code,
            );
          else expect(Array.isArray(r.data.gpuEvents)).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('GET /graphql with variables that are not a JSON object is 400', async () => {
    for (const variables of ['%E0%A4%A', '%7Bbad', '[1]', '"x"', 'null%00']) {
      const res = await fetch(`${s.url}/graphql?query=${encodeURIComponent('{ __typename }')}&variables=${variables}`, {
        headers: { authorization: `Bearer ${t.adminToken}`, accept: 'application/json' },
      });
      expect(res.status, variables).toBeGreaterThanOrEqual(400);
      expect(res.status, variables).toBeLessThan(500);
    }
  });
});
