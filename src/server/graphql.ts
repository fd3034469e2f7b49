/**
 * GraphQL over HTTP (graphql-yoga, GraphiQL in the browser) and over WebSocket (graphql-ws), sharing
 * one context factory and one plugin list. REST executes through the same envelope (src/http/rest.ts).
 */
import { traceSlowResolvers, useOperationSpans } from './graphql-tracing.js';
import crypto from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import {
  GraphQLError,
  type GraphQLNamedType,
  type DefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type FieldNode,
  getNamedType,
} from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import { WebSocketServer, type WebSocket } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import type { Runtime } from '../runtime.js';
import { createCtx, type Ctx } from '../context.js';
import { contextFromCredential } from '../auth/request-context.js';
import { authenticateConnection, principalStillValid, watchCredential } from '../auth/connection-credentials.js';
import type { Principal } from '../principal.js';
import { DomainError, InternalError, RateLimited, Unauthenticated } from '../errors.js';
import { graphqlErrorFromDomain, toGraphQLError } from '../http/error-mapping.js';
import { auditBypassedReview, auditTargetOf, recordAudit, type AuditEntry } from '../audit/audit.js';
import { auditTargetOfResult } from './audit-target.js';
import { renderOfflineGraphiQL } from './graphiql.js';
import {
  armorRefusal,
  graphqlGuardPlugins,
  introspectionAllowed,
  userInputErrorOf,
  withoutSuggestions,
} from './graphql-guards.js';
import { graphQLInputError, inspectGraphQLRequest } from '../http/input-guards.js';
import { cookieOriginAllowed } from '../http/same-origin.js';
import { useCompiledExecution } from './compiled-execution.js';
import { createFanout, fanoutKey, type FanoutJoin } from './live-fanout.js';
import { addLiveSubscriptionSource } from '../metrics.js';
import { SESSION_COOKIE } from '../principal.js';
import { WS_CLOSE, wsLimits } from './ws-limits.js';

export const GRAPHQL_PATH = '/graphql';
/** Deepest selection a document may have (the dashboard query is 9 deep). */
export const MAX_QUERY_DEPTH = 15;
/** Most aliases in one document. */
export const MAX_QUERY_ALIASES = 30;

interface InitialContext {
  request?: Request;
  /** REST passes a context it has already built (principal resolved by its middleware). */
  restCtx?: Ctx;
  /** graphql-ws passes the principal resolved at connection time. */
  wsPrincipal?: Principal | null;
}

const domainToGraphQL = graphqlErrorFromDomain;

/** Writes one audit row per root mutation field executed by an authenticated caller. */
function useAudit(): Plugin<Ctx> {
  return {
    onExecute({ args }) {
      const op = args.document.definitions.find(
        (d: DefinitionNode): d is OperationDefinitionNode =>
          d.kind === 'OperationDefinition' && (!args.operationName || d.name?.value === args.operationName),
      );
      if (!op || op.operation !== 'mutation') return;
      const ctx = args.contextValue as Ctx;
      if (!ctx.principal) return;
      return {
        onExecuteDone({ result }) {
          if (!('data' in result) || !result.data) return;
          const mutationType = args.schema.getMutationType();
          const entries: AuditEntry[] = [];
          for (const sel of op.selectionSet.selections) {
            if (sel.kind !== 'Field') continue;
            const key = sel.alias?.value ?? sel.name.value;
            const value = (result.data as Record<string, unknown>)[key];
            if (value === null || value === undefined) continue; // failed: nothing changed
            const def = mutationType?.getFields()[sel.name.value];
            let fieldArgs: Record<string, unknown> = {};
            try {
              if (def) fieldArgs = getArgumentValues(def, sel as FieldNode, args.variableValues ?? {});
            } catch {
              /* arguments already validated by execution */
            }
            const input = fieldArgs.input as Record<string, unknown> | undefined;
            const named = (def ? getNamedType(def.type) : null) as GraphQLNamedType | null;
            const target = auditTargetOfResult(named, value, fieldArgs.id ?? input?.id, fieldArgs.deliveryId);
            const hinted = auditTargetOf(ctx, key);
            entries.push({
              action: sel.name.value,
              targetType: hinted?.targetType ?? target.targetType,
              targetId: hinted?.targetId ?? target.targetId,
              bypassedReview: auditBypassedReview(ctx, key),
            });
          }
          void recordAudit(ctx, entries);
        },
      };
    },
  };
}

/** Applies cookies and headers resolvers asked for (login, logout, silent refresh). */
function useResponseExtras(ctxByRequest: WeakMap<Request, Ctx>): Plugin {
  return {
    onResponse({ request, response }) {
      const ctx = ctxByRequest.get(request);
      if (!ctx) return;
      for (const c of ctx.responseCookies) {
        response.headers.append(
          'set-cookie',
          serializeCookie(c.name, c.value, {
            httpOnly: true,
            sameSite: 'lax',
            path: '/',
            maxAge: c.maxAgeSeconds,
            secure: request.url.startsWith('https:'),
          }),
        );
      }
      for (const [k, v] of Object.entries(ctx.responseHeaders)) response.headers.set(k, v);
    },
  };
}

export type Yoga = YogaServerInstance<InitialContext, Ctx>;

export function createGraphQL(rt: Runtime, schema: GraphQLSchema): Yoga {
  traceSlowResolvers(schema);
  const ctxByRequest = new WeakMap<Request, Ctx>();
  /** Contexts resolved before validation (see earlyCredentials). */
  const early = new WeakMap<Request, Promise<Ctx>>();
  const httpCtx = async (initial: InitialContext): Promise<Ctx> => {
    const req = initial.request!;
    const requestId = req.headers.get('x-request-id') ?? crypto.randomUUID();
    // Yoga runs as Express middleware: the Express request (with its proxy-aware `ip`) is in the server context.
    const clientIp = (initial as { req?: { ip?: string } }).req?.ip ?? null;
    const ctx = await contextFromCredential(
      rt,
      { authorization: req.headers.get('authorization'), cookie: req.headers.get('cookie') },
      requestId,
      clientIp,
    );
    ctxByRequest.set(req, ctx);
    return ctx;
  };
  /**
   * With INTROSPECTION=authenticated, whether validation errors may carry "Did you mean …" hints depends
   * on the caller: the credential is resolved once, before validation, and the context reuses it.
   */
  const earlyCredentials: Plugin = {
    async onParams({ request, context }) {
      if (rt.config.introspection !== 'authenticated') return;
      const pending = httpCtx({ ...(context as object), request } as InitialContext);
      early.set(request, pending);
      await pending.catch(() => undefined); // the context factory rethrows it
    },
  };
  const principalOf = (request: Request): Principal | null | undefined => ctxByRequest.get(request)?.principal;
  return createYoga<InitialContext, Ctx>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    // Any origin may call with a Bearer credential (integrators' own front ends), but never with the
    // session cookie: yoga's default reflects the Origin *with* Allow-Credentials, which would let
    // another (same-site) origin act as the signed-in user and read the answers.
    cors: { credentials: false },
    logging: false,
    landingPage: false,
    graphiql: { title: 'Operations Service', subscriptionsProtocol: 'WS' },
    // The default page loads GraphiQL from a CDN; this one is served from our own assets (offline).
    renderGraphiQL: renderOfflineGraphiQL,
    maskedErrors: {
      maskError: (error) => {
        const badInput = userInputErrorOf(error);
        if (badInput) return badInput;
        if (error instanceof GraphQLError)
          return toGraphQLError(error, (e) => rt.logger.error({ err: e }, 'unexpected error in resolver'));
        if (error instanceof DomainError) return domainToGraphQL(error);
        rt.logger.error({ err: error }, 'unexpected error');
        return domainToGraphQL(new InternalError());
      },
    },
    context: async (initial): Promise<Ctx> => {
      if (initial.restCtx) return initial.restCtx;
      if (initial.wsPrincipal !== undefined) return createCtx(rt, initial.wsPrincipal, crypto.randomUUID());
      try {
        return await (early.get(initial.request!) ?? httpCtx(initial));
      } catch (err) {
        if (err instanceof DomainError) throw domainToGraphQL(err);
        throw err;
      }
    },
    plugins: [
      // Static limits on what one document may ask for (checked at validation, before anything runs):
      // page sizes bound each list, these bound nesting and aliasing.
      maxDepthPlugin({
        n: MAX_QUERY_DEPTH,
        ignoreIntrospection: true,
        flattenFragments: true,
        ...armorRefusal('MAX_QUERY_DEPTH', MAX_QUERY_DEPTH),
      }),
      maxAliasesPlugin({ n: MAX_QUERY_ALIASES, ...armorRefusal('MAX_QUERY_ALIASES', MAX_QUERY_ALIASES) }),
      // Token limit (while parsing), then cost, text rule for literals, introspection policy (graphql-guards.ts).
      earlyCredentials as Plugin<Ctx>,
      ...graphqlGuardPlugins(rt, principalOf),
      // Documents seen before run compiled (compiled-execution.ts).
      useCompiledExecution({
        onCompileError: (errors) =>
          rt.logger.warn(
            { errors: errors.map((e) => e.message) },
            'GraphQL document not compilable; it runs interpreted',
          ),
      }) as Plugin<Ctx>,
      useAudit(),
      useResponseExtras(ctxByRequest),
      useOperationSpans(rt),
    ],
  });
}

/**
 * A connection that only listens sends no operation that could be refused: its credential is checked
 * again every config.credentialRecheckMs (one batched check for all of this node's connections), and the
 * socket closes (4403, ending its subscriptions) once the PAT is revoked or the session ended.
 */
function closeWhenCredentialEnds(rt: Runtime, socket: WebSocket, principal: Principal): void {
  const unwatch = watchCredential(rt, principal, () => socket.close(4403, 'Forbidden'));
  socket.once('close', unwatch);
}

/** What onSubscribe hands to execute/subscribe: yoga's enveloped functions and, for a shared subscription, its group. */
interface WsRoot {
  execute(args: unknown): unknown;
  subscribe(args: unknown): unknown;
  fanout?: Omit<FanoutJoin, 'start'> & { contextFactory(): Promise<Ctx> };
}

/** Serves graphql-ws on the GraphQL path of `server`, authenticating with connectionParams.authorization. */
export function attachGraphQLWs(rt: Runtime, yoga: Yoga, server: HttpServer): WebSocketServer {
  // A message is held whole in memory: cap it like an HTTP body (ws would allow 100 MiB), close code 1009.
  // No per-message compression: every subscriber's frame would be deflated on its own (CPU and memory per socket).
  const wss = new WebSocketServer({
    server,
    path: GRAPHQL_PATH,
    maxPayload: rt.config.bodyLimitBytes,
    perMessageDeflate: false,
  });
  const limits = wsLimits(rt, wss);
  // Subscribers who see the same thing share one operation, and its frame is serialised once (live-fanout.ts).
  const fanout = createFanout();
  wss.once(
    'close',
    addLiveSubscriptionSource(() => fanout.size()),
  );
  useServer(
    {
      // A socket that sends no connection_init in time is closed (4408), so it holds nothing for long.
      connectionInitWaitTimeout: rt.config.wsConnectionInitTimeoutMs,
      // Every connection authenticates at connection_init: no credential or a bad one is closed 4401, a
      // session cookie from another site's page 4403, all before any operation (issue 40).
      onConnect: async (wsCtx) => {
        const params = (wsCtx.connectionParams ?? {}) as Record<string, unknown>;
        const authorization =
          typeof params.authorization === 'string'
            ? params.authorization
            : typeof params.Authorization === 'string'
              ? params.Authorization
              : null;
        const { headers } = wsCtx.extra.request;
        const { socket } = wsCtx.extra;
        const refuse = (code: number, reason: string) => {
          socket.close(code, reason);
          return false;
        };
        const cookie = headers.cookie ?? null;
        const sessionCookie = !!cookie && !!parseCookie(cookie)[SESSION_COOKIE];
        if (!authorization && !sessionCookie)
          return refuse(
            WS_CLOSE.unauthorized,
            'Unauthorized: send connectionParams.authorization (Bearer <PAT or session JWT>)',
          );
        // The session cookie rides along on any page's WebSocket to this host: a cookie-authenticated
        // connection must come from a page of this origin (the console), not from another site's page
        // (the one origin rule of REST and GraphQL over HTTP, src/http/same-origin.ts).
        if (!authorization && !cookieOriginAllowed(headers, rt.config))
          return refuse(WS_CLOSE.forbidden, 'Forbidden: the session cookie is only accepted from this origin');
        let principal: Principal | null;
        try {
          principal = await authenticateConnection(rt, { authorization, cookie });
        } catch (err) {
          if (err instanceof Unauthenticated) principal = null;
          else throw err;
        }
        if (!principal) return refuse(WS_CLOSE.unauthorized, 'Unauthorized: the credential is not valid');
        if (!limits.admitCredential(socket, principal)) return false;
        (wsCtx.extra as { principal?: Principal | null }).principal = principal;
        closeWhenCredentialEnds(rt, socket, principal);
        return true;
      },
      execute: (args) => (args.rootValue as WsRoot).execute(args) as never,
      subscribe: (args) => {
        const root = args.rootValue as WsRoot;
        if (!root.fanout) return root.subscribe(args) as never;
        const { contextFactory, ...join } = root.fanout;
        return fanout.join({
          ...join,
          start: async () => root.subscribe({ ...args, contextValue: await contextFactory() }) as never,
        }) as never;
      },
      onSubscribe: async (wsCtx, id, params) => {
        const extra = wsCtx.extra as typeof wsCtx.extra & { principal?: Principal | null };
        const tooMany = limits.operationRefusal(Object.keys(wsCtx.subscriptions).length);
        if (tooMany) return [domainToGraphQL(new RateLimited(1, tooMany))];
        // A credential revoked (PAT) or ended (logout) after the connection opened must not start new
        // operations: it is checked again for every operation, and the connection is closed if it fails.
        if (extra.principal && !(await principalStillValid(rt, extra.principal))) {
          extra.socket.close(4403, 'Forbidden');
          return [
            domainToGraphQL(
              new Unauthenticated('The credential of this connection was revoked or has ended; connect again.'),
            ),
          ];
        }
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          wsPrincipal: extra.principal ?? null,
        });
        // Syntax errors and the document limits (which throw from validation) are the client's errors:
        // answer them as GraphQL errors instead of letting graphql-ws close the socket as internal.
        const inputProblems = inspectGraphQLRequest(params);
        if (inputProblems.length) return [graphQLInputError(inputProblems)];
        let document;
        try {
          document = parse(params.query);
          const errors = validate(schema, document);
          if (errors.length)
            return introspectionAllowed(rt.config.introspection, extra.principal) ? errors : withoutSuggestions(errors);
        } catch (err) {
          if (err instanceof GraphQLError) return [err];
          throw err;
        }
        const key = fanoutKey(extra.principal ?? null, document, params.query, params.operationName, params.variables);
        const root: WsRoot = { execute, subscribe };
        // A shared subscription's context is made once, by the subscriber that starts its group.
        if (key)
          root.fanout = { key, socket: extra.socket, id, contextFactory: () => contextFactory() as Promise<Ctx> };
        return {
          schema,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue: key ? undefined : await contextFactory(),
          rootValue: root,
        };
      },
    },
    wss,
  );
  return wss;
}
