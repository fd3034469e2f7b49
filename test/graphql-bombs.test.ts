/**
 * Documents that cost far more to validate than to send (issue 40, item 1) are refused before graphql-js'
 * validation, over HTTP and graphql-ws, with or without a credential: the fragment bomb, documents
 * spreading fragments too often, and fields repeated under one name (OverlappingFieldsCanBeMerged compares
 * them pairwise). Whitespace does not change the answer, and /healthz answers while bombs arrive.
 * Durations are measured by `npm run bench:abuse`, not asserted here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getIntrospectionQuery } from 'graphql';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, gql, gqlRaw, subscribe, wsClient } from './helpers/http.js';
import { fragmentBomb } from './helpers/bombs.js';
import {
  MAX_EXPANDED_SELECTIONS,
  MAX_FIELD_MERGE_PAIRS,
  MAX_FRAGMENT_SPREADS,
} from '../src/server/graphql-expansion.js';

let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

const variants: Array<[string, string]> = [
  ['spaces', fragmentBomb(22)],
  ['newlines', fragmentBomb(22, '\n')],
  ['tabs and commas', fragmentBomb(22, '\t,')],
  ['comments', fragmentBomb(22, ' # x\n')],
];

describe('the fragment bomb', () => {
  for (const [name, query] of variants)
    it(`is refused with a 400 naming the limit, with no credential (${name})`, async () => {
      const r = await gqlRaw(s.url, undefined, query);
      expect(r.status).toBe(400);
      expect(r.body.data ?? null).toBeNull();
      expect(r.body.errors?.[0]?.extensions).toMatchObject({
        code: 'GRAPHQL_VALIDATION_FAILED',
        limit: 'MAX_EXPANDED_SELECTIONS',
        max: MAX_EXPANDED_SELECTIONS,
      });
      expect(r.body.errors?.[0]?.message).toMatch(/MAX_EXPANDED_SELECTIONS/);
    });

  it('is refused the same with a credential', async () => {
    const r = await gqlRaw(s.url, t.adminToken, fragmentBomb(25));
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0]?.extensions?.limit).toBe('MAX_EXPANDED_SELECTIONS');
  });

  it('leaves /healthz answering while bombs arrive', async () => {
    const bombs = Array.from({ length: 4 }, (_, i) => gqlRaw(s.url, undefined, fragmentBomb(22, ' '.repeat(i + 1))));
    const health = await call(s.url, 'GET', '/healthz');
    expect(health.status).toBe(200);
    for (const r of await Promise.all(bombs)) expect(r.status).toBe(400);
  });

  it('is refused over graphql-ws, and the connection keeps working', async () => {
    const client = wsClient(s.url, t.adminToken);
    const sub = subscribe(client, fragmentBomb(22, '\n'));
    await expect(sub.next(5000)).rejects.toThrow(/MAX_EXPANDED_SELECTIONS/);
    sub.dispose();
    const ok = subscribe(client, '{ me { email } }');
    expect(await ok.next(5000)).toMatchObject({ data: { me: { email: t.admin.email } } });
    await client.dispose();
  });
});

describe('other documents that are cheap to send and dear to validate', () => {
  it(`refuses more than ${MAX_FRAGMENT_SPREADS} fragment spreads`, async () => {
    const spreads = ' ...F'.repeat(MAX_FRAGMENT_SPREADS + 1);
    const r = await gqlRaw(s.url, undefined, `query {${spreads} } fragment F on Query { __typename }`);
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0]?.extensions).toMatchObject({ limit: 'MAX_FRAGMENT_SPREADS', max: MAX_FRAGMENT_SPREADS });
  });

  it('refuses one field repeated under one name until its merge check would compare too many pairs', async () => {
    // 150 × `me { id }`: 11,175 pairs of size 2 × 2, 44,700 in all; no alias, 600 tokens.
    const r = await gqlRaw(s.url, t.adminToken, `{ ${'me { id } '.repeat(150)}}`);
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0]?.extensions).toMatchObject({
      limit: 'MAX_FIELD_MERGE_PAIRS',
      max: MAX_FIELD_MERGE_PAIRS,
    });
    const few = await gql(s.url, t.adminToken, `{ ${'me { id } '.repeat(5)}}`);
    expect(few.errors).toBeUndefined();
  });

  it("runs GraphiQL's full introspection query and small fragment documents", async () => {
    const intro = await gql(s.url, t.adminToken, getIntrospectionQuery({ descriptions: true, specifiedByUrl: true }));
    expect(intro.errors).toBeUndefined();
    const shallow = await gql(s.url, t.adminToken, fragmentBomb(6));
    expect(shallow.errors).toBeUndefined();
    expect(shallow.data).toEqual({ __typename: 'Query' });
  });
});
