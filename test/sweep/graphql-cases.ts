/** Documents for the GraphQL root field sweep: literals for required arguments naming the other tenant's objects. */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import {
  parse,
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { routes } from '../../rest/routes/index.js';
import { schema } from '../../schema/index.js';
import { ENTITY_ALIASES, type World } from './world.js';
import { bWorld, entityOf, idFor, request, type Json } from './suite.js';
import { rootFieldOf, validBody } from './rest-cases.js';
import { variablesToGraphQL } from '../../rest/translate.js';

/** A GraphQL literal for an input type (required parts only); ids name `world` objects. */
export function literal(type: GraphQLInputType, world: World, name: string, rootEntity: string): string {
  const t = getNullableType(type) as GraphQLInputType;
  if (isListType(t)) return `[${literal(t.ofType as GraphQLInputType, world, name, rootEntity)}]`;
  if (isEnumType(t)) return t.getValues()[0]!.name;
  if (isInputObjectType(t)) {
    const parts = Object.values(t.getFields())
      .filter((f) => isNonNullType(f.type))
      .map((f) => `${f.name}: ${literal(f.type, world, f.name, rootEntity)}`);
    return `{ ${parts.join(', ')} }`;
  }
  if (isScalarType(t)) {
    switch (t.name) {
      case 'ID':
        return JSON.stringify(
          name === 'id' ? (world[rootEntity] ?? crypto.randomUUID()) : (world[entityOf(name)] ?? crypto.randomUUID()),
        );
      case 'Int':
      case 'Float':
        return '1';
      case 'Boolean':
        return 'false';
      case 'DateTime':
        return JSON.stringify(new Date(Date.now() + 3600_000).toISOString());
      case 'JSON':
        return '{}';
      default:
        return JSON.stringify(
          name === 'url'
            ? 'http://127.0.0.1:9/sweep'
            : name === 'email'
              ? `sweep-${crypto.randomBytes(3).toString('hex')}@example.test`
              : 'sweep',
        );
    }
  }
  throw new Error(`no literal for ${String(type)}`);
}

/** The entity a root field is about: its return type, or its name without the verb (`deleteDevice`). */
export function rootEntityOf(name: string, field: GraphQLField<unknown, unknown>): string {
  const returned = getNamedType(field.type).name;
  const alias = ENTITY_ALIASES[returned] ?? returned;
  if (bWorld[alias]) return alias;
  // The verb's object: `revealInboundWebhookSecret` → InboundWebhookSecret → InboundWebhook.
  let words: string[] = name.replace(/^[a-z]+/, '').match(/[A-Z][a-z0-9]*/g) ?? [];
  while (words.length > 1 && !bWorld[entityOf(words.join(''))]) words = words.slice(0, -1);
  return entityOf(words.join('') || name);
}

export function documentFor(
  kind: 'query' | 'mutation',
  name: string,
  field: GraphQLField<unknown, unknown>,
  world: World,
): string {
  const entity = rootEntityOf(name, field);
  const args = field.args
    .filter((x: GraphQLArgument) => isNonNullType(x.type))
    .map((x) => `${x.name}: ${literal(x.type, world, x.name, entity)}`);
  const selection =
    isObjectType(getNamedType(field.type)) ||
    (!isScalarType(getNamedType(field.type)) && !isEnumType(getNamedType(field.type)))
      ? ' { __typename }'
      : '';
  return `${kind} { ${name}${args.length ? `(${args.join(', ')})` : ''}${selection} }`;
}

/**
 * A field that a REST route runs is called the way that route calls it: its own operation with the
 * variables it makes from the contract's example body, so the arguments are valid but for the ids.
 */
export function restShapedCall(
  name: string,
  world: World,
): { query: string; variables: Record<string, unknown> } | undefined {
  const route = routes.find((r) => rootFieldOf(r)?.name === name && 'operation' in r);
  if (!route || !('operation' in route)) return undefined;
  const params = Object.fromEntries(
    [...route.path.matchAll(/:(\w+)/g)].map(([, p]) => [p!, idFor(world, p!, route.path)]),
  );
  const variables =
    route.variables?.({ params, query: {}, body: validBody(route, world) ?? {}, headers: {}, now: new Date() }) ?? {};
  // The REST adapter turns the route's variables into GraphQL input (camel case, enum values) the same way.
  return { query: route.operation, variables: variablesToGraphQL(schema, parse(route.operation), variables) };
}

export async function graphql(
  query: string,
  token?: string,
  variables?: Record<string, unknown>,
): Promise<{ data?: Json; errors?: Array<{ message: string; extensions?: { code?: string } }> }> {
  const res = await request('POST', '/graphql', { body: { query, variables }, token });
  expect(typeof res.body, `GraphQL answered with JSON for ${query}`).toBe('object');
  return res.body;
}

export function rootFields(): Array<{
  kind: 'query' | 'mutation';
  name: string;
  field: GraphQLField<unknown, unknown>;
}> {
  return [
    ...Object.entries(schema.getQueryType()!.getFields()).map(([name, field]) => ({
      kind: 'query' as const,
      name,
      field,
    })),
    ...Object.entries(schema.getMutationType()!.getFields()).map(([name, field]) => ({
      kind: 'mutation' as const,
      name,
      field,
    })),
  ];
}
