/**
 * Turns the route table into Express routes under /api/v1:
 * body parsing (1 MiB) → authentication → per-route auth gate → OpenAPI request validation → execute
 * the route's GraphQL operation in-process → map data to the REST shape and status.
 * No handler here reads the database.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { parse, validate, type DocumentNode, type GraphQLError } from 'graphql';
import type { Runtime } from '../src/runtime.js';
import { createCtx, type Ctx } from '../src/context.js';
import { DomainError, Unauthenticated } from '../src/errors.js';
import { restErrorFromDomain, restErrorFromGraphQL, type RestError } from '../src/http/error-mapping.js';
import { contextFromCredential, type Yoga } from '../src/http/graphql.js';
import { serialize as serializeCookie } from 'cookie';
import type { OperationRoute, RouteEntry, RestRequest } from './route-types.js';
import { loadOpenApi } from './openapi.js';

export type RestReq = Request & { ctx: Ctx; rawBody?: Buffer; id?: unknown };

function send(res: Response, e: RestError): void {
  for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
  res.status(e.status).json(e.body);
}

function applyCtxToResponse(ctx: Ctx, res: Response, secure: boolean): void {
  for (const c of ctx.responseCookies) {
    res.append('Set-Cookie', serializeCookie(c.name, c.value, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: c.maxAgeSeconds, secure }));
  }
  for (const [k, v] of Object.entries(ctx.responseHeaders)) res.setHeader(k, v);
}

function isOperation(entry: RouteEntry): entry is OperationRoute {
  return 'operation' in entry;
}

/** Parses and validates every route's operation once, so a broken entry fails at start-up. */
function compile(yoga: Yoga, entries: RouteEntry[]): Map<RouteEntry, DocumentNode> {
  const { schema } = yoga.getEnveloped({});
  const docs = new Map<RouteEntry, DocumentNode>();
  for (const e of entries) {
    if (!isOperation(e)) continue;
    const doc = parse(e.operation);
    const errors = validate(schema, doc);
    if (errors.length) throw new Error(`REST ${e.method.toUpperCase()} ${e.path}: ${errors.map((x) => x.message).join('; ')}`);
    docs.set(e, doc);
  }
  return docs;
}

/** Maps express-openapi-validator errors to 422 with field locations (401 for security, 404/405 as is). */
function validatorErrorToRest(err: { status?: number; errors?: Array<{ path?: string; message?: string }>; message?: string }): RestError {
  const status = err.status ?? 500;
  if (status === 400) {
    const fields = (err.errors ?? []).map((e) => ({
      loc: (e.path ?? '').replace(/^\./, '').split(/[./]/).filter(Boolean),
      msg: e.message ?? 'is invalid',
    }));
    return { status: 422, body: { detail: fields.length ? fields : [{ loc: ['body'], msg: err.message ?? 'is invalid' }] }, headers: {} };
  }
  if (status === 415) return { status: 415, body: { detail: 'Send the body as application/json.' }, headers: {} };
  if (status === 404) return { status: 404, body: { detail: 'No such endpoint. See /openapi.json for the routes.' }, headers: {} };
  if (status === 405) return { status: 405, body: { detail: err.message ?? 'Method not allowed on this path.' }, headers: {} };
  if (status === 401) return { status: 401, body: { detail: 'Missing or invalid credential.' }, headers: {} };
  return { status: 500, body: { detail: 'Unexpected error.' }, headers: {} };
}

export interface RestOptions {
  /** Check responses against the contract too (tests turn this on). */
  validateResponses?: boolean;
}

/** The /api/v1 router for the given route table. */
export function createRestRouter(rt: Runtime, yoga: Yoga, entries: RouteEntry[], opts: RestOptions = {}): Router {
  const docs = compile(yoga, entries);
  const router = express.Router();
  const apiSpec = loadOpenApi();
  apiSpec.servers = [{ url: '/api/v1' }];

  router.use(
    express.json({
      limit: rt.config.bodyLimitBytes,
      type: ['application/json', 'application/*+json'],
      verify: (req, _res, buf) => {
        (req as RestReq).rawBody = buf;
      },
    }),
  );

  const requestIdOf = (req: Request) => String((req as RestReq).id ?? req.headers['x-request-id'] ?? '');

  /**
   * The route's credential gate, run before validation so a bad credential is a 401 whatever the body:
   * a user credential (PAT or session) for 'user', an optional one for 'public', or the route's own
   * authenticator (ingest key, webhook signature).
   */
  const gate = (e: RouteEntry) => {
    const auth = e.auth ?? 'user';
    return async (req: Request, _res: Response, next: NextFunction) => {
      try {
        const r = req as RestReq;
        if (typeof auth === 'function') {
          r.ctx = createCtx(rt, await auth(rt, r), requestIdOf(req), req.ip ?? null);
          return next();
        }
        r.ctx = await contextFromCredential(rt, { authorization: req.headers.authorization, cookie: req.headers.cookie }, requestIdOf(req), req.ip ?? null);
        if (auth === 'user' && !r.ctx.principal?.userId) throw new Unauthenticated('Send Authorization: Bearer <personal access token or session JWT>.');
        next();
      } catch (err) {
        next(err);
      }
    };
  };

  const handle = (e: RouteEntry) => async (req: Request, res: Response, next: NextFunction) => {
    const r = req as RestReq;
    try {
      if (!isOperation(e)) {
        await e.handler(r, res);
        return;
      }
      const restReq: RestRequest = { params: r.params as Record<string, string>, query: r.query as Record<string, unknown>, body: r.body ?? {}, headers: r.headers };
      const { execute, contextFactory, schema } = yoga.getEnveloped({ restCtx: r.ctx });
      const contextValue = await contextFactory();
      const result = await execute({ schema, document: docs.get(e)!, variableValues: e.variables?.(restReq) ?? {}, contextValue });
      applyCtxToResponse(r.ctx, res, req.secure);
      if ('errors' in result && result.errors?.length) {
        send(res, restErrorFromGraphQL(result.errors[0] as GraphQLError));
        return;
      }
      const data = (result as { data: Record<string, unknown> }).data;
      const status = e.status ?? 200;
      if (status === 204) {
        res.status(204).end();
        return;
      }
      const body = e.respond ? e.respond(data, restReq) : Object.values(data)[0];
      res.status(status).json(body);
    } catch (err) {
      next(err);
    }
  };

  const validator = OpenApiValidator.middleware({
    apiSpec: apiSpec as never,
    // Path and query parameters are always coerced from strings; JSON bodies must carry the declared types.
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, allErrors: true },
    validateResponses: opts.validateResponses ?? false,
    validateSecurity: false,
    ignoreUndocumented: false,
  });
  const selfValidating = (e: RouteEntry) => !isOperation(e) && e.validatesOwnInput === true;

  // One Express route per entry: gate (401 before anything looks at the body) → request validation →
  // handler. Matching each request against its own route once keeps the per-request cost flat as the
  // table grows.
  for (const e of entries) router[e.method](e.path, gate(e), ...(selfValidating(e) ? [] : validator), handle(e));
  // Whatever matched no entry: the validator answers 404 or 405 (with Allow) from the contract.
  router.use(validator);

  // One error handler for the whole /api/v1 tree.
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof DomainError) return send(res, restErrorFromDomain(err));
    const e = err as { type?: string; status?: number; errors?: Array<{ path?: string; message?: string }>; message?: string };
    if (e.type === 'entity.too.large') return send(res, { status: 413, body: { detail: `Body exceeds the ${rt.config.bodyLimitBytes} byte limit.` }, headers: {} });
    if (e.type === 'entity.parse.failed') return send(res, { status: 422, body: { detail: [{ loc: ['body'], msg: 'is not valid JSON' }] }, headers: {} });
    if (e.status && e.status < 500 && (e.errors || e.status === 404 || e.status === 405 || e.status === 415)) return send(res, validatorErrorToRest(e));
    if (e.status === 500 && e.errors && opts.validateResponses) {
      rt.logger.error({ err, path: req.path }, 'response does not match the OpenAPI contract');
      return send(res, { status: 500, body: { detail: `Response does not match the contract: ${JSON.stringify(e.errors)}` }, headers: {} });
    }
    rt.logger.error({ err, path: req.path }, 'unexpected error');
    send(res, { status: 500, body: { detail: 'Unexpected error.' }, headers: {} });
  });
  return router;
}
