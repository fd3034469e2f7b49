/**
 * Case generators for the bad-input families the third hardening probe answered with a 5xx (issue 26,
 * point 2), used by both contract fuzzers so the families stay covered as routes and fields are added:
 * - bodies whose Content-Encoding lies (corrupt, truncated, bit-flipped, mislabelled, unknown coding);
 * - report filters naming a real field with a value that does not fit its type or range;
 * - extreme numbers for numeric GraphQL arguments;
 * - GET /graphql `variables` that are not JSON, badly percent-encoded, or not an object.
 */
import zlib from 'node:zlib';
import fc from 'fast-check';
import { CATALOGUE, ENTITIES, OPS_BY_TYPE, type FieldType } from '../../src/reports/catalogue.js';
import { DeepJson, RAW_SEGMENTS, RawNumber, encodeSegment, hostileString, toJson } from './hostile.js';

/** A request body as bytes with the Content-Encoding it claims. */
export interface EncodedBody {
  encoding: string;
  bytes: Uint8Array<ArrayBuffer>;
}

const CODECS: Record<string, (b: Buffer) => Buffer> = {
  gzip: zlib.gzipSync,
  deflate: zlib.deflateSync,
  br: zlib.brotliCompressSync,
};

/** `json` sent compressed in a way that does not decompress to it (or with a coding no one supports). */
export function lyingEncoding(json: string): fc.Arbitrary<EncodedBody> {
  const plain = Buffer.from(json);
  const coding = fc.constantFrom('gzip', 'deflate', 'br');
  return fc
    .oneof<fc.Arbitrary<{ encoding: string; bytes: Uint8Array }>[]>(
      // A valid header, then garbage: the decompressor fails part-way.
      fc
        .tuple(coding, fc.integer({ min: 1, max: 10 }), fc.uint8Array({ minLength: 1, maxLength: 64 }))
        .map(([encoding, keep, garbage]) => ({
          encoding,
          bytes: Buffer.concat([CODECS[encoding](plain).subarray(0, keep), Buffer.from(garbage)]),
        })),
      // Cut short.
      fc.tuple(coding, fc.double({ min: 0, max: 0.95, noNaN: true })).map(([encoding, frac]) => {
        const full = CODECS[encoding](plain);
        return { encoding, bytes: full.subarray(0, Math.floor(full.length * frac)) };
      }),
      // One byte flipped (gzip's CRC sees it; deflate may inflate to garbage that is not JSON).
      fc.tuple(coding, fc.nat(), fc.integer({ min: 1, max: 255 })).map(([encoding, at, mask]) => {
        const bytes = Buffer.from(CODECS[encoding](plain));
        bytes[at % bytes.length] ^= mask;
        return { encoding, bytes };
      }),
      // Compressed one way, labelled another.
      fc
        .constantFrom<[string, string]>(['gzip', 'deflate'], ['deflate', 'gzip'], ['br', 'gzip'], ['gzip', 'br'])
        .map(([made, said]) => ({ encoding: said, bytes: CODECS[made](plain) })),
      // Not compressed at all, or random bytes.
      fc
        .tuple(coding, fc.uint8Array({ maxLength: 128 }))
        .map(([encoding, raw]) => ({ encoding, bytes: raw.length ? Buffer.from(raw) : plain })),
      // Codings no one supports, stacked codings, odd spellings.
      fc
        .constantFrom('compress', 'zstd', 'gzip, gzip', 'x-gzip', 'GZIP', 'identity', 'gzip;q=1', '')
        .map((encoding) => ({
          encoding,
          bytes: encoding.toLowerCase().includes('gzip') ? zlib.gzipSync(plain) : plain,
        })),
      // Honest compression: must behave as the plain body does.
      coding.map((encoding) => ({ encoding, bytes: CODECS[encoding](plain) })),
    )
    .map(({ encoding, bytes }) => ({ encoding, bytes: new Uint8Array(bytes) }));
}

/** Values that do not fit a column of `type` (type mismatch, out of range, unparseable). */
function misfit(type: FieldType): fc.Arbitrary<unknown> {
  const numbers = fc.constantFrom<unknown>(
    1e308,
    -1e308,
    2 ** 63,
    -(2 ** 63),
    2 ** 53 + 1,
    Number.MAX_VALUE,
    4.9e-324,
    1.5,
    new RawNumber('1e309'),
    new RawNumber('-1e309'),
    new RawNumber('123456789012345678901234567890'),
    new RawNumber('-0'),
  );
  const dates = fc.oneof(
    fc.constantFrom(
      'May 1',
      '2026-13-01T00:00:00Z',
      '2026-02-30',
      'yesterday',
      '99999-01-01',
      '0000-00-00',
      '2026-01-01T25:61:61Z',
      '-infinity',
      'infinity',
      'epoch',
      'now',
      '1e308',
    ),
    fc.string({ maxLength: 12 }).filter((x) => Number.isNaN(Date.parse(x))),
  );
  const shapes = fc.constantFrom<unknown>(true, false, {}, { a: 1 }, [], [[1]], null, new DeepJson(40, 'object'));
  switch (type) {
    case 'integer':
      return fc.oneof(numbers, dates, hostileString, shapes);
    case 'timestamp':
      return fc.oneof(dates, numbers, shapes);
    case 'boolean':
      return fc.oneof(fc.constantFrom('true', 'yes', 1, 0, 'null'), numbers, shapes);
    default:
      return fc.oneof(numbers, shapes, hostileString);
  }
}

/** A report query with one filter on a real field (or label / payload path) whose value does not fit. */
export const misfitReportQuery: fc.Arbitrary<Record<string, unknown>> = fc.constantFrom(...ENTITIES).chain((entity) => {
  const def = CATALOGUE[entity];
  const fields: Array<{ name: string; type: FieldType }> = def.fields.map((f) => ({ name: f.name, type: f.type }));
  if (def.hasLabels) fields.push({ name: 'labels.team', type: 'label' });
  if (def.hasPayload) fields.push({ name: 'payload.gpu.temp', type: 'json' });
  return fc.constantFrom(...fields).chain((field) => {
    const ops = OPS_BY_TYPE[field.type].filter((op) => op !== 'exists');
    return fc.record({
      entity: fc.constant(entity),
      filters: fc
        .tuple(fc.constantFrom(...ops), misfit(field.type), fc.boolean())
        .map(([op, value, asList]) => [
          { field: field.name, op, value: (op === 'in' || op === 'not_in') && asList ? [value] : value },
        ]),
    });
  });
});

/**
 * Int values at the edges of the 32-bit range GraphQL's Int allows (past it the whole request is refused
 * before any resolver runs, which the general fuzzer covers): they reach the resolvers' own bounds.
 */
export const extremeInt: fc.Arbitrary<unknown> = fc.constantFrom(2 ** 31 - 1, -(2 ** 31), 1e9, -1e9, 0, -1);

/** Float values at and past the edges of Float, Date and bigint. */
export const extremeNumber: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  1e308,
  -1e308,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  4.9e-324,
  2 ** 31 - 1,
  -(2 ** 31),
  2 ** 31,
  2 ** 53 + 1,
  8.64e15,
  1e9,
  -1,
  0,
  0.5,
  new RawNumber('1e309'),
  new RawNumber('-0'),
  new RawNumber('123456789012345678901234567890'),
);

/** The `variables` query parameter of GET /graphql as sent on the wire (already percent-encoded). */
export const badVariablesParam: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    ...RAW_SEGMENTS,
    '%7Bbad',
    '%7B',
    '%7B%22a%22%3A',
    '%5B1%5D',
    '%22x%22',
    'null%00',
    '1e309',
    'true',
    '%EF%BB%BF%7B%7D',
    '%7B%22__proto__%22%3A%7B%22x%22%3A1%7D%7D',
  ),
  hostileString.map((v) => encodeSegment(v.slice(0, 4000))),
  fc.jsonValue({ maxDepth: 2 }).map((v) => encodeSegment(toJson(v))),
  fc.constantFrom(new DeepJson(5_000, 'object'), new DeepJson(5_000, 'array')).map((v) => encodeSegment(toJson(v))),
);
