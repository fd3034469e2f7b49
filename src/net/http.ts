/**
 * GETs to tenant-configured URLs (pulls and health probes), through the same SSRF guard as outbound
 * webhooks: an IP literal is checked against the policy (WEBHOOK_URL_ALLOWLIST), a name is checked by
 * the socket's own DNS lookup (guardedLookup), so the address checked is the address connected to.
 * No redirects, a whole-request deadline, and a bounded response body.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { DisallowedAddressError, guardedLookup, isDisallowedAddress, type UrlPolicy } from './url-guard.js';

const BODY_LIMIT = 8 * 1024 * 1024;

export interface GetResult {
  status: number;
  body: string;
  latencyMs: number;
}

/** Thrown for anything that is not a complete 2xx answer; `message` says what happened, never a secret. */
export class ProbeError extends Error {
  constructor(
    message: string,
    readonly disallowed = false,
  ) {
    super(message);
  }
}

/** Joins a base URL (which may have a path prefix) and an API path. */
export function joinUrl(base: string, apiPath: string): string {
  return base.replace(/\/+$/, '') + apiPath;
}

/** GET `url`; resolves with any status, rejects with ProbeError when no complete response arrived. */
export function guardedGet(
  url: string,
  opts: { policy: UrlPolicy; timeoutMs: number; headers?: Record<string, string>; maxBytes?: number },
): Promise<GetResult> {
  const limit = opts.maxBytes ?? BODY_LIMIT;
  const started = performance.now();
  return new Promise<GetResult>((resolve, reject) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return reject(new ProbeError('invalid URL'));
    }
    const literal = u.hostname.replace(/^\[(.*)\]$/, '$1');
    if (net.isIP(literal) && isDisallowedAddress(literal, opts.policy))
      return reject(new ProbeError(new DisallowedAddressError(literal, literal).message, true));
    const isHttps = u.protocol === 'https:';
    const req = (isHttps ? https : http).request(u, {
      method: 'GET',
      lookup: guardedLookup(opts.policy),
      headers: { accept: 'application/json', ...opts.headers },
      agent: false,
    });
    const timer = setTimeout(() => req.destroy(new ProbeError(`timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on('error', (err: Error & { code?: string }) => {
      clearTimeout(timer);
      const disallowed = err instanceof DisallowedAddressError || err.code === 'EDISALLOWEDADDRESS';
      reject(err instanceof ProbeError ? err : new ProbeError(err.message || err.code || 'request failed', disallowed));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limit) return req.destroy(new ProbeError(`response larger than ${limit} bytes`));
        chunks.push(c);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          latencyMs: Math.round(performance.now() - started),
        });
      });
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(new ProbeError(err.message));
      });
    });
    req.end();
  });
}

/** GET and parse JSON; a non-2xx status or non-JSON body is a ProbeError naming the status. */
export async function guardedGetJson<T = unknown>(
  url: string,
  opts: { policy: UrlPolicy; timeoutMs: number; headers?: Record<string, string> },
): Promise<{ json: T; latencyMs: number }> {
  const r = await guardedGet(url, opts);
  if (r.status < 200 || r.status > 299) throw new ProbeError(`HTTP ${r.status} from ${new URL(url).pathname}`);
  try {
    return { json: JSON.parse(r.body) as T, latencyMs: r.latencyMs };
  } catch {
    throw new ProbeError(`the answer of ${new URL(url).pathname} is not JSON`);
  }
}

/** Authorization header from the common secret fields (`bearer_token`, or `username` + `password`). */
export function authHeaders(config: Record<string, unknown>): Record<string, string> {
  if (typeof config.bearer_token === 'string' && config.bearer_token)
    return { authorization: `Bearer ${config.bearer_token}` };
  if (typeof config.username === 'string' && config.username) {
    return {
      authorization: 'Basic ' + Buffer.from(`${config.username}:${String(config.password ?? '')}`).toString('base64'),
    };
  }
  return {};
}

/** A probe of `<url><path>`: ok on 2xx, with latency and a one-line message. */
export async function probeUrl(
  base: string,
  path: string,
  opts: { policy: UrlPolicy; timeoutMs: number; headers?: Record<string, string> },
) {
  try {
    const r = await guardedGet(joinUrl(base, path), opts);
    const ok = r.status >= 200 && r.status <= 299;
    return {
      ok,
      latencyMs: r.latencyMs,
      message: ok ? `HTTP ${r.status} in ${r.latencyMs} ms` : `HTTP ${r.status} from ${path}`,
    };
  } catch (err) {
    return { ok: false, latencyMs: null, message: (err as Error).message };
  }
}
