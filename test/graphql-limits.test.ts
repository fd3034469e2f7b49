/**
 * Static limits on GraphQL documents: depth and aliases are refused at validation, tokens while parsing,
 * and operations asking for too many nodes (page sizes multiplied) before they run, over HTTP and WS,
 * while the real dashboard query (docs/integrating.md's, verbatim) and introspection (GraphiQL) pass. Every
 * document-limit refusal is a 400 naming its limit in `extensions.limit`, whichever of the GraphQL over HTTP
 * media types the client accepts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { DASHBOARD_QUERY, buildTenant, type BuiltTenant } from './factories.js';
import { gql, gqlRaw, subscribe, wsClient } from './helpers/http.js';
import { MAX_QUERY_ALIASES, MAX_QUERY_DEPTH } from '../src/server/graphql.js';
import { MAX_QUERY_TOKENS } from '../src/server/graphql-guards.js';
import { ASSUMED_PAGE_SIZE, MAX_QUERY_NODES } from '../src/http/query-cost.js';
import { loadConfig } from '../src/config.js';

let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

/** A selection at least `depth` levels deep, going round Device → alerts → Alert → device → … */
function deepDeviceQuery(depth: number): string {
  let sel = 'id';
  for (let level = 4; level < depth; level += 4) sel = `alerts(first: 1) { edges { node { device { ${sel} } } } }`;
  return `{ devices(first: 1) { edges { node { ${sel} } } } }`;
}

describe('GraphQL document limits', () => {
  it(`refuses a document nested deeper than ${MAX_QUERY_DEPTH} levels, before running it`, async () => {
    const r = await gql(s.url, t.adminToken, deepDeviceQuery(MAX_QUERY_DEPTH + 8));
    expect(r.data).toBeUndefined();
    expect(r.errors?.[0]?.message).toMatch(/depth/i);
  });

  it('runs the dashboard query and introspection', async () => {
    const dash = await gql(s.url, t.adminToken, DASHBOARD_QUERY, { first: 10 });
    expect(dash.errors).toBeUndefined();
    const intro = await gql(
      s.url,
      t.adminToken,
      '{ __schema { queryType { name } types { name fields { name type { name ofType { name ofType { name ofType { name } } } } } } } }',
    );
    expect(intro.errors).toBeUndefined();
  });

  it(`refuses more than ${MAX_QUERY_ALIASES} aliases`, async () => {
    const many = Array.from({ length: MAX_QUERY_ALIASES + 1 }, (_, i) => `a${i}: me { id }`).join(' ');
    const r = await gql(s.url, t.adminToken, `{ ${many} }`);
    expect(r.data).toBeUndefined();
    expect(r.errors?.[0]?.message).toMatch(/alias/i);
    const few = Array.from({ length: 3 }, (_, i) => `a${i}: me { id }`).join(' ');
    expect((await gql(s.url, t.adminToken, `{ ${few} }`)).errors).toBeUndefined();
  });

  it('applies the same limits over graphql-ws', async () => {
    const client = wsClient(s.url, t.adminToken);
    const sub = subscribe(client, deepDeviceQuery(MAX_QUERY_DEPTH + 8));
    await expect(sub.next(1500)).rejects.toThrow(/depth/i);
    sub.dispose();
    await client.dispose();
  });
});

/** `{ a { a { … } } }` `depth` levels deep: the parser would recurse once per level. */
function nestedDocument(depth: number): string {
  return '{ ' + 'me { '.repeat(depth) + 'id' + ' }'.repeat(depth) + ' }';
}

describe('documents limited by tokens before anything walks them', () => {
  it(`refuses a 5,000-level document after ${MAX_QUERY_TOKENS} tokens with a GraphQL error, over HTTP`, async () => {
    const r = await gql(s.url, t.adminToken, nestedDocument(5000));
    expect(r.data).toBeUndefined();
    expect(r.errors?.[0]?.message).toMatch(/token limit/i);
    expect(r.errors?.[0]?.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
  });

  it('refuses a query repeating one field 20,000 times', async () => {
    const r = await gql(s.url, t.adminToken, `{ ${'__typename '.repeat(20_000)}}`);
    expect(r.data).toBeUndefined();
    expect(r.errors?.[0]?.message).toMatch(/token limit/i);
  });

  it('refuses both over graphql-ws, and the connection keeps working', async () => {
    const client = wsClient(s.url, t.adminToken);
    for (const doc of [nestedDocument(5000), `{ ${'__typename '.repeat(20_000)}}`]) {
      const sub = subscribe(client, doc);
      await expect(sub.next(5000)).rejects.toThrow(/token limit/i);
      sub.dispose();
    }
    const ok = subscribe(client, '{ me { email } }');
    expect(await ok.next(5000)).toMatchObject({ data: { me: { email: t.admin.email } } });
    await client.dispose();
  });

  it("runs docs/integrating.md's Dashboard query verbatim", async () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../docs/integrating.md'), 'utf8');
    const dashboard = /```graphql\n(query Dashboard \{[\s\S]*?\n\})\n```/.exec(doc)?.[1];
    expect(dashboard).toBeDefined();
    const r = await gql(s.url, t.adminToken, dashboard!);
    expect(r.errors).toBeUndefined();
    expect(r.data).toHaveProperty('alerts.edges');
  });
});

describe(`operations asking for more than ${MAX_QUERY_NODES} nodes (page sizes multiplied)`, () => {
  /** 100 devices × 100 alerts each: 10,100 nodes, well within the depth, alias and token limits. */
  const abusive =
    '{ devices(first: 100) { edges { node { id alerts(first: 100) { edges { node { id summary } } } } } } }';
  const byVariables =
    'query Nested($outer: Int!, $inner: Int!) { devices(first: $outer) { edges { node { id alerts(first: $inner) { edges { node { id } } } } } } }';

  it('refuses one with QUERY_TOO_COMPLEX, the cost and the limit, before running it', async () => {
    const r = await gqlRaw(s.url, t.adminToken, abusive);
    expect(r.status).toBe(422);
    expect(r.body.data ?? null).toBeNull();
    expect(r.body.errors?.[0]?.extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      reason: 'QUERY_TOO_COMPLEX',
      cost: 10_100,
      limit: MAX_QUERY_NODES,
    });
    expect(r.body.errors?.[0]?.message).toBe(
      `This query may return 10100 nodes; the limit is ${MAX_QUERY_NODES}. Ask for smaller pages (first/last/limit), or fewer nested lists.`,
    );
  });

  it('counts page sizes given as variables, and the default page size where none is given', async () => {
    const big = await gql(s.url, t.adminToken, byVariables, { outer: 80, inner: 80 });
    expect(big.errors?.[0]?.extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', cost: 80 + 80 * 80 });
    const small = await gql(s.url, t.adminToken, byVariables, { outer: 10, inner: 10 });
    expect(small.errors).toBeUndefined();
    const defaults = await gql(
      s.url,
      t.adminToken,
      '{ devices { edges { node { alerts { edges { node { id } } } } } } }',
    );
    expect(defaults.errors?.[0]?.extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      cost: ASSUMED_PAGE_SIZE + ASSUMED_PAGE_SIZE ** 2,
    });
  });

  it(`runs one of exactly ${MAX_QUERY_NODES} nodes`, async () => {
    const r = await gql(s.url, t.adminToken, byVariables, { outer: 50, inner: MAX_QUERY_NODES / 50 - 1 });
    expect(r.errors).toBeUndefined();
  });

  it('refuses it over graphql-ws too, and the connection keeps working', async () => {
    const client = wsClient(s.url, t.adminToken);
    const sub = subscribe(client, abusive);
    expect(await sub.next(5000)).toMatchObject({
      errors: [
        {
          message: expect.stringMatching(/may return 10100 nodes/),
          extensions: { code: 'QUERY_TOO_COMPLEX', cost: 10_100 },
        },
      ],
    });
    sub.dispose();
    const ok = subscribe(client, '{ me { email } }');
    expect(await ok.next(5000)).toMatchObject({ data: { me: { email: t.admin.email } } });
    await client.dispose();
  });
});

describe('bad arguments are BAD_USER_INPUT, not INTERNAL_SERVER_ERROR', () => {
  const codeOf = (r: { errors?: Array<{ extensions?: { code?: string } }> }) => r.errors?.[0]?.extensions?.code;

  it('alerts(first: -1)', async () => {
    expect(codeOf(await gql(s.url, t.adminToken, '{ alerts(first: -1) { edges { node { id } } } }'))).toBe(
      'BAD_USER_INPUT',
    );
  });

  it('an invalid `after` cursor', async () => {
    expect(
      codeOf(await gql(s.url, t.adminToken, '{ alerts(first: 5, after: "not-a-cursor") { edges { node { id } } } }')),
    ).toBe('BAD_USER_INPUT');
    expect(
      codeOf(
        await gql(s.url, t.adminToken, 'query($c: String) { alerts(first: 5, after: $c) { edges { node { id } } } }', {
          c: '\u0000',
        }),
      ),
    ).toBe('BAD_USER_INPUT');
  });

  it('a NUL or an unpaired surrogate in a variable, over HTTP and graphql-ws', async () => {
    const q = 'query($s: String) { alerts(first: 5, filter: { source: $s }) { edges { node { id } } } }';
    for (const bad of ['a\u0000b', '\ud800x']) {
      const r = await gql(s.url, t.adminToken, q, { s: bad });
      expect(codeOf(r)).toBe('BAD_USER_INPUT');
      expect(JSON.stringify(r.errors)).toMatch(/variables\.s/);
    }
    const client = wsClient(s.url, t.adminToken);
    const sub = subscribe(client, q, { s: 'a\u0000b' });
    await expect(sub.next(5000)).rejects.toThrow(/NUL/);
    sub.dispose();
    await client.dispose();
  });

  it('a NUL written as a literal in the document', async () => {
    expect(
      codeOf(
        await gql(
          s.url,
          t.adminToken,
          '{ alerts(first: 5, filter: { source: "a\\u0000b" }) { edges { node { id } } } }',
        ),
      ),
    ).toBe('BAD_USER_INPUT');
  });

  it('an Int variable past 32 bits', async () => {
    expect(
      codeOf(
        await gql(s.url, t.adminToken, 'query($n: Int!) { alerts(first: $n) { edges { node { id } } } }', { n: 1e308 }),
      ),
    ).toBe('BAD_USER_INPUT');
  });

  it('a variable nested deeper than the JSON limit', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = { a: deep };
    const r = await gql(s.url, t.adminToken, 'query($v: JSON) { __typename }', { v: deep });
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
  });
});

describe('introspection needs a credential (INTROSPECTION=authenticated), and is off in production by default', () => {
  let prod: TestServer;
  let off: TestServer;
  beforeAll(async () => {
    prod = await startTestServer({ env: { NODE_ENV: 'production', INTROSPECTION: 'authenticated' } });
    off = await startTestServer({ env: { INTROSPECTION: 'off' } });
  });
  afterAll(async () => {
    await prod?.stop();
    await off?.stop();
  });

  it('refuses anonymous __schema and __type, answers them with a PAT, and leaves __typename alone', async () => {
    const tp = await buildTenant(prod.app.rt);
    for (const q of [
      '{ __schema { queryType { name } } }',
      '{ __type(name: "Alert") { name } }',
      '{ me { id } a: __schema { types { name } } }',
    ]) {
      const anon = await gql(prod.url, undefined, q);
      expect(anon.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(anon.data ?? null).toBeNull();
    }
    const authed = await gql(prod.url, tp.adminToken, '{ __schema { queryType { name } } }');
    expect(authed.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    expect((await gql(prod.url, undefined, '{ __typename }')).data).toEqual({ __typename: 'Query' });
  });

  it('refuses an unknown INTROSPECTION value at start-up', () => {
    expect(() => loadConfig({ INTROSPECTION: 'sometimes' })).toThrow(
      /INTROSPECTION must be one of public, authenticated, off/,
    );
    expect(loadConfig({ NODE_ENV: 'production' }).introspection).toBe('off');
    expect(loadConfig({ NODE_ENV: 'production', INTROSPECTION: 'public' }).introspection).toBe('public');
  });

  it('answers anonymous introspection outside production (INTROSPECTION unset) and refuses everyone when off', async () => {
    expect((await gql(s.url, undefined, '{ __schema { queryType { name } } }')).data).toEqual({
      __schema: { queryType: { name: 'Query' } },
    });
    const to = await buildTenant(off.app.rt);
    expect(
      (await gql(off.url, to.adminToken, '{ __schema { queryType { name } } }')).errors?.[0]?.extensions?.code,
    ).toBe('FORBIDDEN');
  });
});

describe('document-limit refusals over HTTP', () => {
  const bombs: Array<[string, string]> = [
    ['MAX_QUERY_TOKENS', nestedDocument(5000)],
    ['MAX_QUERY_TOKENS', `{ ${'__typename '.repeat(20_000)}}`],
    ['MAX_QUERY_DEPTH', deepDeviceQuery(MAX_QUERY_DEPTH + 8)],
    [
      'MAX_QUERY_ALIASES',
      `{ ${Array.from({ length: MAX_QUERY_ALIASES + 1 }, (_, i) => `a${i}: me { id }`).join(' ')} }`,
    ],
    [
      'MAX_EXPANDED_SELECTIONS',
      'query { ...A } ' +
        ['A', 'B', 'C', 'D', 'E']
          .map((f, i) => `fragment ${f} on Query { ${`...${'BCDEF'[i]} `.repeat(4)}}`)
          .join(' ') +
        ' fragment F on Query { __typename __typename __typename __typename }',
    ],
  ];
  for (const accept of ['application/json', 'application/graphql-response+json', '*/*', undefined]) {
    it(`answer 400 with extensions.limit to Accept: ${accept ?? '(none)'}, with or without a credential`, async () => {
      for (const [limit, query] of bombs)
        for (const token of [t.adminToken, undefined]) {
          const res = await fetch(`${s.url}/graphql`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              ...(accept ? { accept } : {}),
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
            body: JSON.stringify({ query }),
          });
          const body = (await res.json()) as { data?: unknown; errors?: Array<{ extensions?: { limit?: string } }> };
          expect({ limit, status: res.status }).toEqual({ limit, status: 400 });
          expect(body.data).toBeUndefined();
          expect(body.errors?.[0]?.extensions?.limit).toBe(limit);
        }
    });
  }
});
