/**
 * Credentials that travel in a URL are kept out of logs: the values of query parameters that carry a
 * secret (`?token=`, `access_token`, `key`, …) and the secret path segment of calendar feeds
 * (`/calendar-feeds/<token>.ics`) and notification action links (`/actions/<token>`) become `[redacted]`.
 * The access log (src/server/http.ts) writes every URL through `redactUrl`.
 */

/** Query parameter names whose values are credentials (compared case-insensitively). */
const SECRET_PARAMS = new Set([
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'key',
  'api_key',
  'apikey',
  'secret',
  'password',
  'signature',
  'sig',
  'form_token',
  'invite',
  'code',
]);

/** Paths whose last segment is the credential itself. */
const SECRET_PATHS = [/^(\/api\/v1\/calendar-feeds\/)[^/?#]+?(\.ics)?(?=$|[?#])/, /^(\/actions\/)[^/?#]+/];

/** The URL (path and query, as in a request line) with its credentials replaced by `[redacted]`. */
export function redactUrl(url: string | undefined): string {
  if (!url) return url ?? '';
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  for (const re of SECRET_PATHS)
    path = path.replace(re, (_m, head: string, ext?: string) => `${head}[redacted]${ext ?? ''}`);
  if (q < 0) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        /* keeps the raw name */
      }
      return eq >= 0 && SECRET_PARAMS.has(decoded.trim().toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}
