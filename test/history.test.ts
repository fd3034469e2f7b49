/**
 * Time-partitioned history on both databases the service runs on: a real Postgres (DATABASE_URL) and
 * the embedded PGlite (no DATABASE_URL). Partitions exist ahead of time, retention drops expired ones
 * and keeps newer rows, a shorter tenant retention deletes only that tenant's older events, and the
 * timeline's plan reads only the partitions of its window. The statement timeout is a Postgres test:
 * PGlite runs inside the process as one session and cannot cancel a statement.
 */
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { BACKENDS, type Backend } from './helpers/history-backends.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, gql, gqlRaw } from './helpers/http.js';
import { opsInProcess } from './helpers/cli.js';
import { PARTITIONED_TABLES, DAY_MS } from '../src/history/tables.js';
import { listPartitions, partitionName } from '../src/history/partitions.js';
import { sqlTimestamp } from '../src/db/timestamps.js';
import { runRetention } from '../src/history/retention.js';

const ago = (days: number) => new Date(Date.now() - days * DAY_MS);

describe.each(BACKENDS)('partitioned history on %s', (_name, start) => {
  let b: Backend;
  let t: BuiltTenant;
  let other: BuiltTenant;

  beforeAll(async () => {
    b = await start();
    t = await buildTenant(b.app.rt);
    other = await buildTenant(b.app.rt);
  }, 120_000);
  afterAll(async () => b?.stop());

  const sql = <T = Record<string, unknown>>(text: string, ...params: unknown[]) =>
    b.app.rt.prisma.$queryRawUnsafe<T[]>(text, ...params);
  const insertEvent = (tenantId: string, at: Date, source = 'history-test') =>
    sql<{ id: string }>(
      `INSERT INTO "Event" ("id", "tenantId", "type", "source", "receivedVia", "receivedAt") VALUES ($4, $1, 'test.kept', $2, 'ingest', $3::timestamp) RETURNING "id"`,
      tenantId,
      source,
      sqlTimestamp(at),
      uuidv7({ msecs: at.getTime() }), // ids are UUIDv7 made on arrival, as ingest makes them
    ).then((r) => r[0]!.id);
  const eventExists = async (id: string) => (await sql(`SELECT 1 FROM "Event" WHERE "id" = $1`, id)).length === 1;

  it('makes the append-heavy tables partitioned, with partitions at least 7 days ahead and a default', async () => {
    const kinds = await sql<{ relname: string; relkind: string }>(
      `SELECT relname, relkind::text FROM pg_class WHERE relname IN ('Event', 'Delivery', 'DeliveryAttempt', 'OutboxMessage', 'GpuSample', 'GpuRollup', 'AuditLog')`,
    );
    expect(kinds.map((k) => k.relkind)).toEqual(Array(7).fill('p'));
    for (const spec of PARTITIONED_TABLES) {
      const parts = await listPartitions(b.app.rt.prisma, spec.parent);
      expect(parts.at(-1)!.to.getTime(), `${spec.parent} partitions ahead`).toBeGreaterThanOrEqual(
        Date.now() + 7 * DAY_MS,
      );
      expect(
        parts.some((p) => p.from.getTime() <= Date.now() && Date.now() < p.to.getTime()),
        `${spec.parent} holds now`,
      ).toBe(true);
      expect((await sql(`SELECT to_regclass($1::text)::text AS r`, `"${spec.parent}_default"`))[0]!.r).toBeTruthy();
      // The name a hot statement computes for a key is the name the SQL function gave its partition.
      for (const p of parts) {
        expect(partitionName(spec, p.from), `${p.name} from its start`).toBe(p.name);
        expect(partitionName(spec, new Date(p.to.getTime() - 1)), `${p.name} from its last millisecond`).toBe(p.name);
      }
    }
  });

  it('drops a partition older than retention with its alert links, keeps a newer one, and deletes expired default rows', async () => {
    const rt = b.app.rt;
    const oldDay = ago(402);
    const keptDay = ago(398);
    await sql(
      `SELECT ops_ensure_partitions('Event', 'day', $1::timestamp, $2::timestamp, NULL)`,
      sqlTimestamp(oldDay),
      sqlTimestamp(keptDay),
    );
    const old = await insertEvent(t.tenantId, oldDay);
    const kept = await insertEvent(t.tenantId, keptDay);
    const stray = await insertEvent(t.tenantId, ago(900)); // before every partition: the default partition
    const alert = await rt.prisma.alert.create({
      data: {
        tenantId: t.tenantId,
        severity: 'warning',
        summary: 'old',
        dedupKey: `old-${old}`,
        status: 'resolved',
        resolvedAt: ago(1),
      },
    });
    await rt.prisma.alertEvent.createMany({
      data: [
        { alertId: alert.id, eventId: old },
        { alertId: alert.id, eventId: kept },
      ],
    });

    const report = await runRetention(rt);
    const events = report.tables.find((x) => x.table === 'Event')!;
    expect(events.partitionsDropped).toContain(`Event_p${oldDay.toISOString().slice(0, 10).replace(/-/g, '')}`);
    expect(events.rowsDeleted).toBeGreaterThanOrEqual(1);
    expect(await eventExists(old)).toBe(false);
    expect(await eventExists(stray)).toBe(false);
    expect(await eventExists(kept)).toBe(true);
    expect((await rt.prisma.alertEvent.findMany({ where: { alertId: alert.id } })).map((l) => l.eventId)).toEqual([
      kept,
    ]);
    // The alert (resolved yesterday) is inside its own retention and keeps its timeline.
    expect(await rt.prisma.alert.count({ where: { id: alert.id } })).toBe(1);
  });

  it('removes resolved alerts past their retention and keeps open ones', async () => {
    const rt = b.app.rt;
    const gone = await rt.prisma.alert.create({
      data: {
        tenantId: t.tenantId,
        severity: 'info',
        summary: 'ancient',
        dedupKey: 'ancient',
        status: 'resolved',
        resolvedAt: ago(731),
      },
    });
    const open = await rt.prisma.alert.create({
      data: {
        tenantId: t.tenantId,
        severity: 'info',
        summary: 'still open',
        dedupKey: 'open-old',
        liveDedupKey: 'open-old',
        createdAt: ago(800),
      },
    });
    const report = await runRetention(rt);
    expect(report.tables.find((x) => x.table === 'Alert')!.rowsDeleted).toBeGreaterThanOrEqual(1);
    expect(await rt.prisma.alert.count({ where: { id: gone.id } })).toBe(0);
    expect(await rt.prisma.alert.count({ where: { id: open.id } })).toBe(1);
  });

  it('applies a shorter tenant retention to that tenant only', async () => {
    const set = await gql(
      b.app.url,
      t.adminToken,
      'mutation { setEventRetention(days: 30) { days defaultDays shortened } }',
    );
    expect(set.data.setEventRetention).toEqual({ days: 30, defaultDays: 400, shortened: true });
    const tooLong = await gqlRaw(b.app.url, t.adminToken, 'mutation { setEventRetention(days: 401) { days } }');
    expect((tooLong.body as any).errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const old = await insertEvent(t.tenantId, ago(40));
    const recent = await insertEvent(t.tenantId, ago(20));
    const othersOld = await insertEvent(other.tenantId, ago(40));
    await runRetention(b.app.rt);
    expect(await eventExists(old)).toBe(false);
    expect(await eventExists(recent)).toBe(true);
    expect(await eventExists(othersOld)).toBe(true);
  });

  it("plans the timeline's window on only the partitions it needs", async () => {
    const since = ago(1);
    const plan = await sql<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (FORMAT JSON) SELECT "id" FROM "Event" WHERE "tenantId" = '${t.tenantId}' AND "receivedAt" >= '${sqlTimestamp(since)}' ORDER BY "receivedAt" DESC, "id" DESC LIMIT 100`,
    );
    const relations = [...JSON.stringify(plan).matchAll(/"Relation Name":"([^"]+)"/g)].map((m) => m[1]!);
    const parts = await listPartitions(b.app.rt.prisma, 'Event');
    const needed = new Set(parts.filter((p) => p.to.getTime() > since.getTime()).map((p) => p.name));
    expect(relations.length).toBeGreaterThan(0);
    for (const r of relations) expect(needed.has(r) || r === 'Event_default', `${r} is outside the window`).toBe(true);
    // Older partitions exist (made above) and are not read.
    expect(parts.some((p) => p.to.getTime() <= since.getTime())).toBe(true);
  });

  it('answers the GraphQL timeline without a window from the last 24 hours', async () => {
    const recent = await insertEvent(t.tenantId, ago(0.5), 'windowed');
    await insertEvent(t.tenantId, ago(3), 'windowed');
    const r = await gql(
      b.app.url,
      t.adminToken,
      '{ events(filter: { source: "windowed" }) { edges { node { id } } } }',
    );
    expect(r.data.events.edges.map((e: any) => e.node.id)).toEqual([recent]);
  });

  it('runs retention from `ops retention run --json` with a per-table report', async () => {
    const day = ago(403);
    await sql(`SELECT ops_ensure_partitions('Event', 'day', $1::timestamp, $1::timestamp, NULL)`, sqlTimestamp(day));
    const out = await opsInProcess(['retention', 'run', '--json'], b.cliEnv);
    expect(out.code, out.stderr).toBe(0);
    const report = JSON.parse(out.stdout);
    expect(report.tables.map((x: { table: string }) => x.table)).toEqual(
      expect.arrayContaining([
        'Event',
        'Delivery',
        'DeliveryAttempt',
        'OutboxMessage',
        'GpuSample',
        'GpuRollup',
        'AuditLog',
      ]),
    );
    expect(report.tables.find((x: { table: string }) => x.table === 'Event').partitionsDropped).toEqual([
      `Event_p${day.toISOString().slice(0, 10).replace(/-/g, '')}`,
    ]);
  });

  it('schedules partition upkeep and retention as periodic tasks', async () => {
    const { maintenanceTasks } = await import('../workers/index.js');
    expect(maintenanceTasks.map((x) => x.name)).toEqual(expect.arrayContaining(['partitions-ahead', 'retention']));
  });
});

describe('statement timeout and concurrent partition upkeep (Postgres)', () => {
  let s: TestServer;
  let t: BuiltTenant;
  beforeAll(async () => {
    s = await startTestServer({ env: { DB_STATEMENT_TIMEOUT_MS: '1000' } });
    t = await buildTenant(s.app.rt);
  }, 120_000);
  afterAll(async () => s?.stop());

  it('answers a statement cancelled by the timeout with 503 STATEMENT_TIMEOUT (GraphQL and REST)', async () => {
    // A lock held elsewhere keeps the timeline read waiting until Postgres cancels it.
    const locker = new pg.Client({ connectionString: s.db.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE "Event" IN ACCESS EXCLUSIVE MODE');
      const r = await gqlRaw(s.url, t.adminToken, '{ events { edges { node { id } } } }');
      expect(r.status).toBe(503);
      expect((r.body as any).errors[0].extensions).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        reason: 'STATEMENT_TIMEOUT',
      });
      const rest = await call(s.url, 'GET', '/api/v1/events', { token: t.adminToken });
      expect(rest.status).toBe(503);
      expect(rest.body).toMatchObject({ code: 'STATEMENT_TIMEOUT' });
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
      await locker.end();
    }
    const after = await gql(s.url, t.adminToken, '{ events { edges { node { id } } } }');
    expect(after.data.events.edges).toEqual([]);
  });

  it('lets several sessions ensure the same partitions at once: each is made once, and no session fails', async () => {
    // Before the upkeep lock (migration 20261128021500) two of these failed with "relation … already exists" or a deadlock.
    const from = new Date(Date.UTC(2031, 0, 1));
    const to = new Date(from.getTime() + 4 * DAY_MS);
    const sessions = await Promise.all(
      [0, 1, 2].map(async () => {
        const c = new pg.Client({ connectionString: s.db.url });
        await c.connect();
        return c;
      }),
    );
    try {
      const runs = await Promise.allSettled(
        sessions.map((c) =>
          c.query<{ n: number }>(
            `SELECT ops_ensure_partitions('Event', 'day', $1::timestamp, $2::timestamp, NULL) AS n`,
            [sqlTimestamp(from), sqlTimestamp(to)],
          ),
        ),
      );
      expect(runs.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
      const made = runs.map((r) => (r.status === 'fulfilled' ? Number(r.value.rows[0].n) : 0));
      expect(made.reduce((a, b) => a + b, 0)).toBe(5);
      const event = PARTITIONED_TABLES.find((t) => t.parent === 'Event')!;
      const names = (await listPartitions(s.app.rt.prisma, 'Event')).map((p) => p.name);
      for (let d = 0; d < 5; d++) expect(names).toContain(partitionName(event, new Date(from.getTime() + d * DAY_MS)));
    } finally {
      await Promise.all(sessions.map((c) => c.end()));
    }
  });
});
