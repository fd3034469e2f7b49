/**
 * Assistant and copilot calls are rate-limited per user and per tenant (issue 40, item 4: each call may
 * spend a paid model's tokens): past either budget a call is 429 with Retry-After, naming the budget;
 * another tenant is not affected. The server runs with budgets of 3 per user and 5 per tenant a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { gql, rest } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let member: string;

beforeAll(async () => {
  s = await startTestServer({
    env: { ASSISTANT_RATE_PER_USER_PER_MINUTE: '3', ASSISTANT_RATE_PER_TENANT_PER_MINUTE: '5' },
  });
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  member = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
});
afterAll(async () => {
  await s?.stop();
});

const ask = (token: string) => rest(s.url, token).post('/copilot/chat', { message: 'Which alerts are open?' });

describe('assistant rate limits', () => {
  it("refuses a user's fourth call in a minute with 429, then the tenant's sixth, and leaves other tenants alone", async () => {
    for (let i = 0; i < 3; i++) expect((await ask(t.adminToken)).status).toBe(200);
    const fourth = await ask(t.adminToken);
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(fourth.body.detail).toMatch(/ASSISTANT_RATE_PER_USER_PER_MINUTE/);

    // Another user of the tenant has their own budget, but shares the tenant's: 3 + 2 = 5.
    for (let i = 0; i < 2; i++) expect((await ask(member)).status).toBe(200);
    const sixth = await ask(member);
    expect(sixth.status).toBe(429);
    expect(sixth.body.detail).toMatch(/ASSISTANT_RATE_PER_TENANT_PER_MINUTE/);

    expect((await ask(other.adminToken)).status).toBe(200);
  });

  it('counts chat turns over GraphQL against the same budget', async () => {
    const r = await gql(s.url, t.adminToken, 'mutation { copilotChat(message: "and now?") { reply { id } } }');
    expect(r.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
  });
});
