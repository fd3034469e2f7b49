/**
 * One HTTP POST to a receiver: a whole-request deadline, no redirects (a 3xx is a failed attempt), the
 * SSRF guard in the socket's DNS lookup, keep-alive connections, and a response body truncated to 4 KiB
 * for the history.
 *
 * Receivers may answer before they have read the body (RFC 9110 allows it, typically for a 413 or 401)
 * and then close or reset the connection while the body is still being written. Two rules follow:
 * - every pooled socket carries its own 'error' listener for its whole life (see `guardSocket`), so no
 *   write or read error on it can ever be unhandled, whoever owns the socket at that moment;
 * - a 2xx counts only when the whole request body was handed to the connection. A receiver that answers
 *   2xx and then drops the connection before taking the body has not received the event it acknowledged
 *   (it cannot even have checked the signature, which covers the body), so the attempt is recorded with
 *   the status and an error, and retried; receivers deduplicate by `webhook-id`. A non-2xx answer is the
 *   receiver's verdict whatever happens to the rest of the body, and the unread rest is not sent.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { DisallowedAddressError, guardedLookup, isDisallowedAddress, type UrlPolicy } from '../net/url-guard.js';

/** Bytes of the response body kept in the history. */
const RESPONSE_BODY_LIMIT = 4096;
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
  /** Why no usable response arrived (timeout, connection error, refused address, body not taken). */
  error: string | null;
  /** True when the failure is the SSRF guard: retrying cannot help. */
  disallowed: boolean;
}

/**
 * Gives a pooled socket a permanent 'error' listener. Node's http client forwards socket errors to the
 * request that owns the socket, but it leaves windows with no listener at all: a write that fails after
 * the request already emitted 'finish' (Node 20 emits 'finish' even when the last write failed, the
 * response has ended, the socket is handed back to the agent and the error then fires with nobody
 * listening: the `write EPIPE` that ended the process), and the hand-offs between a request and the agent
 * pool (the TODOs in Node's _http_client and _http_agent). A socket error needs no action here: the
 * socket destroys itself, the agent drops it from the pool, and the request that owns it, if any,
 * reports it through its own 'error' event, which `sendWebhookRequest` turns into the attempt's result.
 */
function guardSocket(socket: Duplex | null | undefined): void {
  socket?.on('error', ignoreSocketError);
}
function ignoreSocketError(): void {}

class GuardedHttpAgent extends http.Agent {
  override createConnection(options: http.ClientRequestArgs, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const socket = super.createConnection(options, callback);
    guardSocket(socket);
    return socket;
  }
}

class GuardedHttpsAgent extends https.Agent {
  override createConnection(options: https.RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const socket = super.createConnection(options, callback);
    guardSocket(socket);
    return socket;
  }
}

const agents = new WeakMap<UrlPolicy, { http: http.Agent; https: https.Agent }>();

function agentsFor(policy: UrlPolicy) {
  let a = agents.get(policy);
  if (!a) {
    const lookup = guardedLookup(policy);
    const opts = { keepAlive: true, keepAliveMsecs: 10_000, maxFreeSockets: 64, lookup, scheduling: 'lifo' as const };
    a = { http: new GuardedHttpAgent(opts), https: new GuardedHttpsAgent(opts) };
    agents.set(policy, a);
  }
  return a;
}

type Outcome = Omit<SendResult, 'durationMs'>;

/** A receiver URL parsed once: where to connect, or why not (an invalid URL, a refused literal address). */
type Target = { ok: true; isHttps: boolean; options: http.RequestOptions } | { ok: false; error: string };

/** Targets memoised per policy and URL (the policy is fixed for a runtime; a literal address's verdict cannot change). */
const TARGETS_LIMIT = 4096;
const targets = new WeakMap<UrlPolicy, Map<string, Target>>();

function targetOf(rawUrl: string, policy: UrlPolicy): Target {
  let memo = targets.get(policy);
  if (!memo) targets.set(policy, (memo = new Map()));
  let t = memo.get(rawUrl);
  if (t === undefined) {
    t = parseTarget(rawUrl, policy);
    if (memo.size >= TARGETS_LIMIT) memo.clear();
    memo.set(rawUrl, t);
  }
  return t;
}

function parseTarget(rawUrl: string, policy: UrlPolicy): Target {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, error: 'invalid URL' };
  }
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(literal) && isDisallowedAddress(literal, policy)) return { ok: false, error: new DisallowedAddressError(literal, literal).message };
  const isHttps = url.protocol === 'https:';
  const options: http.RequestOptions = { protocol: url.protocol, hostname: literal, port: url.port || undefined, path: `${url.pathname}${url.search}` };
  if (url.username || url.password) options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { ok: true, isHttps, options };
}

/** Posts `body` to `url` once and reports what happened; never throws, never leaves an error unhandled. */
export function sendWebhookRequest(req: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (r: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: elapsed() });
    };
    const target = targetOf(req.url, req.policy);
    if (!target.ok) return finish({ status: null, responseBody: null, error: target.error, disallowed: true });
    const { isHttps } = target;
    const agent = isHttps ? agentsFor(req.policy).https : agentsFor(req.policy).http;
    const payload = Buffer.from(req.body, 'utf8');
    const request = (isHttps ? https : http).request({
      ...target.options,
      method: 'POST',
      agent,
      headers: { ...req.headers, 'content-length': String(payload.length) },
    });

    /** The body's fate: still being written, handed whole to the connection, or failed (with why). */
    let body: { state: 'writing' } | { state: 'sent' } | { state: 'failed'; error: string } = { state: 'writing' };
    /** The response once it is complete (or cut short by us), waiting for the body's fate when 2xx. */
    let answered: Outcome | null = null;
    let timedOut = false;

    /** Settles once both the response and (for a 2xx) the body are known. */
    const decide = () => {
      if (!answered) return;
      const s = answered.status ?? 0;
      if (s < 200 || s >= 300 || answered.error) {
        // The receiver's verdict stands; stop writing a body nobody reads (the socket is not reused).
        if (body.state === 'writing') request.destroy();
        return finish(answered);
      }
      if (body.state === 'writing') return; // wait for the write to complete or fail (or the deadline)
      if (body.state === 'failed') {
        return finish({ ...answered, error: `receiver answered ${s} before reading the whole body, then the connection failed (${body.error}); not counted as delivered` });
      }
      finish(answered);
    };

    timer = setTimeout(() => {
      timedOut = true;
      if (answered && body.state === 'writing') body = { state: 'failed', error: `body not sent within ${req.timeoutMs} ms` };
      request.destroy(new Error(`timed out after ${req.timeoutMs} ms`));
      decide();
    }, req.timeoutMs);

    request.on('error', (err: Error & { code?: string }) => {
      const reason = err.message || err.code || 'request failed';
      if (body.state === 'writing') body = { state: 'failed', error: reason };
      if (answered) return decide();
      const disallowed = err instanceof DisallowedAddressError || err.code === 'EDISALLOWEDADDRESS';
      finish({ status: null, responseBody: null, error: reason, disallowed });
    });
    // A request closed before its body was written (reset, destroyed) has not sent it, with or without an error event.
    request.on('close', () => {
      if (body.state === 'writing') {
        body = { state: 'failed', error: 'connection closed while sending the body' };
        decide();
      }
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
      const done = () => {
        if (answered) return;
        answered = {
          status: res.statusCode ?? null,
          responseBody: Buffer.concat(kept).toString('utf8'),
          retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined,
          // Headers in time but the body cut off by the deadline is a timeout, not a success.
          error: timedOut ? `timed out after ${req.timeoutMs} ms while reading the response` : null,
          disallowed: false,
        };
        decide();
      };
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    // The write callback reports the body's own fate: it gets the error when the connection failed
    // before the kernel took every byte, even where Node still emits 'finish' on the request. A write
    // cancelled because the socket was destroyed first (a reset seen on the read side) completes without
    // an error, so success also requires the socket to be intact.
    request.write(payload, (err) => {
      if (body.state !== 'writing') return;
      const socket = request.socket;
      if (err) body = { state: 'failed', error: err.message || 'write failed' };
      else if (!socket || socket.destroyed || socket.errored) body = { state: 'failed', error: socket?.errored?.message ?? 'connection closed while sending the body' };
      else body = { state: 'sent' };
      decide();
    });
    request.end();
  });
}
