/**
 * Cross-site request forgery, one rule for REST, GraphQL over HTTP and graphql-ws: the session cookie
 * rides along on any page's request to this host (SameSite=Lax still sends it from a sibling origin of
 * the same site), so a request that the cookie authenticates must come from a page of this service's
 * own origin. Bearer credentials are not sent by browsers on their own and are not affected.
 *
 * A browser says where a request comes from in `Origin` (every cross-origin request and every POST)
 * and in `Sec-Fetch-Site` (fetch metadata). A request is from the service's own origin when
 * - `Sec-Fetch-Site`, if sent, is `same-origin` or `none` (typed by the user), and
 * - `Origin`, if sent, names the host the request was sent to: the `Host` header, the first
 *   `X-Forwarded-Host` when TRUST_PROXY is set (a proxy that rewrites Host), or PUBLIC_BASE_URL's origin.
 *   `Origin: null` (sandboxed frames, redirects across origins, `data:` pages) never matches.
 * A request with neither header was not sent by a browser page (curl, a script keeping its cookie).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseCookie } from 'cookie';
import { SESSION_COOKIE } from '../principal.js';
import { Forbidden, UnsupportedMediaType } from '../errors.js';

export interface OriginSettings {
  trustProxy: boolean | number | string;
  publicBaseUrl?: string;
}

/** `application/json`, `application/<x>+json`, with or without parameters. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** True when a Content-Type header names JSON. */
export function isJsonContentType(contentType: string | undefined): boolean {
  return JSON_MEDIA_TYPE.test(contentType ?? '');
}

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** True when the request carries no Authorization header and does carry the session cookie. */
export function isCookieAuthenticated(headers: IncomingHttpHeaders): boolean {
  if (headers.authorization || !headers.cookie) return false;
  try {
    return parseCookie(headers.cookie)[SESSION_COOKIE] !== undefined;
  } catch {
    return false;
  }
}

/** Why the request is not from this service's own origin, or null when it is (or no browser sent it). */
export function crossOriginReason(headers: IncomingHttpHeaders, settings: OriginSettings): string | null {
  const site = first(headers['sec-fetch-site'])?.trim().toLowerCase();
  if (site && site !== 'same-origin' && site !== 'none') return `the browser marked it Sec-Fetch-Site: ${site}`;
  const origin = first(headers.origin);
  if (origin === undefined) return null;
  if (origin.trim() === 'null') return 'it came with Origin: null (a sandboxed or opaque page)';
  let originHost: string;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    return 'its Origin header is not a URL';
  }
  const ownHosts = [first(headers.host)];
  if (settings.trustProxy) ownHosts.push(first(headers['x-forwarded-host'])?.split(',')[0]);
  if (settings.publicBaseUrl)
    ownHosts.push(URL.canParse(settings.publicBaseUrl) ? new URL(settings.publicBaseUrl).host : undefined);
  if (ownHosts.some((h) => h && h.trim().toLowerCase() === originHost)) return null;
  return `it came from ${originHost}, another origin`;
}

/** True when a cookie-authenticated connection or request may go ahead (graphql-ws upgrades, GETs). */
export function cookieOriginAllowed(headers: IncomingHttpHeaders, settings: OriginSettings): boolean {
  return !isCookieAuthenticated(headers) || crossOriginReason(headers, settings) === null;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True when the request has a body (a length above zero, or a chunked one). */
function hasBody(headers: IncomingHttpHeaders): boolean {
  return Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
}

/**
 * The CSRF check of one HTTP request: a state-changing request authenticated by the session cookie must
 * come from this service's own origin (403 CROSS_ORIGIN_REQUEST) and must be JSON where the route takes a
 * body, or wherever a body was sent (415): an HTML form can send urlencoded, multipart and text/plain
 * bodies to any origin without a preflight, JSON it cannot. Requests without the cookie pass.
 */
export function assertCookieRequestAllowed(
  req: { method: string; headers: IncomingHttpHeaders },
  settings: OriginSettings,
  routeTakesBody: boolean,
): void {
  if (!STATE_CHANGING.has(req.method.toUpperCase()) || !isCookieAuthenticated(req.headers)) return;
  const reason = crossOriginReason(req.headers, settings);
  if (reason) {
    throw new Forbidden(
      `A request authenticated by the session cookie must come from this service's own pages; ${reason}. Other clients send Authorization: Bearer <token>.`,
      'CROSS_ORIGIN_REQUEST',
    );
  }
  if ((routeTakesBody || hasBody(req.headers)) && !isJsonContentType(req.headers['content-type'])) {
    throw new UnsupportedMediaType(
      'A request authenticated by the session cookie must send its body as application/json.',
    );
  }
}
