import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { untilSubscribed } from './helpers/pubsub.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { gql, rest, subscribe, wsClient } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

describe('service spine', () => {
  it('answers /auth/me and { me } with a PAT', async () => {
    const me = await rest(s.url, t.adminToken).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(t.admin.email);
    const r = await gql(s.url, t.adminToken, '{ me { email } }');
    expect(r.data?.me.email).toBe(t.admin.email);
  });

  it('delivers tokenChanged over graphql-ws when a token is minted', async () => {
    const client = wsClient(s.url, t.adminToken);
    const sub = subscribe(client, 'subscription { tokenChanged { id change } }');
    await untilSubscribed(s, 'tokenChanged', t.tenantId);
    const minted = await rest(s.url, t.adminToken).post('/auth/tokens', { name: 'ws-test' });
    expect(minted.status).toBe(201);
    const got = await sub.next();
    expect(got.data.tokenChanged).toEqual({ id: minted.body.id, change: 'created' });
    sub.dispose();
    await client.dispose();
  });

  it('defines every Redis command of its rate limits before serving, so no auto-pipeline lacks one', () => {
    // A pipeline made now is what ioredis' auto-pipelining fills: a command defined after it exists is
    // missing from it, and ioredis then crashes the process (src/server/runtime-parts.ts).
    const pipeline = s.app.rt.redis.pipeline() as unknown as Record<string, unknown>;
    for (const command of ['rlflxIncr', 'opsWebhookReceiversAdmit'])
      expect(typeof pipeline[command], command).toBe('function');
  });
});
