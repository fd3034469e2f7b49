/**
 * Per-tenant evaluation budget (issue 40, item 2): tenant A floods thousands of events against 50 rules
 * with long globs, payload conditions and templates; tenant B's single event, sent after the flood, opens
 * its alert while most of A's events still wait (the evaluate worker defers A's events once A has used
 * EVALUATE_TENANT_BUDGET_MS of its window), and every one of A's events is still evaluated, exactly once.
 * With the budget off (EVALUATE_TENANT_BUDGET_MS=0) B's event waits behind A's whole backlog and this fails.
 *
 * And the pathological glob (item 2): a rule `*a*a…` (14 stars) against a 200-character type is
 * evaluated, and /healthz answers meanwhile; a backtracking matcher would never finish that event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, eventually, rest } from './helpers/http.js';
import { PATHOLOGICAL_GLOB } from './helpers/bombs.js';

const FLOOD = 3000;
const RULES = 50;

let s: TestServer;
let a: BuiltTenant;
let b: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer({
    env: {
      INGEST_RATE_PER_SECOND: '100000',
      EVALUATE_TENANT_BUDGET_MS: '50',
      EVALUATE_TENANT_BUDGET_WINDOW_SECONDS: '1',
    },
  });
  a = await buildTenant(s.app.rt);
  b = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

async function metric(name: string): Promise<number> {
  const r = await call(s.url, 'GET', '/metrics');
  const line = String(r.body)
    .split('\n')
    .find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ').pop()) : 0;
}

const evaluatedOfA = () => s.app.rt.prisma.event.count({ where: { tenantId: a.tenantId, evaluatedAt: { not: null } } });

describe('one tenant flooding heavy rules', () => {
  it("does not hold back another tenant's evaluation, and every flooded event is evaluated once", async () => {
    // One rule matches every flood event and bumps one alert (its count proves each event counted once);
    // 49 more walk long globs and payload conditions that never hold.
    await s.app.rt.prisma.alertRule.createMany({
      data: [
        {
          tenantId: a.tenantId,
          name: 'flood counter',
          kind: 'match' as const,
          typeGlob: 'flood.*',
          dedupKeyTemplate: 'flood',
          summaryTemplate: '{{type}} {{payload.n}} from {{source}} ({{payload.note}})',
        },
        ...Array.from({ length: RULES - 1 }, (_, i) => ({
          tenantId: a.tenantId,
          name: `heavy ${i}`,
          kind: 'match' as const,
          typeGlob: `f*l*o*o*d*.*i*t*e*m${'*'.repeat(1 + (i % 3))}`,
          payloadConditions: [
            { path: 'n', op: 'gt', value: 1_000_000 + i },
            { path: 'note', op: 'contains', value: `never-${i}` },
          ],
          summaryTemplate: '{{type}} {{payload.n}} {{payload.note}} {{source}}',
        })),
      ],
    });
    await s.app.rt.prisma.alertRule.create({
      data: { tenantId: b.tenantId, name: 'b page', kind: 'match', typeGlob: 'b.*', dedupKeyTemplate: 'b' },
    });

    // A floods: FLOOD events in batches of 100, a few requests at a time.
    const batches = Array.from({ length: FLOOD / 100 }, (_, k) =>
      Array.from({ length: 100 }, (_, i) => ({
        type: 'flood.item',
        source: `src-${i % 7}`,
        payload: { n: k * 100 + i, note: 'x'.repeat(200) },
      })),
    );
    let next = 0;
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        while (next < batches.length) {
          const r = await rest(s.url).post('/events', batches[next++], { headers: { 'x-service-key': a.ingestKey } });
          expect(r.status, JSON.stringify(r.body)).toBe(202);
        }
      }),
    );

    // B sends one event after the whole flood was accepted.
    const aBefore = await evaluatedOfA();
    const r = await rest(s.url).post(
      '/events',
      { type: 'b.down', source: 'b-host' },
      { headers: { 'x-service-key': b.ingestKey } },
    );
    expect(r.status).toBe(202);
    await eventually(() => s.app.rt.prisma.alert.findFirst({ where: { tenantId: b.tenantId } }), 60_000);

    // B's alert exists while most of A's events, and most of the backlog A had when B's event came, are
    // still unevaluated: B did not wait behind A's backlog.
    const aDone = await evaluatedOfA();
    expect(FLOOD - aDone).toBeGreaterThan(FLOOD / 2);
    expect(aDone - aBefore).toBeLessThan((FLOOD - aBefore) / 2);
    expect(await metric('events_evaluation_deferred_total')).toBeGreaterThan(0);
    expect(await metric('evaluation_tenant_budget_exceeded_total')).toBeGreaterThan(0);

    // A's events are deferred, never dropped: all evaluated in the end, each exactly once.
    await eventually(async () => (await evaluatedOfA()) === FLOOD, 120_000, 250);
    const alert = await s.app.rt.prisma.alert.findFirstOrThrow({ where: { tenantId: a.tenantId } });
    expect(alert.count).toBe(FLOOD);
    expect(await s.app.rt.prisma.alert.count({ where: { tenantId: a.tenantId } })).toBe(1);
    expect(await s.app.rt.prisma.event.count({ where: { tenantId: a.tenantId, evaluationAttempts: { gt: 0 } } })).toBe(
      0,
    );
  });
});

describe('the pathological glob', () => {
  it('is matched against a 200-character type while /healthz answers', async () => {
    const c = await buildTenant(s.app.rt);
    const rule = await rest(s.url, c.adminToken).post('/alert-rules', { name: 'stars', type_glob: PATHOLOGICAL_GLOB });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const post = (type: string) =>
      rest(s.url).post('/events', { type, source: 'glob' }, { headers: { 'x-service-key': c.ingestKey } });
    const miss = await post('a'.repeat(199) + '.');
    const hit = await post('a'.repeat(200));
    expect([miss.status, hit.status]).toEqual([202, 202]);
    expect((await call(s.url, 'GET', '/healthz')).status).toBe(200);
    const events = () => s.app.rt.prisma.event.findMany({ where: { tenantId: c.tenantId } });
    await eventually(async () => {
      const rows = await events();
      return rows.length === 2 && rows.every((e) => e.evaluatedAt !== null);
    }, 30_000);
    expect((await call(s.url, 'GET', '/healthz')).status).toBe(200);
    const alerts = await s.app.rt.prisma.alert.findMany({ where: { tenantId: c.tenantId } });
    expect(alerts.map((x) => x.summary)).toEqual([expect.stringContaining('a'.repeat(200))]);
  });
});
