/**
 * The GraphQL client: urql over HTTP for queries and mutations, graphql-ws for subscriptions. The
 * credential is the httpOnly session cookie set by `login` (same origin: fetch sends it, and the
 * browser sends it on the WebSocket upgrade), so no token is ever readable by page scripts.
 */
import { Client, cacheExchange, fetchExchange, mapExchange, subscriptionExchange } from 'urql';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws/client';

export interface ConsoleClient {
  urql: Client;
  ws: WsClient;
}

/**
 * A fresh client pair; made again on sign-in and sign-out so no cached data or socket outlives a
 * session. `onSessionEnded` runs when the server answers UNAUTHENTICATED (the session was signed out
 * elsewhere or expired), so the console returns to its sign-in form.
 */
export function makeClient(onSessionEnded: () => void = () => {}): ConsoleClient {
  const wsUrl = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`;
  const ws = createWsClient({
    url: wsUrl,
    lazy: true,
    // Reconnects after a server restart; a session refused at connect (4401) or revoked (4403) is not retried.
    retryAttempts: 20,
    shouldRetry: (e) => !(e && typeof e === 'object' && 'code' in e && [4401, 4403].includes((e as CloseEvent).code)),
  });
  const urql = new Client({
    url: '/graphql',
    fetchOptions: { credentials: 'same-origin', headers: { 'content-type': 'application/json' } },
    preferGetMethod: false,
    // Show what is cached at once, and always ask the server too: another person may have changed it.
    requestPolicy: 'cache-and-network',
    exchanges: [
      mapExchange({
        onError(error, operation) {
          const ended = error.graphQLErrors.some(
            (e) => (e.extensions as { code?: string } | undefined)?.code === 'UNAUTHENTICATED',
          );
          // The sign-in check itself and the login attempt answer UNAUTHENTICATED by design.
          if (ended && !['ConsoleViewer', 'ConsoleLogin'].includes(operationName(operation.query))) onSessionEnded();
        },
      }),
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query || '' };
          return {
            subscribe(sink) {
              const unsubscribe = ws.subscribe(input, sink);
              return { unsubscribe };
            },
          };
        },
      }),
    ],
  });
  return { urql, ws };
}

function operationName(doc: { definitions: readonly { kind: string; name?: { value: string } }[] }): string {
  return doc.definitions.find((d) => d.kind === 'OperationDefinition')?.name?.value ?? '';
}
