/**
 * The REST client: openapi-fetch over the contract's types (src/openapi-types.ts, generated from the service's
 * OpenAPI document by `npm run schema:print`), with the base URL and the credential handled. Every path, parameter,
 * body and answer is typed; `data` or `error` (the `{code, detail}` body) tells how a call went.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './openapi-types.js';

export type { paths, components, operations } from './openapi-types.js';

export interface RestOptions {
  /** The service's origin, e.g. `https://ops.example.com` (the client adds `/api/v1`). */
  baseUrl: string;
  /** A personal access token (`spat_…`) or a session JWT, sent as `Authorization: Bearer`. */
  token?: string;
  /** An ingest key, sent as `X-Service-Key` (for `POST /events`). */
  ingestKey?: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

export type RestClient = Client<paths>;

export function createRestClient(opts: RestOptions): RestClient {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.ingestKey) headers['x-service-key'] = opts.ingestKey;
  return createClient<paths>({
    baseUrl: `${opts.baseUrl.replace(/\/+$/, '')}/api/v1`,
    headers,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
}
