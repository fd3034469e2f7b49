/**
 * Connection limits (issue 40, item 4): graphql-ws authenticates at connection_init (no credential or a
 * bad one is closed 4401 before any operation runs; a socket that never sends connection_init is closed
 * 4408), caps per client address, per credential and per connection, and a request body dripped slower
 * than HTTP_REQUEST_TIMEOUT_SECONDS is cut with 408. The server runs with small caps so the test can
 * reach them.
 */
import net from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, eventually, subscribe, wsClient } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;
const opened: WebSocket[] = [];

beforeAll(async () => {
  s = await startTestServer({
    env: {
      WS_MAX_CONNECTIONS_PER_IP: '6',
      WS_MAX_CONNECTIONS_PER_CREDENTIAL: '3',
      WS_MAX_SUBSCRIPTIONS_PER_CONNECTION: '2',
      WS_CONNECTION_INIT_TIMEOUT_MS: '500',
      HTTP_REQUEST_TIMEOUT_SECONDS: '2',
    },
  });
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  for (const ws of opened) ws.terminate();
  await s?.stop();
});

interface Frames {
  ws: WebSocket;
  messages: Array<{ type: string; id?: string; payload?: unknown }>;
  closed: Promise<{ code: number; reason: string }>;
}

/** A raw graphql-ws socket; `init` is the connection_init payload to send once open (none: never sends it). */
async function socket(init?: Record<string, unknown>, query?: string): Promise<Frames> {
  const ws = new WebSocket(s.url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
  opened.push(ws);
  const messages: Frames['messages'] = [];
  ws.on('message', (d) => messages.push(JSON.parse(String(d)) as Frames['messages'][number]));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  if (init) ws.send(JSON.stringify({ type: 'connection_init', payload: init }));
  // `query` is sent once the connection is acknowledged.
  if (query)
    ws.on('message', (d) => {
      if ((JSON.parse(String(d)) as { type: string }).type === 'connection_ack')
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
    });
  return { ws, messages, closed };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('graphql-ws authenticates at connection_init', () => {
  it('closes a connection with no credential 4401 instead of acknowledging it', async () => {
    const c = await socket({});
    expect((await c.closed).code).toBe(4401);
    expect(c.messages).toEqual([]); // no connection_ack
  });

  it('closes a connection with a bad credential 4401', async () => {
    const c = await socket(bearer('spat_not_a_token'));
    expect((await c.closed).code).toBe(4401);
    expect(c.messages).toEqual([]);
  });

  it('closes a socket that never sends connection_init (4408)', async () => {
    const c = await socket();
    expect((await c.closed).code).toBe(4408);
  });

  it('acknowledges a valid credential', async () => {
    const c = await socket(bearer(t.adminToken));
    const client = wsClient(s.url, t.adminToken);
    const sub = subscribe(client, '{ me { email } }');
    expect(await sub.next()).toMatchObject({ data: { me: { email: t.admin.email } } });
    await client.dispose();
    c.ws.close();
    await c.closed;
  });
});

describe('caps', () => {
  it('refuses a fourth connection with one credential (4429), and one again once another closes', async () => {
    const held = await Promise.all([1, 2, 3].map(() => socket(bearer(t.adminToken))));
    const over = await socket(bearer(t.adminToken));
    expect(await over.closed).toMatchObject({ code: 4429, reason: expect.stringMatching(/credential/) });
    held[0]!.ws.close();
    await held[0]!.closed;
    // The server counts the closed one out when its side of the socket closes: try until it has.
    const again = await eventually(async () => {
      const c = await socket(bearer(t.adminToken), '{ me { email } }');
      const first = await Promise.race([
        c.closed.then(() => 'closed'),
        eventually(async () => c.messages.some((m) => m.type === 'next')).then(() => 'answered'),
      ]);
      return first === 'answered' ? c : null;
    });
    for (const c of [...held.slice(1), again]) c.ws.close();
    await Promise.all([...held.slice(1), again].map((c) => c.closed));
  });

  it('refuses connections from one address past its cap (4429), authenticated or not', async () => {
    const held = await Promise.all([1, 2, 3, 4, 5, 6].map(() => socket()));
    const over = await socket();
    expect(await over.closed).toMatchObject({ code: 4429, reason: expect.stringMatching(/address/) });
    for (const c of held) c.ws.terminate();
    await Promise.all(held.map((c) => c.closed));
  });

  it('refuses a third concurrent operation on one connection with RATE_LIMITED, and keeps the connection', async () => {
    const client = wsClient(s.url, t.adminToken);
    const live = [
      subscribe(client, 'subscription { tokenChanged { id } }'),
      subscribe(client, 'subscription { alertChanged { change } }'),
    ];
    const third = subscribe(client, 'subscription { eventAdded { id } }');
    await expect(third.next()).rejects.toThrow(/WS_MAX_SUBSCRIPTIONS_PER_CONNECTION/);
    live[0]!.dispose();
    await expect
      .poll(async () => {
        const q = subscribe(client, '{ me { email } }');
        return (await q.next().catch(() => null)) !== null;
      })
      .toBe(true);
    live[1]!.dispose();
    await client.dispose();
  });
});

describe('request bodies', () => {
  it('cuts a body dripped slower than HTTP_REQUEST_TIMEOUT_SECONDS with 408', async () => {
    const url = new URL(s.url);
    const sock = net.connect(Number(url.port), url.hostname);
    let answer = '';
    sock.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    const closed = new Promise<void>((resolve) => sock.once('close', () => resolve()));
    sock.on('error', () => undefined);
    sock.write(
      `POST /api/v1/events HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
    );
    // One byte every 200 ms: it would take 5.5 hours to finish.
    const drip = setInterval(() => sock.write(' '), 200);
    await closed;
    clearInterval(drip);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    const health = await call(s.url, 'GET', '/healthz');
    expect(health.status).toBe(200);
  });
});
