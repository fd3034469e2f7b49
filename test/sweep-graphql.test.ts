/**
 * The GraphQL schema sweeps itself: per root field, generated from the schema so a field added later is
 * covered: anonymous → UNAUTHENTICATED; a member on an admin-only field → FORBIDDEN; another tenant's id
 * → NOT_FOUND (or null) and nothing changed. No response is a 5xx. Shared set-up: test/sweep/suite.ts.
 */
import { describe, expect, it } from 'vitest';
import { getNamedType, isInputObjectType, isNonNullType, type GraphQLInputType } from 'graphql';
import { snapshotTenant } from './sweep/world.js';
import { a, b, bWorld, count, expectUnchanged, fiveHundreds, memberToken, s, useSweepSuite } from './sweep/suite.js';
import { scopesOf } from './sweep/rest-cases.js';
import { documentFor, graphql, restShapedCall, rootEntityOf, rootFields } from './sweep/graphql-cases.js';

useSweepSuite();

describe('GraphQL root field sweep', () => {
  it('anonymous callers get UNAUTHENTICATED on every field that needs a user; members FORBIDDEN on admin fields', async () => {
    for (const { kind, name, field } of rootFields()) {
      const scopes = scopesOf(field);
      if (!scopes) continue;
      const query = documentFor(kind, name, field, {});
      const anon = await graphql(query);
      expect(anon.errors?.[0]?.extensions?.code, `${name} anonymously: ${JSON.stringify(anon.errors)}`).toBe(
        'UNAUTHENTICATED',
      );
      count('graphql', 'anonymous → UNAUTHENTICATED');
      if (!scopes.admin) continue;
      const member = await graphql(query, memberToken);
      expect(member.errors?.[0]?.extensions?.code, `${name} as a member: ${JSON.stringify(member.errors)}`).toBe(
        'FORBIDDEN',
      );
      count('graphql', 'member on admin field → FORBIDDEN');
    }
  });

  it("another tenant's id is NOT_FOUND (or null) on every field that takes one, and nothing changes", async () => {
    const before = await snapshotTenant(s.app.rt, b.tenantId);
    let cases = 0;
    for (const { kind, name, field } of rootFields()) {
      const ids = field.args.filter(
        (x) =>
          isNonNullType(x.type) &&
          (getNamedType(x.type).name === 'ID' ||
            (isInputObjectType(getNamedType(x.type)) &&
              Object.values(
                (
                  getNamedType(x.type) as never as {
                    getFields(): Record<string, { type: GraphQLInputType; name: string }>;
                  }
                ).getFields(),
              ).some((f) => isNonNullType(f.type) && getNamedType(f.type).name === 'ID'))),
      );
      if (!ids.length || !scopesOf(field)) continue;
      const entity = rootEntityOf(name, field);
      if (!bWorld[entity] && ids.some((x) => x.name === 'id'))
        throw new Error(`${name}: no '${entity}' in the sweep's world. Add a builder for it in test/sweep/world.ts.`);
      const call = restShapedCall(name, bWorld) ?? { query: documentFor(kind, name, field, bWorld), variables: {} };
      const res = await graphql(call.query, a.adminToken, call.variables);
      const error = res.errors?.[0] as
        { extensions?: { code?: string; fields?: Array<{ loc: string[] }> } } | undefined;
      const value = res.data?.[name];
      // A list of ids (`nodes(ids:)`) answers null at each position the caller may not see.
      const nothing =
        value === null ||
        res.data === null ||
        (Array.isArray(value) && value.length > 0 && value.every((v) => v === null));
      // An id in the path or the root `id` argument is NOT_FOUND; an id inside an input (a reference such
      // as `input.deviceId`) is a validation failure naming that field, the same as for an id that never existed.
      const refusedReference =
        error?.extensions?.code === 'BAD_USER_INPUT' &&
        !!error.extensions.fields?.length &&
        error.extensions.fields.every((f) => /id$/i.test(f.loc.at(-1) ?? ''));
      // A bulk action (`acknowledgeAlerts(ids:)`) answers one result per id: each one NOT_FOUND.
      const everyItemNotFound =
        Array.isArray(value) &&
        value.length > 0 &&
        value.every((v) => (v as { ok?: boolean; code?: string } | null)?.ok === false && v.code === 'NOT_FOUND');
      expect(
        error?.extensions?.code === 'NOT_FOUND' || refusedReference || (nothing && !res.errors) || everyItemNotFound,
        `${name} with the other tenant's ids: ${JSON.stringify(res)}`,
      ).toBe(true);
      count('graphql', "other tenant's id → NOT_FOUND");
      cases++;
    }
    expect(cases).toBeGreaterThan(0);
    expectUnchanged(before, await snapshotTenant(s.app.rt, b.tenantId));
  });

  it('no request of the sweep got a 5xx', () => {
    expect(fiveHundreds).toEqual([]);
  });
});
