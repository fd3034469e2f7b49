/** Values for the REST sweep from the route table and its OpenAPI contract: bodies, paths, queries, credentials. */
import crypto from 'node:crypto';
import { parse, type GraphQLField, type OperationDefinitionNode, type FieldNode } from 'graphql';
import type { RouteEntry } from '../../rest/route-types.js';
import { schema } from '../../schema/index.js';
import { NON_ID_PARAMS, type World } from './world.js';
import { a, clusterCredential, doc, entityOf, pushIntegration, signingHooks, type Json, type Schema } from './suite.js';

// ------------------------------------------------------------------ OpenAPI-driven values

export function merged(schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.allOf) {
    // `required` (or `properties`) beside `allOf` belong to the merged object too.
    const { allOf, ...own } = schema;
    const out: Schema = { type: 'object', properties: {}, required: [] as string[] };
    for (const part of [...allOf, own].map(merged)) {
      Object.assign(out.properties, part.properties ?? {});
      out.required = [...new Set([...out.required, ...(part.required ?? [])])];
      if (part.additionalProperties === false) out.additionalProperties = false;
      if (part.minProperties) out.minProperties = Math.max(out.minProperties ?? 0, part.minProperties);
      if (part.type) out.type = part.type;
    }
    return out;
  }
  if (schema.oneOf || schema.anyOf) {
    const alt = merged((schema.oneOf ?? schema.anyOf)[0]);
    if (!schema.properties && !schema.type) return alt;
    const { oneOf: _o, anyOf: _a, ...base } = schema;
    return {
      ...base,
      properties: { ...base.properties, ...alt.properties },
      required: [...new Set([...(base.required ?? []), ...(alt.required ?? [])])],
    };
  }
  return schema;
}

export function typeOf(schema: Schema): string | undefined {
  const t = schema.type;
  return Array.isArray(t) ? t.find((x: string) => x !== 'null') : t;
}

/** The smallest value the contract accepts; `*_id` strings name an object of `world`. */
export function minimal(schema: Schema, world: World, name: string): Json {
  const m = merged(schema);
  if (m.example !== undefined && !name.endsWith('_id')) return m.example;
  if (m.enum) return m.enum.find((v: unknown) => v !== null);
  if (m.const !== undefined) return m.const;
  switch (typeOf(m)) {
    case 'object': {
      const out: Record<string, Json> = {};
      for (const key of m.required ?? []) out[key] = minimal(m.properties?.[key] ?? {}, world, key);
      for (const key of Object.keys(m.properties ?? {})) {
        if (Object.keys(out).length >= (m.minProperties ?? 0)) break;
        out[key] ??= minimal(m.properties[key], world, key);
      }
      return out;
    }
    case 'array':
      return m.minItems ? Array.from({ length: m.minItems }, () => minimal(m.items ?? {}, world, name)) : [];
    case 'integer':
    case 'number':
      return m.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string':
      if (name.endsWith('_id')) return world[entityOf(name)] ?? crypto.randomUUID();
      if (m.format === 'date-time') return new Date(Date.now() + 3600_000).toISOString();
      if (m.format === 'uri') return 'http://127.0.0.1:9/sweep';
      if (m.format === 'email') return 'sweep@example.test';
      return 'sweep'.padEnd(m.minLength ?? 1, 'x').slice(0, m.maxLength ?? 100);
    default:
      return 'sweep';
  }
}

/** The JSON types a schema allows (`integer` counts as `number`). */
export function allowedTypes(schema: Schema): Set<string> {
  const out = new Set<string>();
  const add = (t: unknown) =>
    (Array.isArray(t) ? t : t ? [t] : []).forEach((x: string) => out.add(x === 'integer' ? 'number' : x));
  add(schema.type);
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    allowedTypes(alt).forEach((t) => out.add(t));
  if (schema.enum)
    schema.enum.forEach((v: unknown) => out.add(v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v));
  return out;
}

/** A value of a JSON type the schema does not allow (undefined when it allows any). */
export function wrongType(schema: Schema): Json {
  const allowed = allowedTypes(schema);
  if (!allowed.size) return undefined;
  const candidates: Array<[string, Json]> = [
    ['number', 12345],
    ['string', 'not-the-right-type'],
    ['boolean', true],
    ['array', ['x']],
    ['object', { x: 1 }],
  ];
  return candidates.find(([t]) => !allowed.has(t))?.[1];
}

export function contractPath(route: RouteEntry): string {
  return route.path.replace(/:(\w+)/g, '{$1}');
}

export function operationOf(route: RouteEntry): Schema {
  const op = doc.paths[contractPath(route)]?.[route.method];
  if (!op) throw new Error(`${route.method.toUpperCase()} ${route.path} is not in the contract`);
  return op;
}

export function bodySchemaOf(route: RouteEntry): Schema | undefined {
  return operationOf(route).requestBody?.content?.['application/json']?.schema;
}

/** A valid body: the contract's own example when it gives one, else the smallest the schema accepts. */
export function validBody(route: RouteEntry, world: World): Json {
  const media = operationOf(route).requestBody?.content?.['application/json'];
  if (!media) return undefined;
  const example = media.example ?? (Object.values(media.examples ?? {})[0] as { value?: Json } | undefined)?.value;
  if (example !== undefined) {
    // Ids in examples are placeholders: aim them at the world's objects.
    return Object.fromEntries(
      Object.entries(example as Record<string, Json>).map(([k, v]) => [
        k,
        k.endsWith('_id') ? (world[entityOf(k)] ?? v) : v,
      ]),
    );
  }
  return minimal(media.schema, world, 'body');
}

export function queryOf(route: RouteEntry, world: World): string {
  const params = (operationOf(route).parameters ?? []).filter((p: Schema) => p.in === 'query' && p.required);
  if (!params.length) return '';
  return (
    '?' +
    params
      .map((p: Schema) => `${p.name}=${encodeURIComponent(String(minimal(p.schema ?? {}, world, p.name)))}`)
      .join('&')
  );
}

export function fillPath(route: RouteEntry, ids: (param: string) => string): string {
  return '/api/v1' + route.path.replace(/:(\w+)/g, (_m, p: string) => encodeURIComponent(ids(p)));
}

/** A fresh id for every id param (an object that exists nowhere); a real value for the others (`:provider`). */
export const randomIds = (param: string): string => NON_ID_PARAMS[param] ?? crypto.randomUUID();

export const idParamsOf = (route: RouteEntry): string[] =>
  [...route.path.matchAll(/:(\w+)/g)].map(([, p]) => p!).filter((p) => !NON_ID_PARAMS[p]);

/** The GraphQL root field a route runs (undefined for plain handlers). */
export function rootFieldOf(route: RouteEntry): GraphQLField<unknown, unknown> | undefined {
  if (!('operation' in route)) return undefined;
  const op = parse(route.operation).definitions[0] as OperationDefinitionNode;
  const field = (op.selectionSet.selections[0] as FieldNode).name.value;
  const type = op.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  return type?.getFields()[field];
}

export function scopesOf(field: GraphQLField<unknown, unknown> | undefined): Record<string, unknown> | undefined {
  return (field?.extensions as { pothosOptions?: { authScopes?: Record<string, unknown> } } | undefined)?.pothosOptions
    ?.authScopes;
}

export const isCustomAuth = (route: RouteEntry) => typeof route.auth === 'function';
export const isUserAuth = (route: RouteEntry) => route.auth === undefined || route.auth === 'user';

/** Headers that authenticate a call to a route with its own credential (ingest key, signed webhook). */
export function customCredential(route: RouteEntry, raw: string): { headers: Record<string, string>; path: string } {
  // The ingest key authenticates POST /events and the GPU collector's pushes.
  if (route.path === '/events' || route.path === '/ai-factory/gpu/samples')
    return { headers: { 'x-service-key': a.ingestKey }, path: '/api/v1' + route.path };
  // Alertmanager's API v2: Prometheus sends with the tenant's ingest key as a bearer token.
  if (route.path === '/alertmanager/api/v2/alerts')
    return { headers: { authorization: `Bearer ${a.ingestKey}` }, path: '/api/v1' + route.path };
  if (route.path === '/integrations/:integrationId/push')
    return {
      headers: { authorization: `Bearer ${pushIntegration.token}` },
      path: fillPath(route, () => pushIntegration.id),
    };
  if (route.path.startsWith('/clusters/') && !route.path.includes(':'))
    return { headers: { authorization: `Bearer ${clusterCredential}` }, path: fillPath(route, randomIds) };
  // Single sign-on's callback: no credential, the provider's state is the proof (test/sso.test.ts).
  if (route.path === '/auth/sso/callback') return { headers: {}, path: '/api/v1' + route.path };
  const hook = signingHooks[route.path];
  if (!hook)
    throw new Error(
      `${route.method.toUpperCase()} ${route.path} has its own authentication; teach the sweep how to sign for it (customCredential).`,
    );
  const sig = crypto.createHmac('sha256', hook.secret).update(raw).digest('hex');
  return { headers: { 'x-service-signature': sig }, path: fillPath(route, () => hook.slug) };
}
