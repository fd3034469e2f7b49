/**
 * "Did you mean …" hints name the schema's fields, arguments and enum values: a caller who may not
 * introspect (INTROSPECTION=off, NODE_ENV=production's default, or anonymous under INTROSPECTION=authenticated)
 * gets validation and variable errors without them; a caller who may introspect still gets them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { gql } from './helpers/http.js';

const MISSPELLED = '{ alertz { id } }';
const BAD_FIELD = 'query($f: AlertFilter) { alerts(filter: $f) { edges { node { idd } } } }';
const BAD_ENUM = 'query($f: AlertFilter) { alerts(filter: $f) { edges { node { id } } } }';

function messages(res: { errors?: Array<{ message: string }> }): string {
  return (res.errors ?? []).map((e) => e.message).join(' | ');
}

describe.each([
  [
    'NODE_ENV=production, INTROSPECTION=authenticated (introspection needs a credential)',
    { NODE_ENV: 'production', INTROSPECTION: 'authenticated' },
  ],
  ['NODE_ENV=production (introspection off by default)', { NODE_ENV: 'production' }],
  ['INTROSPECTION=off', { INTROSPECTION: 'off' }],
])('%s', (_label, env) => {
  let s: TestServer;
  let t: BuiltTenant;
  beforeAll(async () => {
    s = await startTestServer({ env });
    t = await buildTenant(s.app.rt);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('gives anonymous callers no field, type or enum names in errors', async () => {
    for (const [query, variables] of [
      [MISSPELLED, undefined],
      [BAD_FIELD, undefined],
      [BAD_ENUM, { f: { severity: 'CRITICL' } }],
    ] as const) {
      const res = await gql(s.url, undefined, query, variables as Record<string, unknown> | undefined);
      expect(res.errors?.length, query).toBeGreaterThan(0);
      expect(messages(res)).not.toMatch(/Did you mean/);
      expect(messages(res)).not.toMatch(/"alerts"|"id"|CRITICAL/);
    }
  });

  it('gives them to a caller with a credential only when introspection is allowed to that caller', async () => {
    const res = await gql(s.url, t.adminToken, MISSPELLED);
    if (s.app.rt.config.introspection === 'authenticated') expect(messages(res)).toMatch(/Did you mean .*"alerts"/);
    else expect(messages(res)).not.toMatch(/Did you mean/);
  });

  it('still refuses an invalid credential before anything else', async () => {
    const res = await gql(s.url, 'spat_not-a-token', MISSPELLED);
    expect(messages(res)).not.toMatch(/Did you mean/);
  });
});

describe('outside production (INTROSPECTION default public)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.stop();
  });
  it('keeps the hints for everyone', async () => {
    expect(messages(await gql(s.url, undefined, MISSPELLED))).toMatch(/Did you mean .*"alerts"/);
  });
});
