/**
 * The Pothos builder: configuration only (plugins, scalars, context, auth scopes).
 * Area modules (schema/<area>.ts) add their types, queries, mutations and subscriptions.
 */
import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import { LOADED_SCALARS_PLUGIN } from './loaded-scalars.js';
import { STABLE_PATHS_PLUGIN } from './stable-paths.js';
import { GraphQLError, GraphQLScalarType } from 'graphql';
import { GraphQLDateTimeISO, GraphQLJSON } from 'graphql-scalars';
import type PrismaTypes from '../src/generated/pothos-prisma-types.js';
import { getDatamodel } from '../src/generated/pothos-prisma-types.js';
import type { Ctx } from '../src/context.js';
import { AuthScopeFailureType, type AuthFailure } from '@pothos/plugin-scope-auth';
import { Forbidden, NotFound, Unauthenticated, type ErrorReason } from '../src/errors.js';
import { inspectJson, RESERVED_KEY_MSG } from '../src/http/input-guards.js';

type Scope = 'user' | 'admin' | 'human';

/** What each scope asks of the caller, as said to a caller who lacks it. */
const SCOPE_FAILURES: Record<Scope, { message: string; reason: ErrorReason }> = {
  user: { message: 'This needs a user credential (personal access token or session).', reason: 'SCOPE_USER_REQUIRED' },
  admin: { message: 'This needs the admin role.', reason: 'SCOPE_ADMIN_REQUIRED' },
  human: { message: "This needs a person's credential; service users cannot do it.", reason: 'SCOPE_HUMAN_REQUIRED' },
};

/** The first scope the caller lacks, from the scope-auth plugin's failure tree. */
function missingScope(failure: AuthFailure): Scope | undefined {
  if (failure.kind === AuthScopeFailureType.AuthScope)
    return failure.scope in SCOPE_FAILURES ? (failure.scope as Scope) : undefined;
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes) {
    for (const f of failure.failures) {
      const s = missingScope(f);
      if (s) return s;
    }
  }
  return undefined;
}

/** The typed error for a refused field: 401 without a credential, else 403 naming the missing scope. */
function scopeError(ctx: Ctx, failure: AuthFailure): Error {
  if (!ctx.principal) return new Unauthenticated();
  const scope = missingScope(failure);
  if (scope) return new Forbidden(SCOPE_FAILURES[scope].message, SCOPE_FAILURES[scope].reason);
  // A scope function's own error (none today) says what is wrong better than we could.
  if (
    (failure.kind === AuthScopeFailureType.AuthScope || failure.kind === AuthScopeFailureType.AuthScopeFunction) &&
    failure.error
  )
    return failure.error;
  return new Forbidden();
}

export const builder = new SchemaBuilder<{
  Context: Ctx;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  DefaultInputFieldRequiredness: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
  AuthScopes: {
    /** A person or service user (session or PAT). */
    user: boolean;
    admin: boolean;
    human: boolean;
  };
}>({
  defaultFieldNullability: false,
  plugins: [
    ScopeAuthPlugin,
    LOADED_SCALARS_PLUGIN,
    STABLE_PATHS_PLUGIN,
    PrismaPlugin,
    RelayPlugin,
    SimpleObjectsPlugin,
  ],
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: (ctx) => ({
      user: !!ctx.principal?.userId,
      admin: !!ctx.principal?.userId && ctx.principal.role === 'admin',
      human: !!ctx.principal?.userId && ctx.principal.userKind === 'human',
    }),
    unauthorizedError: (_parent, ctx, _info, result) => scopeError(ctx, result.failure),
  },
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'warn',
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
  },
});

// graphql-scalars' DateTime parses RFC 3339 strings into Dates and (its ISO variant) serializes
// ISO-8601 strings; printed under the names and descriptions the schema has always had.
// A valid Date (what Prisma rows carry) is written straight out; anything else takes graphql-scalars' checks.
const dateTimeISO = GraphQLDateTimeISO.toConfig();
builder.addScalarType(
  'DateTime',
  new GraphQLScalarType({
    ...dateTimeISO,
    name: 'DateTime',
    description: 'An ISO-8601 timestamp.',
    serialize: (value) =>
      value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : dateTimeISO.serialize(value),
  }),
);
// A JSON input (variable or literal) with a `__proto__`, `constructor` or `prototype` key at any depth is
// refused (src/http/input-guards.ts, the one rule for every JSON input), whatever path reached the scalar.
const json = GraphQLJSON.toConfig();
function withoutReservedKeys<T>(value: T): T {
  const problem = inspectJson(value, []).find((p) => p.msg === RESERVED_KEY_MSG);
  if (problem)
    throw new GraphQLError(`Object key at ${problem.loc.join('.')} ${RESERVED_KEY_MSG}.`, {
      extensions: { code: 'BAD_USER_INPUT', fields: [problem] },
    });
  return value;
}
builder.addScalarType(
  'JSON',
  new GraphQLScalarType({
    ...json,
    description: 'Any JSON value.',
    specifiedByURL: undefined,
    parseValue: (value) => withoutReservedKeys(json.parseValue!(value)),
    parseLiteral: (ast, variables) => withoutReservedKeys(json.parseLiteral!(ast, variables)),
  }),
);

/**
 * The one rule for single-object lookups (`device(id)`, `proposal(id)`, ...): an id that names nothing
 * the caller may see is a NOT_FOUND error, never a silent null. This is what clients of mature GraphQL
 * APIs expect (GitHub answers `repository: null` with a NOT_FOUND error at that path): a null alone
 * cannot be told apart from "not allowed" or "deleted meanwhile", while the error says which and
 * carries the machine reason. Lookups are non-null (the convention in CONTRIBUTING): the error is
 * the answer. REST gets its 404 from the same error (rest/adapter.ts).
 */
export function found<T>(what: string, value: T | null | undefined): T {
  if (value == null) throw new NotFound(what);
  return value;
}

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

/**
 * GraphQL enum values are UPPER_CASE (GitHub, Saleor); services and the database keep their
 * lowercase values. This builds Pothos' value mapping `{ IN_SYNC: { value: 'in_sync' } }`, so
 * resolvers and arguments see the lowercase value and clients the UPPER_CASE name. Pass an array, or
 * an object of value → description.
 */
export function upperCaseValues<const V extends string>(
  values: readonly V[] | { readonly [K in V]: { readonly description?: string } },
): { [K in V as Uppercase<K>]: { value: K; description?: string } } {
  const entries: Array<[V, string | undefined]> = Array.isArray(values)
    ? (values as readonly V[]).map((v) => [v, undefined])
    : (Object.entries(values) as Array<[V, { description?: string }]>).map(([v, o]) => [v, o.description]);
  return Object.fromEntries(
    entries.map(([v, description]) => [v.toUpperCase(), description ? { value: v, description } : { value: v }]),
  ) as never;
}

/**
 * The origin of the GraphQL request (yoga puts the Fetch Request on the context), for the URLs a
 * response shows (inbound webhooks, push integrations, cluster invites) when PUBLIC_BASE_URL is unset.
 */
export function requestOrigin(ctx: Ctx): string | null {
  const request = (ctx as Ctx & { request?: { url?: string } }).request;
  try {
    return request?.url ? new URL(request.url).origin : null;
  } catch {
    return null;
  }
}

export const SeverityEnum = builder.enumType('Severity', {
  values: upperCaseValues(['info', 'warning', 'critical'] as const),
});

/**
 * Relay's `Node`: every object with its own page (an alert, a device, a proposal, ...) implements it, and
 * `node(id:)` / `nodes(ids:)` (schema/node.ts) find any of them by id. Ids are UUIDv7, unique across
 * tables, so they are used as they are (no base64 "Type:id" wrapping): the id a REST response shows is
 * the id `node` takes. The object types' own `id` field satisfies the interface.
 */
/** The tag node(id:) puts on each row it loads: the row's GraphQL type. */
export const NODE_TYPE_TAG = Symbol('nodeType');

export const NodeRef = builder.interfaceRef<{ id: string }>('Node').implement({
  description: "An object with a globally unique id. `node(id:)` finds it within the caller's tenant.",
  fields: (t) => ({ id: t.exposeID('id', { description: 'UUIDv7, unique across every type.' }) }),
  // Only node(id:)/nodes(ids:) return the interface; their rows carry their type (schema/node.ts).
  resolveType: (value) => (value as Record<symbol, string>)[NODE_TYPE_TAG] ?? null,
});

/**
 * A connection object named after its node type (`AlertConnection`), shared by every field that pages
 * that type, with `totalCount` (fields pass `totalCount`, counted only when asked for).
 */
export function countedConnection(type: string, name: string) {
  return builder.connectionObject({
    type: type as never,
    name,
    fields: (t) => ({
      totalCount: t.int({
        description: 'How many match, across every page.',
        resolve: async (connection) => {
          const { totalCount } = connection as { totalCount?: number | (() => number | Promise<number>) };
          return typeof totalCount === 'function' ? totalCount() : (totalCount ?? 0);
        },
      }),
    }),
  });
}
