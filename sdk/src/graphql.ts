/**
 * The GraphQL client: `query()` over HTTP and `subscribe()` over graphql-ws, both taking typed documents (gql.tada:
 * each document's result and variables come from the service's schema.graphql). The credential goes in the
 * `Authorization` header over HTTP and in `connection_init` over WebSocket (the service closes a socket without a
 * valid one with 4401/4403 before any subscription).
 */
import { initGraphQLTada, type ResultOf, type TadaDocumentNode, type VariablesOf } from 'gql.tada';
import { print } from 'graphql';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import type { introspection } from './graphql-env.js';

export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { DateTime: string; JSON: unknown; ID: string };
}>();

export type { ResultOf, VariablesOf };

/** A GraphQL error answer: the service's `extensions.code` (category) and `extensions.reason` (machine reason). */
export class GraphQLRequestError extends Error {
  constructor(
    readonly errors: Array<{ message: string; extensions?: { code?: string; reason?: string } }>,
    readonly status: number,
  ) {
    super(errors.map((e) => e.message).join('; ') || `HTTP ${status}`);
  }
}

export interface GraphQLOptions {
  /** The service's origin, e.g. `https://ops.example.com`. */
  baseUrl: string;
  /** A personal access token (`spat_…`) or a session JWT. */
  token: string;
  fetch?: typeof fetch;
  /** A WebSocket implementation where there is no global one (Node < 22: `ws`). */
  webSocketImpl?: unknown;
}

export interface GraphQLClient {
  query<R, V>(document: TadaDocumentNode<R, V>, variables?: V): Promise<R>;
  subscribe<R, V>(document: TadaDocumentNode<R, V>, variables?: V): AsyncIterableIterator<R>;
  close(): Promise<void>;
}

export function createGraphQLClient(opts: GraphQLOptions): GraphQLClient {
  const origin = opts.baseUrl.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  let ws: WsClient | undefined;
  const socket = () =>
    (ws ??= createWsClient({
      url: `${origin.replace(/^http/, 'ws')}/graphql`,
      connectionParams: { authorization: `Bearer ${opts.token}` },
      ...(opts.webSocketImpl ? { webSocketImpl: opts.webSocketImpl } : {}),
      lazy: true,
      retryAttempts: 0,
    }));
  return {
    async query(document, variables) {
      const res = await doFetch(`${origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.token}` },
        body: JSON.stringify({ query: print(document), variables }),
      });
      const body = (await res.json()) as { data?: unknown; errors?: GraphQLRequestError['errors'] };
      if (body.errors?.length || !body.data) throw new GraphQLRequestError(body.errors ?? [], res.status);
      return body.data as never;
    },
    subscribe(document, variables) {
      const iterator = socket().iterate<never>({
        query: print(document),
        variables: variables as Record<string, unknown> | undefined,
      });
      return (async function* () {
        for await (const result of iterator) {
          if (result.errors?.length) throw new GraphQLRequestError(result.errors as never, 200);
          yield result.data as never;
        }
      })();
    },
    async close() {
      await ws?.dispose();
    },
  };
}
