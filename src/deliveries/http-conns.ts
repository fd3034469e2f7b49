/**
 * Keep-alive connections to receivers for the sender: undici Clients (one connection each, no
 * pipelining), pooled per origin and URL policy. A pool of our own rather than undici's Pool because
 * the sender must know which socket carried a request: a 2xx counts only when the whole body was handed
 * to the connection, which only the socket can tell (sender.ts).
 *
 * Every connection is made by undici's connector with the policy's guarded DNS lookup (the SSRF check on
 * the address actually connected to); undici keeps an 'error' listener on its sockets for their whole
 * life, so no socket error can go unhandled.
 */
import type { Socket } from 'node:net';
import { Client, buildConnector } from 'undici';
import { guardedLookup, type UrlPolicy } from '../net/url-guard.js';

/** Idle connections kept per origin (the http.Agent's maxFreeSockets before). */
const MAX_IDLE_PER_ORIGIN = 64;
/** Origins remembered per policy; past this, origins with nothing in flight are closed and forgotten. */
const ORIGINS_LIMIT = 4096;
/** An idle connection is closed after this (a shorter keep-alive hint from the receiver wins). */
const KEEP_ALIVE_MS = 10_000;

/** One connection: its client, and the socket it currently runs on (replaced when it reconnects). */
export interface Conn {
  client: Client;
  socket: Socket | null;
}

class OriginConns {
  private readonly idle: Conn[] = [];
  busy = 0;

  constructor(
    private readonly origin: string,
    private readonly connector: buildConnector.connector,
  ) {}

  /** An idle connection (the most recently used first), or a new one. */
  take(): Conn {
    this.busy++;
    for (let c = this.idle.pop(); c; c = this.idle.pop()) if (!c.client.closed && !c.client.destroyed) return c;
    const conn: Conn = { client: undefined as unknown as Client, socket: null };
    const connect: buildConnector.connector = (opts, cb) => {
      const socket = (this.connector as unknown as (o: typeof opts, c: typeof cb) => Socket)(opts, cb);
      conn.socket = socket;
      return socket;
    };
    conn.client = new Client(this.origin, {
      connect,
      pipelining: 1,
      headersTimeout: 0,
      bodyTimeout: 0,
      keepAliveTimeout: KEEP_ALIVE_MS,
    });
    return conn;
  }

  /** Hands a connection back: kept for reuse, or closed when it may not be reused or enough are idle. */
  give(conn: Conn, reusable: boolean): void {
    this.busy--;
    if (!reusable || conn.client.closed || conn.client.destroyed)
      return void conn.client.destroy().catch(() => undefined);
    if (this.idle.length >= MAX_IDLE_PER_ORIGIN) return void conn.client.close().catch(() => undefined);
    this.idle.push(conn);
  }

  closeIdle(): void {
    for (const c of this.idle.splice(0)) void c.client.close().catch(() => undefined);
  }
}

const pools = new WeakMap<UrlPolicy, { connector: buildConnector.connector; origins: Map<string, OriginConns> }>();

/** The connections to `origin` (scheme://host:port) under `policy`. */
export function connsFor(policy: UrlPolicy, origin: string): OriginConns {
  let pool = pools.get(policy);
  if (!pool) {
    pool = {
      connector: buildConnector({ lookup: guardedLookup(policy) } as buildConnector.BuildOptions),
      origins: new Map(),
    };
    pools.set(policy, pool);
  }
  let conns = pool.origins.get(origin);
  if (!conns) {
    if (pool.origins.size >= ORIGINS_LIMIT) {
      for (const [o, c] of pool.origins) {
        if (c.busy > 0) continue;
        c.closeIdle();
        pool.origins.delete(o);
      }
    }
    conns = new OriginConns(origin, pool.connector);
    pool.origins.set(origin, conns);
  }
  return conns;
}

export type { OriginConns };
