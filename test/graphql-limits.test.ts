/**
 * Static limits on GraphQL documents: depth and aliases are refused at validation, over HTTP and WS,
 * while the real dashboard query and introspection (GraphiQL) pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { DASHBOARD_QUERY, buildTenant, type BuiltTenant } from './factories.js';
import { gql, subscribe, wsClient } from './helpers/http.js';
import { MAX_QUERY_ALIASES, MAX_QUERY_DEPTH } from '../src/http/graphql.js';

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
    const intro = await gql(s.url, t.adminToken, '{ __schema { queryType { name } types { name fields { name type { name ofType { name ofType { name ofType { name } } } } } } } }');
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
