/**
 * Typed domain errors. Services throw these; one mapper (src/http/error-mapping.ts) turns them into
 * GraphQL error codes and REST statuses. Anything else is an unexpected error: masked for clients,
 * logged in full.
 */
export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'PAYLOAD_TOO_LARGE';

export const httpStatusByCode: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_USER_INPUT: 422,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
};

/** One offending field of a request that failed validation. */
export interface FieldProblem {
  loc: string[];
  msg: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { fields?: FieldProblem[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class Unauthenticated extends DomainError {
  constructor(message = 'Missing or invalid credential.') {
    super('UNAUTHENTICATED', message);
  }
}

export class Forbidden extends DomainError {
  constructor(message = 'You are not permitted to do this.') {
    super('FORBIDDEN', message);
  }
}

export class NotFound extends DomainError {
  constructor(what: string) {
    super('NOT_FOUND', `${what} not found.`);
  }
}

export class Conflict extends DomainError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

export class ValidationFailed extends DomainError {
  constructor(fields: FieldProblem[]) {
    super('BAD_USER_INPUT', fields.map((f) => `${f.loc.join('.')}: ${f.msg}`).join('; '), { fields });
  }
}

/** A single-field validation failure. */
export function invalid(field: string | string[], msg: string): ValidationFailed {
  return new ValidationFailed([{ loc: Array.isArray(field) ? field : ['body', field], msg }]);
}

export class RateLimited extends DomainError {
  constructor(retryAfterSeconds: number, message = 'Rate limit exceeded; back off and retry.') {
    super('RATE_LIMITED', message, { retryAfterSeconds });
  }
}
