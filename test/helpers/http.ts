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
export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Buffer | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
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

/** The whole HTTP answer to a GraphQL request, for tests that look at statuses and non-GraphQL bodies. */
export function gqlRaw(
  baseUrl: string,
  token: string | undefined,
  query: string,
  variables?: Record<string, unknown>,
): Promise<HttpResult> {
  return call(baseUrl, 'POST', '/graphql', { token, body: { query, variables } });
}

/**
 * One GraphQL request over HTTP. Throws unless the answer is a GraphQL response: a JSON object with
 * `data` or `errors`, with a 2xx status, or a 4xx status carrying GraphQL `errors` (how GraphQL over
 * HTTP reports UNAUTHENTICATED and request errors). A 5xx, an HTML or text page, or a non-GraphQL JSON
 * body (`{detail}`) fails the test here, loudly, instead of reading as "no data". Use `gqlRaw` to look
 * at such answers on purpose.
 */
export async function gql<T = any>(
  baseUrl: string,
  token: string | undefined,
  query: string,
  variables?: Record<string, unknown>,
): Promise<GqlResult<T>> {
  const res = await gqlRaw(baseUrl, token, query, variables);
  const body = res.body as { data?: unknown; errors?: unknown } | string;
  const isGraphQL =
    typeof body === 'object' && body !== null && !Array.isArray(body) && ('data' in body || Array.isArray(body.errors));
  const hasErrors = isGraphQL && Array.isArray((body as { errors?: unknown }).errors);
  const ok =
    isGraphQL && ((res.status >= 200 && res.status < 300) || (res.status >= 400 && res.status < 500 && hasErrors));
  if (!ok) {
    const shown = typeof body === 'string' ? body : JSON.stringify(body);
    throw new Error(
      `GraphQL request got HTTP ${res.status} (${res.headers.get('content-type') ?? 'no content-type'}), not a GraphQL response: ${shown.slice(0, 500)}\nquery: ${query.slice(0, 200)}`,
    );
  }
  return { status: res.status, ...(body as object) };
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

/**
 * Subscribes and collects results; `next()` waits for the next one (with a timeout). An error or the
 * end of the subscription rejects every pending and later `next()` at once, with what happened.
 */
export function subscribe<T = any>(client: Client, query: string, variables?: Record<string, unknown>) {
  const queue: T[] = [];
  const waiters: Array<{ resolve: (v: T) => void; reject: (e: Error) => void }> = [];
  let error: unknown;
  let ended: Error | undefined;
  const end = (why: Error) => {
    ended ??= why;
    for (const w of waiters.splice(0)) w.reject(ended);
  };
  const dispose = client.subscribe<T>(
    { query, variables },
    {
      next: (r) => {
        const v = r as unknown as T;
        const w = waiters.shift();
        if (w) w.resolve(v);
        else queue.push(v);
      },
      error: (e) => {
        error = e;
        end(new Error(`subscription failed: ${describe(e)}`));
      },
      complete: () => end(new Error('subscription completed')),
    },
  );
  return {
    dispose: () => {
      dispose();
      end(new Error('subscription disposed'));
    },
    get error() {
      return error;
    },
    next(timeoutMs = 10000): Promise<T> {
      timeoutMs *= DEADLINE_SCALE;
      const v = queue.shift();
      if (v !== undefined) return Promise.resolve(v);
      if (ended) return Promise.reject(ended);
      return new Promise<T>((resolve, reject) => {
        const w = {
          resolve: (x: T) => {
            clearTimeout(timer);
            resolve(x);
          },
          reject: (e: Error) => {
            clearTimeout(timer);
            reject(e);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error(`no subscription result within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(w);
      });
    },
  };
}

/** An error as text: graphql-ws reports CloseEvents, GraphQL error arrays or Errors. */
function describe(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (e && typeof e === 'object' && 'code' in e)
    return `socket closed ${(e as { code: number; reason?: string }).code} ${(e as { reason?: string }).reason ?? ''}`.trim();
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

/** How much longer than written every `eventually` deadline is (`TEST_DEADLINE_SCALE`, default 3). */
export const DEADLINE_SCALE = Number(process.env.TEST_DEADLINE_SCALE ?? 3);

/** Polls `fn` until it returns a truthy value or the time runs out. */
export async function eventually<T>(
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 10000,
  intervalMs = 50,
): Promise<T> {
  // A deadline says "this should happen", not "this fast": it is stretched by DEADLINE_SCALE so a
  // loaded 2-core machine (CI neighbours, `stress-ng --cpu 2`) still gets there.
  timeoutMs *= DEADLINE_SCALE;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
