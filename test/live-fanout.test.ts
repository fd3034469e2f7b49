/**
 * Shared fan-out of live subscriptions (src/server/live-fanout.ts) against a real server and real
 * graphql-ws clients: subscribers who see the same thing share one group (the gauges in /metrics say
 * so), each still gets frames under its own operation id, one leaving does not end the others, different
 * filters and different users are not mixed, and a subscription refused at start is refused to each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, eventually, rest, subscribe, wsClient } from './helpers/http.js';
import { untilSubscribed } from './helpers/pubsub.js';

let s: TestServer;
let t: BuiltTenant;
const clients: Client[] = [];

beforeAll(async () => {
  s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000' } });
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await s?.stop();
});

function client(token: string): Client {
  const c = wsClient(s.url, token);
  clients.push(c);
  return c;
}

/** The shared-subscription gauges of the server. */
async function gauges(): Promise<{ subscriptions: number; groups: number }> {
  const text = await (await fetch(`${s.url}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  return { subscriptions: read('graphql_ws_shared_subscriptions'), groups: read('graphql_ws_subscription_groups') };
}

async function post(type: string): Promise<string> {
  const r = await rest(s.url).post(
    '/events',
    { type, source: 'fanout-test' },
    { headers: { 'x-service-key': t.ingestKey } },
  );
  expect(r.status).toBe(202);
  return r.body.id as string;
}

const DISK = 'subscription { eventAdded(filter: { type: "disk.*" }) { id type } }';

describe('shared fan-out of live subscriptions', () => {
  it('shares one group between subscribers of the same document, each answered under its own id, and keeps it when one leaves', async () => {
    const a = subscribe(client(t.adminToken), DISK);
    const b = subscribe(client(t.adminToken), DISK);
    const c2 = client(t.adminToken);
    const c = subscribe(c2, DISK);
    const d = subscribe(c2, DISK); // a second operation on the same connection: another graphql-ws id
    await eventually(async () => (await gauges()).subscriptions === 4, 30_000);
    expect((await gauges()).groups).toBe(1);
    await untilSubscribed(s.app.rt, 'eventAdded', t.tenantId);
    const first = await post('disk.full');
    for (const sub of [a, b, c, d])
      expect((await sub.next()).data.eventAdded).toEqual({ id: first, type: 'disk.full' });

    a.dispose();
    d.dispose();
    await eventually(async () => (await gauges()).subscriptions === 2, 30_000);
    expect((await gauges()).groups).toBe(1);
    const second = await post('disk.slow');
    for (const sub of [b, c]) expect((await sub.next()).data.eventAdded).toEqual({ id: second, type: 'disk.slow' });
    b.dispose();
    c.dispose();
    await eventually(async () => (await gauges()).groups === 0, 30_000);
  }, 120_000);

  it('does not mix different filters, roles, or (where it matters) users', async () => {
    const disk = subscribe(client(t.adminToken), DISK);
    const net = subscribe(client(t.adminToken), 'subscription { eventAdded(filter: { type: "net.*" }) { id type } }');
    const member = await buildUser(s.app.rt, t.tenantId);
    const memberToken = await buildToken(s.app.rt, member);
    const TOKENS = 'subscription { tokenChanged { id change } }';
    const adminTokens = subscribe(client(t.adminToken), TOKENS);
    const memberTokens = subscribe(client(memberToken), TOKENS);
    // eventAdded is the same for every user of a role: another admin's subscription joins the admin's group.
    const otherAdmin = await buildUser(s.app.rt, t.tenantId, { role: 'admin' });
    const otherDisk = subscribe(client(await buildToken(s.app.rt, otherAdmin)), DISK);
    // A member's does not (another role).
    const memberDisk = subscribe(client(memberToken), DISK);
    // Nor does a document that reaches objects through the event (they could depend on the user): one group per user.
    const WITH_DEVICE = 'subscription { eventAdded(filter: { type: "disk.*" }) { id type device { id } } }';
    const adminDevice = subscribe(client(t.adminToken), WITH_DEVICE);
    const otherAdminDevice = subscribe(client(await buildToken(s.app.rt, otherAdmin)), WITH_DEVICE);
    await eventually(async () => (await gauges()).subscriptions === 8, 30_000);
    expect((await gauges()).groups).toBe(7);

    const n = await post('net.down');
    const dsk = await post('disk.full');
    for (const sub of [disk, otherDisk, memberDisk]) expect((await sub.next()).data.eventAdded.id).toBe(dsk);
    for (const sub of [adminDevice, otherAdminDevice])
      expect((await sub.next()).data.eventAdded).toEqual({ id: dsk, type: 'disk.full', device: null });
    expect((await net.next()).data.eventAdded.id).toBe(n);

    // Each user's token changes reach only that user, though both sent the same document.
    const minted = (await rest(s.url, memberToken).post('/auth/tokens', { name: 'member-own' })).body as { id: string };
    const mintedByAdmin = (await rest(s.url, t.adminToken).post('/auth/tokens', { name: 'admin-own' })).body as {
      id: string;
    };
    expect((await memberTokens.next()).data.tokenChanged).toEqual({ id: minted.id, change: 'created' });
    expect((await adminTokens.next()).data.tokenChanged).toEqual({ id: mintedByAdmin.id, change: 'created' });
    for (const sub of [disk, net, adminTokens, memberTokens, otherDisk, memberDisk, adminDevice, otherAdminDevice])
      sub.dispose();
    await eventually(async () => (await gauges()).groups === 0, 30_000);
  }, 120_000);

  it('answers each subscriber of a refused subscription with the error, and starts no group', async () => {
    const bad = 'subscription { eventAdded(filter: { sinceHours: 100000 }) { id } }';
    const one = subscribe(client(t.adminToken), bad);
    const two = subscribe(client(t.adminToken), bad);
    for (const sub of [one, two]) {
      const answer = (await sub.next()) as {
        data?: unknown;
        errors: Array<{ message: string; extensions: { code: string } }>;
      };
      expect(answer.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(answer.errors[0].message).toContain('sinceHours');
      await expect(sub.next()).rejects.toThrow(/completed/);
    }
    await eventually(async () => (await gauges()).groups === 0, 30_000);
  }, 60_000);

  it('closes (1013) a subscriber that stops reading, while the others and ingest carry on', async () => {
    const reader = subscribe(client(t.adminToken), 'subscription { eventAdded(filter: { type: "big.*" }) { id } }');
    const ws = new WebSocket(s.url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
    const frames: string[] = [];
    ws.on('message', (d) => frames.push(String(d)));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${t.adminToken}` } }));
    await eventually(async () => frames.some((f) => f.includes('connection_ack')));
    ws.send(
      JSON.stringify({
        id: 'slow',
        type: 'subscribe',
        payload: { query: 'subscription { eventAdded(filter: { type: "big.*" }) { id payload } }' },
      }),
    );
    await eventually(async () => (await gauges()).subscriptions === 2, 30_000);
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.pause(); // stop reading: the kernel buffers fill, then the server's send buffer
    const blob = 'x'.repeat(200 * 1024);
    const statuses: number[] = [];
    // Far more than the socket buffers and the 8 MiB send budget can hold.
    for (let i = 0; i < 25; i++) {
      const batch = await Promise.all(
        Array.from({ length: 8 }, () =>
          call(s.url + '/api/v1', 'POST', '/events', {
            body: { type: 'big.one', source: 's', payload: { blob } },
            headers: { 'x-service-key': t.ingestKey },
          }),
        ),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.filter((st) => st !== 202)).toEqual([]);
    ws.resume(); // drain what was buffered; the server has closed the connection
    expect(await closed).toBe(1013);
    expect(frames.filter((f) => f.includes('"next"')).length).toBeLessThan(200);
    // The subscriber that reads got every one of them.
    for (let i = 0; i < 200; i++) await reader.next();
    reader.dispose();
  }, 180_000);
});
