/**
 * The shape of a REST route table entry: `method + path → GraphQL operation + variables + status +
 * response mapping`. Entries are data; rest/adapter.ts turns them into Express routes.
 */
import type { Request, Response } from 'express';
import type { Ctx } from '../src/context.js';
import type { Runtime } from '../src/runtime.js';
import type { Principal } from '../src/principal.js';

/**
 * Who may call a route: a user credential (PAT or session; the default), anyone, or a custom
 * authenticator (ingest key, signed webhook) that returns the principal or throws Unauthenticated.
 * Runs before request validation, so a bad credential is a 401 whatever the body.
 */
export type RouteAuth =
  'user' | 'public' | ((rt: Runtime, req: Request & { rawBody?: Buffer }) => Promise<Principal | null>);

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: any;
  headers: Record<string, string | string[] | undefined>;
  /** "Now" on the service's clock (rt.clock), for relative filters such as `since_hours`. */
  now: Date;
}

export interface OperationRoute {
  method: Method;
  /** Express-style path under /api/v1, e.g. `/auth/tokens/:tokenId`. */
  path: string;
  auth?: RouteAuth;
  /** A GraphQL document with one operation, executed in-process with the caller's context. */
  operation: string;
  variables?: (req: RestRequest) => Record<string, unknown>;
  /** Success status (default 200), or a function of the request (e.g. 200 for a dry run, else 201). 204 sends no body. */
  status?: number | ((req: RestRequest) => number);
  /** Maps `data` to the response body (default: the first root field's value). */
  respond?: (data: any, req: RestRequest) => unknown;
}

/** For what cannot be one GraphQL operation (streams, signed raw-body endpoints): a plain handler. */
export interface HandlerRoute {
  method: Method;
  path: string;
  auth?: RouteAuth;
  /**
   * The service validates the body itself with the same field-list 422s, so the route skips the
   * OpenAPI request validator (its per-request route lookup is the largest cost on the ingest path).
   * Only for hot paths; the contract still documents the body.
   */
  validatesOwnInput?: boolean;
  /**
   * What the handler passes to its service, under the service's names (`{ format: req.query.format }`);
   * the adapter hands them to the handler and maps the service's field locations back to the request
   * (rest/field-paths.ts). Without it the service is given the request body and names fields within it.
   */
  variables?: (req: RestRequest) => Record<string, unknown>;
  handler: (
    req: Request & { ctx: Ctx; rawBody?: Buffer },
    res: Response,
    variables: Record<string, unknown>,
  ) => Promise<void>;
}

export type RouteEntry = OperationRoute | HandlerRoute;
