/**
 * The boundary rules every request passes before any route or resolver sees it, in one place:
 *
 * - JSON bodies (and GraphQL variables) nest at most JSON_LIMITS.maxDepth levels and an object has at
 *   most JSON_LIMITS.maxKeys keys. Deeper documents overflow recursive code later (JSON.stringify at
 *   insert, the rule matcher); they are a 422 naming the top-level field.
 * - No string (body value or key, query parameter) contains a NUL character or an unpaired UTF-16
 *   surrogate: Postgres cannot store either in text or jsonb (error 22021/22P05). 422 naming the field.
 * - No JSON number is outside the double range (`1e309` parses as Infinity): 422.
 * - No object key is `__proto__`, `constructor` or `prototype`, at any depth (body, query, GraphQL variables
 *   and JSON literals): code that copies a parsed object key by key (`out[k] = v`) would set a prototype
 *   instead of a field, and the field's validation would see nothing. 422 naming the key's path.
 * - A path segment that is not valid percent-encoding (a URIError deeper down), or that decodes to a NUL
 *   or an unpaired surrogate, names no resource: 404 with a JSON body.
 *
 * `inspectJson` is iterative (an explicit stack), so a 50,000-level body costs a loop, not the stack.
 * The REST router (rest/adapter.ts) runs `restInputGuard` after its JSON parser; the GraphQL host runs
 * `inspectGraphQLRequest` on HTTP bodies and graphql-ws messages, and a validation rule for literals.
 */
import type { NextFunction, Request, Response } from 'express';
import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';
import { NotFound, ValidationFailed, type FieldProblem } from '../errors.js';

export const JSON_LIMITS = {
  /** Levels of objects/arrays in one JSON document (the body itself is level 1). */
  maxDepth: 32,
  /** Keys of one object. */
  maxKeys: 1000,
  /** Problems listed in one 422 (the first ones found). */
  maxProblems: 20,
} as const;

/** Object keys refused at any depth of any JSON input (prototype pollution). */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The message for a reserved key, the same in REST and GraphQL. */
export const RESERVED_KEY_MSG = 'is a reserved key: __proto__, constructor and prototype are refused at any depth';

/** Why a string cannot be accepted, or null. */
export function badTextReason(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (!(s as string & { isWellFormed(): boolean }).isWellFormed())
    return 'must not contain an unpaired UTF-16 surrogate';
  return null;
}

/** A location segment safe to echo back (a key may itself be the offending string). */
function safeSegment(k: string): string {
  const s = k.length > 100 ? k.slice(0, 100) + '…' : k;
  return (s.replace(/\u0000/g, '\\u0000') as string & { toWellFormed(): string }).toWellFormed();
}

/**
 * Every problem of a parsed JSON value (or a query-string object), located under `root`
 * (e.g. `['body']`): too deep, too many keys, bad strings or keys, non-finite numbers.
 */
export function inspectJson(value: unknown, root: string[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const stack: Array<{ v: unknown; loc: string[]; depth: number }> = [{ v: value, loc: root, depth: 0 }];
  const tooDeep = new Set<string>();
  while (stack.length && problems.length < JSON_LIMITS.maxProblems) {
    const { v, loc, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const reason = badTextReason(v);
      if (reason) problems.push({ loc, msg: reason });
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) problems.push({ loc, msg: 'must be a finite number (at most ±1.7976931348623157e308)' });
    } else if (v !== null && typeof v === 'object') {
      if (depth + 1 > JSON_LIMITS.maxDepth) {
        // Named by the field under the root where the nesting starts (`body.payload`).
        const at = loc.slice(0, root.length + 1);
        const key = at.join('\u0000');
        if (!tooDeep.has(key)) {
          tooDeep.add(key);
          problems.push({
            loc: at,
            msg: `must not nest deeper than ${JSON_LIMITS.maxDepth} levels of objects and arrays`,
          });
        }
        continue;
      }
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], loc: [...loc, String(i)], depth: depth + 1 });
      } else {
        const keys = Object.keys(v);
        if (keys.length > JSON_LIMITS.maxKeys) {
          problems.push({ loc, msg: `must have at most ${JSON_LIMITS.maxKeys} keys` });
          continue;
        }
        for (let i = keys.length - 1; i >= 0; i--) {
          const k = keys[i];
          const reason = badTextReason(k);
          if (reason) problems.push({ loc: [...loc, safeSegment(k)], msg: `key ${reason}` });
          else if (RESERVED_KEYS.has(k)) problems.push({ loc: [...loc, k], msg: RESERVED_KEY_MSG });
          else
            stack.push({
              v: (v as Record<string, unknown>)[k],
              loc: [...loc, k.length > 100 ? safeSegment(k) : k],
              depth: depth + 1,
            });
        }
      }
    }
  }
  return problems.slice(0, JSON_LIMITS.maxProblems);
}

/** Throws ValidationFailed when `value` breaks a boundary rule. */
export function assertSafeJson(value: unknown, root: string[]): void {
  const problems = inspectJson(value, root);
  if (problems.length) throw new ValidationFailed(problems);
}

/**
 * Checks each segment of a request path: NotFound when one is malformed percent-encoding or decodes to a
 * NUL or an unpaired surrogate (no resource has such a name).
 */
export function assertSafePath(path: string): void {
  for (const segment of path.split('/')) {
    if (!segment.includes('%')) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new NotFound('Resource');
    }
    if (badTextReason(decoded)) throw new NotFound('Resource');
  }
}

/** A query value any numeric coercion turns into ±Infinity (`1e309`, `-Infinity`). */
const NON_FINITE_NUMERAL = /^\s*[+-]?(?:Infinity|(?:\d+\.?\d*|\.\d+)[eE][+-]?\d+|\d{309,}(?:\.\d*)?)\s*$/;

/**
 * Query values are strings; a numeric parameter is coerced later (the OpenAPI validator lets ±Infinity
 * through its `maximum`). A value that is a numeral outside the double range is refused here, whatever
 * the parameter.
 */
function inspectQueryNumerals(query: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!query || typeof query !== 'object') return problems;
  for (const [k, raw] of Object.entries(query as Record<string, unknown>)) {
    for (const v of Array.isArray(raw) ? raw : [raw]) {
      if (typeof v === 'string' && NON_FINITE_NUMERAL.test(v) && !Number.isFinite(Number(v))) {
        problems.push({ loc: ['query', k], msg: 'must be a finite number' });
        break;
      }
    }
  }
  return problems;
}

/**
 * Express middleware for a JSON API: path, query and (already parsed) body. Errors go to the
 * router's error handler as DomainErrors (404, 422 with `query.x` / `body.x` locations).
 */
export function restInputGuard(req: Request, _res: Response, next: NextFunction): void {
  try {
    assertSafePath(req.path);
    const problems = [
      ...inspectJson(req.query, ['query']),
      ...inspectQueryNumerals(req.query),
      ...(req.body !== undefined ? inspectJson(req.body, ['body']) : []),
    ];
    if (problems.length) throw new ValidationFailed(problems.slice(0, JSON_LIMITS.maxProblems));
    next();
  } catch (err) {
    next(err);
  }
}

/**
 * The boundary rules for one GraphQL request (HTTP body or query string, graphql-ws subscribe payload):
 * variables and extensions as JSON under `variables` / `extensions`, the operation name as text.
 * Returns the problems (empty when the request is fine).
 */
export function inspectGraphQLRequest(params: {
  variables?: unknown;
  extensions?: unknown;
  operationName?: unknown;
}): FieldProblem[] {
  let variables = params.variables;
  if (typeof variables === 'string') {
    // GET /graphql?variables=<JSON>
    try {
      variables = JSON.parse(variables);
    } catch {
      variables = undefined; // yoga answers the syntax error itself
    }
  }
  return [
    ...inspectJson(variables ?? null, ['variables']),
    ...inspectJson(params.extensions ?? null, ['extensions']),
    ...inspectJson(params.operationName ?? null, ['operationName']),
  ].slice(0, JSON_LIMITS.maxProblems);
}

/**
 * `GET /graphql?variables=…&extensions=…`: each, when given, must be one JSON object written as text
 * (malformed percent-encoding such as `%E0%A4%A` leaves text that is not JSON). Yoga would fail on them
 * with an unexpected error.
 */
function queryStringJsonProblems(query: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const key of ['variables', 'extensions']) {
    const raw = query[key];
    if (raw === undefined || raw === '') continue;
    let parsed: unknown;
    try {
      parsed = typeof raw === 'string' ? JSON.parse(raw) : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed)))
      problems.push({
        loc: [key],
        msg: 'must be one JSON object, URL-encoded (e.g. variables=%7B%22id%22%3A%221%22%7D)',
      });
  }
  return problems;
}

/** A GraphQL error (BAD_USER_INPUT, with the fields) for boundary problems. */
export function graphQLInputError(problems: FieldProblem[]): GraphQLError {
  const e = new ValidationFailed(problems);
  return new GraphQLError(e.message, { extensions: { code: 'BAD_USER_INPUT', fields: problems } });
}

/**
 * Express middleware in front of the GraphQL HTTP handler: refuses a request whose variables break a
 * boundary rule with a GraphQL error (BAD_USER_INPUT) before yoga parses the document.
 */
export function graphqlInputGuard(req: Request, res: Response, next: NextFunction): void {
  const source =
    req.method === 'GET' ? (req.query as Record<string, unknown>) : ((req.body ?? {}) as Record<string, unknown>);
  const problems =
    typeof source === 'object' && source !== null && !Array.isArray(source) ? inspectGraphQLRequest(source) : [];
  if (req.method === 'GET') problems.push(...queryStringJsonProblems(source));
  if (!problems.length) return next();
  res.status(400).json({ errors: [graphQLInputError(problems).toJSON()] });
}

/**
 * A validation rule: string literals written in the document itself (`source: "a\u0000b"`) follow the
 * same text rule as variables, and object literals (`config: { __proto__: … }`) the reserved-key rule.
 */
export function safeLiteralsRule(context: ValidationContext): ASTVisitor {
  return {
    ObjectField(node) {
      if (RESERVED_KEYS.has(node.name.value))
        context.reportError(
          new GraphQLError(`Object key "${node.name.value}" ${RESERVED_KEY_MSG}.`, {
            nodes: [node],
            extensions: { code: 'BAD_USER_INPUT' },
          }),
        );
    },
    StringValue(node) {
      const reason = badTextReason(node.value);
      if (reason)
        context.reportError(
          new GraphQLError(`String literal ${reason}.`, { nodes: [node], extensions: { code: 'BAD_USER_INPUT' } }),
        );
    },
  };
}
