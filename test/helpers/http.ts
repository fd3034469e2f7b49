/**
 * Small real-HTTP clients for tests: REST calls and GraphQL over HTTP and WebSocket.
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface HttpResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send this exact string/bytes as the body (for signed webhooks). */
  raw?: string | Buffer;
}

/** One REST call; the body is parsed as JSON when the response says so. */
export async function call<T = any>(baseUrl: string, method: string, path: string, opts: CallOptions = {}): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Buffer | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const res = await fetch(baseUrl + path, { method, headers, body: body as BodyInit | undefined });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** A REST client bound to a base URL and (optionally) a token. */
export function rest(baseUrl: string, token?: string) {
  const api = baseUrl + '/api/v1';
  return {
    get: <T = any>(p: string, o: CallOptions = {}) => call<T>(api, 'GET', p, { token, ...o }),
    post: <T = any>(p: string, body?: unknown, o: CallOptions = {}) => call<T>(api, 'POST', p, { token, body, ...o }),
    put: <T = any>(p: string, body?: unknown, o: CallOptions = {}) => call<T>(api, 'PUT', p, { token, body, ...o }),
    patch: <T = any>(p: string, body?: unknown, o: CallOptions = {}) => call<T>(api, 'PATCH', p, { token, body, ...o }),
    delete: <T = any>(p: string, o: CallOptions = {}) => call<T>(api, 'DELETE', p, { token, ...o }),
  };
}

export interface GqlResult<T = any> {
  status: number;
  data?: T;
  errors?: Array<{ message: string; extensions?: { code?: string; fields?: unknown } }>;
}

/** One GraphQL request over HTTP. */
export async function gql<T = any>(baseUrl: string, token: string | undefined, query: string, variables?: Record<string, unknown>): Promise<GqlResult<T>> {
  const res = await call(baseUrl, 'POST', '/graphql', { token, body: { query, variables } });
  return { status: res.status, ...(res.body as object) };
}

/** A graphql-ws client authenticated with a Bearer credential (no retries: failures surface). */
export function wsClient(baseUrl: string, token?: string): Client {
  return createClient({
    url: baseUrl.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
  });
}

/** Subscribes and collects results; `next()` waits for the next one (with a timeout). */
export function subscribe<T = any>(client: Client, query: string, variables?: Record<string, unknown>) {
  const queue: T[] = [];
  const waiters: Array<(v: T) => void> = [];
  let error: unknown;
  const dispose = client.subscribe<T>(
    { query, variables },
    {
      next: (r) => {
        const v = r as unknown as T;
        const w = waiters.shift();
        if (w) w(v);
        else queue.push(v);
      },
      error: (e) => {
        error = e;
      },
      complete: () => {},
    },
  );
  return {
    dispose,
    get error() {
      return error;
    },
    next(timeoutMs = 5000): Promise<T> {
      const v = queue.shift();
      if (v !== undefined) return Promise.resolve(v);
      return new Promise<T>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no subscription result within ${timeoutMs} ms${error ? `: ${JSON.stringify(error)}` : ''}`)), timeoutMs);
        waiters.push((x) => {
          clearTimeout(t);
          resolve(x);
        });
      });
    },
  };
}

/** Polls `fn` until it returns a truthy value or the time runs out. */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 10000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
