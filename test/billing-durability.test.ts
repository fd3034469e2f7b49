/**
 * A metering worker killed mid-job (a real child process, SIGKILL) commits nothing, and metering the
 * same windows again afterwards gives exactly the expected totals: the window's rows are replaced in
 * one transaction, never appended.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { spawnWorker } from './helpers/worker-process.js';
import { waitForLockWait } from './helpers/lock-waits.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { startApp } from '../src/server/app.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const HOUR = 3600_000;
/** The start of the hour the server's clock reads (every event of the test is received in it or later). */
const hourOf = (s: TestServer) => new Date(Math.floor(s.app.rt.clock.now().getTime() / HOUR) * HOUR).toISOString();

async function ingest(s: TestServer, t: BuiltTenant, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await rest(s.url).post(
      '/events',
      { type: 'job.finished', source: 'batch', module: 'etl', payload: { i } },
      { headers: { 'x-service-key': t.ingestKey } },
    );
    expect(r.status).toBe(202);
  }
}

async function total(s: TestServer, t: BuiltTenant): Promise<string> {
  const r = await rest(s.url, t.adminToken).get('/billing/current');
  expect(r.status).toBe(200);
  return r.body.total.amount;
}

describe('metering durability', () => {
  it('a worker process killed (SIGKILL) in the middle of a metering job leaves no partial usage; a re-run gives the same totals', async () => {
    const s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000' }, start: { workers: false } });
    cleanups.push(() => s.stop());
    const t = await buildTenant(s.app.rt);
    const FROM = hourOf(s);
    await ingest(s, t, 4);

    // Queue the windows while no worker runs, then hold their BillingWindow rows: the job's last
    // statement (stamping the window computed) waits on them, after it has deleted and inserted usage.
    const queued = await gql(s.url, t.adminToken, 'mutation($from: String) { recomputeUsage(from: $from) }', {
      from: FROM,
    });
    expect(queued.data.recomputeUsage).toBeGreaterThan(0);
    const holder = new pg.Client({ connectionString: s.db.url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('BEGIN');
    const held = await holder.query('SELECT "windowStart" FROM "BillingWindow" WHERE "tenantId" = $1 FOR UPDATE', [
      t.tenantId,
    ]);
    expect(held.rowCount).toBe(queued.data.recomputeUsage);

    const child = await spawnWorker(s, (kill) => cleanups.push(kill));
    const db = s.app.rt.prisma;
    await waitForLockWait(db, ['BillingWindow', 'computedAt']);
    // The job has written its usage rows (uncommitted) and waits: kill it there.
    const uncommitted = await db.$queryRawUnsafe<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'BillingUsage' AND l.mode = 'RowExclusiveLock'`,
    );
    expect(uncommitted[0]!.n).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    await holder.query('ROLLBACK');

    // Nothing of the killed job is visible.
    expect(await s.app.rt.prisma.billingUsage.count({ where: { tenantId: t.tenantId } })).toBe(0);
    expect(await total(s, t)).toBe('0.00');

    // A worker comes up; metering the same windows again gives the exact totals, and once more the same.
    const worker = await startApp(s.config, { http: false, workers: true, clock: s.app.rt.clock });
    cleanups.push(() => worker.stop());
    for (let round = 0; round < 2; round++) {
      const again = await gql(s.url, t.adminToken, 'mutation($from: String) { recomputeUsage(from: $from) }', {
        from: FROM,
      });
      expect(again.errors).toBeUndefined();
      await eventually(
        async () =>
          (await gql(s.url, t.adminToken, '{ billing { current { metering { pendingWindows } } } }')).data.billing
            .current.metering.pendingWindows === 0,
        30_000,
      );
      // 4 events × 0.00001
      expect(await total(s, t)).toBe('0.00004');
      const rows = await s.app.rt.prisma.billingUsage.findMany({ where: { tenantId: t.tenantId } });
      expect(rows.map((r) => [r.meter, r.source, r.module, r.quantity.toString()])).toEqual([
        ['events_ingested', 'batch', 'etl', '4'],
      ]);
    }
  }, 90_000);
});
