/**
 * What one client may hold open on graphql-ws (issue 40, item 4), counted per node:
 * - connections per client address (WS_MAX_CONNECTIONS_PER_IP), counted from the upgrade on, so
 *   sockets that never authenticate count too (they are closed after WS_CONNECTION_INIT_TIMEOUT_MS);
 * - connections per credential (WS_MAX_CONNECTIONS_PER_CREDENTIAL), counted once authenticated;
 * - operations per connection (WS_MAX_SUBSCRIPTIONS_PER_CONNECTION), checked in onSubscribe.
 * A connection over a cap is closed with 4429; an operation over the cap is refused with RATE_LIMITED.
 */
import type { IncomingMessage } from 'node:http';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Runtime } from '../runtime.js';
import type { Principal } from '../principal.js';

/** Close codes of a refused graphql-ws connection. */
export const WS_CLOSE = {
  /** No credential, or one that is not valid (graphql-ws' own code for "not acknowledged"). */
  unauthorized: 4401,
  /** A credential that may not connect this way (a session cookie from another site's page), or one revoked since. */
  forbidden: 4403,
  /** Too many connections from this address or with this credential. */
  tooMany: 4429,
} as const;

function counter() {
  const counts = new Map<string, number>();
  return {
    /** Counts one more under `key` unless `max` are open; returns the release, or undefined when over. */
    take(key: string, max: number): (() => void) | undefined {
      const n = counts.get(key) ?? 0;
      if (n >= max) return undefined;
      counts.set(key, n + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (counts.get(key) ?? 1) - 1;
        if (left <= 0) counts.delete(key);
        else counts.set(key, left);
      };
    },
  };
}

export interface WsLimits {
  /** Counts a credential's connection on `socket`; false (and the socket closed 4429) when it is over its cap. */
  admitCredential(socket: WebSocket, principal: Principal): boolean;
  /** The refusal when `socket` already runs as many operations as it may (else undefined). */
  operationRefusal(activeOperations: number): string | undefined;
}

/** Caps the server's graphql-ws connections; per-address counting starts at every upgrade. */
export function wsLimits(rt: Runtime, wss: WebSocketServer): WsLimits {
  const byAddress = counter();
  const byCredential = counter();
  const { wsMaxConnectionsPerIp, wsMaxConnectionsPerCredential, wsMaxSubscriptionsPerConnection } = rt.config;
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const address = request.socket.remoteAddress ?? 'unknown';
    const release = byAddress.take(address, wsMaxConnectionsPerIp);
    if (!release) {
      socket.close(WS_CLOSE.tooMany, `Too many connections from this address (${wsMaxConnectionsPerIp})`);
      return;
    }
    socket.once('close', release);
  });
  return {
    admitCredential(socket, principal) {
      const key = `${principal.credential.kind}:${principal.credential.id}`;
      const release = byCredential.take(key, wsMaxConnectionsPerCredential);
      if (!release) {
        socket.close(WS_CLOSE.tooMany, `Too many connections with this credential (${wsMaxConnectionsPerCredential})`);
        return false;
      }
      socket.once('close', release);
      return true;
    },
    operationRefusal(activeOperations) {
      if (activeOperations < wsMaxSubscriptionsPerConnection) return undefined;
      return `This connection already runs ${wsMaxSubscriptionsPerConnection} operations (WS_MAX_SUBSCRIPTIONS_PER_CONNECTION); complete one or open another connection.`;
    },
  };
}
