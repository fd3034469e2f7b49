/**
 * One HTTP POST to a receiver: a whole-request deadline, no redirects (a 3xx is a failed attempt), the
 * SSRF guard in the socket's DNS lookup, keep-alive connections, and a response body truncated to 4 KiB
 * for the history.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { DisallowedAddressError, guardedLookup, isDisallowedAddress, type UrlPolicy } from './url-guard.js';

/** Bytes of the response body kept in the history. */
export const RESPONSE_BODY_LIMIT = 4096;
/** Beyond this many response bytes the connection is dropped instead of drained. */
const DRAIN_LIMIT = 256 * 1024;

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  policy: UrlPolicy;
}

export interface SendResult {
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  responseBody: string | null;
  retryAfter?: string;
  durationMs: number;
  /** Why no usable response arrived (timeout, connection error, refused address). */
  error: string | null;
  /** True when the failure is the SSRF guard: retrying cannot help. */
  disallowed: boolean;
}

const agents = new WeakMap<UrlPolicy, { http: http.Agent; https: https.Agent }>();

function agentsFor(policy: UrlPolicy) {
  let a = agents.get(policy);
  if (!a) {
    const lookup = guardedLookup(policy);
    const opts = { keepAlive: true, keepAliveMsecs: 10_000, maxFreeSockets: 64, lookup, scheduling: 'lifo' as const };
    a = { http: new http.Agent(opts), https: new https.Agent(opts) };
    agents.set(policy, a);
  }
  return a;
}

/** Posts `body` to `url` once and reports what happened; never throws. */
export function sendWebhookRequest(req: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: elapsed() });
    };
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return finish({ status: null, responseBody: null, error: 'invalid URL', disallowed: true });
    }
    const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (net.isIP(literal) && isDisallowedAddress(literal, req.policy)) {
      return finish({ status: null, responseBody: null, error: new DisallowedAddressError(literal, literal).message, disallowed: true });
    }
    const isHttps = url.protocol === 'https:';
    const agent = isHttps ? agentsFor(req.policy).https : agentsFor(req.policy).http;
    const payload = Buffer.from(req.body, 'utf8');
    const request = (isHttps ? https : http).request(url, {
      method: 'POST',
      agent,
      headers: { ...req.headers, 'content-length': String(payload.length) },
    });
    let timedOut = false;
    timer = setTimeout(() => {
      timedOut = true;
      request.destroy(new Error(`timed out after ${req.timeoutMs} ms`));
    }, req.timeoutMs);
    request.on('error', (err: Error & { code?: string }) => {
      const disallowed = err instanceof DisallowedAddressError || err.code === 'EDISALLOWEDADDRESS';
      finish({ status: null, responseBody: null, error: err.message || err.code || 'request failed', disallowed });
    });
    request.on('response', (res) => {
      const kept: Buffer[] = [];
      let keptBytes = 0;
      let seen = 0;
      res.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (keptBytes < RESPONSE_BODY_LIMIT) {
          const part = chunk.subarray(0, RESPONSE_BODY_LIMIT - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        }
        if (seen > DRAIN_LIMIT) res.destroy();
      });
      const done = () =>
        finish({
          status: res.statusCode ?? null,
          responseBody: Buffer.concat(kept).toString('utf8'),
          retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined,
          // Headers in time but the body cut off by the deadline is a timeout, not a success.
          error: timedOut ? `timed out after ${req.timeoutMs} ms while reading the response` : null,
          disallowed: false,
        });
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    request.end(payload);
  });
}
