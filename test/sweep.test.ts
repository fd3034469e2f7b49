/**
 * The route table sweeps itself: cases generated from the REST route table (with its OpenAPI contract)
 * and from the GraphQL schema's root fields, so a route or field added later is covered without anyone
 * writing its case.
 *
 * REST, per route: no credential → 401; a revoked PAT → 401; another tenant's id in every `:param` →
 * 404 and nothing of that tenant changed; a member on an admin-only route → 403; for a JSON body: each
 * required field missing, each field of the wrong type, an unknown field → 422 naming the field.
 * GraphQL, per root field: anonymous → UNAUTHENTICATED; a member on an admin-only field → FORBIDDEN;
 * another tenant's id → NOT_FOUND (or null) and nothing changed. No response of the sweep is a 5xx.
 */
import crypto from 'node:crypto';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  parse,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type OperationDefinitionNode,
  type FieldNode,
} from 'graphql';
import { routes } from '../rest/routes/index.js';
import { loadOpenApi } from '../rest/openapi.js';
import type { RouteEntry } from '../rest/route-types.js';
import { schema } from '../schema/index.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, principalOf, type BuiltTenant } from './factories.js';
import { buildWorld, snapshotTenant, ENTITY_ALIASES, NON_ID_PARAMS, OTHER_TENANT_PROVIDER_URL, type World } from './sweep/world.js';
import { createCtx } from '../src/context.js';
import { createInboundWebhook } from '../src/events/inbound-webhooks.js';
import { createIntegration } from '../src/integrations/integrations.js';
import { createClusterInvite, joinWithInvite } from '../src/clusters/hub.js';

type Json = any;
type Schema = Record<string, any>;

let s: TestServer;
let a: BuiltTenant; // the caller's tenant
let b: BuiltTenant; // the other tenant, whose objects the sweep aims at
let bWorld: World;
let memberToken: string;
let revokedToken: string;
let doc: Schema;
const signingHooks: Record<string, { slug: string; secret: string }> = {};
/** The caller tenant's own bearer credentials of routes that are not a user's: an integration's push token, a member cluster's credential. */
let pushIntegration: { id: string; token: string };
let clusterCredential: string;
const counts = { rest: new Map<string, number>(), graphql: new Map<string, number>() };
const fiveHundreds: string[] = [];

function count(kind: 'rest' | 'graphql', name: string): void {
  counts[kind].set(name, (counts[kind].get(name) ?? 0) + 1);
}

/** `alertId` / `alert` / `AlertRule` → the entity name the world is keyed by. */
function entityOf(name: string): string {
  const base = name.replace(/_id$|Id$/, '').replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  const pascal = base[0]!.toUpperCase() + base.slice(1);
  return ENTITY_ALIASES[pascal] ?? pascal;
}

function idFor(world: World, name: string, where: string): string {
  if (NON_ID_PARAMS[name]) return NON_ID_PARAMS[name];
  const entity = entityOf(name);
  const id = world[entity];
  if (!id) throw new Error(`${where}: no '${entity}' in the sweep's world. Add a builder for it in test/sweep/world.ts.`);
  return id;
}

// ------------------------------------------------------------------ OpenAPI-driven values

function merged(schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.allOf) {
    const out: Schema = { type: 'object', properties: {}, required: [] as string[] };
    for (const part of schema.allOf.map(merged)) {
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
    return { ...base, properties: { ...base.properties, ...alt.properties }, required: [...new Set([...(base.required ?? []), ...(alt.required ?? [])])] };
  }
  return schema;
}

function typeOf(schema: Schema): string | undefined {
  const t = schema.type;
  return Array.isArray(t) ? t.find((x: string) => x !== 'null') : t;
}

/** The smallest value the contract accepts; `*_id` strings name an object of `world`. */
function minimal(schema: Schema, world: World, name: string): Json {
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
function allowedTypes(schema: Schema): Set<string> {
  const out = new Set<string>();
  const add = (t: unknown) => (Array.isArray(t) ? t : t ? [t] : []).forEach((x: string) => out.add(x === 'integer' ? 'number' : x));
  add(schema.type);
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) allowedTypes(alt).forEach((t) => out.add(t));
  if (schema.enum) schema.enum.forEach((v: unknown) => out.add(v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v));
  return out;
}

/** A value of a JSON type the schema does not allow (undefined when it allows any). */
function wrongType(schema: Schema): Json {
  const allowed = allowedTypes(schema);
  if (!allowed.size) return undefined;
  const candidates: Array<[string, Json]> = [['number', 12345], ['string', 'not-the-right-type'], ['boolean', true], ['array', ['x']], ['object', { x: 1 }]];
  return candidates.find(([t]) => !allowed.has(t))?.[1];
}

// ------------------------------------------------------------------ requests

interface Res {
  status: number;
  body: Json;
}

async function request(method: string, path: string, opts: { token?: string; body?: Json; headers?: Record<string, string>; raw?: string } = {}): Promise<Res> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(s.url + path, { method, headers, body, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  let parsed: Json = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: kept as text, and the status check below says what came back */
  }
  if (res.status >= 500) fiveHundreds.push(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
  return { status: res.status, body: parsed };
}

function contractPath(route: RouteEntry): string {
  return route.path.replace(/:(\w+)/g, '{$1}');
}

function operationOf(route: RouteEntry): Schema {
  const op = doc.paths[contractPath(route)]?.[route.method];
  if (!op) throw new Error(`${route.method.toUpperCase()} ${route.path} is not in the contract`);
  return op;
}

function bodySchemaOf(route: RouteEntry): Schema | undefined {
  return operationOf(route).requestBody?.content?.['application/json']?.schema;
}

/** A valid body: the contract's own example when it gives one, else the smallest the schema accepts. */
function validBody(route: RouteEntry, world: World): Json {
  const media = operationOf(route).requestBody?.content?.['application/json'];
  if (!media) return undefined;
  const example = media.example ?? (Object.values(media.examples ?? {})[0] as { value?: Json } | undefined)?.value;
  if (example !== undefined) {
    // Ids in examples are placeholders: aim them at the world's objects.
    return Object.fromEntries(Object.entries(example as Record<string, Json>).map(([k, v]) => [k, k.endsWith('_id') ? (world[entityOf(k)] ?? v) : v]));
  }
  return minimal(media.schema, world, 'body');
}

function queryOf(route: RouteEntry, world: World): string {
  const params = (operationOf(route).parameters ?? []).filter((p: Schema) => p.in === 'query' && p.required);
  if (!params.length) return '';
  return '?' + params.map((p: Schema) => `${p.name}=${encodeURIComponent(String(minimal(p.schema ?? {}, world, p.name)))}`).join('&');
}

function fillPath(route: RouteEntry, ids: (param: string) => string): string {
  return '/api/v1' + route.path.replace(/:(\w+)/g, (_m, p: string) => encodeURIComponent(ids(p)));
}

/** A fresh id for every id param (an object that exists nowhere); a real value for the others (`:provider`). */
const randomIds = (param: string): string => NON_ID_PARAMS[param] ?? crypto.randomUUID();

const idParamsOf = (route: RouteEntry): string[] => [...route.path.matchAll(/:(\w+)/g)].map(([, p]) => p!).filter((p) => !NON_ID_PARAMS[p]);

/** The GraphQL root field a route runs (undefined for plain handlers). */
function rootFieldOf(route: RouteEntry): GraphQLField<unknown, unknown> | undefined {
  if (!('operation' in route)) return undefined;
  const op = parse(route.operation).definitions[0] as OperationDefinitionNode;
  const field = (op.selectionSet.selections[0] as FieldNode).name.value;
  const type = op.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  return type?.getFields()[field];
}

function scopesOf(field: GraphQLField<unknown, unknown> | undefined): Record<string, unknown> | undefined {
  return (field?.extensions as { pothosOptions?: { authScopes?: Record<string, unknown> } } | undefined)?.pothosOptions?.authScopes;
}

const isCustomAuth = (route: RouteEntry) => typeof route.auth === 'function';
const isUserAuth = (route: RouteEntry) => route.auth === undefined || route.auth === 'user';

/** Headers that authenticate a call to a route with its own credential (ingest key, signed webhook). */
function customCredential(route: RouteEntry, raw: string): { headers: Record<string, string>; path: string } {
  // The ingest key authenticates POST /events and the GPU collector's pushes.
  if (route.path === '/events' || route.path === '/ai-factory/gpu/samples') return { headers: { 'x-service-key': a.ingestKey }, path: '/api/v1' + route.path };
  if (route.path === '/integrations/:integrationId/push') return { headers: { authorization: `Bearer ${pushIntegration.token}` }, path: fillPath(route, () => pushIntegration.id) };
  if (route.path.startsWith('/clusters/') && !route.path.includes(':')) return { headers: { authorization: `Bearer ${clusterCredential}` }, path: fillPath(route, randomIds) };
  const hook = signingHooks[route.path];
  if (!hook) throw new Error(`${route.method.toUpperCase()} ${route.path} has its own authentication; teach the sweep how to sign for it (customCredential).`);
  const sig = crypto.createHmac('sha256', hook.secret).update(raw).digest('hex');
  return { headers: { 'x-service-signature': sig }, path: fillPath(route, () => hook.slug) };
}

/** Compares two tenant snapshots table by table, so a failure names what changed. */
function expectUnchanged(before: string, after: string): void {
  const [b0, a0] = [JSON.parse(before), JSON.parse(after)] as [Json[], Json[]];
  b0.forEach((rows: Json, i: number) => expect(a0[i], `the other tenant's table #${i} changed`).toEqual(rows));
}

function names(detail: Json): string {
  return JSON.stringify(detail);
}

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1', INGEST_RATE_PER_SECOND: '100000' } });
  const rt = s.app.rt;
  a = await buildTenant(rt);
  b = await buildTenant(rt);
  bWorld = await buildWorld(rt, b);
  const member = await buildUser(rt, a.tenantId);
  memberToken = await buildToken(rt, member);
  revokedToken = await buildToken(rt, a.admin);
  const mine = await request('GET', '/api/v1/auth/tokens', { token: revokedToken });
  const revokedId = (mine.body as Array<{ id: string; token_prefix: string }>).find((t) => revokedToken.startsWith(t.token_prefix))!.id;
  expect((await request('DELETE', `/api/v1/auth/tokens/${revokedId}`, { token: revokedToken })).status).toBe(204);
  const ctx = createCtx(rt, principalOf(a.admin), 'sweep');
  for (const [path, kind] of [['/webhooks/:slug', 'events'], ['/sot/webhooks/:slug', 'sot']] as const) {
    const { webhook, secret } = await createInboundWebhook(ctx, { name: `sweep-${kind}`, kind });
    signingHooks[path] = { slug: webhook.slug, secret };
  }
  const integration = await createIntegration(ctx, { provider: 'webhook', name: 'sweep-push', freshnessSeconds: null });
  pushIntegration = { id: integration.integration.id, token: integration.pushToken! };
  const invite = await createClusterInvite(ctx, { hubUrl: 'http://127.0.0.1:9' });
  clusterCredential = (await joinWithInvite(rt, { invite: invite.token, name: 'sweep-member' })).credential;
  doc = (await SwaggerParser.dereference(loadOpenApi() as never)) as Schema;
}, 180_000);

afterAll(async () => {
  await s?.stop();
  const rest = [...counts.rest.entries()].map(([k, v]) => `${k}: ${v}`).join(', ');
  const gql = [...counts.graphql.entries()].map(([k, v]) => `${k}: ${v}`).join(', ');
  console.log(`route sweep: ${routes.length} REST routes (${rest}); ${Object.keys(schema.getQueryType()!.getFields()).length + Object.keys(schema.getMutationType()!.getFields()).length} GraphQL root fields (${gql})`);
});

describe('REST route sweep', () => {
  it('every route without a credential, or with a revoked PAT, is 401', async () => {
    for (const route of routes) {
      if (route.auth === 'public') continue;
      // A signed route's own slug (an unknown one is a 404 before any signature is looked at).
      const path = isCustomAuth(route) ? customCredential(route, '').path : fillPath(route, randomIds) + queryOf(route, bWorld);
      const body = validBody(route, bWorld);
      const anon = await request(route.method.toUpperCase(), path, { body });
      expect(anon.status, `${route.method} ${route.path} without a credential: ${names(anon.body)}`).toBe(401);
      expect(anon.body?.detail, `${route.method} ${route.path} 401 detail`).toBeTruthy();
      count('rest', 'no credential → 401');
      if (!isUserAuth(route)) continue;
      const revoked = await request(route.method.toUpperCase(), path, { body, token: revokedToken });
      expect(revoked.status, `${route.method} ${route.path} with a revoked PAT`).toBe(401);
      count('rest', 'revoked PAT → 401');
    }
  });

  // One request per :param route and a snapshot of the other tenant each: over 30 s on a loaded 2-core machine.
  it("another tenant's id in every :param is 404, and nothing of that tenant changes", { timeout: 120_000 }, async () => {
    const before = await snapshotTenant(s.app.rt, b.tenantId);
    let cases = 0;
    for (const route of routes) {
      if (!route.path.includes(':') || !isUserAuth(route)) continue;
      const path = fillPath(route, (p) => idFor(bWorld, p, `${route.method} ${route.path}`)) + queryOf(route, bWorld);
      const body = validBody(route, bWorld);
      const res = await request(route.method.toUpperCase(), path, { body, token: a.adminToken });
      if (!idParamsOf(route).length) {
        // Only names in the path (`:provider`): the caller's own view of that name, never the other tenant's.
        expect(res.status, `${route.method} ${route.path}: ${names(res.body)}`).toBeLessThan(500);
        expect(JSON.stringify(res.body), `${route.method} ${route.path} shows the other tenant's config`).not.toContain(OTHER_TENANT_PROVIDER_URL);
        count('rest', 'name param → own tenant only');
        continue;
      }
      expect(res.status, `${route.method} ${route.path} with the other tenant's ids: ${names(res.body)}`).toBe(404);
      expect(res.body?.detail).toBeTruthy();
      count('rest', "other tenant's id → 404");
      cases++;
    }
    expect(cases).toBeGreaterThan(0);
    expectUnchanged(before, await snapshotTenant(s.app.rt, b.tenantId));
  });

  it('a member gets 403 on every admin-only route', async () => {
    let cases = 0;
    for (const route of routes) {
      if (!scopesOf(rootFieldOf(route))?.admin) continue;
      const path = fillPath(route, randomIds) + queryOf(route, bWorld);
      const body = validBody(route, bWorld);
      const res = await request(route.method.toUpperCase(), path, { body, token: memberToken });
      expect(res.status, `${route.method} ${route.path} as a member: ${names(res.body)}`).toBe(403);
      count('rest', 'member on admin route → 403');
      cases++;
    }
    expect(cases).toBeGreaterThan(0);
  });

  it('no state-changing route accepts the session cookie from a foreign origin, Origin: null or a sibling site (0 accepted)', { timeout: 120_000 }, async () => {
    const login = await fetch(`${s.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: a.admin.email, password: a.adminPassword }) });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('ops_session='))!.split(';')[0]!;
    const before = await snapshotTenant(s.app.rt, a.tenantId);
    // A browser page elsewhere: a JSON body (as fetch with no-cors cannot send, but a sibling origin's
    // fetch with credentials can), a form body, no body, and the fetch metadata of a sibling site.
    const attempts: Array<{ label: string; headers: Record<string, string>; body: (route: RouteEntry) => string | undefined }> = [
      { label: 'foreign Origin, JSON', headers: { origin: 'http://127.0.0.1:9999', 'content-type': 'application/json' }, body: (r) => JSON.stringify(validBody(r, bWorld) ?? {}) },
      { label: 'Origin: null, form', headers: { origin: 'null', 'content-type': 'application/x-www-form-urlencoded' }, body: () => 'a=1' },
      { label: 'sibling site, text/plain', headers: { 'sec-fetch-site': 'same-site', 'content-type': 'text/plain' }, body: () => 'x' },
      { label: 'foreign Origin, no body', headers: { origin: 'http://evil.example.test' }, body: () => undefined },
    ];
    let cases = 0;
    const accepted: string[] = [];
    for (const route of routes) {
      if (route.method === 'get') continue;
      const path = isCustomAuth(route) ? customCredential(route, '').path : fillPath(route, randomIds) + queryOf(route, bWorld);
      for (const attempt of attempts) {
        const res = await fetch(s.url + path, { method: route.method.toUpperCase(), headers: { cookie, ...attempt.headers }, body: attempt.body(route), signal: AbortSignal.timeout(15_000) });
        const text = await res.text();
        if (res.status >= 500) fiveHundreds.push(`${route.method} ${path} (${attempt.label}) → ${res.status} ${text.slice(0, 200)}`);
        // Routes with their own authenticator (ingest key, signature, push token) never take the cookie: 401.
        const expected = isCustomAuth(route) ? 401 : 403;
        if (res.status !== expected) accepted.push(`${route.method.toUpperCase()} ${route.path} (${attempt.label}) → ${res.status} ${text.slice(0, 200)}`);
        else if (expected === 403) expect(JSON.parse(text).code, `${route.method} ${route.path}`).toBe('CROSS_ORIGIN_REQUEST');
        count('rest', 'cookie from another origin → refused');
        cases++;
      }
    }
    expect(accepted).toEqual([]);
    expect(cases).toBeGreaterThan(100);
    // Nothing of the caller's own tenant changed either, and the session was not ended by a forged logout.
    expectUnchanged(before, await snapshotTenant(s.app.rt, a.tenantId));
    expect((await fetch(`${s.url}/api/v1/auth/me`, { headers: { cookie } })).status).toBe(200);
  });

  it('a body with a missing required field, a wrong type or an unknown field is 422 naming the field', async () => {
    let cases = 0;
    for (const route of routes) {
      const bodySchema = bodySchemaOf(route);
      if (!bodySchema || route.auth === 'public' && route.path.endsWith('/logout')) continue;
      const m = merged(bodySchema);
      if (typeOf(m) !== 'object' || !m.properties) continue;
      const valid = validBody(route, bWorld) as Record<string, Json>;
      const variants: Array<{ label: string; body: Record<string, Json>; field: string }> = [];
      const alternatives = bodySchema.oneOf ?? bodySchema.anyOf;
      if (!alternatives) for (const key of m.required ?? []) variants.push({ label: `missing ${key}`, body: Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key)), field: key });
      for (const [key, prop] of Object.entries(m.properties as Record<string, Schema>)) {
        const wrong = wrongType(prop);
        if (wrong !== undefined) variants.push({ label: `${key} of the wrong type`, body: { ...valid, [key]: wrong }, field: key });
      }
      // Unknown fields are refused wherever the contract closes the object; a receiver of another
      // system's calls (the NetBox-style SoT webhook) documents `additionalProperties: true` on purpose.
      if (m.additionalProperties === false) variants.push({ label: 'an unknown field', body: { ...valid, sweep_unknown_field: 1 }, field: 'sweep_unknown_field' });
      else count('rest', 'open body (unknown fields allowed by the contract)');
      for (const v of variants) {
        const raw = JSON.stringify(v.body);
        const target = isCustomAuth(route) ? customCredential(route, raw) : { headers: {}, path: fillPath(route, randomIds) + queryOf(route, bWorld) };
        const token = isUserAuth(route) ? a.adminToken : undefined;
        const res = await request(route.method.toUpperCase(), target.path, { raw, headers: target.headers, token });
        expect(res.status, `${route.method} ${route.path} with ${v.label}: ${names(res.body)}`).toBe(422);
        expect(names(res.body.detail), `${route.method} ${route.path} with ${v.label}`).toContain(v.field);
        count('rest', 'bad body → 422');
        cases++;
      }
    }
    expect(cases).toBeGreaterThan(0);
  });
});

// ------------------------------------------------------------------ GraphQL

/** A GraphQL literal for an input type (required parts only); ids name `world` objects. */
function literal(type: GraphQLInputType, world: World, name: string, rootEntity: string): string {
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
        return JSON.stringify(name === 'id' ? (world[rootEntity] ?? crypto.randomUUID()) : (world[entityOf(name)] ?? crypto.randomUUID()));
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
        return JSON.stringify(name === 'url' ? 'http://127.0.0.1:9/sweep' : name === 'email' ? `sweep-${crypto.randomBytes(3).toString('hex')}@example.test` : 'sweep');
    }
  }
  throw new Error(`no literal for ${String(type)}`);
}

/** The entity a root field is about: its return type, or its name without the verb (`deleteDevice`). */
function rootEntityOf(name: string, field: GraphQLField<unknown, unknown>): string {
  const returned = getNamedType(field.type).name;
  const alias = ENTITY_ALIASES[returned] ?? returned;
  if (bWorld[alias]) return alias;
  // The verb's object: `revealInboundWebhookSecret` → InboundWebhookSecret → InboundWebhook.
  let words: string[] = name.replace(/^[a-z]+/, '').match(/[A-Z][a-z0-9]*/g) ?? [];
  while (words.length > 1 && !bWorld[entityOf(words.join(''))]) words = words.slice(0, -1);
  return entityOf(words.join('') || name);
}

function documentFor(kind: 'query' | 'mutation', name: string, field: GraphQLField<unknown, unknown>, world: World): string {
  const entity = rootEntityOf(name, field);
  const args = field.args.filter((x: GraphQLArgument) => isNonNullType(x.type)).map((x) => `${x.name}: ${literal(x.type, world, x.name, entity)}`);
  const selection = isObjectType(getNamedType(field.type)) || !isScalarType(getNamedType(field.type)) && !isEnumType(getNamedType(field.type)) ? ' { __typename }' : '';
  return `${kind} { ${name}${args.length ? `(${args.join(', ')})` : ''}${selection} }`;
}

/**
 * A field that a REST route runs is called the way that route calls it: its own operation with the
 * variables it makes from the contract's example body, so the arguments are valid but for the ids.
 */
function restShapedCall(name: string, world: World): { query: string; variables: Record<string, unknown> } | undefined {
  const route = routes.find((r) => rootFieldOf(r)?.name === name && 'operation' in r);
  if (!route || !('operation' in route)) return undefined;
  const params = Object.fromEntries([...route.path.matchAll(/:(\w+)/g)].map(([, p]) => [p!, idFor(world, p!, route.path)]));
  const variables = route.variables?.({ params, query: {}, body: validBody(route, world) ?? {}, headers: {} }) ?? {};
  return { query: route.operation, variables };
}

async function graphql(query: string, token?: string, variables?: Record<string, unknown>): Promise<{ data?: Json; errors?: Array<{ message: string; extensions?: { code?: string } }> }> {
  const res = await request('POST', '/graphql', { body: { query, variables }, token });
  expect(typeof res.body, `GraphQL answered with JSON for ${query}`).toBe('object');
  return res.body;
}

function rootFields(): Array<{ kind: 'query' | 'mutation'; name: string; field: GraphQLField<unknown, unknown> }> {
  return [
    ...Object.entries(schema.getQueryType()!.getFields()).map(([name, field]) => ({ kind: 'query' as const, name, field })),
    ...Object.entries(schema.getMutationType()!.getFields()).map(([name, field]) => ({ kind: 'mutation' as const, name, field })),
  ];
}

describe('GraphQL root field sweep', () => {
  it('anonymous callers get UNAUTHENTICATED on every field that needs a user; members FORBIDDEN on admin fields', async () => {
    for (const { kind, name, field } of rootFields()) {
      const scopes = scopesOf(field);
      if (!scopes) continue;
      const query = documentFor(kind, name, field, {});
      const anon = await graphql(query);
      expect(anon.errors?.[0]?.extensions?.code, `${name} anonymously: ${JSON.stringify(anon.errors)}`).toBe('UNAUTHENTICATED');
      count('graphql', 'anonymous → UNAUTHENTICATED');
      if (!scopes.admin) continue;
      const member = await graphql(query, memberToken);
      expect(member.errors?.[0]?.extensions?.code, `${name} as a member: ${JSON.stringify(member.errors)}`).toBe('FORBIDDEN');
      count('graphql', 'member on admin field → FORBIDDEN');
    }
  });

  it("another tenant's id is NOT_FOUND (or null) on every field that takes one, and nothing changes", async () => {
    const before = await snapshotTenant(s.app.rt, b.tenantId);
    let cases = 0;
    for (const { kind, name, field } of rootFields()) {
      const ids = field.args.filter((x) => isNonNullType(x.type) && (getNamedType(x.type).name === 'ID' || isInputObjectType(getNamedType(x.type)) && Object.values((getNamedType(x.type) as never as { getFields(): Record<string, { type: GraphQLInputType; name: string }> }).getFields()).some((f) => isNonNullType(f.type) && getNamedType(f.type).name === 'ID')));
      if (!ids.length || !scopesOf(field)) continue;
      const entity = rootEntityOf(name, field);
      if (!bWorld[entity] && ids.some((x) => x.name === 'id')) throw new Error(`${name}: no '${entity}' in the sweep's world. Add a builder for it in test/sweep/world.ts.`);
      const call = restShapedCall(name, bWorld) ?? { query: documentFor(kind, name, field, bWorld), variables: {} };
      const res = await graphql(call.query, a.adminToken, call.variables);
      const error = res.errors?.[0] as { extensions?: { code?: string; fields?: Array<{ loc: string[] }> } } | undefined;
      const value = res.data?.[name];
      // A list of ids (`nodes(ids:)`) answers null at each position the caller may not see.
      const nothing = value === null || res.data === null || (Array.isArray(value) && value.length > 0 && value.every((v) => v === null));
      // An id in the path or the root `id` argument is NOT_FOUND; an id inside an input (a reference such
      // as `input.deviceId`) is a validation failure naming that field, the same as for an id that never existed.
      const refusedReference = error?.extensions?.code === 'BAD_USER_INPUT' && !!error.extensions.fields?.length && error.extensions.fields.every((f) => /id$/i.test(f.loc.at(-1) ?? ''));
      expect(error?.extensions?.code === 'NOT_FOUND' || refusedReference || (nothing && !res.errors), `${name} with the other tenant's ids: ${JSON.stringify(res)}`).toBe(true);
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
