/**
 * The REST contract fuzzer: for EVERY operation of the merged OpenAPI document (rest/openapi.ts
 * loadOpenApi()), fast-check generates requests from the operation's parameters and body schema, mixing
 * plausible values with hostile ones (NUL, lone surrogates, huge and deep JSON, unicode, SQL/glob
 * metacharacters, path traversal, 1e309, -0, huge integers, malformed percent-encoding), and sends them
 * to a real server with the credential the route wants (PAT, ingest key, or a valid webhook signature so
 * the body is looked at). No answer may be a 5xx, none may hang, and /healthz answers afterwards.
 *
 * Budget: FUZZ_RUNS cases per route (default 6; `npm run fuzz` runs more), seed FUZZ_SEED (printed).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from '../factories.js';
import { eventually, gql, rest } from '../helpers/http.js';
import { loadOpenApi } from '../../rest/openapi.js';
import { hmacHex } from '../../src/signing.js';
import {
  FUZZ_RUNS,
  FUZZ_SEED,
  FUZZ_TEST_TIMEOUT_MS,
  RAW_SEGMENTS,
  encodeSegment,
  hostileJson,
  hostileNumber,
  hostileNumeral,
  hostileString,
  leaf,
  toJson,
  withDeadline,
} from './hostile.js';
import { lyingEncoding, misfitReportQuery, type EncodedBody } from './families.js';

type Schema = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

let s: TestServer;
let t: BuiltTenant;
const ids: Record<string, string[]> = {};
const hooks: Record<'events' | 'sot', { slug: string; secret: string }> = {} as never;

const doc = loadOpenApi();

function resolve(schema: Schema | undefined): Schema {
  let x = schema ?? {};
  for (let i = 0; i < 10 && x.$ref; i++) {
    const [, section, kind, name] = String(x.$ref).split('/');
    x = doc[section][kind][name];
  }
  return x;
}

/** Plausible-or-hostile values for a schema (depth-bounded). */
function arbitraryFor(raw: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  if (depth > 4) return fc.constant(null);
  if (schema.allOf) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf.map(resolve)) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...(part.required ?? []));
    }
    return arbitraryFor(merged, depth);
  }
  if (schema.oneOf || schema.anyOf)
    return fc.oneof(...(schema.oneOf ?? schema.anyOf).map((x: Schema) => arbitraryFor(x, depth)));
  if (schema.enum) return leaf(fc.constantFrom(...schema.enum), hostileString);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['object'];
  const options = types.map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'string': {
        const valid =
          schema.format === 'date-time'
            ? fc
                .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
                .map((d) => d.toISOString())
            : fc.string({
                minLength: schema.minLength ?? 0,
                maxLength: Math.min(schema.maxLength ?? 20, Math.max(20, schema.minLength ?? 0)),
              }); // short, but never below the contract's minLength
        return leaf(valid, hostileString);
      }
      case 'integer':
      case 'number':
        return leaf(
          fc.integer({
            min: schema.minimum ?? -5,
            max: Math.min(schema.maximum ?? 1000, Math.max(1000, schema.minimum ?? -5)),
          }),
          hostileNumber,
        );
      case 'boolean':
        return leaf(fc.boolean(), hostileString);
      case 'array':
        return leaf(fc.array(arbitraryFor(schema.items, depth + 1), { maxLength: 3 }), hostileJson);
      default: {
        const props: Record<string, Schema> = schema.properties ?? {};
        if (!Object.keys(props).length) return leaf(fc.jsonValue({ maxDepth: 3 }), hostileJson);
        const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, arbitraryFor(v, depth + 1)]));
        // Required properties mostly present (a leaf may still be hostile), optional ones at random.
        const required = (schema.required ?? []).filter((k: string) => k in model);
        return leaf(
          fc.oneof(
            { arbitrary: fc.record(model, { requiredKeys: required }), weight: 4 },
            { arbitrary: fc.record(model, { requiredKeys: [] }), weight: 1 },
          ),
          hostileJson,
        );
      }
    }
  });
  return options.length === 1 ? options[0] : fc.oneof(...options);
}

interface Case {
  path: string;
  query: string;
  body: string | undefined;
  contentType: string;
  /** The body compressed with a Content-Encoding that lies about it (issue 26 family), else undefined. */
  encoded: EncodedBody | undefined;
}

interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  op: Schema;
  params: Schema[];
}

const operations: Operation[] = Object.entries(doc.paths as Record<string, Schema>).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({
    method,
    path,
    op: item[method],
    params: [...(item.parameters ?? []), ...(item[method].parameters ?? [])].map(resolve),
  })),
);

/** `arb` in about one case out of eight, else undefined. */
function sometimes<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 7 }, { arbitrary: arb, weight: 1 });
}

/** Real ids for a path parameter by name (so requests reach the service), else hostile ones. */
function pathValue(name: string): fc.Arbitrary<string> {
  const real = fc.constant(name).map((n) => ids[n]?.[0] ?? 'none');
  return fc.oneof(
    { arbitrary: real.map(encodeSegment), weight: 6 },
    { arbitrary: hostileString.map((v) => encodeSegment(v.slice(0, 2000)) || 'x'), weight: 1 },
    { arbitrary: fc.constantFrom(...RAW_SEGMENTS), weight: 1 },
  );
}

function queryValue(p: Schema): fc.Arbitrary<string> {
  const schema = resolve(p.schema);
  const valid =
    schema.type === 'integer' || schema.type === 'number'
      ? fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 100, 100) }).map(String)
      : schema.enum
        ? fc.constantFrom(...schema.enum.map(String))
        : fc.string({ maxLength: 10 });
  return fc.oneof(
    { arbitrary: valid.map(encodeSegment), weight: 6 },
    { arbitrary: fc.oneof(hostileString, hostileNumeral).map((v) => encodeSegment(v.slice(0, 5000))), weight: 1 },
    { arbitrary: fc.constantFrom(...RAW_SEGMENTS), weight: 1 },
  );
}

function caseFor(o: Operation): fc.Arbitrary<Case> {
  const pathParams = o.params.filter((p) => p.in === 'path');
  const queryParams = o.params.filter((p) => p.in === 'query');
  const pathArb = fc
    .tuple(...pathParams.map((p) => pathValue(p.name).map((v) => [p.name, v] as const)))
    .map((pairs) => pairs.reduce((acc, [k, v]) => acc.replace(`{${k}}`, v), o.path));
  const queryArb = fc
    .tuple(
      ...queryParams.map((p) =>
        fc.option(queryValue(p), { nil: undefined }).map((v) => (v === undefined ? '' : `${p.name}=${v}`)),
      ),
      sometimes(fc.constantFrom('unknown=1', 'limit=1&limit=2', '%00=x')),
    )
    .map((parts) => parts.filter(Boolean).join('&'));
  const bodySchema = o.op.requestBody?.content?.['application/json']?.schema;
  const report = reportFamily(bodySchema);
  const bodyArb: fc.Arbitrary<string | undefined> = bodySchema
    ? fc.oneof(
        { arbitrary: arbitraryFor(bodySchema).map(toJson), weight: 5 },
        { arbitrary: hostileJson.map(toJson), weight: 1 },
        { arbitrary: fc.constantFrom('{"a":', 'not json', '', '{"a":1}}'), weight: 1 },
        ...(report ? [{ arbitrary: report.map(toJson), weight: 4 }] : []),
      )
    : sometimes(hostileJson.map(toJson));
  const contentType = fc.oneof(
    { arbitrary: fc.constant('application/json'), weight: 8 },
    {
      arbitrary: fc.constantFrom('text/plain', 'application/json; charset=latin1', 'application/x-www-form-urlencoded'),
      weight: 1,
    },
  );
  return fc.record({ path: pathArb, query: queryArb, body: bodyArb, contentType }).chain((c) =>
    // About one body in four is sent compressed with a Content-Encoding that lies (every route with a body).
    (c.body === undefined
      ? fc.constant(undefined)
      : fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: lyingEncoding(c.body), weight: 1 })
    ).map((encoded) => ({ ...c, encoded })),
  );
}

/** Report queries whose filter value does not fit its field (issue 26 family), for routes that take one. */
function reportFamily(bodySchema: Schema | undefined): fc.Arbitrary<unknown> | undefined {
  const body = resolve(bodySchema);
  if (body.properties?.entity && body.properties?.filters) return misfitReportQuery;
  if (resolve(body.properties?.query).properties?.filters)
    return misfitReportQuery.map((query) => ({ name: 'fuzz report', query }));
  return undefined;
}

/** The headers the route's credential needs (a valid signature over the exact body for webhooks). */
function credentialHeaders(o: Operation, c: Case): Record<string, string> {
  if (o.method === 'post' && o.path === '/events') return { 'x-service-key': t.ingestKey };
  if (o.path === '/webhooks/{slug}') return { 'x-service-signature': hmacHex(hooks.events.secret, c.body ?? '') };
  if (o.path === '/sot/webhooks/{slug}') return { 'x-service-signature': hmacHex(hooks.sot.secret, c.body ?? '') };
  return { authorization: `Bearer ${t.adminToken}` };
}

async function send(o: Operation, c: Case): Promise<{ status: number; text: string }> {
  const url = `${s.url}/api/v1${c.path}${c.query ? `?${c.query}` : ''}`;
  const headers: Record<string, string> = { ...credentialHeaders(o, c) };
  if (c.body !== undefined) headers['content-type'] = c.contentType;
  if (c.encoded) headers['content-encoding'] = c.encoded.encoding;
  const body = o.method === 'get' ? undefined : (c.encoded?.bytes ?? c.body);
  return withDeadline(`${o.method.toUpperCase()} ${c.path}`, async (signal) => {
    const res = await fetch(url, { method: o.method.toUpperCase(), headers, body, signal });
    if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      await res.body?.cancel(); // a live stream: its headers are the answer
      return { status: res.status, text: '' };
    }
    return { status: res.status, text: await res.text() };
  });
}

beforeAll(async () => {
  s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '100000', API_RATE_PER_MINUTE: '100000000' } });
  t = await buildTenant(s.app.rt);
  const api = rest(s.url, t.adminToken);
  // Real objects so generated ids often name something (victims only: never the fuzzer's own PAT).
  const victim = await buildUser(s.app.rt, t.tenantId);
  await buildToken(s.app.rt, victim);
  ids.tokenId = [(await s.app.rt.prisma.accessToken.findFirstOrThrow({ where: { userId: victim.id } })).id];
  const device = await api.post('/sot/devices', { name: 'fuzz-dev-1', management_address: '10.9.9.9' });
  ids.deviceId = [device.body.id];
  const proposal = await api.post('/sot/proposals', {
    title: 'fuzz',
    kind: 'config_change',
    device_id: device.body.id,
    proposed_intent: 'hostname fuzz',
  });
  ids.proposalId = [proposal.body.id];
  await gql(s.url, t.adminToken, 'mutation($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }', {
    input: { name: 'fuzz', typeGlob: 'fuzz.*' },
  });
  await rest(s.url).post(
    '/events',
    { type: 'fuzz.seed', source: 'fuzz' },
    { headers: { 'x-service-key': t.ingestKey } },
  );
  ids.alertId = [
    await eventually(async () => (await s.app.rt.prisma.alert.findFirst({ where: { tenantId: t.tenantId } }))?.id),
  ];
  for (const kind of ['events', 'sot'] as const) {
    const r = await gql(
      s.url,
      t.adminToken,
      `mutation { createInboundWebhook(input: { name: "fuzz ${kind}", kind: ${kind.toUpperCase()} }) { slug secret } }`,
    );
    hooks[kind] = r.data.createInboundWebhook;
  }
  ids.slug = [hooks.events.slug];
}, 60_000);

afterAll(async () => {
  await s?.stop();
});

describe('REST contract fuzzer', () => {
  it(
    'answers every generated request to every route without a 5xx or a hang, and stays up',
    async () => {
      const failures: string[] = [];
      let requests = 0;
      const statuses = new Map<number, number>();
      for (const o of operations) {
        // The sot webhook route's slug must be the sot hook's to pass its signature check.
        const arb = caseFor(o).map((c) =>
          o.path === '/sot/webhooks/{slug}' && c.path.endsWith(encodeSegment(hooks.events.slug))
            ? { ...c, path: c.path.replace(encodeSegment(hooks.events.slug), hooks.sot.slug) }
            : c,
        );
        await fc
          .assert(
            fc.asyncProperty(arb, async (c) => {
              requests++;
              let r: { status: number; text: string };
              try {
                r = await send(o, c);
              } catch (err) {
                failures.push(
                  `${o.method.toUpperCase()} ${c.path}?${c.query} body=${(c.body ?? '').slice(0, 300)} → ${(err as Error).message}`,
                );
                return false;
              }
              statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
              if (r.status >= 500)
                failures.push(
                  `${o.method.toUpperCase()} ${c.path}?${c.query}${c.encoded ? ` content-encoding=${c.encoded.encoding} (${Buffer.from(c.encoded.bytes).toString('base64').slice(0, 200)})` : ''} body=${(c.body ?? '').slice(0, 300)} → ${r.status} ${r.text.slice(0, 300)}`,
                );
              return r.status < 500;
            }),
            { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: true },
          )
          .catch(() => undefined); // collected above, all routes still run
      }
      const byStatus = [...statuses]
        .sort((a, b) => a[0] - b[0])
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ');
      console.log(
        `REST fuzz: ${operations.length} routes × ${FUZZ_RUNS} cases = ${requests} requests (seed ${FUZZ_SEED}); statuses ${byStatus}`,
      );
      expect(failures).toEqual([]);
      const health = await withDeadline('/healthz', (signal) => fetch(`${s.url}/healthz`, { signal }));
      expect(health.status).toBe(200);
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});
