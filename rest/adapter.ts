/**
 * Turns the route table into Express routes under /api/v1:
 * body parsing (1 MiB) → authentication → per-route auth gate → OpenAPI request validation → execute
 * the route's GraphQL operation in-process (REST enum values mapped to GraphQL's and back,
 * rest/translate.ts) → the route's presenter gives the REST shape and status.
 * Every failure becomes a typed error of src/errors.ts answered by restError() (`{code, detail}`);
 * field locations of GraphQL inputs are rewritten to the REST request's (rest/field-paths.ts).
 * No handler here reads the database.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { parse, validate, type DocumentNode, type GraphQLError } from 'graphql';
import type { Runtime } from '../src/runtime.js';
import { createCtx, type Ctx } from '../src/context.js';
import {
  DomainError,
  InternalError,
  MethodNotAllowed,
  Unauthenticated,
  UnsupportedMediaType,
  ValidationFailed,
} from '../src/errors.js';
import { restError, restErrorFromGraphQL, type RestError } from '../src/http/error-mapping.js';
import type { YogaServerInstance } from 'graphql-yoga';
import { contextFromCredential } from '../src/auth/request-context.js';
import { serialize as serializeCookie } from 'cookie';
import type { HandlerRoute, OperationRoute, RouteEntry, RestRequest } from './route-types.js';
import { loadOpenApi } from './openapi.js';
import { handlerLocTranslator, restLocTranslator } from './field-paths.js';
import { dataFromGraphQL, variablesToGraphQL } from './translate.js';
import { restInputGuard } from '../src/http/input-guards.js';
import { markServiceDocument } from '../src/http/query-cost.js';
import { assertCookieRequestAllowed } from '../src/http/same-origin.js';
import { bodyReadError, isClientAbort } from '../src/http/body-errors.js';
import { deprecationMiddleware } from './deprecation.js';

/** The GraphQL server the routes run their operations on (the host passes its yoga instance). */
export type Yoga = Pick<YogaServerInstance<Record<string, unknown>, Ctx>, 'getEnveloped'>;

export type RestReq = Request & { ctx: Ctx; rawBody?: Buffer; id?: unknown };

function send(res: Response, e: RestError): void {
  for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
  res.status(e.status).json(e.body);
}

function applyCtxToResponse(ctx: Ctx, res: Response, secure: boolean): void {
  for (const c of ctx.responseCookies) {
    res.append(
      'Set-Cookie',
      serializeCookie(c.name, c.value, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: c.maxAgeSeconds, secure }),
    );
  }
  for (const [k, v] of Object.entries(ctx.responseHeaders)) res.setHeader(k, v);
}

/**
 * A handler route's services name fields of what they were given (a pushed payload, a cluster's
 * heartbeat: `['alerts', '0', 'status']`, `[]` for the whole document; an export's `['format']`):
 * rest/field-paths.ts maps them to the request's fields.
 */
function inRequest(err: unknown, route: HandlerRoute, req: RestRequest): unknown {
  if (!(err instanceof ValidationFailed) || !err.extra.fields) return err;
  const loc = handlerLocTranslator(route, req);
  return new ValidationFailed(
    err.extra.fields.map((f) => ({ ...f, loc: loc(f.loc) })),
    err.reason,
  );
}

const restRequestOf = (r: RestReq, now: Date): RestRequest => ({
  params: r.params as Record<string, string>,
  query: r.query as Record<string, unknown>,
  body: r.body ?? {},
  headers: r.headers,
  now,
});

function isOperation(entry: RouteEntry): entry is OperationRoute {
  return 'operation' in entry;
}

/** Parses and validates every route's operation once, so a broken entry fails at start-up. */
/**
 * Each operation route's document, parsed, and validated against the schema before it first runs:
 * all at once here when `eager` (test servers, so a broken route fails every test at start), else on
 * the route's first request (validating ~150 documents was a quarter of a second of every start).
 */
function compile(yoga: Yoga, entries: RouteEntry[], eager: boolean): (e: RouteEntry) => DocumentNode {
  const { schema } = yoga.getEnveloped({});
  const docs = new Map<RouteEntry, DocumentNode>();
  const checked = new Set<RouteEntry>();
  const documentOf = (e: RouteEntry): DocumentNode => {
    const doc = docs.get(e)!;
    if (!checked.has(e)) {
      const errors = validate(schema, doc);
      if (errors.length)
        throw new Error(`REST ${e.method.toUpperCase()} ${e.path}: ${errors.map((x) => x.message).join('; ')}`);
      checked.add(e);
    }
    return doc;
  };
  for (const e of entries) {
    if (!isOperation(e)) continue;
    const doc = parse(e.operation);
    markServiceDocument(doc); // its page sizes are bounded by the route's OpenAPI parameters
    docs.set(e, doc);
    if (eager) documentOf(e);
  }
  return documentOf;
}

type ValidatorError = {
  status?: number;
  errors?: Array<{ path?: string; message?: string }>;
  message?: string;
  headers?: Record<string, string>;
};

/** A location as express-openapi-validator writes it (`.body.device_id`, `.params.alertId`) in REST terms. */
function validatorLoc(path: string | undefined): string[] {
  const loc = (path ?? '').replace(/^\./, '').split(/[./]/).filter(Boolean);
  if (loc[0] === 'params') loc[0] = 'path';
  return loc.length ? loc : ['body'];
}

/** express-openapi-validator errors as typed errors: 422 with field locations, 401, 404, 405, 415. */
function fromValidator(err: ValidatorError): DomainError {
  const status = err.status ?? 500;
  if (status === 400) {
    const fields = (err.errors ?? [])
      .slice(0, 100)
      .map((e) => ({ loc: validatorLoc(e.path), msg: e.message ?? 'is invalid' }));
    return new ValidationFailed(fields.length ? fields : [{ loc: ['body'], msg: err.message ?? 'is invalid' }]);
  }
  if (status === 415) return new UnsupportedMediaType();
  if (status === 404)
    return new DomainError('NOT_FOUND', 'No such endpoint. See /openapi.json for the routes.', {}, 'ROUTE_NOT_FOUND');
  if (status === 405) return new MethodNotAllowed(err.message ?? undefined, err.headers?.Allow ?? err.headers?.allow);
  if (status === 401) return new Unauthenticated();
  return new InternalError();
}

export interface RestOptions {
  /** Check responses against the contract too (tests turn this on). */
  validateResponses?: boolean;
}

/** The /api/v1 router for the given route table. */
export function createRestRouter(rt: Runtime, yoga: Yoga, entries: RouteEntry[], opts: RestOptions = {}): Router {
  const documentOf = compile(yoga, entries, opts.validateResponses ?? false);
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
  // Boundary rules for every route (depth, keys, NUL/surrogates, non-finite numbers, path segments).
  router.use(restInputGuard);

  const requestIdOf = (req: Request) => String((req as RestReq).id ?? req.headers['x-request-id'] ?? '');

  /**
   * The route's credential gate, run before validation so a bad credential is a 401 whatever the body:
   * a user credential (PAT or session) for 'user', an optional one for 'public', or the route's own
   * authenticator (ingest key, webhook signature).
   */
  const gate = (e: RouteEntry) => {
    const auth = e.auth ?? 'user';
    // Whether the contract gives the route a request body (a cookie-authenticated call must then send JSON).
    const takesBody = !!apiSpec.paths?.[e.path.replace(/:(\w+)/g, '{$1}')]?.[e.method]?.requestBody;
    return async (req: Request, _res: Response, next: NextFunction) => {
      try {
        const r = req as RestReq;
        // Cross-site request forgery: routes with their own authenticator ignore the session cookie.
        if (typeof auth !== 'function') assertCookieRequestAllowed(req, rt.config, takesBody);
        if (typeof auth === 'function') {
          r.ctx = createCtx(rt, await auth(rt, r), requestIdOf(req), req.ip ?? null);
          return next();
        }
        r.ctx = await contextFromCredential(
          rt,
          { authorization: req.headers.authorization, cookie: req.headers.cookie },
          requestIdOf(req),
          req.ip ?? null,
        );
        if (auth === 'user' && !r.ctx.principal?.userId)
          throw new Unauthenticated('Send Authorization: Bearer <personal access token or session JWT>.');
        next();
      } catch (err) {
        next(err);
      }
    };
  };

  const handle = (e: RouteEntry) => async (req: Request, res: Response, next: NextFunction) => {
    const r = req as RestReq;
    try {
      const restReq = restRequestOf(r, rt.clock.now());
      if (!isOperation(e)) {
        await e.handler(r, res, e.variables?.(restReq) ?? {}).catch((err: unknown) => {
          throw inRequest(err, e, restReq);
        });
        return;
      }
      // The request's URL, so responses that show URLs of this service (inbound webhooks, push
      // integrations) use its origin when PUBLIC_BASE_URL is unset, as over GraphQL.
      const request = { url: `${req.protocol}://${req.get('host')}${req.originalUrl}` };
      const { execute, contextFactory, schema } = yoga.getEnveloped({ restCtx: r.ctx, request } as Record<
        string,
        unknown
      >);
      const contextValue = await contextFactory();
      const document = documentOf(e);
      const variableValues = variablesToGraphQL(schema, document, e.variables?.(restReq) ?? {});
      const result = await execute({ schema, document, variableValues, contextValue });
      applyCtxToResponse(r.ctx, res, req.secure);
      if ('errors' in result && result.errors?.length) {
        const restErr = restErrorFromGraphQL(
          result.errors[0] as GraphQLError,
          restLocTranslator(schema, document, e, restReq),
        );
        send(res, restErr);
        return;
      }
      const data = dataFromGraphQL(schema, document, (result as { data: Record<string, unknown> }).data);
      const status = typeof e.status === 'function' ? e.status(restReq) : (e.status ?? 200);
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
    // The document is checked against OpenAPI 3.1 by test/openapi.test.ts; at run time that check
    // compiled the whole OpenAPI meta-schema on every start.
    validateApiSpec: false,
    ignoreUndocumented: false,
  });
  const selfValidating = (e: RouteEntry) => !isOperation(e) && e.validatesOwnInput === true;

  // One Express route per entry: gate (401 before anything looks at the body) → request validation →
  // handler. Matching each request against its own route once keeps the per-request cost flat as the
  // table grows.
  // Deprecated operations (`deprecated: true`) answer with Deprecation/Sunset headers, errors included.
  const deprecation = (e: RouteEntry) => {
    const m = deprecationMiddleware(apiSpec.paths?.[e.path.replace(/:(\w+)/g, '{$1}')]?.[e.method]);
    return m ? [m] : [];
  };
  for (const e of entries)
    router[e.method](e.path, ...deprecation(e), gate(e), ...(selfValidating(e) ? [] : validator), handle(e));
  // Whatever matched no entry: the validator answers 404 or 405 (with Allow) from the contract.
  router.use(validator);

  // One error handler for the whole /api/v1 tree: every failure becomes a typed error, answered by restError().
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    // A client that left while sending its body gets no answer; its access log line says it closed.
    if (isClientAbort(err))
      return void rt.logger.debug({ path: req.path }, 'client closed the request before its body arrived');
    send(res, restError(asDomainError(err, req)));
  });
  const asDomainError = (err: unknown, req: Request): DomainError => {
    if (err instanceof DomainError) return err;
    const e = err as ValidatorError & { type?: string };
    const unreadable = bodyReadError(err, rt.config.bodyLimitBytes);
    if (unreadable) return unreadable;
    if (e.status && e.status < 500 && (e.errors || e.status === 404 || e.status === 405 || e.status === 415))
      return fromValidator(e);
    if (e.status === 500 && e.errors && opts.validateResponses) {
      rt.logger.error({ err, path: req.path }, 'response does not match the OpenAPI contract');
      return new InternalError(`Response does not match the contract: ${JSON.stringify(e.errors)}`);
    }
    rt.logger.error({ err, path: req.path }, 'unexpected error');
    return new InternalError();
  };
  return router;
}
