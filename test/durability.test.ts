/**
 * Durability of rule evaluation with real processes: a 202 means the event is committed, and whatever
 * happens between accept and evaluation (no worker, Redis losing its jobs, a lost enqueue, a worker
 * killed mid-batch, duplicate jobs) ends with every event evaluated and exactly one alert per match.
 *
 * Redis itself is shared on this machine, so "Redis restarted and lost its data" is simulated by
 * deleting every key under this test server's own prefix (never FLUSHALL).
 */
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { spawnWorker } from './helpers/worker-process.js';
import { buildEvent, buildTenant, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { REDIS_URL } from './helpers/env.js';
import { waitForLockWait } from './helpers/lock-waits.js';
import { startApp, type App } from '../src/server/app.js';
import { evaluateEvents } from '../src/rules/evaluate.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

// The re-drive sweeper picks up events unevaluated for 1 s (default 5 s), every 500 ms (default 2 s), so the
// tests that wait for it end sooner; what they wait for and assert is the same. Events evaluated twice
// meanwhile (a sweep beside a queued job) must still count once: the product's promise, tested below.
const SWEEP_ENV = { EVALUATE_SWEEP_AGE_MS: '1000', EVALUATE_SWEEP_INTERVAL_MS: '500' };

async function server(workers: boolean): Promise<TestServer> {
  const s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000', ...SWEEP_ENV }, start: { workers } });
  cleanups.push(() => s.stop());
  return s;
}

async function workerApp(s: TestServer): Promise<App> {
  const app = await startApp(s.config, { http: false, workers: true });
  cleanups.push(() => app.stop());
  return app;
}

async function deployRule(s: TestServer, t: BuiltTenant): Promise<string> {
  const r = await gql(
    s.url,
    t.adminToken,
    'mutation { createAlertRule(input: { name: "Deploys", typeGlob: "deploy.*", alertSeverity: CRITICAL }) { id } }',
  );
  return r.data.createAlertRule.id;
}

async function ingest(s: TestServer, t: BuiltTenant, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await rest(s.url).post(
      '/events',
      { type: 'deploy.started', source: 'ci', severity: 'critical', payload: { i } },
      { headers: { 'x-service-key': t.ingestKey } },
    );
    expect(r.status).toBe(202);
    ids.push(r.body.id);
  }
  return ids;
}

/** Waits until every event is evaluated, then returns the tenant's alerts with their attached events. */
async function settled(s: TestServer, t: BuiltTenant, eventIds: string[], timeoutMs = 30_000) {
  const db = s.app.rt.prisma;
  await eventually(
    async () => (await db.event.count({ where: { id: { in: eventIds }, evaluatedAt: null } })) === 0,
    timeoutMs,
  );
  return db.alert.findMany({ where: { tenantId: t.tenantId }, include: { events: true } });
}

async function deletePrefixKeys(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL);
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

describe('durability of rule evaluation', () => {
  it('evaluates events accepted while no worker runs once a worker process comes up', async () => {
    const s = await server(false);
    const t = await buildTenant(s.app.rt);
    await deployRule(s, t);
    const ids = await ingest(s, t, 3);
    expect(await s.app.rt.prisma.event.count({ where: { id: { in: ids }, evaluatedAt: null } })).toBe(3);
    await workerApp(s);
    const alerts = await settled(s, t, ids);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ count: 3, status: 'open' });
    expect(alerts[0]!.events.map((e) => e.eventId).sort()).toEqual([...ids].sort());
  });

  it("re-drives events whose jobs Redis lost (every key of the test's prefix deleted) — one alert, exact count", async () => {
    const s = await server(false);
    const t = await buildTenant(s.app.rt);
    await deployRule(s, t);
    const ids = await ingest(s, t, 3);
    // The evaluate jobs are enqueued right after commit (coalesced for up to 50 ms): wait until they hold all three
    // events, so no enqueue comes after the loss below.
    await eventually(
      async () => {
        const jobs = await s.app.rt.queues.get('evaluate').getJobs(['waiting', 'delayed', 'prioritized']);
        const queued = new Set(jobs.flatMap((j) => (j?.data.eventIds as string[] | undefined) ?? []));
        return ids.every((id) => queued.has(id));
      },
      30_000,
      10,
    );
    expect(await deletePrefixKeys(s.config.redisPrefix)).toBeGreaterThan(0);
    expect(await s.app.rt.queues.get('evaluate').count()).toBe(0);
    await workerApp(s);
    const alerts = await settled(s, t, ids);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.count).toBe(3);
    expect(alerts[0]!.events).toHaveLength(3);
  });

  it('keeps re-driving after Redis loses every key of the prefix while the worker runs', async () => {
    const s = await server(true);
    const t = await buildTenant(s.app.rt);
    await deployRule(s, t);
    expect(await deletePrefixKeys(s.config.redisPrefix)).toBeGreaterThan(0);
    // Committed after the loss, its enqueue lost too: only the (re-registered) sweeper can find it.
    const a = await buildEvent(s.app.rt, t.tenantId, { type: 'deploy.started', source: 'ci', enqueue: false });
    const alerts = await settled(s, t, [a.id], 45_000);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.count).toBe(1);
  }, 180_000);

  it('re-drives committed events whose enqueue was lost, with the worker running', async () => {
    const s = await server(true);
    const t = await buildTenant(s.app.rt);
    await deployRule(s, t);
    const a = await buildEvent(s.app.rt, t.tenantId, { type: 'deploy.started', source: 'ci', enqueue: false });
    // Same type and source: one problem, one alert (another type would be its own alert).
    const b = await buildEvent(s.app.rt, t.tenantId, { type: 'deploy.started', source: 'ci', enqueue: false });
    const alerts = await settled(s, t, [a.id, b.id]);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.count).toBe(2);
  });

  it('never opens a second alert nor double counts when the same events are evaluated again, even concurrently', async () => {
    const s = await server(false);
    const t = await buildTenant(s.app.rt);
    await deployRule(s, t);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push((await buildEvent(s.app.rt, t.tenantId, { type: 'deploy.started', source: 'ci', enqueue: false })).id);
    // Fifteen evaluators race over the same fresh events, each in its own transaction: ten with one
    // event each (their alert upserts collide on the live dedup key) and five with the whole batch.
    const results = await Promise.all([
      ...ids.map((id) => evaluateEvents(s.app.rt, [id])),
      ...Array.from({ length: 5 }, () => evaluateEvents(s.app.rt, ids)),
    ]);
    expect(results.reduce((sum, r) => sum + r.evaluated, 0)).toBe(10);
    expect(results.reduce((sum, r) => sum + r.opened, 0)).toBe(1);
    // Then the same ids are enqueued again, repeatedly, and a worker drains them.
    for (let i = 0; i < 5; i++) await s.app.rt.queues.add('evaluate', { eventIds: ids }, { jobId: `again-${i}` });
    const worker = await workerApp(s);
    await eventually(async () => {
      const c = await worker.rt.queues.get('evaluate').getJobCounts('waiting', 'active', 'delayed', 'completed');
      return c.waiting + c.active + c.delayed === 0 && c.completed >= 5;
    });
    const alerts = await settled(s, t, ids);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.count).toBe(10);
    expect(alerts[0]!.events).toHaveLength(10);
    expect(await s.app.rt.prisma.outboxMessage.count({ where: { subjectId: alerts[0]!.id } })).toBe(1);
  });

  it('loses nothing when a worker process is killed (SIGKILL) in the middle of a batch', async () => {
    const s = await server(false);
    const t = await buildTenant(s.app.rt);
    await deployRule(s, t);

    const child = await spawnWorker(s, (kill) => cleanups.push(kill));
    const [first] = await ingest(s, t, 1);
    const [alertBefore] = await settled(s, t, [first!]);
    expect(alertBefore!.count).toBe(1);

    // Hold the alert's row so the worker's next batch stops half-way, inside its transaction.
    const holder = new pg.Client({ connectionString: s.db.url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM "Alert" WHERE id = $1 FOR UPDATE', [alertBefore!.id]);
    const more = await ingest(s, t, 2);
    await waitForLockWait(s.app.rt.prisma);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    await holder.query('ROLLBACK');

    // The killed batch committed nothing.
    expect(await s.app.rt.prisma.event.count({ where: { id: { in: more }, evaluatedAt: null } })).toBe(2);
    expect((await s.app.rt.prisma.alert.findUniqueOrThrow({ where: { id: alertBefore!.id } })).count).toBe(1);

    await workerApp(s);
    const alerts = await settled(s, t, [first!, ...more]);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.count).toBe(3);
    expect(alerts[0]!.events).toHaveLength(3);
  });
});
