import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSource } from 'eventsource';
import { startTestServer, type TestServer } from './helpers/server.js';
import { untilSubscribed, untilUnsubscribed } from './helpers/pubsub.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, subscribe, wsClient } from './helpers/http.js';

// Two API nodes on one database and one Redis: what one accepts, the other's subscribers see.
let a: TestServer;
let b: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;

beforeAll(async () => {
  a = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000' } });
  b = await startTestServer({
    db: a.db,
    env: { REDIS_PREFIX: a.config.redisPrefix, SSE_HEARTBEAT_MS: '200', INGEST_RATE_PER_SECOND: '1000' },
  });
  t = await buildTenant(a.app.rt);
  other = await buildTenant(a.app.rt);
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

async function ingest(key: string, body: Record<string, unknown>): Promise<string> {
  const r = await call(a.url + '/api/v1', 'POST', '/events', { body, headers: { 'x-service-key': key } });
  expect(r.status).toBe(202);
  return r.body.id;
}

interface Received {
  id: string;
  type: string;
  data: Record<string, any>;
}

/** A real EventSource client with a PAT; `next()` waits for the next `event` message. */
function openStream(baseUrl: string, token: string, query = '', headers: Record<string, string> = {}) {
  const queue: Received[] = [];
  const waiters: Array<(r: Received) => void> = [];
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const es = new EventSource(`${baseUrl}/api/v1/events/stream${query}`, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), ...headers, authorization: `Bearer ${token}` },
      }),
  });
  es.onopen = () => opened();
  es.addEventListener('event', (m) => {
    const r = { id: m.lastEventId, type: m.type, data: JSON.parse(m.data) };
    const w = waiters.shift();
    if (w) w(r);
    else queue.push(r);
  });
  return {
    es,
    open,
    next(timeoutMs = 5000): Promise<Received> {
      const v = queue.shift();
      if (v) return Promise.resolve(v);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no SSE event within ${timeoutMs} ms`)), timeoutMs);
        waiters.push((r) => {
          clearTimeout(timer);
          resolve(r);
        });
      });
    },
  };
}

describe('GET /events/stream (SSE)', () => {
  it('delivers an event accepted on another node, with id, event name and the REST shape', async () => {
    const stream = openStream(b.url, t.adminToken);
    await stream.open;
    const id = await ingest(t.ingestKey, {
      type: 'deploy.started',
      source: 'gha',
      severity: 'warning',
      labels: { env: 'prod' },
      payload: { v: 1 },
    });
    const got = await stream.next();
    expect(got.id).toBe(id);
    expect(got.type).toBe('event');
    expect(got.data).toMatchObject({
      id,
      type: 'deploy.started',
      source: 'gha',
      severity: 'warning',
      labels: { env: 'prod' },
      payload: { v: 1 },
      received_via: 'ingest',
    });
    stream.es.close();
  });

  it("applies the module and severity filters and never shows another tenant's events", async () => {
    const stream = openStream(b.url, t.adminToken, '?severity=critical&module=infra');
    await stream.open;
    await ingest(other.ingestKey, { type: 'disk.full', module: 'infra', source: 'h', severity: 'critical' });
    await ingest(t.ingestKey, { type: 'disk.full', module: 'infra', source: 'h', severity: 'warning' });
    await ingest(t.ingestKey, { type: 'disk.full', module: 'app', source: 'h', severity: 'critical' });
    const wanted = await ingest(t.ingestKey, { type: 'disk.full', module: 'infra', source: 'h', severity: 'critical' });
    expect((await stream.next()).id).toBe(wanted);
    stream.es.close();
  });

  it('resumes after Last-Event-ID from the database, in order and without duplicates, then goes live', async () => {
    const tenant = await buildTenant(a.app.rt);
    const first = await ingest(tenant.ingestKey, { type: 'r.1', source: 's' });
    const second = await ingest(tenant.ingestKey, { type: 'r.2', source: 's' });
    const third = await ingest(tenant.ingestKey, { type: 'r.3', source: 's' });
    const stream = openStream(b.url, tenant.adminToken, '', { 'last-event-id': first });
    expect((await stream.next()).id).toBe(second);
    expect((await stream.next()).id).toBe(third);
    const fourth = await ingest(tenant.ingestKey, { type: 'r.4', source: 's' });
    expect((await stream.next()).id).toBe(fourth);
    stream.es.close();
  });

  it('sends heartbeat comments', async () => {
    const ac = new AbortController();
    const res = await fetch(`${b.url}/api/v1/events/stream`, {
      headers: { authorization: `Bearer ${t.adminToken}` },
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes(': heartbeat\n\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toMatch(/^retry: \d+\n/);
    expect(text).toContain(': heartbeat\n\n');
    ac.abort();
  });

  it('ends the stream once its PAT is revoked, and the reconnect gets 401', async () => {
    const minted = await call(b.url + '/api/v1', 'POST', '/auth/tokens', {
      token: t.adminToken,
      body: { name: 'sse-revoked' },
    });
    expect(minted.status).toBe(201);
    const stream = openStream(b.url, minted.body.token);
    let refused: number | undefined;
    stream.es.onerror = (e) => (refused = (e as { code?: number }).code ?? refused);
    await stream.open;
    expect(
      (await call(b.url + '/api/v1', 'DELETE', `/auth/tokens/${minted.body.id}`, { token: t.adminToken })).status,
    ).toBe(204);
    await expect.poll(() => stream.es.readyState, { timeout: 10_000 }).toBe(EventSource.CLOSED);
    expect(refused).toBe(401);
  });

  it('returns 401 without a user credential and 422 for a bad filter', async () => {
    expect((await fetch(`${b.url}/api/v1/events/stream`)).status).toBe(401);
    const bad = await fetch(`${b.url}/api/v1/events/stream?severity=loud`, {
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    expect(bad.status).toBe(422);
  });

  it('cuts off a client that stops reading, while ingest keeps answering 202', async () => {
    const tenant = await buildTenant(a.app.rt);
    const socket = net.connect(Number(new URL(b.url).port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(`GET /api/v1/events/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.adminToken}\r\n\r\n`);
    let received = 0;
    socket.on('data', (d: Buffer) => (received += d.length));
    await new Promise((r) => socket.once('data', r));
    socket.pause(); // stop reading: the kernel buffers fill, then the server's
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    const blob = 'x'.repeat(200 * 1024);
    let sent = 0;
    const statuses: number[] = [];
    // Far more than the socket buffers and the 1 MiB stream budget can hold.
    for (let i = 0; i < 25; i++) {
      const batch = await Promise.all(
        Array.from({ length: 8 }, () =>
          call(a.url + '/api/v1', 'POST', '/events', {
            body: { type: 'big.one', source: 's', payload: { blob } },
            headers: { 'x-service-key': tenant.ingestKey },
          }),
        ),
      );
      statuses.push(...batch.map((r) => r.status));
      sent += batch.length * blob.length;
    }
    expect(statuses.every((st) => st === 202)).toBe(true);
    socket.resume(); // drain what was buffered; the server has ended the stream
    await closed;
    expect(received).toBeLessThan(sent);
  });
});

describe('eventAdded subscription (graphql-ws)', () => {
  it('delivers a filtered event accepted on another node', async () => {
    // Nothing of the streams above still listens, so a subscriber on the channel is this one.
    await untilUnsubscribed(b, 'eventAdded', t.tenantId);
    const client = wsClient(b.url, t.adminToken);
    const sub = subscribe(
      client,
      `subscription($f: EventFilter) { eventAdded(filter: $f) { id type source severity labels payload receivedVia receivedAt } }`,
      { f: { type: 'deploy.*', labels: { env: 'prod' } } },
    );
    await untilSubscribed(b, 'eventAdded', t.tenantId);
    await ingest(t.ingestKey, { type: 'deploy.started', source: 'gha', labels: { env: 'staging' } });
    await ingest(t.ingestKey, { type: 'build.started', source: 'gha', labels: { env: 'prod' } });
    const id = await ingest(t.ingestKey, {
      kind: 'deploy.finished',
      source: 'gha',
      labels: { env: 'prod', x: 'y' },
      payload: { ok: true },
    });
    const got = await sub.next();
    expect(got.data.eventAdded).toMatchObject({
      id,
      type: 'deploy.finished',
      source: 'gha',
      severity: 'INFO',
      labels: { env: 'prod', x: 'y' },
      payload: { ok: true },
      receivedVia: 'INGEST',
    });
    sub.dispose();
    await client.dispose();
  });

  it('refuses an anonymous subscriber', async () => {
    const client = wsClient(b.url);
    const sub = subscribe(client, 'subscription { eventAdded { id } }');
    // Closed at connection_init (4401), before the subscription could run.
    await expect(sub.next()).rejects.toThrow(/socket closed 4401/);
    sub.dispose();
    await client.dispose();
  });
});
