/**
 * The shape of a REST route table entry: `method + path → GraphQL operation + variables + status +
 * response mapping`. Entries are data; rest/adapter.ts turns them into Express routes.
 */
import type { Request, Response } from 'express';
import type { Ctx } from '../src/context.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

export interface OperationRoute {
  method: Method;
  /** Express-style path under /api/v1, e.g. `/auth/tokens/:tokenId`. */
  path: string;
  /** Who may call: a user credential (PAT or session; the default) or anyone. */
  auth?: 'user' | 'public';
  /** A GraphQL document with one operation, executed in-process with the caller's context. */
  operation: string;
  variables?: (req: RestRequest) => Record<string, unknown>;
  /** Success status (default 200). 204 sends no body. */
  status?: number;
  /** Maps `data` to the response body (default: the first root field's value). */
  respond?: (data: any, req: RestRequest) => unknown;
}

/** For what cannot be one GraphQL operation (streams, signed raw-body endpoints): a plain handler. */
export interface HandlerRoute {
  method: Method;
  path: string;
  auth?: 'user' | 'public';
  handler: (req: Request & { ctx: Ctx; rawBody?: Buffer }, res: Response) => Promise<void>;
}

export type RouteEntry = OperationRoute | HandlerRoute;
