/**
 * Hostile values for the contract fuzzers (fast-check arbitraries) and a JSON writer that can emit what
 * JSON.stringify cannot: numbers outside the double range (`1e309`), `-0`, huge integers, and documents
 * nested far deeper than JSON.stringify's recursion allows.
 */
import fc from 'fast-check';

/** Budget and seed, from the environment so CI stays bounded and `npm run fuzz` can go deeper. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 6);
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261123);
/** Deadline of one fuzzer test: grows with the budget (a hang is caught per request by REQUEST_TIMEOUT_MS). */
export const FUZZ_TEST_TIMEOUT_MS = Math.max(300_000, FUZZ_RUNS * 5_000);
/** A request that takes longer than this is a hang. */
export const REQUEST_TIMEOUT_MS = Number(process.env.FUZZ_REQUEST_TIMEOUT_MS ?? 15_000);

/** A JSON number written verbatim (`1e309`, `-0`, `123456789012345678901234567890`). */
export class RawNumber {
  constructor(readonly text: string) {}
}

/** `{"a":{"a":…}}` (or arrays) nested `depth` levels, written as text. */
export class DeepJson {
  constructor(
    readonly depth: number,
    readonly kind: 'object' | 'array',
  ) {}
}

/** JSON text for values that may contain RawNumber and DeepJson. */
export function toJson(v: unknown): string {
  if (v instanceof RawNumber) return v.text;
  if (v instanceof DeepJson)
    return v.kind === 'object'
      ? '{"a":'.repeat(v.depth) + '1' + '}'.repeat(v.depth)
      : '['.repeat(v.depth) + ']'.repeat(v.depth);
  if (Array.isArray(v)) return '[' + v.map((x) => (x === undefined ? 'null' : toJson(x))).join(',') + ']';
  if (v && typeof v === 'object') {
    return (
      '{' +
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => JSON.stringify(k) + ':' + toJson(x))
        .join(',') +
      '}'
    );
  }
  // JSON.stringify escapes lone surrogates as \udXXX, which a JSON parser turns back into them.
  return JSON.stringify(v) ?? 'null';
}

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '\udbff\udbff',
  '\u202eevil',
  '\ufeff',
  '🔥'.repeat(40),
  'Ω≈ç√∫˜µ≤≥÷',
  'ﷺ',
  "' OR 1=1 --",
  '"; DROP TABLE "Event"; --',
  '\\',
  '%',
  '%00',
  '%E0%A4%A',
  '_%',
  '*',
  '**/*',
  '[a-',
  '{{payload}}',
  '{{rule.name}}{{',
  '$(id)',
  '../../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '<script>alert(1)</script>',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e309',
  '-1e309',
  '9'.repeat(400),
  '0x7fffffff',
  '2026-02-30T25:61:61Z',
  '9999-12-31T23:59:59.999999999999Z',
  'P99999999999Y',
  '99999999999999999999d',
  'http://[::127.0.0.1]/',
  'x'.repeat(70_000),
  'é'.repeat(5_000),
];

/** Any UTF-16 code units, NULs and lone surrogates included. */
const codeUnits = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 24 })
  .map((codes) => String.fromCharCode(...codes));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 4 },
  { arbitrary: codeUnits, weight: 2 },
  { arbitrary: fc.string({ maxLength: 30 }), weight: 1 },
);

const HOSTILE_NUMBERS = [
  '1e309',
  '-1e309',
  '1e+308',
  '-0',
  '0',
  '-1',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '123456789012345678901234567890',
  '0.1',
  '1.5',
  '4.9e-324',
];

export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS).map((t) => new RawNumber(t)),
  fc.constantFrom('NaN', '1e309', '12abc', '', '-0'),
  fc.double(),
  fc.integer(),
);

/** Numbers for a query string: as the text a client would send. */
export const hostileNumeral: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS, 'NaN', 'Infinity', '12abc', ' 1', '0x10', ''),
  fc.integer().map(String),
);

/** Whole bodies or values no schema expects: very deep, very wide, wrong type. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    new DeepJson(50_000, 'object'),
    new DeepJson(3_000, 'object'),
    new DeepJson(50_000, 'array'),
    new DeepJson(33, 'object'),
  ),
  fc.constant(Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, i]))),
  hostileString,
  hostileNumber,
  fc.constantFrom(null, true, [], {}, [1, 2, 3]),
  fc.jsonValue({ maxDepth: 3 }),
);

/**
 * A value for one field: mostly plausible (`valid`), sometimes hostile. Mostly valid so that many
 * requests pass validation and reach the services with one hostile value among plausible ones.
 */
export function leaf(valid: fc.Arbitrary<unknown>, hostile: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: hostile, weight: 1 });
}

/** Percent-encodes a path or query segment; a lone surrogate is sent as its WTF-8 bytes. */
export function encodeSegment(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff)
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0'))
        .join('');
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** Already-encoded segments that are malformed or sneaky on purpose. */
export const RAW_SEGMENTS = ['%E0%A4%A', '%zz', '%', '%00', '%ED%A0%80', '..', '%2e%2e', '%2F', 'a%00b', '%C0%AF'];

/** Runs `fn` with a deadline; a request still pending then is a hang. */
export async function withDeadline<T>(what: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctl = new AbortController();
  const timer = setTimeout(
    () => ctl.abort(new Error(`hang: ${what} took longer than ${REQUEST_TIMEOUT_MS} ms`)),
    REQUEST_TIMEOUT_MS,
  );
  try {
    return await fn(ctl.signal);
  } finally {
    clearTimeout(timer);
  }
}
