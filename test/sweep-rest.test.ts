/**
 * The REST route table sweeps itself: cases generated from the route table (with its OpenAPI contract),
 * so a route added later is covered without anyone writing its case. Per route: no credential → 401; a
 * revoked PAT → 401; another tenant's id in every `:param` → 404 and nothing of that tenant changed; a
 * member on an admin-only route → 403; the session cookie from a foreign origin → refused; for a JSON
 * body: each required field missing, each field of the wrong type, an unknown field → 422 naming the
 * field. No response is a 5xx. Shared set-up: test/sweep/suite.ts.
 */
import { describe, expect, it } from 'vitest';
import { routes } from '../rest/routes/index.js';
import type { RouteEntry } from '../rest/route-types.js';
import { snapshotTenant, OTHER_TENANT_PROVIDER_URL } from './sweep/world.js';
import {
  a,
  b,
  bWorld,
  count,
  expectUnchanged,
  fiveHundreds,
  idFor,
  memberToken,
  names,
  request,
  revokedToken,
  s,
  useSweepSuite,
  type Json,
  type Schema,
} from './sweep/suite.js';
import {
  bodySchemaOf,
  customCredential,
  fillPath,
  idParamsOf,
  isCustomAuth,
  isUserAuth,
  merged,
  queryOf,
  randomIds,
  rootFieldOf,
  scopesOf,
  typeOf,
  validBody,
  wrongType,
} from './sweep/rest-cases.js';

useSweepSuite();

describe('REST route sweep', () => {
  it('every route without a credential, or with a revoked PAT, is 401', async () => {
    for (const route of routes) {
      if (route.auth === 'public') continue;
      // Single sign-on's callback takes no credential: the provider's one-time state is its proof (test/sso.test.ts
      // refuses a tampered, replayed or foreign-browser state).
      if (route.path === '/auth/sso/callback') continue;
      // A signed route's own slug (an unknown one is a 404 before any signature is looked at).
      const path = isCustomAuth(route)
        ? customCredential(route, '').path
        : fillPath(route, randomIds) + queryOf(route, bWorld);
      const body = validBody(route, bWorld);
      const anon = await request(route.method.toUpperCase(), path, { body });
      expect(anon.status, `${route.method} ${route.path} without a credential: ${names(anon.body)}`).toBe(401);
      expect(anon.body?.detail, `${route.method} ${route.path} 401 detail`).toBeTruthy();
      count('rest', 'no credential → 401');
      if (!isUserAuth(route)) continue;
      const revoked = await request(route.method.toUpperCase(), path, { body, token: revokedToken });
      expect(revoked.status, `${route.method} ${route.path} with a revoked PAT`).toBe(401);
      count('rest', 'revoked PAT → 401');
    }
  });

  // One request per :param route and a snapshot of the other tenant each: over 30 s on a loaded 2-core machine.
  it(
    "another tenant's id in every :param is 404, and nothing of that tenant changes",
    { timeout: 120_000 },
    async () => {
      const before = await snapshotTenant(s.app.rt, b.tenantId);
      let cases = 0;
      for (const route of routes) {
        if (!route.path.includes(':') || !isUserAuth(route)) continue;
        const path = fillPath(route, (p) => idFor(bWorld, p, `${route.method} ${route.path}`)) + queryOf(route, bWorld);
        const body = validBody(route, bWorld);
        const res = await request(route.method.toUpperCase(), path, { body, token: a.adminToken });
        if (!idParamsOf(route).length) {
          // Only names in the path (`:provider`): the caller's own view of that name, never the other tenant's.
          expect(res.status, `${route.method} ${route.path}: ${names(res.body)}`).toBeLessThan(500);
          expect(
            JSON.stringify(res.body),
            `${route.method} ${route.path} shows the other tenant's config`,
          ).not.toContain(OTHER_TENANT_PROVIDER_URL);
          count('rest', 'name param → own tenant only');
          continue;
        }
        expect(res.status, `${route.method} ${route.path} with the other tenant's ids: ${names(res.body)}`).toBe(404);
        expect(res.body?.detail).toBeTruthy();
        count('rest', "other tenant's id → 404");
        cases++;
      }
      expect(cases).toBeGreaterThan(0);
      expectUnchanged(before, await snapshotTenant(s.app.rt, b.tenantId));
    },
  );

  it('a member gets 403 on every admin-only route', async () => {
    let cases = 0;
    for (const route of routes) {
      if (!scopesOf(rootFieldOf(route))?.admin) continue;
      const path = fillPath(route, randomIds) + queryOf(route, bWorld);
      const body = validBody(route, bWorld);
      const res = await request(route.method.toUpperCase(), path, { body, token: memberToken });
      expect(res.status, `${route.method} ${route.path} as a member: ${names(res.body)}`).toBe(403);
      count('rest', 'member on admin route → 403');
      cases++;
    }
    expect(cases).toBeGreaterThan(0);
  });

  it(
    'no state-changing route accepts the session cookie from a foreign origin, Origin: null or a sibling site (0 accepted)',
    { timeout: 120_000 },
    async () => {
      const login = await fetch(`${s.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: a.admin.email, password: a.adminPassword }),
      });
      expect(login.status).toBe(200);
      const cookie = login.headers
        .getSetCookie()
        .find((c) => c.startsWith('ops_session='))!
        .split(';')[0]!;
      const before = await snapshotTenant(s.app.rt, a.tenantId);
      // A browser page elsewhere: a JSON body (as fetch with no-cors cannot send, but a sibling origin's
      // fetch with credentials can), a form body, no body, and the fetch metadata of a sibling site.
      const attempts: Array<{
        label: string;
        headers: Record<string, string>;
        body: (route: RouteEntry) => string | undefined;
      }> = [
        {
          label: 'foreign Origin, JSON',
          headers: { origin: 'http://127.0.0.1:9999', 'content-type': 'application/json' },
          body: (r) => JSON.stringify(validBody(r, bWorld) ?? {}),
        },
        {
          label: 'Origin: null, form',
          headers: { origin: 'null', 'content-type': 'application/x-www-form-urlencoded' },
          body: () => 'a=1',
        },
        {
          label: 'sibling site, text/plain',
          headers: { 'sec-fetch-site': 'same-site', 'content-type': 'text/plain' },
          body: () => 'x',
        },
        { label: 'foreign Origin, no body', headers: { origin: 'http://evil.example.test' }, body: () => undefined },
      ];
      let cases = 0;
      const accepted: string[] = [];
      for (const route of routes) {
        if (route.method === 'get') continue;
        const path = isCustomAuth(route)
          ? customCredential(route, '').path
          : fillPath(route, randomIds) + queryOf(route, bWorld);
        for (const attempt of attempts) {
          const res = await fetch(s.url + path, {
            method: route.method.toUpperCase(),
            headers: { cookie, ...attempt.headers },
            body: attempt.body(route),
            signal: AbortSignal.timeout(15_000),
          });
          const text = await res.text();
          if (res.status >= 500)
            fiveHundreds.push(`${route.method} ${path} (${attempt.label}) → ${res.status} ${text.slice(0, 200)}`);
          // Routes with their own authenticator (ingest key, signature, push token) never take the cookie: 401.
          const expected = isCustomAuth(route) ? 401 : 403;
          if (res.status !== expected)
            accepted.push(
              `${route.method.toUpperCase()} ${route.path} (${attempt.label}) → ${res.status} ${text.slice(0, 200)}`,
            );
          else if (expected === 403)
            expect(JSON.parse(text).code, `${route.method} ${route.path}`).toBe('CROSS_ORIGIN_REQUEST');
          count('rest', 'cookie from another origin → refused');
          cases++;
        }
      }
      expect(accepted).toEqual([]);
      expect(cases).toBeGreaterThan(100);
      // Nothing of the caller's own tenant changed either, and the session was not ended by a forged logout.
      expectUnchanged(before, await snapshotTenant(s.app.rt, a.tenantId));
      expect((await fetch(`${s.url}/api/v1/auth/me`, { headers: { cookie } })).status).toBe(200);
    },
  );

  it('a body with a missing required field, a wrong type or an unknown field is 422 naming the field', async () => {
    let cases = 0;
    for (const route of routes) {
      const bodySchema = bodySchemaOf(route);
      if (!bodySchema || (route.auth === 'public' && route.path.endsWith('/logout'))) continue;
      const m = merged(bodySchema);
      if (typeOf(m) !== 'object' || !m.properties) continue;
      const valid = validBody(route, bWorld) as Record<string, Json>;
      const variants: Array<{ label: string; body: Record<string, Json>; field: string }> = [];
      const alternatives = bodySchema.oneOf ?? bodySchema.anyOf;
      if (!alternatives)
        for (const key of m.required ?? [])
          variants.push({
            label: `missing ${key}`,
            body: Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key)),
            field: key,
          });
      for (const [key, prop] of Object.entries(m.properties as Record<string, Schema>)) {
        const wrong = wrongType(prop);
        if (wrong !== undefined)
          variants.push({ label: `${key} of the wrong type`, body: { ...valid, [key]: wrong }, field: key });
      }
      // Unknown fields are refused wherever the contract closes the object; a receiver of another
      // system's calls (the NetBox-style SoT webhook) documents `additionalProperties: true` on purpose.
      if (m.additionalProperties === false)
        variants.push({
          label: 'an unknown field',
          body: { ...valid, sweep_unknown_field: 1 },
          field: 'sweep_unknown_field',
        });
      else count('rest', 'open body (unknown fields allowed by the contract)');
      for (const v of variants) {
        const raw = JSON.stringify(v.body);
        const target = isCustomAuth(route)
          ? customCredential(route, raw)
          : { headers: {}, path: fillPath(route, randomIds) + queryOf(route, bWorld) };
        const token = isUserAuth(route) ? a.adminToken : undefined;
        const res = await request(route.method.toUpperCase(), target.path, { raw, headers: target.headers, token });
        expect(res.status, `${route.method} ${route.path} with ${v.label}: ${names(res.body)}`).toBe(422);
        expect(names(res.body.detail), `${route.method} ${route.path} with ${v.label}`).toContain(v.field);
        count('rest', 'bad body → 422');
        cases++;
      }
    }
    expect(cases).toBeGreaterThan(0);
  });

  it('no request of the REST sweep got a 5xx', () => {
    expect(fiveHundreds).toEqual([]);
  });
});
