/**
 * Typed domain errors. Services throw these; one mapper (src/http/error-mapping.ts) turns them into
 * GraphQL errors (`extensions.code` + `extensions.reason`) and REST bodies (`{code, detail}`).
 * Anything else is an unexpected error: masked for clients, logged in full.
 *
 * Every error has a category `code` (decides the HTTP status and GraphQL `extensions.code`) and a
 * stable machine `reason` (what exactly went wrong; clients branch on it). Each class has a default
 * reason; pass a more precise one as the last constructor argument. Every reason is listed in
 * ERROR_REASONS and in the OpenAPI `ErrorCode` schema (a test keeps the two equal).
 */
export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'BAD_USER_INPUT'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UPSTREAM_FAILED'
  | 'UPSTREAM_TIMEOUT'
  | 'SERVICE_UNAVAILABLE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'QUERY_TOO_COMPLEX'
  | 'INTERNAL_SERVER_ERROR';

export const httpStatusByCode: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  BAD_USER_INPUT: 422,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UPSTREAM_FAILED: 502,
  UPSTREAM_TIMEOUT: 504,
  SERVICE_UNAVAILABLE: 503,
  UNSUPPORTED_MEDIA_TYPE: 415,
  QUERY_TOO_COMPLEX: 422,
  INTERNAL_SERVER_ERROR: 500,
};

/** Every machine reason an error can carry (REST `code`, GraphQL `extensions.reason`). */
export const ERROR_REASONS = [
  // 401
  'UNAUTHENTICATED',
  'CREDENTIAL_MALFORMED',
  'TOKEN_INVALID',
  'TOKEN_REVOKED',
  'TOKEN_EXPIRED',
  'SESSION_EXPIRED',
  'SESSION_ENDED',
  'LOGIN_FAILED',
  'INGEST_KEY_INVALID',
  'SIGNATURE_INVALID',
  'SSO_FAILED',
  // 403
  'FORBIDDEN',
  'SCOPE_USER_REQUIRED',
  'SCOPE_ADMIN_REQUIRED',
  'SCOPE_HUMAN_REQUIRED',
  'TOKEN_OWNER_NOT_SERVICE',
  'PROPOSAL_SELF_APPROVAL',
  'PROPOSAL_NOT_PROPOSER',
  'CROSS_ORIGIN_REQUEST',
  'USER_MANAGEMENT_HUMAN_ONLY',
  'APPROVER_CREDENTIAL_NOT_OWN',
  'SSO_REQUIRED',
  'SSO_ROLE_NOT_GRANTED',
  'SSO_ACCOUNT_ELSEWHERE',
  'PROPOSAL_REQUIRED',
  // 404 / 405
  'NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  // 409
  'CONFLICT',
  'ALREADY_EXISTS',
  'LAST_ADMIN',
  'CONCURRENT_CHANGE',
  'ALERT_INVALID_TRANSITION',
  'PROPOSAL_INVALID_TRANSITION',
  'PROPOSAL_REVISION_MISMATCH',
  'TOKEN_NOT_REVOKED',
  'TOKEN_REACTIVATION_EXPIRED',
  'TOKEN_NOT_ACTIVE',
  'ROTATION_IN_GRACE',
  'WEBHOOK_REPLAYED',
  'DEVICE_ALREADY_LINKED',
  'DELIVERY_IN_PROGRESS',
  'WEBHOOK_DISABLED',
  'SILENCE_EXPIRED',
  'IN_USE',
  // 413 / 415 / 422 / 429 / 500
  'BODY_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'CONTENT_ENCODING_UNSUPPORTED',
  'CONTENT_ENCODING_INVALID',
  'VALIDATION_FAILED',
  'PASSWORD_LINK_UNUSABLE',
  'INVALID_JSON',
  'QUERY_TOO_COMPLEX',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  // 502 / 504
  'UPSTREAM_FAILED',
  'UPSTREAM_TIMEOUT',
  // 503
  'STATEMENT_TIMEOUT',
] as const;

export type ErrorReason = (typeof ERROR_REASONS)[number];

/** The reason an error of a category carries when its thrower names none. */
export const defaultReasonByCode: Record<ErrorCode, ErrorReason> = {
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  BAD_USER_INPUT: 'VALIDATION_FAILED',
  CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'RATE_LIMITED',
  PAYLOAD_TOO_LARGE: 'BODY_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  QUERY_TOO_COMPLEX: 'QUERY_TOO_COMPLEX',
  INTERNAL_SERVER_ERROR: 'INTERNAL_ERROR',
  UPSTREAM_FAILED: 'UPSTREAM_FAILED',
  UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
  SERVICE_UNAVAILABLE: 'STATEMENT_TIMEOUT',
};

/** One offending field of a request that failed validation. */
export interface FieldProblem {
  loc: string[];
  msg: string;
}

export class DomainError extends Error {
  readonly reason: ErrorReason;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: {
      fields?: FieldProblem[];
      retryAfterSeconds?: number;
      allow?: string;
      cost?: number;
      costLimit?: number;
    } = {},
    reason?: ErrorReason,
  ) {
    super(message);
    this.name = new.target.name;
    this.reason = reason ?? defaultReasonByCode[code];
  }
}

export class Unauthenticated extends DomainError {
  constructor(message = 'Missing or invalid credential.', reason: ErrorReason = 'UNAUTHENTICATED') {
    super('UNAUTHENTICATED', message, {}, reason);
  }
}

export class Forbidden extends DomainError {
  constructor(message = 'You are not permitted to do this.', reason: ErrorReason = 'FORBIDDEN') {
    super('FORBIDDEN', message, {}, reason);
  }
}

export class NotFound extends DomainError {
  constructor(what: string, reason: ErrorReason = 'NOT_FOUND') {
    super('NOT_FOUND', `${what} not found.`, {}, reason);
  }
}

export class Conflict extends DomainError {
  constructor(message: string, reason: ErrorReason = 'CONFLICT') {
    super('CONFLICT', message, {}, reason);
  }
}

export class ValidationFailed extends DomainError {
  constructor(fields: FieldProblem[], reason: ErrorReason = 'VALIDATION_FAILED') {
    super('BAD_USER_INPUT', fields.map((f) => `${f.loc.join('.')}: ${f.msg}`).join('; '), { fields }, reason);
  }
}

/** A single-field validation failure. */
export function invalid(field: string | string[], msg: string): ValidationFailed {
  return new ValidationFailed([{ loc: Array.isArray(field) ? field : [field], msg }]);
}

export class RateLimited extends DomainError {
  constructor(
    retryAfterSeconds: number,
    message = 'Rate limit exceeded; back off and retry.',
    reason: ErrorReason = 'RATE_LIMITED',
  ) {
    super('RATE_LIMITED', message, { retryAfterSeconds }, reason);
  }
}

/** A request body over the size limit (413). */
export class PayloadTooLarge extends DomainError {
  constructor(limitBytes: number) {
    super('PAYLOAD_TOO_LARGE', `Body exceeds the ${limitBytes} byte limit.`, {}, 'BODY_TOO_LARGE');
  }
}

/** A request body in a media type the endpoint does not take (415). */
export class UnsupportedMediaType extends DomainError {
  constructor(message = 'Send the body as application/json.', reason: ErrorReason = 'UNSUPPORTED_MEDIA_TYPE') {
    super('UNSUPPORTED_MEDIA_TYPE', message, {}, reason);
  }
}

/** A method the path does not have (405); `allow` lists the ones it has. */
export class MethodNotAllowed extends DomainError {
  constructor(message = 'Method not allowed on this path.', allow?: string) {
    super('METHOD_NOT_ALLOWED', message, allow ? { allow } : {}, 'METHOD_NOT_ALLOWED');
  }
}

/** A GraphQL operation asking for more nodes than one request may (src/http/query-cost.ts): 422. */
export class QueryTooComplex extends DomainError {
  constructor(cost: number, limit: number) {
    super(
      'QUERY_TOO_COMPLEX',
      `This query may return ${cost} nodes; the limit is ${limit}. Ask for smaller pages (first/last/limit), or fewer nested lists.`,
      { cost, costLimit: limit },
      'QUERY_TOO_COMPLEX',
    );
  }
}

/** What clients see of an unexpected failure (the cause is logged, never sent). */
export class InternalError extends DomainError {
  constructor(message = 'Unexpected error.') {
    super('INTERNAL_SERVER_ERROR', message, {}, 'INTERNAL_ERROR');
  }
}

/** A service we depend on (a language model server) answered with an error or nonsense: 502. */
export class UpstreamFailed extends DomainError {
  constructor(message: string) {
    super('UPSTREAM_FAILED', message);
  }
}

/** A service we depend on did not answer in time: 504. */
export class UpstreamTimeout extends DomainError {
  constructor(message: string) {
    super('UPSTREAM_TIMEOUT', message);
  }
}

/** A database statement ran past DB_STATEMENT_TIMEOUT_MS and was cancelled: 503, narrow the query or retry. */
export class StatementTimeout extends DomainError {
  constructor(
    message = 'The query took too long and was cancelled (statement timeout). Narrow it (a shorter time window, more filters) or retry later.',
  ) {
    super('SERVICE_UNAVAILABLE', message, {}, 'STATEMENT_TIMEOUT');
  }
}
