/**
 * One HTTP POST to a receiver (undici, on the keep-alive connections of http-conns.ts): a whole-request
 * deadline, no redirects (a 3xx is a failed attempt), the SSRF guard in the socket's DNS lookup, and a
 * response body truncated to 4 KiB for the history.
 *
 * Receivers may answer before they have read the body (RFC 9110 allows it, typically for a 413 or 401)
 * and then close or reset the connection while the body is still being written. Two rules follow:
 * - every socket carries undici's 'error' listener for its whole life, so no write or read error on it
 *   can ever be unhandled, whoever uses the connection at that moment;
 * - a 2xx counts only when the whole request body was handed to the connection (the socket has no byte
 *   of it left to write: `writableLength` 0 while it is intact). A receiver that answers
 *   2xx and then drops the connection before taking the body has not received the event it acknowledged
 *   (it cannot even have checked the signature, which covers the body), so the attempt is recorded with
 *   the status and an error, and retried; receivers deduplicate by `webhook-id`. A non-2xx answer is the
 *   receiver's verdict whatever happens to the rest of the body, and the unread rest is not sent.
 */
import net from 'node:net';
import type { Dispatcher } from 'undici';
import { DisallowedAddressError, isDisallowedAddress, type UrlPolicy } from '../net/url-guard.js';
import { connsFor, type Conn } from './http-conns.js';

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

type Outcome = Omit<SendResult, 'durationMs'>;

/** A receiver URL parsed once: where to connect, or why not (an invalid URL, a refused literal address). */
type Target = { ok: true; origin: string; path: string; authorization?: string } | { ok: false; error: string };

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
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, error: `unsupported protocol ${url.protocol}` };
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(literal) && isDisallowedAddress(literal, policy))
    return { ok: false, error: new DisallowedAddressError(literal, literal).message };
  const t: Target = { ok: true, origin: url.origin, path: `${url.pathname}${url.search}` };
  if (url.username || url.password)
    t.authorization =
      'Basic ' +
      Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64');
  return t;
}

/** Posts `body` to `url` once and reports what happened; never throws, never leaves an error unhandled. */
export function sendWebhookRequest(req: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const target = targetOf(req.url, req.policy);
  if (!target.ok)
    return Promise.resolve({ status: null, responseBody: null, error: target.error, disallowed: true, durationMs: 0 });
  return new Promise<SendResult>((resolve) => new Send(req, target, started, resolve).start());
}

/** How often a 2xx that came before the body was handed over looks again at the body's fate. */
const BODY_POLL_MS = 5;

/** One request on one pooled connection, as an undici dispatch handler. */
class Send implements Dispatcher.DispatchHandler {
  private readonly conns: ReturnType<typeof connsFor>;
  private readonly conn: Conn;
  private controller: Dispatcher.DispatchController | null = null;
  private timer: NodeJS.Timeout | undefined;
  private settled = false;
  private timedOut = false;
  private status: number | null = null;
  private retryAfter: string | undefined;
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private seen = 0;
  /** The response (complete or cut short), once known. */
  private answered: Outcome | null = null;
  /** True once the whole request body is known to have been handed to the connection. */
  private bodySent = false;

  constructor(
    private readonly req: SendRequest,
    private readonly target: Extract<Target, { ok: true }>,
    private readonly started: number,
    private readonly resolve: (r: SendResult) => void,
  ) {
    this.conns = connsFor(req.policy, target.origin);
    this.conn = this.conns.take();
  }

  start(): void {
    this.timer = setTimeout(() => this.onDeadline(), this.req.timeoutMs);
    const headers = this.target.authorization
      ? { ...this.req.headers, authorization: this.target.authorization }
      : this.req.headers;
    try {
      this.conn.client.dispatch(
        { path: this.target.path, method: 'POST', headers, body: Buffer.from(this.req.body, 'utf8') },
        this,
      );
    } catch (err) {
      this.onResponseError(null, err as Error);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
  }

  onResponseStart(
    _c: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return; // informational; the real answer follows
    this.status = statusCode;
    const ra = headers['retry-after'];
    this.retryAfter = typeof ra === 'string' ? ra : undefined;
    this.flushed();
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.seen += chunk.length;
    if (this.keptBytes < RESPONSE_BODY_LIMIT) {
      const part = chunk.subarray(0, RESPONSE_BODY_LIMIT - this.keptBytes);
      this.kept.push(part);
      this.keptBytes += part.length;
    }
    if (this.seen > DRAIN_LIMIT) {
      this.answer();
      this.controller?.abort(new Error('response too large; connection dropped'));
    }
  }

  onResponseEnd(): void {
    this.answer();
  }

  onResponseError(_c: Dispatcher.DispatchController | null, err: Error & { code?: string }): void {
    if (this.settled) return;
    // A response cut short after its head is still the receiver's answer (its status stands).
    if (this.status !== null) return this.answer();
    const disallowed = err instanceof DisallowedAddressError || err.code === 'EDISALLOWEDADDRESS';
    this.finish(
      { status: null, responseBody: null, error: err.message || err.code || 'request failed', disallowed },
      false,
    );
  }

  /** True (and remembered) when every byte written on the connection was taken by it: the body was handed over. */
  private flushed(): boolean {
    if (this.bodySent) return true;
    const socket = this.conn.socket;
    if (socket && !socket.destroyed && socket.writableLength === 0) this.bodySent = true;
    return this.bodySent;
  }

  /** The response is complete (or cut short): settle now, or once the body's fate is known for a 2xx. */
  private answer(): void {
    if (this.answered || this.settled) return;
    const s = this.status ?? 0;
    this.answered = {
      status: this.status,
      responseBody: Buffer.concat(this.kept).toString('utf8'),
      retryAfter: this.retryAfter,
      // Headers in time but the body cut off by the deadline is a timeout, not a success.
      error: this.timedOut ? `timed out after ${this.req.timeoutMs} ms while reading the response` : null,
      disallowed: false,
    };
    const sent = this.flushed();
    // The receiver's verdict stands; the unread rest of a body nobody reads is not sent (the connection goes).
    if (s < 200 || s >= 300 || this.answered.error) return this.finish(this.answered, sent);
    this.awaitBody();
  }

  /** A 2xx counts only once the whole body was handed to the connection; a connection lost first fails it. */
  private awaitBody(): void {
    if (this.settled || !this.answered) return;
    if (this.flushed()) return this.finish(this.answered, true);
    const socket = this.conn.socket;
    if (!socket || socket.destroyed)
      return this.finish(this.bodyLost(socket?.errored?.message ?? 'connection closed while sending the body'), false);
    setTimeout(() => this.awaitBody(), BODY_POLL_MS);
  }

  private bodyLost(why: string): Outcome {
    const a = this.answered!;
    return {
      ...a,
      error: `receiver answered ${a.status} before reading the whole body, then the connection failed (${why}); not counted as delivered`,
    };
  }

  private onDeadline(): void {
    if (this.settled) return;
    this.timedOut = true;
    const reason = new Error(`timed out after ${this.req.timeoutMs} ms`);
    if (this.answered) return this.finish(this.bodyLost(`body not sent within ${this.req.timeoutMs} ms`), false);
    if (this.status !== null) this.answer();
    else this.finish({ status: null, responseBody: null, error: reason.message, disallowed: false }, false);
    this.controller?.abort(reason);
  }

  /** Reports the result once and hands the connection back (closed unless it is clean for the next request). */
  private finish(r: Outcome, reusable: boolean): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    // Not from inside undici's callbacks: a connection given up is destroyed on the next turn.
    if (reusable) this.conns.give(this.conn, true);
    else setImmediate(() => this.conns.give(this.conn, false));
    // Fields spelled out: V8 builds a spread followed by a new property far more slowly (once per send).
    this.resolve({
      status: r.status,
      responseBody: r.responseBody,
      retryAfter: r.retryAfter,
      error: r.error,
      disallowed: r.disallowed,
      durationMs: Math.round(performance.now() - this.started),
    });
  }
}
