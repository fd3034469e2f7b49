/**
 * The one place errors become what clients see: GraphQL errors (`extensions.code` = category,
 * `extensions.reason` = machine reason) and REST error bodies `{code, detail}` with their status and
 * headers. Everything that answers an error (REST adapter, OpenAPI validator, body parsers, the
 * GraphQL HTTP handler, ingest) turns its failure into a typed error of src/errors.ts and calls
 * restError(); nothing else composes an error body.
 */
import { GraphQLError } from 'graphql';
import { isStatementTimeout } from '../db/errors.js';
import {
  DomainError,
  InternalError,
  StatementTimeout,
  ValidationFailed,
  httpStatusByCode,
  type ErrorCode,
  type ErrorReason,
  type FieldProblem,
} from '../errors.js';

/** The domain error behind a GraphQL error, if any (resolvers wrap thrown errors). */
export function domainErrorOf(err: unknown): DomainError | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e; i++) {
    if (e instanceof DomainError) return e;
    if (isStatementTimeout(e)) return new StatementTimeout();
    e = (e as { originalError?: unknown }).originalError;
  }
  return undefined;
}

/** The GraphQL `extensions` of a domain error. */
function graphqlExtensions(domain: DomainError): Record<string, unknown> {
  return {
    code: domain.code,
    reason: domain.reason,
    // An unexpected error keeps GraphQL's usual 200 with `errors`; typed errors set the HTTP status.
    ...(domain.code === 'INTERNAL_SERVER_ERROR' ? {} : { http: { status: httpStatusByCode[domain.code] } }),
    ...(domain.extra.fields ? { fields: domain.extra.fields } : {}),
    ...(domain.extra.retryAfterSeconds ? { retryAfterSeconds: domain.extra.retryAfterSeconds } : {}),
    ...(domain.extra.cost !== undefined ? { cost: domain.extra.cost, limit: domain.extra.costLimit } : {}),
  };
}

/**
 * A GraphQL error whose `extensions` carry the domain code and reason; unknown errors are masked.
 * The domain error stays reachable as `originalError` (never serialized) for REST.
 */
export function toGraphQLError(err: GraphQLError, onUnexpected: (err: unknown) => void): GraphQLError {
  const domain = domainErrorOf(err);
  if (domain) return relocated(err, domain);
  if (!err.originalError) return err; // parse/validation errors: safe and useful as they are
  onUnexpected(err.originalError);
  return relocated(err, new InternalError());
}

/** `domain` where `err` was raised: its path, and its locations (from AST nodes, or a source and positions). */
function relocated(err: GraphQLError, domain: DomainError): GraphQLError {
  return new GraphQLError(domain.message, {
    nodes: err.nodes,
    source: err.source,
    positions: err.positions,
    path: err.path,
    originalError: domain,
    extensions: graphqlExtensions(domain),
  });
}

/** A domain error thrown outside execution (context factory, WS), as a GraphQL error. */
export function graphqlErrorFromDomain(err: DomainError): GraphQLError {
  return new GraphQLError(err.message, { originalError: err, extensions: graphqlExtensions(err) });
}

/** The REST error body: the machine reason as `code`, and `detail` (a message or the field list). */
export interface RestErrorBody {
  code: ErrorReason;
  detail: string | FieldProblem[];
}

export interface RestError {
  status: number;
  body: RestErrorBody;
  headers: Record<string, string>;
}

/** Rewrites one field location (e.g. a GraphQL input path) into the REST request's terms. */
export type LocTranslator = (loc: string[]) => string[];

/** THE builder of REST error answers. */
export function restError(err: DomainError, translateLoc?: LocTranslator): RestError {
  const headers: Record<string, string> = {};
  if (err.extra.retryAfterSeconds) headers['Retry-After'] = String(err.extra.retryAfterSeconds);
  if (err.extra.allow) headers.Allow = err.extra.allow;
  const fields = err.extra.fields?.map((f) => (translateLoc ? { loc: translateLoc(f.loc), msg: f.msg } : f));
  return { status: httpStatusByCode[err.code], body: { code: err.reason, detail: fields ?? err.message }, headers };
}

/**
 * GraphQL's own input-coercion messages (a variable of the wrong type or shape), as a field problem:
 * `Variable "$input" got invalid value 5 at "input.name"; String cannot represent ...`.
 */
function coercionProblem(message: string): FieldProblem | undefined {
  const m = /^Variable "\$(\w+)" got invalid value .*?(?: at "([^"]+)")?; ([\s\S]*)$/.exec(message);
  if (!m) return undefined;
  // `input.filters[1].op` → ['input', 'filters', '1', 'op'], the form services use.
  const loc = (m[2] ?? m[1]!).split(/\.|\[(\d+)\]/).filter((part): part is string => !!part);
  const missing = /^Field "(\w+)" of required type "[^"]+" was not provided\.?$/.exec(m[3]!);
  if (missing) return { loc: [...loc, missing[1]!], msg: 'is required' };
  const unknown = /^Field "(\w+)" is not defined by type/.exec(m[3]!);
  if (unknown) return { loc: [...loc, unknown[1]!], msg: 'is not a field of this request' };
  return { loc, msg: m[3]! };
}

/**
 * The GraphQL `extensions` of a variable GraphQL refused while coercing it (an unknown field in an
 * input, a missing required one, a value of the wrong type): BAD_USER_INPUT with the reason and the
 * offending field, like a service's ValidationFailed. Undefined for any other message.
 */
export function variableCoercionExtensions(message: string): Record<string, unknown> | undefined {
  const problem = coercionProblem(message);
  if (!problem) return undefined;
  const { http: _http, ...extensions } = graphqlExtensions(new ValidationFailed([problem]));
  // GraphQL's own request errors keep their HTTP status; only the description is the domain's.
  return extensions;
}

/** The typed error behind an error of a GraphQL result (already mapped by toGraphQLError). */
export function domainErrorFromGraphQL(err: GraphQLError): DomainError {
  const domain = domainErrorOf(err);
  if (domain) return domain;
  const code = err.extensions?.code as string | undefined;
  if (code && code in httpStatusByCode && code !== 'INTERNAL_SERVER_ERROR')
    return new DomainError(code as ErrorCode, err.message, {}, err.extensions.reason as ErrorReason | undefined);
  // Input coercion errors from GraphQL (bad variable values) are the caller's fault.
  const problem = coercionProblem(err.message);
  if (problem) return new ValidationFailed([problem]);
  if (code === 'INTERNAL_SERVER_ERROR' || !code) return new InternalError();
  return new DomainError('BAD_USER_INPUT', err.message);
}

/** REST status and body for an error of a GraphQL result. */
export function restErrorFromGraphQL(err: GraphQLError, translateLoc?: LocTranslator): RestError {
  return restError(domainErrorFromGraphQL(err), translateLoc);
}
