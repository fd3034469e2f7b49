/**
 * The API-wide request limit (src/http/api-rate-limit.ts; SPEC leaves it open): API_RATE_PER_MINUTE requests per
 * credential on /api/v1 and /graphql, with RateLimit-* headers on every answer and 429 + Retry-After past it; another
 * credential has its own budget. And what the contract says of it (rest/contract-finish.ts): every operation
 * declares 429 and 500, and every 2xx/4xx answer the three headers. The server runs with a budget of 6 a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { gqlRaw, rest, type HttpResult } from './helpers/http.js';
import { loadOpenApi } from '../rest/openapi.js';

const BUDGET = 6;
let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer({ env: { API_RATE_PER_MINUTE: String(BUDGET) } });
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

/** Sends until a 429 (a fixed one-minute window: a run slower than a minute may need a second window's worth). */
async function untilLimited(send: () => Promise<HttpResult>): Promise<{ accepted: HttpResult[]; limited: HttpResult }> {
  const started = Date.now();
  const accepted: HttpResult[] = [];
  for (;;) {
    const r = await send();
    if (r.status === 429) {
      const windows = Math.floor((Date.now() - started) / 60_000) + 1;
      expect(accepted.length).toBeLessThanOrEqual(BUDGET * windows);
      return { accepted, limited: r };
    }
    expect(r.status).toBe(200);
    accepted.push(r);
    expect(accepted.length, 'no 429 after many requests').toBeLessThan(BUDGET * 10);
  }
}

describe('the API-wide rate limit', () => {
  it('counts REST requests per credential, with the headers on every answer, and answers 429 past the budget', async () => {
    const { accepted, limited } = await untilLimited(() => rest(s.url, t.adminToken).get('/alerts'));
    expect(accepted.length).toBeGreaterThan(0);
    for (const r of accepted) {
      expect(r.headers.get('ratelimit-limit')).toBe(String(BUDGET));
      expect(Number(r.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      expect(Number(r.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    const remaining = accepted.map((r) => Number(r.headers.get('ratelimit-remaining')));
    expect(remaining).toEqual([...remaining].sort((a, b) => b - a));
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).toEqual({ code: 'RATE_LIMITED', detail: expect.stringMatching(/API_RATE_PER_MINUTE/) });

    // GraphQL counts against the same credential's budget; another tenant's credential has its own.
    const g = await gqlRaw(s.url, t.adminToken, '{ me { email } }');
    expect(g.status).toBe(429);
    expect((await rest(s.url, other.adminToken).get('/alerts')).status).toBe(200);
  });

  it('counts a wrong token like any other credential', async () => {
    const wrong = 'spat_not-a-real-token-000000000000000000000';
    const { accepted, limited } = await untilLimited(async () => {
      const r = await rest(s.url, wrong).get('/alerts');
      return r.status === 401 ? { ...r, status: 200 } : r;
    });
    expect(accepted[0]!.headers.get('ratelimit-limit')).toBe(String(BUDGET));
    expect(limited.status).toBe(429);
  });
});

describe('the contract of the limit', () => {
  const doc = loadOpenApi();
  const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, item]) =>
    Object.entries(item)
      .filter(([m]) => ['get', 'put', 'post', 'delete', 'patch'].includes(m))
      .map(([m, op]) => ({ name: `${m.toUpperCase()} ${p}`, op })),
  );

  it('declares 429 and 500 on every operation', () => {
    const missing = ops.filter(({ op }) => !op.responses['429'] || !op.responses['500']).map((o) => o.name);
    expect(missing).toEqual([]);
  });

  it('declares the RateLimit headers on every 2xx and 4xx answer', () => {
    const resolve = (r: any) => (r.$ref ? doc.components.responses[r.$ref.split('/').pop()] : r);
    const missing = ops.flatMap(({ name, op }) =>
      Object.entries(op.responses as Record<string, any>)
        .filter(([status]) => /^[24]/.test(status))
        .filter(([, r]) => !resolve(r).headers?.['RateLimit-Limit'] || !resolve(r).headers?.['RateLimit-Reset'])
        .map(([status]) => `${name} ${status}`),
    );
    expect(missing).toEqual([]);
  });
});
