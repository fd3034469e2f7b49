/**
 * The per-request context shared by GraphQL (HTTP and WS) and REST: the runtime, the caller, a
 * tenant-scoped data layer. (Relations are batched by Pothos' prisma plugin, which plans nested
 * selections into a constant number of queries; see test/graph.test.ts.)
 */
import type { Runtime } from './runtime.js';
import type { Principal } from './principal.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { scopedDb } from './db/scope.js';
import { Forbidden, Unauthenticated } from './errors.js';

/** A tenant id that matches no row: the scope of an anonymous request. */
const NO_TENANT = '00000000-0000-0000-0000-000000000000';

export interface ResponseCookie {
  name: string;
  value: string;
  maxAgeSeconds: number;
}

export interface Ctx {
  rt: Runtime;
  principal: Principal | null;
  /** Tenant-scoped Prisma: every query is filtered to the caller's tenant. */
  db: PrismaClient;
  requestId: string;
  /** The caller's address (honouring TRUST_PROXY), when the transport knows it. */
  clientIp: string | null;
  /** Cookies and headers a resolver wants set on the HTTP response (login, silent refresh). */
  responseCookies: ResponseCookie[];
  responseHeaders: Record<string, string>;
}

export function createCtx(
  rt: Runtime,
  principal: Principal | null,
  requestId: string,
  clientIp: string | null = null,
): Ctx {
  let db: PrismaClient | undefined;
  return {
    rt,
    principal,
    // Built on first use: hot paths that never query through it (ingest) skip the extension cost.
    get db() {
      return (db ??= scopedDb(rt.prisma, principal?.tenantId ?? NO_TENANT));
    },
    requestId,
    clientIp,
    responseCookies: [],
    responseHeaders: {},
  };
}

/** The caller, or a 401. Services use this when they need a person. */
export function requireUser(ctx: Ctx): Principal & { userId: string } {
  if (!ctx.principal) throw new Unauthenticated();
  if (!ctx.principal.userId)
    throw new Forbidden('This operation needs a user credential (PAT or session).', 'SCOPE_USER_REQUIRED');
  return ctx.principal as Principal & { userId: string };
}
