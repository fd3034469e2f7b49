/**
 * What the JSON body parser (body-parser, behind express.json) reports when it cannot read a body, as a
 * typed error, for REST and GraphQL alike: too large (413), not JSON (INVALID_JSON), a content coding
 * it does not know (`Content-Encoding: compress`: 415 CONTENT_ENCODING_UNSUPPORTED), a charset it does
 * not know (415), or a compressed body that does not decompress (a corrupt or truncated gzip, deflate or
 * brotli stream: 415 CONTENT_ENCODING_INVALID). Anything else is not a body problem: undefined.
 */
import { DomainError, PayloadTooLarge, UnsupportedMediaType, ValidationFailed } from '../errors.js';

interface BodyParserError {
  type?: string;
  status?: number;
  code?: string;
  encoding?: string;
  charset?: string;
}

/**
 * zlib's error codes for a stream that is not what its Content-Encoding says: `Z_DATA_ERROR`, `Z_BUF_ERROR`
 * (gzip, deflate, a truncated stream) and the brotli decoder's `ERR__ERROR_FORMAT_*` / `ERR__ERROR_*`.
 */
const DECOMPRESSION_FAILURE = /^(?:Z_|ERR_BROTLI|ERR__|ERR_ZLIB)/;

/**
 * The client went away while its body was being read (closed the connection, Ctrl-C, a timeout of its own):
 * nobody is left to answer, and nothing is wrong with the service, so it is no error to log.
 */
export function isClientAbort(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as BodyParserError;
  return e.type === 'request.aborted' || e.code === 'ECONNABORTED' || e.code === 'ECONNRESET';
}

/** The typed error for a body the parser could not read, or undefined when `err` is something else. */
export function bodyReadError(err: unknown, limitBytes: number): DomainError | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as BodyParserError;
  switch (e.type) {
    case 'entity.too.large':
      return new PayloadTooLarge(limitBytes);
    case 'entity.parse.failed':
      return new ValidationFailed([{ loc: ['body'], msg: 'is not valid JSON' }], 'INVALID_JSON');
    case 'encoding.unsupported':
      return new UnsupportedMediaType(
        `Content-Encoding ${JSON.stringify(e.encoding ?? '')} is not supported; send identity, gzip, deflate or br.`,
        'CONTENT_ENCODING_UNSUPPORTED',
      );
    case 'charset.unsupported':
      return new UnsupportedMediaType(
        `Charset ${JSON.stringify(e.charset ?? '')} is not supported; send JSON as UTF-8.`,
      );
  }
  if (e.status === 400 && typeof e.code === 'string' && DECOMPRESSION_FAILURE.test(e.code)) {
    return new UnsupportedMediaType(
      'The body does not decompress as its Content-Encoding says (corrupt or truncated); send it again, or uncompressed.',
      'CONTENT_ENCODING_INVALID',
    );
  }
  return undefined;
}
