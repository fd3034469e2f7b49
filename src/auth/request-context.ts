/**
 * The per-request context from a credential (HTTP headers or graphql-ws connection params), shared by
 * the GraphQL host and the REST adapter; a silently refreshed session JWT goes back as a header/cookie.
 */
import type { Runtime } from '../runtime.js';
import { createCtx, type Ctx } from '../context.js';
import { authenticate } from './authenticate.js';
import { SESSION_COOKIE } from '../principal.js';

/** Builds the per-request context from a credential (HTTP headers or WS connection params). */
export async function contextFromCredential(
  rt: Runtime,
  source: { authorization?: string | null; cookie?: string | null },
  requestId: string,
  clientIp: string | null = null,
): Promise<Ctx> {
  const auth = await authenticate(rt, source);
  const ctx = createCtx(rt, auth.principal, requestId, clientIp);
  if (auth.refreshedJwt) {
    ctx.responseHeaders['x-refreshed-token'] = auth.refreshedJwt.token;
    if (auth.refreshedJwt.viaCookie)
      ctx.responseCookies.push({
        name: SESSION_COOKIE,
        value: auth.refreshedJwt.token,
        maxAgeSeconds: rt.config.jwtTtlSeconds,
      });
  }
  return ctx;
}
