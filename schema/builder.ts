/**
 * The Pothos builder: configuration only (plugins, scalars, context, auth scopes).
 * Area modules (schema/<area>.ts) add their types, queries, mutations and subscriptions.
 */
import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import type PrismaTypes from '../src/generated/pothos-prisma-types.js';
import { getDatamodel } from '../src/generated/pothos-prisma-types.js';
import type { Ctx } from '../src/context.js';
import { Forbidden, Unauthenticated } from '../src/errors.js';

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
  plugins: [ScopeAuthPlugin, PrismaPlugin, RelayPlugin, SimpleObjectsPlugin],
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: (ctx) => ({
      user: !!ctx.principal?.userId,
      admin: !!ctx.principal?.userId && ctx.principal.role === 'admin',
      human: !!ctx.principal?.userId && ctx.principal.userKind === 'human',
    }),
    unauthorizedError: (_parent, ctx, _info, result) =>
      ctx.principal ? new Forbidden(result.message.startsWith('Not authorized') ? 'You are not permitted to do this (admin role required).' : result.message) : new Unauthenticated(),
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

function parseLiteralJson(ast: ValueNode): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, parseLiteralJson(f.value)]));
    case Kind.LIST:
      return ast.values.map(parseLiteralJson);
    case Kind.NULL:
      return null;
    default:
      return undefined;
  }
}

builder.addScalarType(
  'DateTime',
  new GraphQLScalarType({
    name: 'DateTime',
    description: 'An ISO-8601 timestamp.',
    serialize: (v) => (v instanceof Date ? v.toISOString() : new Date(v as string).toISOString()),
    parseValue: (v) => {
      const d = new Date(v as string);
      if (Number.isNaN(d.getTime())) throw new TypeError('DateTime must be an ISO-8601 timestamp');
      return d;
    },
    parseLiteral: (ast) => {
      if (ast.kind !== Kind.STRING) throw new TypeError('DateTime must be a string');
      const d = new Date(ast.value);
      if (Number.isNaN(d.getTime())) throw new TypeError('DateTime must be an ISO-8601 timestamp');
      return d;
    },
  }),
);

builder.addScalarType(
  'JSON',
  new GraphQLScalarType({
    name: 'JSON',
    description: 'Any JSON value.',
    serialize: (v) => v,
    parseValue: (v) => v,
    parseLiteral: parseLiteralJson,
  }),
);

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

export const SeverityEnum = builder.enumType('Severity', { values: ['info', 'warning', 'critical'] as const });
