/**
 * The one mapping from errors to GraphQL error codes and REST statuses/bodies.
 */
import { GraphQLError } from 'graphql';
import { DomainError, httpStatusByCode, type ErrorCode, type FieldProblem } from '../errors.js';

/** The domain error behind a GraphQL error, if any (resolvers wrap thrown errors). */
export function domainErrorOf(err: unknown): DomainError | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e; i++) {
    if (e instanceof DomainError) return e;
    e = (e as { originalError?: unknown }).originalError;
  }
  return undefined;
}

/** A GraphQL error whose `extensions.code` is the domain code; unknown errors are masked. */
export function toGraphQLError(err: GraphQLError, onUnexpected: (err: unknown) => void): GraphQLError {
  const domain = domainErrorOf(err);
  if (domain) {
    return new GraphQLError(domain.message, {
      nodes: err.nodes,
      path: err.path,
      extensions: {
        code: domain.code,
        http: { status: httpStatusByCode[domain.code] },
        ...(domain.extra.fields ? { fields: domain.extra.fields } : {}),
        ...(domain.extra.retryAfterSeconds ? { retryAfterSeconds: domain.extra.retryAfterSeconds } : {}),
      },
    });
  }
  if (!err.originalError) return err; // parse/validation errors: safe and useful as they are
  onUnexpected(err.originalError);
  return new GraphQLError('Unexpected error.', { nodes: err.nodes, path: err.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

export interface RestError {
  status: number;
  body: { detail: string | FieldProblem[] };
  headers: Record<string, string>;
}

/** REST status and `{detail}` body for a GraphQL error (already mapped by toGraphQLError). */
export function restErrorFromGraphQL(err: GraphQLError): RestError {
  const code = err.extensions?.code as ErrorCode | 'INTERNAL_SERVER_ERROR' | 'GRAPHQL_VALIDATION_FAILED' | undefined;
  if (code && code in httpStatusByCode) {
    const status = httpStatusByCode[code as ErrorCode];
    const fields = err.extensions.fields as FieldProblem[] | undefined;
    const headers: Record<string, string> = {};
    if (err.extensions.retryAfterSeconds) headers['Retry-After'] = String(err.extensions.retryAfterSeconds);
    return { status, body: { detail: fields ?? err.message }, headers };
  }
  if (code === 'INTERNAL_SERVER_ERROR' || !code) {
    // Input coercion errors from GraphQL (bad variable values) are the caller's fault.
    if (/^Variable "\$/.test(err.message)) return { status: 422, body: { detail: err.message }, headers: {} };
    return { status: 500, body: { detail: 'Unexpected error.' }, headers: {} };
  }
  return { status: 422, body: { detail: err.message }, headers: {} };
}

/** REST status and body for a domain error thrown outside GraphQL (auth middleware, ingest). */
export function restErrorFromDomain(err: DomainError): RestError {
  const headers: Record<string, string> = {};
  if (err.extra.retryAfterSeconds) headers['Retry-After'] = String(err.extra.retryAfterSeconds);
  return { status: httpStatusByCode[err.code], body: { detail: err.extra.fields ?? err.message }, headers };
}
