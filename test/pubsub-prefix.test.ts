/**
 * Two installations on one Redis, told apart only by REDIS_PREFIX, must not hear each other's live
 * updates. To make the tenant topic identical on both (the worst case), they share one database here,
 * so one tenant exists in both; only the Redis channel name can keep them apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { rest, subscribe, wsClient } from './helpers/http.js';
import { subscriberCount, untilSubscribed, untilUnsubscribed } from './helpers/pubsub.js';
import type { Client } from 'graphql-ws';

let a: TestServer;
let b: TestServer;
let t: BuiltTenant;
const clients: Client[] = [];

beforeAll(async () => {
  a = await startTestServer();
  b = await startTestServer({ db: a.db }); // a prefix of its own (testConfig draws one per server)
  t = await buildTenant(a.app.rt);
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await b?.stop();
  await a?.stop();
});

const TOKEN_CHANGED = 'subscription { tokenChanged { id change } }';

function listen(server: TestServer) {
  const c = wsClient(server.url, t.adminToken);
  clients.push(c);
  return subscribe(c, TOKEN_CHANGED);
}

async function mint(server: TestServer, name: string): Promise<string> {
  const r = await rest(server.url, t.adminToken).post('/auth/tokens', { name });
  expect(r.status).toBe(201);
  return r.body.id;
}

describe('pub/sub channels carry REDIS_PREFIX', () => {
  it('subscribes each installation on its own prefixed channel', async () => {
    expect(a.config.redisPrefix).not.toBe(b.config.redisPrefix);
    const onA = listen(a);
    const onB = listen(b);
    await untilSubscribed(a, 'tokenChanged', t.tenantId);
    await untilSubscribed(b, 'tokenChanged', t.tenantId);
    // One subscriber per installation channel; nobody on the bare, unprefixed topic.
    expect(await subscriberCount(a, 'tokenChanged', t.tenantId)).toBe(1);
    expect(await subscriberCount(b, 'tokenChanged', t.tenantId)).toBe(1);
    const [, bare] = (await a.app.rt.redis.call('PUBSUB', 'NUMSUB', `tokenChanged:${t.tenantId}`)) as [string, number];
    expect(Number(bare)).toBe(0);
    onA.dispose();
    onB.dispose();
    await untilUnsubscribed(a, 'tokenChanged', t.tenantId);
    await untilUnsubscribed(b, 'tokenChanged', t.tenantId);
  });

  it("does not deliver one installation's events to the other's subscribers", async () => {
    const onA = listen(a);
    const onB = listen(b);
    await untilSubscribed(a, 'tokenChanged', t.tenantId);
    await untilSubscribed(b, 'tokenChanged', t.tenantId);

    const fromA = await mint(a, 'minted-on-a');
    expect((await onA.next()).data.tokenChanged).toEqual({ id: fromA, change: 'created' });
    const fromB = await mint(b, 'minted-on-b');
    // B's subscriber hears B's token first: A's announcement, published earlier, never reached it.
    expect((await onB.next()).data.tokenChanged).toEqual({ id: fromB, change: 'created' });
    // And the other way round: A's next message is A's next token, not B's.
    const againA = await mint(a, 'minted-on-a-again');
    expect((await onA.next()).data.tokenChanged).toEqual({ id: againA, change: 'created' });
    onA.dispose();
    onB.dispose();
  });
});
