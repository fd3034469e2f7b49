/**
 * The route sweep's shared set-up (test/sweep-rest.test.ts, test/sweep-graphql.test.ts): one server, the
 * caller's tenant `a` with a member and a revoked PAT, the other tenant `b` with one of everything
 * (`bWorld`), the signing hooks and non-user credentials, the request helper that records any 5xx, and
 * the tally printed at the end.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, expect } from 'vitest';
import { routes } from '../../rest/routes/index.js';
import { loadOpenApi } from '../../rest/openapi.js';
import { schema } from '../../schema/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildTenant, buildToken, buildUser, principalOf, type BuiltTenant } from '../factories.js';
import { buildWorld, ENTITY_ALIASES, NON_ID_PARAMS, PATH_PARAM_ENTITIES, type World } from './world.js';
import { createCtx } from '../../src/context.js';
import { createInboundWebhook } from '../../src/events/inbound-webhooks.js';
import { createIntegration } from '../../src/integrations/integrations.js';
import { createClusterInvite, joinWithInvite } from '../../src/clusters/hub.js';

export type Json = any;
export type Schema = Record<string, any>;

export let s: TestServer;
export let a: BuiltTenant; // the caller's tenant
export let b: BuiltTenant; // the other tenant, whose objects the sweep aims at
export let bWorld: World;
export let memberToken: string;
export let revokedToken: string;
export let doc: Schema;
export const signingHooks: Record<string, { slug: string; secret: string }> = {};
/** The caller tenant's own bearer credentials of routes that are not a user's: an integration's push token, a member cluster's credential. */
export let pushIntegration: { id: string; token: string };
export let clusterCredential: string;
export const counts = { rest: new Map<string, number>(), graphql: new Map<string, number>() };
export const fiveHundreds: string[] = [];

export function count(kind: 'rest' | 'graphql', name: string): void {
  counts[kind].set(name, (counts[kind].get(name) ?? 0) + 1);
}

/** `alertId` / `alert` / `AlertRule` → the entity name the world is keyed by. */
export function entityOf(name: string): string {
  const base = name.replace(/_id$|Id$/, '').replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  const pascal = base[0]!.toUpperCase() + base.slice(1);
  return ENTITY_ALIASES[pascal] ?? pascal;
}

/** `where` is the route (`GET /reports/schedules/:scheduleId`): a path may say what its param is (PATH_PARAM_ENTITIES). */
export function idFor(world: World, name: string, where: string): string {
  if (NON_ID_PARAMS[name]) return NON_ID_PARAMS[name];
  const byPath = PATH_PARAM_ENTITIES.find((p) => p.param === name && where.includes(p.path));
  const entity = byPath?.entity ?? entityOf(name);
  const id = world[entity];
  if (!id)
    throw new Error(`${where}: no '${entity}' in the sweep's world. Add a builder for it in test/sweep/world.ts.`);
  return id;
}

// ------------------------------------------------------------------ requests

export interface Res {
  status: number;
  body: Json;
}

export async function request(
  method: string,
  path: string,
  opts: { token?: string; body?: Json; headers?: Record<string, string>; raw?: string } = {},
): Promise<Res> {
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

/** Compares two tenant snapshots table by table, so a failure names what changed. */
export function expectUnchanged(before: string, after: string): void {
  const [b0, a0] = [JSON.parse(before), JSON.parse(after)] as [Json[], Json[]];
  b0.forEach((rows: Json, i: number) => expect(a0[i], `the other tenant's table #${i} changed`).toEqual(rows));
}

export function names(detail: Json): string {
  return JSON.stringify(detail);
}

/** Registers the file's hooks: the server and worlds before, the tally and the stop after. */
export function useSweepSuite(): void {
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
    const revokedId = (mine.body as Array<{ id: string; token_prefix: string }>).find((t) =>
      revokedToken.startsWith(t.token_prefix),
    )!.id;
    expect((await request('DELETE', `/api/v1/auth/tokens/${revokedId}`, { token: revokedToken })).status).toBe(204);
    const ctx = createCtx(rt, principalOf(a.admin), 'sweep');
    for (const [path, kind] of [
      ['/webhooks/:slug', 'events'],
      ['/sot/webhooks/:slug', 'sot'],
    ] as const) {
      const { webhook, secret } = await createInboundWebhook(ctx, { name: `sweep-${kind}`, kind });
      signingHooks[path] = { slug: webhook.slug, secret };
    }
    const integration = await createIntegration(ctx, {
      provider: 'webhook',
      name: 'sweep-push',
      freshnessSeconds: null,
    });
    pushIntegration = { id: integration.integration.id, token: integration.pushToken! };
    const invite = await createClusterInvite(ctx, { hubUrl: 'http://127.0.0.1:9' });
    clusterCredential = (await joinWithInvite(rt, { invite: invite.token, name: 'sweep-member' })).credential;
    doc = (await SwaggerParser.dereference(loadOpenApi() as never)) as Schema;
  }, 180_000);

  afterAll(async () => {
    await s?.stop();
    const rest = [...counts.rest.entries()].map(([k, v]) => `${k}: ${v}`).join(', ');
    const gql = [...counts.graphql.entries()].map(([k, v]) => `${k}: ${v}`).join(', ');
    console.log(
      `route sweep: ${routes.length} REST routes (${rest}); ${Object.keys(schema.getQueryType()!.getFields()).length + Object.keys(schema.getMutationType()!.getFields()).length} GraphQL root fields (${gql})`,
    );
  });
}
