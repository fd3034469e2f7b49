import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, rest, subscribe } from './helpers/http.js';
import { untilSubscribed, untilUnsubscribed } from './helpers/pubsub.js';

let s: TestServer;
let t: BuiltTenant;
const clients: Client[] = [];

beforeAll(async () => {
  // The periodic credential re-check is far off here, so the tests that show an open connection
  // refusing new operations are not racing it; the idle-listener test runs its own server with 300 ms.
  s = await startTestServer({ env: { CREDENTIAL_RECHECK_MS: '600000' } });
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await s?.stop();
});

/** A lazy client (connects on first operation), authenticated with a Bearer credential if given. */
function client(token?: string, server = s): Client {
  return withParams(token ? { authorization: `Bearer ${token}` } : {}, server);
}

/** A client with raw connectionParams. */
function withParams(connectionParams: Record<string, unknown>, server = s): Client {
  const c = createClient({
    url: server.url.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams,
  });
  clients.push(c);
  return c;
}

type Outcome = { kind: 'next'; value: any } | { kind: 'error'; error: any } | { kind: 'complete' };

/** What happens first to one operation: a result, an error (incl. the socket closing) or completion. */
function firstOutcome(c: Client, query: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const dispose = c.subscribe(
      { query },
      {
        next: (value) => {
          dispose();
          resolve({ kind: 'next', value });
        },
        error: (error) => resolve({ kind: 'error', error }),
        complete: () => resolve({ kind: 'complete' }),
      },
    );
  });
}

const TOKEN_CHANGED = 'subscription { tokenChanged { id change } }';

async function mint(name: string) {
  return (await rest(s.url, t.adminToken).post('/auth/tokens', { name })).body as { id: string; token: string };
}

describe('graphql-ws authentication', () => {
  it('accepts a PAT in connectionParams and runs queries with it', async () => {
    const o = await firstOutcome(client(t.adminToken), '{ me { email } viewer { credentialKind } }');
    expect(o).toEqual({
      kind: 'next',
      value: { data: { me: { email: t.admin.email }, viewer: { credentialKind: 'PAT' } } },
    });
  });

  it('accepts a session JWT in connectionParams and delivers subscription events', async () => {
    const jwt = (await rest(s.url).post('/auth/login', { email: t.admin.email, password: t.adminPassword })).body
      .access_token;
    const c = client(jwt);
    const viewer = await firstOutcome(c, '{ viewer { credentialKind } }');
    expect(viewer).toEqual({ kind: 'next', value: { data: { viewer: { credentialKind: 'SESSION' } } } });
    const sub = subscribe(c, TOKEN_CHANGED);
    await untilSubscribed(s, 'tokenChanged', t.tenantId);
    const minted = await mint('ws-session');
    expect((await sub.next()).data.tokenChanged).toEqual({ id: minted.id, change: 'created' });
    sub.dispose();
    await untilUnsubscribed(s, 'tokenChanged', t.tenantId);
  });

  it('refuses the connection for a revoked PAT', async () => {
    const tok = await mint('revoked-ws');
    await rest(s.url, t.adminToken).delete(`/auth/tokens/${tok.id}`);
    const o = await firstOutcome(client(tok.token), '{ me { email } }');
    expect(o.kind).toBe('error');
    expect((o as { error: { code: number } }).error.code).toBe(4401);
  });

  it('refuses new operations on an open connection once its PAT is revoked, and closes it', async () => {
    const tok = await mint('revoked-while-connected');
    const c = client(tok.token);
    const before = await firstOutcome(c, '{ me { email } }');
    expect(before).toEqual({ kind: 'next', value: { data: { me: { email: t.admin.email } } } });
    const live = subscribe(c, TOKEN_CHANGED); // keeps this one connection open
    await untilSubscribed(s, 'tokenChanged', t.tenantId);
    expect((await rest(s.url, t.adminToken).delete(`/auth/tokens/${tok.id}`)).status).toBe(204);
    expect((await live.next()).data.tokenChanged).toEqual({ id: tok.id, change: 'revoked' }); // still the same connection
    const after = await firstOutcome(c, '{ me { email } }');
    // The connection is closed (4403), which also ends every subscription it carried.
    expect((after as { error: { code: number } }).error.code).toBe(4403);
    live.dispose();
    await untilUnsubscribed(s, 'tokenChanged', t.tenantId);
  });

  it('closes an idle connection that only listens once its PAT is revoked, ending its subscriptions', async () => {
    const quick = await startTestServer({ env: { CREDENTIAL_RECHECK_MS: '300' } });
    try {
      const tq = await buildTenant(quick.app.rt);
      const tok = (await rest(quick.url, tq.adminToken).post('/auth/tokens', { name: 'idle-listener' })).body as {
        id: string;
        token: string;
      };
      const c = client(tok.token, quick);
      let closedWith: number | undefined;
      c.on('closed', (event) => {
        closedWith = (event as { code?: number }).code;
      });
      const live = subscribe(c, TOKEN_CHANGED);
      await untilSubscribed(quick, 'tokenChanged', tq.tenantId);
      expect(closedWith).toBeUndefined(); // listening while the token is valid
      expect((await rest(quick.url, tq.adminToken).delete(`/auth/tokens/${tok.id}`)).status).toBe(204);
      // No operation is sent: the periodic re-check (300 ms here) must close it by itself.
      await eventually(async () => closedWith === 4403, 15_000, 50);
      await eventually(async () => (live.error as { code?: number } | undefined)?.code === 4403, 15_000, 50); // its subscription ended with it
      live.dispose();
      await c.dispose();
    } finally {
      await quick.stop();
    }
  });

  it('refuses new operations on an open connection once its session is logged out', async () => {
    const jwt = (await rest(s.url).post('/auth/login', { email: t.admin.email, password: t.adminPassword })).body
      .access_token;
    const c = client(jwt);
    expect((await firstOutcome(c, '{ viewer { credentialKind } }')).kind).toBe('next');
    const live = subscribe(c, TOKEN_CHANGED);
    await untilSubscribed(s, 'tokenChanged', t.tenantId);
    expect((await rest(s.url, jwt).post('/auth/logout')).status).toBe(204);
    const minted = await mint('after-logout');
    expect((await live.next()).data.tokenChanged).toEqual({ id: minted.id, change: 'created' }); // still the same connection
    const after = await firstOutcome(c, '{ me { email } }');
    expect((after as { error: { code: number } }).error.code).toBe(4403);
    live.dispose();
    await untilUnsubscribed(s, 'tokenChanged', t.tenantId);
  });

  it('closes a connection that sends a message over the body limit (1009), and accepts one under it', async () => {
    const limit = s.app.rt.config.bodyLimitBytes;
    const firstReply = (padBytes: number) =>
      new Promise<{ message?: string; closeCode?: number }>((resolve) => {
        const ws = new WebSocket(s.url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
        ws.on('open', () =>
          ws.send(
            JSON.stringify({
              type: 'connection_init',
              payload: { authorization: `Bearer ${t.adminToken}`, pad: 'x'.repeat(padBytes) },
            }),
          ),
        );
        ws.on('message', (m) => {
          resolve({ message: String(m) });
          ws.close();
        });
        ws.on('close', (code) => resolve({ closeCode: code }));
        ws.on('error', () => undefined);
      });
    expect(await firstReply(1024)).toEqual({ message: JSON.stringify({ type: 'connection_ack' }) });
    expect(await firstReply(limit + 1024)).toEqual({ closeCode: 1009 });
  });

  it('refuses the connection for an invalid token and a malformed authorization', async () => {
    const garbage = await firstOutcome(client('spat_garbage'), '{ me { email } }');
    expect((garbage as { error: { code: number } }).error.code).toBe(4401);
    const malformed = await firstOutcome(withParams({ authorization: 'Token abc' }), '{ me { email } }');
    expect((malformed as { error: { code: number } }).error.code).toBe(4401);
  });

  it('refuses the connection for a logged-out session', async () => {
    const jwt = (await rest(s.url).post('/auth/login', { email: t.admin.email, password: t.adminPassword })).body
      .access_token;
    await rest(s.url, jwt).post('/auth/logout');
    const o = await firstOutcome(client(jwt), '{ me { email } }');
    expect((o as { error: { code: number } }).error.code).toBe(4401);
  });

  it('closes a connection without credentials (4401) before any subscription or query runs', async () => {
    for (const query of [TOKEN_CHANGED, '{ me { email } }']) {
      const o = await firstOutcome(client(), query);
      expect(o.kind).toBe('error');
      expect((o as { error: { code: number } }).error.code).toBe(4401);
    }
  });
});
