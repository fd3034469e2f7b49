/**
 * The bomb and glob families (issue 40, items 1, 2 and 10).
 *
 * Bombs: fast-check builds documents that are cheap to send and dear to validate (nested fragments that
 * each spread the next several times, wide alias lists, one response name repeated until the merge check
 * would compare too many pairs), with separators, comments, names and definition order varied so no two
 * texts are alike. Each is POSTed to /graphql with no credential; every answer must be a 400 whose first
 * error names the limit it hit: never 200 with data, never a 5xx, never a hang.
 *
 * Globs: pathological type globs (`*a` repeated, up to 200 characters) and random ones are matched against
 * long types (up to 200 characters) by src/events/glob.ts and by a small recursive matcher written here
 * with a memo (no regex), and the two must agree. Durations are `npm run bench:abuse`'s, not asserted here.
 *
 * Budget: FUZZ_RUNS (default 6; `npm run fuzz` runs 100) and FUZZ_SEED, as the other fuzzers.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { PATHOLOGICAL_GLOB } from '../helpers/bombs.js';
import { globMatch } from '../../src/events/glob.js';
import { MAX_QUERY_ALIASES } from '../../src/server/graphql.js';
import { MAX_EXPANDED_SELECTIONS, MAX_FIELD_MERGE_PAIRS } from '../../src/server/graphql-expansion.js';
import { FUZZ_RUNS, FUZZ_SEED, FUZZ_TEST_TIMEOUT_MS, withDeadline } from './hostile.js';

/** Document documents per family: each costs one request, a few milliseconds. */
const DOCUMENT_RUNS = FUZZ_RUNS * 4;
/** Glob cases: pure CPU, a fraction of a millisecond each. */
const GLOB_RUNS = FUZZ_RUNS * 100;

// ---------------------------------------------------------------------------------------------------
// GraphQL bombs

/** What may stand between two tokens: a new text for any document cache, the same parsed document. */
const separator = fc.constantFrom(' ', '\n', '\t,', ' # x\n', ',,', '\r\n  ', ' #}{...\n');

/** A name for the n-th fragment: generated, so each document spells its fragments differently. */
const namePrefix = fc.constantFrom('F', 'frag_', 'X', 'deep', '_');

/** A selection with no credential needed to validate: `__typename`, aliased or inside an inline fragment. */
const leafSelection = fc.constantFrom('__typename', 't: __typename', '... on Query { __typename }');

/** Fragments each spreading the next `fanOut` times, deep enough to expand past MAX_EXPANDED_SELECTIONS. */
const nestedFragments = fc
  .record({
    fanOut: fc.integer({ min: 2, max: 6 }),
    extraLevels: fc.integer({ min: 0, max: 12 }),
    sep: separator,
    prefix: namePrefix,
    leaf: leafSelection,
    wrapSpreads: fc.boolean(),
    reverse: fc.boolean(),
    named: fc.boolean(),
  })
  .map(({ fanOut, extraLevels, sep, prefix, leaf, wrapSpreads, reverse, named }) => {
    // fanOut^(levels-1) > MAX_EXPANDED_SELECTIONS at the least.
    const levels = Math.ceil(Math.log(MAX_EXPANDED_SELECTIONS + 1) / Math.log(fanOut)) + 1 + extraLevels;
    const name = (i: number) => `${prefix}${i}`;
    const spread = (i: number) =>
      wrapSpreads ? `...${sep}on${sep}Query${sep}{${sep}...${name(i)}${sep}}` : `...${name(i)}`;
    const defs: string[] = [];
    for (let i = 0; i < levels - 1; i++)
      defs.push(
        `fragment ${name(i)} on Query${sep}{${sep}${Array(fanOut)
          .fill(spread(i + 1))
          .join(sep)}${sep}}`,
      );
    defs.push(`fragment ${name(levels - 1)} on Query${sep}{${sep}${leaf}${sep}}`);
    if (reverse) defs.reverse();
    const op = `${named ? `query${sep}Bomb${sep}` : ''}{${sep}...${name(0)}${sep}}`;
    return [op, ...defs].join(sep);
  });

/**
 * Aliased fields the alias limit counts (graphql-armor exempts `__typename`, whose aliases only the token
 * limit bounds: each costs nothing to validate or run). All validate without a credential.
 */
const ALIASED = ['me { id }', '__schema { queryType { name } }', '__type(name: "Query") { name }', 'me { email }'];

/**
 * More counted aliases than MAX_QUERY_ALIASES (sometimes past the token limit too), at the top or in a
 * fragment, with free `__typename` aliases mixed in.
 */
const wideAliases = fc
  .record({
    count: fc.oneof(fc.integer({ min: MAX_QUERY_ALIASES + 1, max: 120 }), fc.integer({ min: 120, max: 800 })),
    field: fc.constantFrom(...ALIASED),
    typenameEvery: fc.integer({ min: 0, max: 4 }),
    sep: separator,
    prefix: fc.constantFrom('a', 'alias_', 'x', 'Z9_'),
    inFragment: fc.boolean(),
  })
  .map(({ count, field, typenameEvery, sep, prefix, inFragment }) => {
    const fields = Array.from(
      { length: count },
      (_, i) =>
        `${prefix}${i}:${sep}${field}` +
        (typenameEvery && i % typenameEvery === 0 ? `${sep}t${i}:${sep}__typename` : ''),
    ).join(sep);
    return inFragment
      ? `{${sep}...W${sep}}${sep}fragment W on Query${sep}{${sep}${fields}${sep}}`
      : `query${sep}{${sep}${fields}${sep}}`;
  });

/** Fields that validate without a credential, with their expanded size (1 + their selections). */
const OVERLAPPING = [
  { text: '__typename', size: 1 },
  { text: 'me { id }', size: 2 },
  { text: 'me { id email }', size: 3 },
  { text: '__schema { queryType { name } }', size: 3 },
] as const;

/** One response name repeated until the merge check would compare more than MAX_FIELD_MERGE_PAIRS pairs. */
const overlappingFields = fc
  .record({
    field: fc.constantFrom(...OVERLAPPING),
    extra: fc.integer({ min: 0, max: 100 }),
    sep: separator,
    fragments: fc.integer({ min: 0, max: 4 }),
  })
  .map(({ field, extra, sep, fragments }) => {
    // Smallest k with k(k-1)/2 × size² > MAX_FIELD_MERGE_PAIRS, plus some.
    let k = 2;
    while ((k * (k - 1) * field.size * field.size) / 2 <= MAX_FIELD_MERGE_PAIRS) k++;
    k += extra;
    const copies = Array<string>(k).fill(field.text);
    if (fragments === 0) return `{${sep}${copies.join(sep)}${sep}}`;
    // Split across fragments spread side by side: the fields still merge into one selection set.
    const per = Math.ceil(k / fragments);
    const defs = Array.from(
      { length: fragments },
      (_, i) =>
        `fragment O${i} on Query${sep}{${sep}${copies.slice(i * per, (i + 1) * per).join(sep) || '__typename'}${sep}}`,
    );
    return `{${sep}${defs.map((_, i) => `...O${i}`).join(sep)}${sep}}${sep}${defs.join(sep)}`;
  });

interface GraphQLAnswer {
  data?: unknown;
  errors?: Array<{ message?: string; extensions?: { limit?: unknown } }>;
}

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.stop();
});

/** Sends `query` with no credential; a string saying what was wrong, or undefined for a 400 naming a limit. */
async function refusedByALimit(query: string): Promise<string | undefined> {
  const res = await withDeadline(`POST /graphql ${query.slice(0, 80)}`, (signal) =>
    fetch(`${s.url}/graphql`, {
      method: 'POST',
      // GraphQL over HTTP's media type: a parse error (the token limit) is a 400 under it; for
      // `application/json` clients yoga answers parse errors 200, as that spec allows.
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query }),
      signal,
    }),
  );
  const text = await res.text();
  let body: GraphQLAnswer = {};
  try {
    body = JSON.parse(text) as GraphQLAnswer;
  } catch {
    return `${res.status} not JSON: ${text.slice(0, 200)}`;
  }
  const first = body.errors?.[0];
  const namesLimit = typeof first?.extensions?.limit === 'string' || /\blimit\b/i.test(first?.message ?? '');
  if (res.status === 400 && body.data == null && namesLimit) return undefined;
  return `${res.status} ${text.slice(0, 300)}`;
}

const families: Array<[string, fc.Arbitrary<string>]> = [
  ['nested fragments', nestedFragments],
  ['wide aliases', wideAliases],
  ['overlapping fields', overlappingFields],
];

describe('GraphQL bombs with no credential', () => {
  for (const [family, documents] of families)
    it(
      `answers every ${family} document 400 naming a limit`,
      async () => {
        const failures: string[] = [];
        await fc
          .assert(
            fc.asyncProperty(documents, async (query) => {
              const wrong = await refusedByALimit(query);
              if (wrong) failures.push(`${wrong}\n  document: ${query.slice(0, 300)}`);
              return !wrong;
            }),
            { numRuns: DOCUMENT_RUNS, seed: FUZZ_SEED, endOnFailure: true },
          )
          .catch(() => undefined);
        expect(failures.slice(0, 3)).toEqual([]);
        // The service answers on afterwards.
        expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
      },
      FUZZ_TEST_TIMEOUT_MS,
    );
});

// ---------------------------------------------------------------------------------------------------
// Globs

const isLineTerminator = (c: string) => c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';

/**
 * The glob syntax read literally, as a recursion over (glob position, type position) with a memo: `**`
 * (read first) is any run without a line terminator, `*` any run without a `.`, `?` one character other
 * than a line terminator, anything else itself; the whole type must match.
 */
function referenceMatch(glob: string, type: string): boolean {
  const memo = new Map<number, boolean>();
  const at = (i: number, j: number): boolean => {
    const key = i * (type.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === glob.length) result = j === type.length;
    else if (glob[i] === '*' && glob[i + 1] === '*')
      result = at(i + 2, j) || (j < type.length && !isLineTerminator(type[j]!) && at(i, j + 1));
    else if (glob[i] === '*') result = at(i + 1, j) || (j < type.length && type[j] !== '.' && at(i, j + 1));
    else if (j === type.length) result = false;
    else if (glob[i] === '?') result = !isLineTerminator(type[j]!) && at(i + 1, j + 1);
    else result = glob[i] === type[j] && at(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return at(0, 0);
}

const MAX_LENGTH = 200;

/** `*a` repeated (the issue's glob, up to 200 characters), sometimes with a tail. */
const pathologicalGlob = fc
  .tuple(fc.integer({ min: 1, max: MAX_LENGTH / 2 }), fc.constantFrom('', 'b', '.', '*', '**', 'a.*', '?'))
  .map(([n, tail]) => ('*a'.repeat(n) + tail).slice(0, MAX_LENGTH));

/** Any mix of wildcards and a few literals, up to 200 characters. */
const randomGlob = fc
  .array(fc.constantFrom('*', '**', '?', 'a', 'b', '.', '*a', 'a*', '*.', '**a', '\n'), { maxLength: 100 })
  .map((parts) => parts.join('').slice(0, MAX_LENGTH));

const glob = fc.oneof(pathologicalGlob, randomGlob);

/** A long run of `a` with an ending that fails late (`.`, `b`) or not at all. */
const longType = fc
  .tuple(fc.integer({ min: 0, max: MAX_LENGTH }), fc.constantFrom('', '.', 'b', 'a.', '.a', '\n', 'ab'))
  .map(([n, end]) => ('a'.repeat(n) + end).slice(0, MAX_LENGTH));

const randomType = fc
  .array(fc.constantFrom('a', 'a', 'a', 'b', '.', '\n'), { maxLength: MAX_LENGTH })
  .map((chars) => chars.join(''));

/** A type the glob matches by construction (each wildcard filled in), so both answers are exercised. */
function instance(g: string, fill: fc.Arbitrary<string[]>): fc.Arbitrary<string> {
  return fill.map((runs) => {
    let out = '';
    let r = 0;
    for (let i = 0; i < g.length; i++) {
      const run = runs[r++ % Math.max(1, runs.length)] ?? '';
      if (g[i] === '*' && g[i + 1] === '*') {
        out += run;
        i++;
      } else if (g[i] === '*') out += run.replaceAll('.', '');
      else if (g[i] === '?') out += run[0] ?? 'a';
      else out += g[i];
    }
    return out.slice(0, MAX_LENGTH);
  });
}
const fills = fc.array(fc.stringMatching(/^[ab.]{0,4}$/), { minLength: 1, maxLength: 8 });

const pair = glob.chain((g) => fc.tuple(fc.constant(g), fc.oneof(longType, randomType, instance(g, fills))));

describe('type globs against long types', () => {
  it('agree with a simple recursive matcher, pathological globs included', () => {
    const seen = { matched: 0, unmatched: 0 };
    fc.assert(
      fc.property(pair, ([g, type]) => {
        const expected = referenceMatch(g, type);
        seen[expected ? 'matched' : 'unmatched']++;
        expect(globMatch(g, type), JSON.stringify({ glob: g, type })).toBe(expected);
      }),
      { numRuns: GLOB_RUNS, seed: FUZZ_SEED },
    );
    // Both answers came up, so the comparison says something either way.
    expect(seen.matched).toBeGreaterThan(0);
    expect(seen.unmatched).toBeGreaterThan(0);
  });

  it("matches the issue's glob against 200-character types as the reference does", () => {
    const issueGlob = PATHOLOGICAL_GLOB;
    for (const type of ['a'.repeat(199) + '.', 'a'.repeat(200), 'a'.repeat(27) + '.', 'ab'.repeat(100)])
      expect(globMatch(issueGlob, type)).toBe(referenceMatch(issueGlob, type));
    expect(globMatch(issueGlob, 'a'.repeat(200))).toBe(true);
    expect(globMatch(issueGlob, 'a'.repeat(199) + '.')).toBe(false);
  });
});
