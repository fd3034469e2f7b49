/**
 * The prototype-key family (issue 40, item 5): for every route of the OpenAPI document that takes a JSON
 * body, fast-check builds a body with `__proto__`, `constructor` or `prototype` as a key somewhere in it (at
 * the top, inside an object, inside an array) and sends it with an admin PAT. Every answer is a 422 whose
 * `detail` names the key's path. FUZZ_RUNS cases per route (`npm run fuzz` runs more).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildTenant, type BuiltTenant } from '../factories.js';
import { loadOpenApi } from '../../rest/openapi.js';
import { FUZZ_RUNS, FUZZ_SEED, FUZZ_TEST_TIMEOUT_MS, withDeadline } from './hostile.js';

const RESERVED = ['__proto__', 'constructor', 'prototype'] as const;
const doc = loadOpenApi();
const routes = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
  (['post', 'put', 'patch'] as const)
    .filter((m) => item[m]?.requestBody?.content?.['application/json'])
    .map((method) => ({ method, path: path.replace(/\{[^}]+\}/g, '01900000-0000-7000-8000-000000000000') })),
);

/** A JSON text with a reserved key at a generated place, and the path (`body.a.0.__proto__`) it is at. */
const poisoned = fc
  .tuple(
    fc.array(fc.oneof(fc.constantFrom('config', 'payload', 'labels', 'a'), fc.nat({ max: 2 })), { maxLength: 4 }),
    fc.constantFrom(...RESERVED),
    fc.jsonValue({ maxDepth: 2 }),
  )
  .map(([steps, key, value]) => {
    let text = `{${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}}`;
    const loc = ['body'];
    const inner: string[] = [key];
    for (const step of [...steps].reverse()) {
      if (typeof step === 'number') {
        text = `[${'0,'.repeat(step)}${text}]`;
        inner.unshift(String(step));
      } else {
        text = `{${JSON.stringify(step)}:${text}}`;
        inner.unshift(step);
      }
    }
    if (text.startsWith('[')) {
      text = `{"x":${text}}`;
      inner.unshift('x');
    }
    return { text, loc: [...loc, ...inner].join('.') };
  });

let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

describe('prototype keys in every JSON body route', () => {
  it(
    'answers 422 naming the key, whatever route, depth or place',
    async () => {
      expect(routes.length).toBeGreaterThan(40);
      const failures: string[] = [];
      for (const r of routes) {
        await fc
          .assert(
            fc.asyncProperty(poisoned, async ({ text, loc }) => {
              const res = await withDeadline(`${r.method} ${r.path}`, (signal) =>
                fetch(`${s.url}/api/v1${r.path}`, {
                  method: r.method.toUpperCase(),
                  headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
                  body: text,
                  signal,
                }),
              );
              const body = (await res.json()) as { detail?: Array<{ loc: string[] }> };
              const ok =
                res.status === 422 && Array.isArray(body.detail) && body.detail.some((d) => d.loc.join('.') === loc);
              if (!ok)
                failures.push(`${r.method.toUpperCase()} ${r.path} ${text} → ${res.status} ${JSON.stringify(body)}`);
              return ok;
            }),
            { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: true },
          )
          .catch(() => undefined);
      }
      expect(failures.slice(0, 5)).toEqual([]);
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});
