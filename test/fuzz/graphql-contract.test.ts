/**
 * The GraphQL fuzzer: for EVERY root field of Query and Mutation in schema.graphql, fast-check generates
 * arguments from their types (plausible values mixed with hostile strings, numbers and JSON; real ids
 * often), sends the operation with variables to a real server with an admin PAT, and checks that no
 * answer is a 5xx or an INTERNAL_SERVER_ERROR (an unexpected error), that none hangs, and that /healthz
 * answers afterwards.
 *
 * Budget: FUZZ_RUNS cases per field (default 6; `npm run fuzz` runs more), seed FUZZ_SEED (printed).
 */
import fs from 'node:fs';
import fc from 'fast-check';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from '../factories.js';
import { eventually, gql, rest } from '../helpers/http.js';
import {
  FUZZ_RUNS,
  FUZZ_SEED,
  FUZZ_TEST_TIMEOUT_MS,
  hostileJson,
  hostileNumber,
  hostileString,
  leaf,
  toJson,
  withDeadline,
  RawNumber,
} from './hostile.js';
import { badVariablesParam, extremeInt, extremeNumber, lyingEncoding, misfitReportQuery } from './families.js';

const schema = buildSchema(fs.readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));

let s: TestServer;
let t: BuiltTenant;
const realIds: string[] = [];

/**
 * Values for an argument or input field `name` of `type`. With `extreme`, every Int and Float is a number
 * at or past the edge of its range (the issue-26 family: `gpuEvents(sinceHours: 1e308)`).
 */
function inputArbitrary(type: GraphQLInputType, depth = 0, name = '', extreme = false): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return inputArbitrary(type.ofType, depth, name, extreme);
  if (isListType(type))
    return leaf(fc.array(inputArbitrary(type.ofType, depth + 1, name, extreme), { maxLength: 3 }), hostileJson);
  if (isEnumType(type)) return leaf(fc.constantFrom(...type.getValues().map((v) => v.name)), hostileString);
  if (isInputObjectType(type)) {
    if (depth > 3) return fc.constant(null);
    const fields = Object.values(type.getFields());
    const model = Object.fromEntries(fields.map((f) => [f.name, inputArbitrary(f.type, depth + 1, f.name, extreme)]));
    const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name);
    return leaf(fc.record(model, { requiredKeys: required }), hostileJson);
  }
  const scalar = isScalarType(type) ? type.name : '';
  if (extreme && scalar === 'Int') return extremeInt;
  if (extreme && scalar === 'Float') return extremeNumber;
  switch (scalar) {
    case 'ID':
      return fc.oneof({ arbitrary: fc.constantFrom(...realIds), weight: 3 }, { arbitrary: hostileString, weight: 2 });
    case 'Int':
      return leaf(
        fc.integer({ min: -2, max: 60 }),
        fc.oneof(
          fc.constantFrom(-1, 0, 2147483647, -2147483648, 2147483648, 1.5, '1'),
          fc.constant(new RawNumber('1e308')),
          hostileNumber,
        ),
      );
    case 'Float':
      return leaf(fc.double({ noNaN: true, noDefaultInfinity: true }), hostileNumber);
    case 'Boolean':
      return leaf(fc.boolean(), hostileString);
    case 'DateTime':
      return leaf(
        fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString()),
        hostileString,
      );
    case 'JSON':
      // A report query (`reportQuery(query:)`, saved reports) often filters a real field on a value that does not fit it.
      if (name === 'query') return fc.oneof(leaf(fc.jsonValue({ maxDepth: 3 }), hostileJson), misfitReportQuery);
      return leaf(fc.jsonValue({ maxDepth: 3 }), hostileJson);
    default:
      return leaf(fc.string({ maxLength: 12 }), hostileString);
  }
}

/** `{ __typename scalar… object { __typename } }` for a field's type (fields without required arguments). */
function selectionFor(type: GraphQLOutputType, depth = 0): string {
  const named = getNamedType(type);
  if (!isObjectType(named)) return isScalarType(named) || isEnumType(named) ? '' : '{ __typename }';
  const parts = ['__typename'];
  for (const f of Object.values((named as GraphQLObjectType).getFields())) {
    if (f.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const inner = getNamedType(f.type);
    if (isScalarType(inner) || isEnumType(inner)) parts.push(f.name);
    else if (depth < 1) parts.push(`${f.name} ${selectionFor(f.type, depth + 1)}`);
  }
  return `{ ${parts.join(' ')} }`;
}

interface RootField {
  operation: 'query' | 'mutation';
  field: GraphQLField<unknown, unknown>;
}

const rootFields: RootField[] = [
  ...Object.values(schema.getQueryType()!.getFields()).map((field) => ({ operation: 'query' as const, field })),
  ...Object.values(schema.getMutationType()!.getFields()).map((field) => ({ operation: 'mutation' as const, field })),
];

function documentFor({ operation, field }: RootField): string {
  const vars = field.args.map((a, i) => `$a${i}: ${String(a.type)}`);
  const args = field.args.map((a, i) => `${a.name}: $a${i}`);
  return `${operation} Fuzz${vars.length ? `(${vars.join(', ')})` : ''} { ${field.name}${args.length ? `(${args.join(', ')})` : ''} ${selectionFor(field.type)} }`;
}

beforeAll(async () => {
  s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '100000', API_RATE_PER_MINUTE: '100000000' } });
  t = await buildTenant(s.app.rt);
  const api = rest(s.url, t.adminToken);
  // Real ids (victims only: never the fuzzer's own user or PAT) so generated ids often name something.
  const victim = await buildUser(s.app.rt, t.tenantId);
  await buildToken(s.app.rt, victim);
  realIds.push(victim.id, (await s.app.rt.prisma.accessToken.findFirstOrThrow({ where: { userId: victim.id } })).id);
  const device = await api.post('/sot/devices', { name: 'gfuzz-dev-1', management_address: '10.9.9.8' });
  realIds.push(device.body.id);
  const proposal = await api.post('/sot/proposals', {
    title: 'gfuzz',
    kind: 'config_change',
    device_id: device.body.id,
    proposed_intent: 'hostname gfuzz',
  });
  realIds.push(proposal.body.id);
  const rule = await gql(
    s.url,
    t.adminToken,
    'mutation($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }',
    { input: { name: 'gfuzz', typeGlob: 'gfuzz.*' } },
  );
  realIds.push(rule.data.createAlertRule.id);
  await rest(s.url).post(
    '/events',
    { type: 'gfuzz.seed', source: 'fuzz' },
    { headers: { 'x-service-key': t.ingestKey } },
  );
  realIds.push(
    await eventually(async () => (await s.app.rt.prisma.alert.findFirst({ where: { tenantId: t.tenantId } }))?.id),
  );
  const hook = await gql(s.url, t.adminToken, 'mutation { createInboundWebhook(input: { name: "gfuzz" }) { id } }');
  realIds.push(hook.data.createInboundWebhook.id);
  realIds.push((await s.app.rt.prisma.event.findFirstOrThrow({ where: { tenantId: t.tenantId } })).id);
}, 60_000);

afterAll(async () => {
  await s?.stop();
});

interface Tally {
  failures: string[];
  requests: number;
  codes: Map<string, number>;
}

/** Sends one request; a 5xx, an INTERNAL_SERVER_ERROR or a hang is recorded as a failure (false). */
async function judge(
  tally: Tally,
  what: string,
  request: (signal: AbortSignal) => Promise<Response>,
): Promise<boolean> {
  tally.requests++;
  try {
    const res = await withDeadline(what.slice(0, 80), async (signal) => {
      const r = await request(signal);
      return { status: r.status, text: await r.text() };
    });
    let parsed: { errors?: Array<{ message: string; extensions?: { code?: string } }> } = {};
    try {
      parsed = JSON.parse(res.text);
    } catch {
      /* not JSON: judged by status */
    }
    for (const e of parsed.errors ?? [])
      tally.codes.set(e.extensions?.code ?? 'none', (tally.codes.get(e.extensions?.code ?? 'none') ?? 0) + 1);
    const internal = (parsed.errors ?? []).find((e) => e.extensions?.code === 'INTERNAL_SERVER_ERROR');
    if (res.status >= 500 || internal) {
      tally.failures.push(`${what} → ${res.status} ${res.text.slice(0, 300)}`);
      return false;
    }
    return true;
  } catch (err) {
    tally.failures.push(`${what} → ${(err as Error).message}`);
    return false;
  }
}

function hasNumber(type: GraphQLInputType, depth = 0): boolean {
  if (isNonNullType(type) || isListType(type)) return hasNumber(type.ofType, depth);
  if (isInputObjectType(type))
    return depth < 3 && Object.values(type.getFields()).some((f) => hasNumber(f.type, depth + 1));
  return isScalarType(type) && (type.name === 'Int' || type.name === 'Float');
}

/** Arguments for a root field: required ones always given (their values may still be hostile), optional ones at random (fc.option leaves one in `freq` out). */
function argumentsFor(root: RootField, extreme: boolean): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(
      ...root.field.args.map((a) =>
        isNonNullType(a.type)
          ? inputArbitrary(a.type, 0, a.name, extreme)
          : fc.option(inputArbitrary(a.type, 0, a.name, extreme), { nil: undefined, freq: extreme ? 5 : 3 }),
      ),
    )
    .map((values) => Object.fromEntries(values.map((v, i) => [`a${i}`, v]).filter(([, v]) => v !== undefined)));
}

const post =
  (body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
  (signal: AbortSignal) =>
    fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json', ...headers },
      body,
      signal,
    });

async function stillUp(tally: Tally, label: string): Promise<void> {
  const byCode = [...tally.codes].map(([k, v]) => `${k}: ${v}`).join(', ');
  console.log(`${label} = ${tally.requests} requests (seed ${FUZZ_SEED}); error codes ${byCode}`);
  expect(tally.failures).toEqual([]);
  const health = await withDeadline('/healthz', (signal) => fetch(`${s.url}/healthz`, { signal }));
  expect(health.status).toBe(200);
}

const newTally = (): Tally => ({ failures: [], requests: 0, codes: new Map() });

describe('GraphQL fuzzer', () => {
  it(
    'answers every generated call of every root field without a 5xx, an internal error or a hang, and stays up',
    async () => {
      const tally = newTally();
      for (const root of rootFields) {
        const query = documentFor(root);
        // About one body in four is sent compressed with a Content-Encoding that lies about it (issue 26).
        const arb = argumentsFor(root, false).chain((variables) => {
          const body = toJson({ query, variables });
          return fc.oneof(
            { arbitrary: fc.constant({ body, encoded: undefined }), weight: 3 },
            { arbitrary: lyingEncoding(body).map((encoded) => ({ body, encoded })), weight: 1 },
          );
        });
        await fc
          .assert(
            fc.asyncProperty(arb, ({ body, encoded }) =>
              judge(
                tally,
                `${root.field.name}${encoded ? ` content-encoding=${encoded.encoding}` : ''} ${body.slice(0, 400)}`,
                encoded ? post(encoded.bytes, { 'content-encoding': encoded.encoding }) : post(body),
              ),
            ),
            { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: true },
          )
          .catch(() => undefined); // collected above, all fields still run
      }
      const queries = rootFields.filter((r) => r.operation === 'query').length;
      await stillUp(
        tally,
        `GraphQL fuzz: ${rootFields.length} root fields (${queries} queries, ${rootFields.length - queries} mutations) × ${FUZZ_RUNS} cases`,
      );
    },
    FUZZ_TEST_TIMEOUT_MS,
  );

  it(
    'answers extreme numbers in every numeric argument without an internal error',
    async () => {
      const tally = newTally();
      const numeric = rootFields.filter((r) => r.field.args.some((a) => hasNumber(a.type)));
      expect(numeric.map((r) => r.field.name)).toContain('gpuEvents');
      for (const root of numeric) {
        const query = documentFor(root);
        await fc
          .assert(
            fc.asyncProperty(argumentsFor(root, true), (variables) => {
              const body = toJson({ query, variables });
              return judge(tally, `${root.field.name} ${body.slice(0, 400)}`, post(body));
            }),
            { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: true },
          )
          .catch(() => undefined);
      }
      await stillUp(tally, `GraphQL extreme numbers: ${numeric.length} root fields × ${FUZZ_RUNS} cases`);
    },
    FUZZ_TEST_TIMEOUT_MS,
  );

  it(
    'answers GET /graphql with variables that are not JSON, badly encoded or not an object without a 5xx',
    async () => {
      const tally = newTally();
      const queries = rootFields.filter((r) => r.operation === 'query');
      await fc
        .assert(
          fc.asyncProperty(fc.constantFrom(...queries), badVariablesParam, (root, variables) => {
            const url = `${s.url}/graphql?query=${encodeURIComponent(documentFor(root))}&variables=${variables}`;
            return judge(tally, `GET ${root.field.name} variables=${variables.slice(0, 300)}`, (signal) =>
              fetch(url, { headers: { authorization: `Bearer ${t.adminToken}`, accept: 'application/json' }, signal }),
            );
          }),
          { numRuns: FUZZ_RUNS * 10, seed: FUZZ_SEED, endOnFailure: true },
        )
        .catch(() => undefined);
      await stillUp(tally, `GraphQL GET variables: ${FUZZ_RUNS * 10} cases`);
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});
