/**
 * The HTTP server: Express 5 with GraphQL (HTTP + WS) at /graphql, REST at /api/v1, the contract at
 * /openapi.json with a bundled viewer at /docs, /healthz, /readyz, /metrics, and the operator console at /.
 */
import { httpTracing } from './http-tracing.js';
import http from 'node:http';
import crypto from 'node:crypto';
import path from 'node:path';
import { createRequire } from 'node:module';
import express, { type Request, type Response } from 'express';
import { pinoHttp, type Options as PinoHttpOptions } from 'pino-http';
import { pino } from 'pino';
import { redactUrl } from '../http/redact-url.js';
import type { GraphQLSchema } from 'graphql';
import type { WebSocketServer } from 'ws';
import type { Runtime } from '../runtime.js';
import { createGraphQL, attachGraphQLWs, GRAPHQL_PATH } from './graphql.js';
import { createRestRouter } from '../../rest/adapter.js';
import { routes } from '../../rest/routes/index.js';
import { pagerDutyEventsRouter } from '../../rest/pagerduty-events.js';
import { loadOpenApi } from '../../rest/openapi.js';
import { registry, httpDuration, reportsReplicaLag } from '../metrics.js';
import { replicaLagSeconds } from '../reports-replica.js';
import { graphqlInputGuard } from '../http/input-guards.js';
import { apiRateLimit } from '../http/api-rate-limit.js';
import { GRAPHIQL_ASSETS_PATH, graphiqlAssets } from './graphiql.js';
import { consoleApp } from './console.js';
import { pageActionRoutes } from './page-actions.js';
import { passwordPageRoutes } from './password-pages.js';
import { guardServerErrors } from './process-guards.js';
import { DomainError, Forbidden, PayloadTooLarge, Unauthenticated, UnsupportedMediaType } from '../errors.js';
import { constantTimeEqual } from '../secrets.js';
import { graphqlErrorFromDomain, restError } from '../http/error-mapping.js';
import { bodyReadError, isClientAbort } from '../http/body-errors.js';
import {
  assertCookieRequestAllowed,
  cookieOriginAllowed,
  crossOriginReason,
  isJsonContentType,
} from '../http/same-origin.js';

/** Hosts that only this machine reaches. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Settings a reachable deployment should not run with, for /readyz: NODE_ENV unset on a bind other
 * machines can reach keeps development defaults (anonymous introspection among them).
 */
export function deploymentWarnings(config: { host: string; nodeEnv?: string }): string[] {
  const warnings: string[] = [];
  if (!config.nodeEnv && !LOOPBACK_HOSTS.has(config.host) && !config.host.startsWith('127.')) {
    warnings.push(
      `NODE_ENV is unset while listening on ${config.host}: development defaults apply (anyone may introspect the GraphQL schema). Set NODE_ENV=production; see the README's Production checklist.`,
    );
  }
  return warnings;
}

/** Whether a /metrics request may read: no METRICS_TOKEN set, or its bearer token (compared in constant time). */
export function metricsAllowed(token: string | undefined, authorization: string | undefined): boolean {
  if (!token) return true;
  const m = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
  return !!m && constantTimeEqual(m[1]!.trim(), token);
}

/** Answers a typed error as a REST-style body (`{code, detail}`), through the one builder. */
function sendError(res: Response, err: DomainError): void {
  const e = restError(err);
  for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
  res.status(e.status).json(e.body);
}

const require = createRequire(import.meta.url);
const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Operations Service API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;
// validatorUrl: null stops Swagger UI from calling the online validator (the machines are offline).
const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true, persistAuthorization: true, validatorUrl: null });`;

export interface ServerOptions {
  schema: GraphQLSchema;
  validateResponses?: boolean;
}

export interface RunningServer {
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

/**
 * A GraphQL body the parser could not read: 413 `{code, detail}` when over the limit; 400 in GraphQL's
 * shape when it is not JSON; 415 in GraphQL's shape for a content coding or charset it cannot read.
 */
function graphqlBodyErrors(rt: Runtime): express.ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (isClientAbort(err))
      return void rt.logger.debug({ path: req.path }, 'client closed the request before its body arrived');
    const e = bodyReadError(err, rt.config.bodyLimitBytes);
    if (!e) return next(err);
    if (e instanceof PayloadTooLarge) return sendError(res, e);
    // GraphQL-over-HTTP answers a body it cannot parse with 400 in GraphQL's error shape.
    const domain =
      e.reason === 'INVALID_JSON'
        ? new DomainError('BAD_USER_INPUT', 'POST body sent invalid JSON.', {}, 'INVALID_JSON')
        : e;
    res.status(e.reason === 'INVALID_JSON' ? 400 : 415).json({ errors: [graphqlErrorFromDomain(domain).toJSON()] });
  };
}

/**
 * POSTs to /graphql must be JSON. Yoga would also parse form-encoded, multipart and
 * `application/graphql` bodies: the first two can be sent by a plain HTML form with the session cookie
 * and no CORS preflight (cross-site request forgery of mutations), and none of them passes through the
 * size-limited JSON parser above. They get 415. A POST authenticated by the session cookie must also
 * come from this service's own origin (src/http/same-origin.ts, the rule REST and graphql-ws follow): 403.
 */
function graphqlJsonOnly(rt: Runtime): express.RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') {
      // A GET authenticated by the session cookie from another origin (or `Origin: null`) is refused
      // before yoga runs it or its CORS answer echoes that origin: no data for a foreign page.
      if (req.method === 'GET' && !cookieOriginAllowed(req.headers, rt.config)) {
        const err = new Forbidden(
          `A request authenticated by the session cookie must come from this service's own pages; ${crossOriginReason(req.headers, rt.config)}. Other clients send Authorization: Bearer <token>.`,
          'CROSS_ORIGIN_REQUEST',
        );
        return void res.status(403).json({ errors: [graphqlErrorFromDomain(err).toJSON()] });
      }
      return next();
    }
    try {
      if (!isJsonContentType(req.headers['content-type']))
        throw new UnsupportedMediaType('Send GraphQL POSTs as application/json.');
      assertCookieRequestAllowed(req, rt.config, true);
      next();
    } catch (err) {
      if (!(err instanceof DomainError)) return next(err);
      res.status(restError(err).status).json({ errors: [graphqlErrorFromDomain(err).toJSON()] });
    }
  };
}

/**
 * The access log at a terminal: one short line per request (`GET /api/v1/alerts 200 12 ms`), without the
 * request and response objects the JSON log carries; a request the client gave up on says so, at info.
 */
const terminalAccessLog: PinoHttpOptions = {
  quietResLogger: true,
  customSuccessObject: () => ({}),
  customErrorObject: (_req, _res, err) => ({ err }),
  customSuccessMessage: (req, res, ms) =>
    `${req.method} ${redactUrl((req as Request).originalUrl ?? req.url)} ${res.writableEnded ? res.statusCode : `closed by the client (${res.headersSent ? res.statusCode + ' sent' : 'no answer yet'})`} ${Math.round(ms)} ms`,
  customErrorMessage: (req, res) =>
    `${req.method} ${redactUrl((req as Request).originalUrl ?? req.url)} ${res.statusCode} failed`,
};

/** Builds the Express app and HTTP server (not yet listening). */
export function createServer(
  rt: Runtime,
  opts: ServerOptions,
): { app: express.Express; server: http.Server; wss: WebSocketServer } {
  const app = express();
  app.disable('x-powered-by');
  // An API's responses are not cached by validators; hashing every body for an ETag is wasted work.
  app.set('etag', false);
  app.set('trust proxy', rt.config.trustProxy);
  // First, so the request's span is active for everything after it.
  app.use(httpTracing(rt));
  const requestId = (req: http.IncomingMessage, res: http.ServerResponse): string => {
    const id = (req.headers['x-request-id'] as string | undefined) ?? crypto.randomUUID();
    res.setHeader('x-request-id', id);
    return id;
  };
  const accessLog = pinoHttp({
    logger: rt.logger,
    genReqId: requestId,
    // req.log carries only the request id (the access line itself still has method, URL and status).
    quietReqLogger: true,
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/metrics' },
    // A credential in a URL (`?token=`, a calendar feed's or an action link's path) never reaches the log.
    serializers: {
      // The URL (redacted) already carries the query and path parameters: their raw copies are left out.
      req: pino.stdSerializers.wrapRequestSerializer((r) =>
        Object.assign(r, { url: redactUrl(r.url), query: undefined, params: undefined }),
      ),
    },
    ...(rt.prettyLogs ? terminalAccessLog : {}),
  });
  // Ingest is the high-volume path: its requests are counted in metrics (errors are still logged by
  // the REST error handler) rather than access-logged one by one, which would cost more than the
  // INSERT itself.
  app.use((req: Request, res: Response, next) => {
    if (req.method === 'POST' && req.url === '/api/v1/events') {
      (req as Request & { id?: string }).id = requestId(req, res);
      return next();
    }
    accessLog(req, res, next);
  });
  app.use((req: Request, res: Response, next) => {
    const end = httpDuration.startTimer({ method: req.method });
    res.on('finish', () =>
      end({
        route: req.route?.path ? String(req.baseUrl + req.route.path) : req.baseUrl || 'other',
        status: String(res.statusCode),
      }),
    );
    next();
  });

  // The API first: it carries the traffic (ingest above all), so its requests skip the other routes.
  const yoga = createGraphQL(rt, opts.schema);
  app.use(['/api/v1', GRAPHQL_PATH], apiRateLimit(rt));
  app.use('/api/v1', createRestRouter(rt, yoga, routes, { validateResponses: opts.validateResponses }));
  // PagerDuty's own path (`/v2/enqueue`, `/v2/change/enqueue`) for clients that let only the host change.
  app.use(pagerDutyEventsRouter(rt));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks: Record<string, string> = {};
    await Promise.all([
      rt.prisma.$queryRaw`SELECT 1`
        .then(() => (checks.postgres = 'ok'))
        .catch((e: Error) => (checks.postgres = e.message)),
      rt.redis
        .ping()
        .then(() => (checks.redis = 'ok'))
        .catch((e: Error) => (checks.redis = e.message)),
    ]);
    const ok = Object.values(checks).every((v) => v === 'ok');
    const warnings = deploymentWarnings(rt.config);
    res
      .status(ok ? 200 : 503)
      .json({ status: ok ? 'ready' : 'unavailable', checks, ...(warnings.length ? { warnings } : {}) });
  });
  app.get('/metrics', async (req, res) => {
    if (!metricsAllowed(rt.config.metricsToken, req.headers.authorization))
      return void sendError(
        res,
        new Unauthenticated('This server protects /metrics: send Authorization: Bearer <METRICS_TOKEN>.'),
      );
    reportsReplicaLag.set((await replicaLagSeconds(rt)) ?? -1);
    res.setHeader('content-type', registry.contentType);
    res.send(await registry.metrics());
  });

  const openapi = loadOpenApi();
  // `servers` is absolute (PUBLIC_BASE_URL, else the request's origin): generated clients that resolve
  // paths against it (orval's fetch client) then work without a base URL of their own.
  app.get('/openapi.json', (req, res) => {
    const origin = (rt.config.publicBaseUrl ?? `${req.protocol}://${req.get('host')}`).replace(/\/+$/, '');
    res.json({ ...openapi, servers: [{ url: `${origin}/api/v1`, 'x-internal': false }] });
  });
  app.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_HTML);
  });
  app.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(DOCS_INIT);
  });
  app.use('/docs/assets', express.static(swaggerUiDir, { index: false }));

  app.use(GRAPHIQL_ASSETS_PATH, graphiqlAssets());
  // Yoga reads the body itself without a size limit; parse it here with the same 1 MiB limit as REST
  // (yoga uses an already parsed req.body as is).
  app.use(
    GRAPHQL_PATH,
    graphqlJsonOnly(rt),
    express.json({ limit: rt.config.bodyLimitBytes, type: ['application/json', 'application/*+json'] }),
    graphqlBodyErrors(rt),
    graphqlInputGuard,
  );
  app.use(GRAPHQL_PATH, yoga as unknown as express.RequestHandler);
  // The operator console at / (its client-side routes answer index.html to a browser).
  app.use(pageActionRoutes(rt));
  app.use(passwordPageRoutes(rt));
  app.use(consoleApp());
  app.use('/api', (_req, res) => {
    sendError(
      res,
      new DomainError(
        'NOT_FOUND',
        'No such endpoint. The API lives under /api/v1; see /openapi.json.',
        {},
        'ROUTE_NOT_FOUND',
      ),
    );
  });
  app.use((_req: Request, res: Response) => {
    sendError(
      res,
      new DomainError('NOT_FOUND', 'Not found. Try /graphql, /api/v1, /openapi.json or /docs.', {}, 'ROUTE_NOT_FOUND'),
    );
  });

  // A request (headers and body) must arrive within HTTP_REQUEST_TIMEOUT_SECONDS: a body dripped a byte
  // at a time is answered 408 and closed instead of holding a socket. Node checks every 30 s, so a drip
  // is cut 30-60 s in (checking every second reset keep-alive connections of a busy event loop).
  const requestTimeout = rt.config.httpRequestTimeoutSeconds * 1000;
  const server = http.createServer({ requestTimeout, headersTimeout: Math.min(requestTimeout, 60_000) }, app);
  const wss = attachGraphQLWs(rt, yoga, server);
  guardServerErrors(rt.logger, server, wss);
  return { app, server, wss };
}

/** Starts listening; `close()` stops accepting, drains in-flight requests and closes sockets. */
export async function listen(rt: Runtime, opts: ServerOptions, port: number, host: string): Promise<RunningServer> {
  const { server, wss } = createServer(rt, opts);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as { port: number };
  // A wildcard bind is reached from this machine at 127.0.0.1; an IPv6 address goes in brackets.
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    server,
    url: `http://${shownHost}:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        // WebSocket connections are upgraded out of the HTTP server's tracking: close them ourselves.
        for (const client of wss.clients) client.close(1001, 'server shutting down');
        wss.close();
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5000).unref();
      }),
  };
}
