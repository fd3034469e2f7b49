/**
 * `npm run bench:reports`: the reports export and an aggregate query, against real Postgres, with
 * baselines measured in the same run.
 *
 * 1. A fresh database; one tenant; BENCH_EVENTS events (default 1,000,000) over the last 12 hours and
 *    BENCH_ALERTS alerts (default 300,000) over 30 days, seeded with INSERT … SELECT generate_series.
 * 2. The service in a child process (API only). An admin PAT is minted over the API.
 * 3. Export: POST /api/v1/reports/query/export?format=csv of every event (default columns), read to
 *    the end over HTTP; rows/s and the server's peak RSS (VmHWM of the child) before and after. The
 *    baseline is Postgres' own `COPY (SELECT the same columns, rows and order) TO STDOUT WITH CSV
 *    HEADER` through pg-copy-streams; prints ours ÷ COPY.
 * 4. Aggregate: alerts per day by severity over 30 days (POST /api/v1/reports/query) BENCH_QUERIES
 *    times after a warm-up; p50/p95, next to the same SQL sent directly with pg.
 *
 * Env: BENCH_EVENTS, BENCH_ALERTS, BENCH_QUERIES (30), TEST_DATABASE_ADMIN_URL / TEST_REDIS_URL (or BENCH_*).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { applyMigrations } from '../src/db/migrate.js';
import { createPrisma } from '../src/db/client.js';
import { createTenant } from '../src/tenants/tenants.js';
import { compileReportQuery } from '../src/reports/compile.js';
import { validateReportQuery } from '../src/reports/validate.js';
import { ADMIN_URL, createBenchDatabase, serviceEnv } from './lib/env.js';
import { startChild, type Child } from './lib/child.js';
import { quantile } from './lib/load.js';
import { goalLine } from './lib/goal.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const EVENTS = num('BENCH_EVENTS', 1_000_000);
const ALERTS = num('BENCH_ALERTS', 300_000);
const QUERIES = num('BENCH_QUERIES', 30);
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const MiB = (b: number) => `${fmt(b / 2 ** 20, 0)} MiB`;

/** Peak and current resident set of a process (Linux /proc). */
function memoryOf(pid: number): { peak: number; now: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { peak: kb('VmHWM'), now: kb('VmRSS') };
}

/** Reads a stream to the end, counting bytes and lines. */
async function drain(stream: AsyncIterable<Uint8Array>): Promise<{ bytes: number; lines: number }> {
  let bytes = 0;
  let lines = 0;
  for await (const chunk of stream) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
  }
  return { bytes, lines };
}

/** Inlines `$n` parameters as SQL literals, for the COPY baseline only (COPY takes no parameters). */
function inline(sql: string, params: unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_m, n) => {
    const v = params[Number(n) - 1];
    return typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(
    `reports benchmark: ${os.cpus().length} CPUs, ${EVENTS.toLocaleString('en')} events, ${ALERTS.toLocaleString('en')} alerts over 30 days, Postgres ${new URL(ADMIN_URL).host}, load average ${os.loadavg()[0].toFixed(1)}`,
  );
  const db = await createBenchDatabase('ops_bench_reports');
  const children: Array<Child<unknown>> = [];
  const sql = new pg.Client({ connectionString: db.url });
  try {
    await applyMigrations(db.url);
    const prisma = createPrisma(db.url, 2);
    const adminPassword = crypto.randomBytes(12).toString('hex');
    const created = await createTenant(prisma, {
      name: 'bench-reports',
      adminEmail: 'admin@bench.local',
      adminPassword,
    });
    await prisma.$disconnect();
    const tenantId = created.tenant.id;
    await sql.connect();
    await sql.query(
      `INSERT INTO "Event" ("id", "tenantId", "type", "source", "summary", "severity", "labels", "payload", "receivedVia", "receivedAt", "evaluatedAt")
       SELECT gen_random_uuid()::text, $1, 'bench.tick', 'host-' || (i % 50), 'Synthetic event ' || i || ', "quoted"', 'info', '{"env":"bench"}'::jsonb,
              jsonb_build_object('seq', i), 'ingest', (now() AT TIME ZONE 'UTC') - (i * (43200.0 / $2)) * interval '1 second', now()
         FROM generate_series(1, $2::int) AS i`,
      [tenantId, EVENTS],
    );
    await sql.query(
      `INSERT INTO "Alert" ("id", "tenantId", "severity", "summary", "source", "dedupKey", "status", "createdAt", "firstSeenAt", "lastSeenAt", "updatedAt")
       SELECT gen_random_uuid()::text, $1, (ARRAY['info','warning','critical'])[1 + i % 3]::"Severity", 'Alert ' || i, 'host-' || (i % 50), 'k' || i, 'resolved',
              ts, ts, ts, ts
         FROM generate_series(1, $2::int) AS i, LATERAL (SELECT (now() AT TIME ZONE 'UTC') - (i * (2592000.0 / $2)) * interval '1 second' AS ts) t`,
      [tenantId, ALERTS],
    );
    await sql.query('ANALYZE "Event"; ANALYZE "Alert"');
    console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)}s`);

    const env = serviceEnv(db.url);
    const api = await startChild<{ url: string }>(path.join(here, 'lib/serve-app.ts'), { ...env, BENCH_ROLE: 'api' });
    children.push(api);
    const base = api.info.url + '/api/v1';
    const login = await (
      await fetch(base + '/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@bench.local', password: adminPassword }),
      })
    ).json();
    const minted = await (
      await fetch(base + '/auth/tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${login.access_token}` },
        body: JSON.stringify({ name: 'bench' }),
      })
    ).json();
    const pat = minted.token as string;
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${pat}` };

    // --- Export ---
    const exportQuery = { entity: 'events', since_hours: 24, limit: EVENTS };
    const v = validateReportQuery(exportQuery, { mode: 'export' });
    if (!v.query) throw new Error(JSON.stringify(v.problems));
    const compiled = compileReportQuery(v.query, tenantId, { now: new Date() });

    const copyClient = new pg.Client({ connectionString: db.url });
    await copyClient.connect();
    let t0 = performance.now();
    const copied = await drain(
      copyClient.query(copyTo(`COPY (${inline(compiled.sql, compiled.params)}) TO STDOUT WITH CSV HEADER`)),
    );
    const copyMs = performance.now() - t0;
    await copyClient.end();

    const before = memoryOf(api.process.pid!);
    t0 = performance.now();
    const res = await fetch(base + '/reports/query/export?format=csv', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify(exportQuery),
    });
    if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    const ours = await drain(res.body as unknown as AsyncIterable<Uint8Array>);
    const oursMs = performance.now() - t0;
    const after = memoryOf(api.process.pid!);

    const copyRows = copied.lines - 1;
    const ourRows = ours.lines - 1;
    const copyRate = copyRows / (copyMs / 1000);
    const ourRate = ourRows / (oursMs / 1000);
    console.log(`\nexport of ${ourRows.toLocaleString('en')} events as CSV`);
    console.log(
      `  COPY … TO STDOUT WITH CSV (pg-copy-streams)  ${fmt(copyRate, 0).padStart(9)} rows/s   ${fmt(copyMs / 1000, 2)} s   ${MiB(copied.bytes)}   (${copyRows.toLocaleString('en')} rows)`,
    );
    console.log(
      `  POST /api/v1/reports/query/export?format=csv ${fmt(ourRate, 0).padStart(9)} rows/s   ${fmt(oursMs / 1000, 2)} s   ${MiB(ours.bytes)}`,
    );
    console.log(
      `  server RSS: ${MiB(before.now)} before, peak ${MiB(after.peak)} (peak before the export ${MiB(before.peak)})`,
    );
    console.log(
      `  ${goalLine('ratio ours/COPY', ourRate / copyRate, { atLeast: 0.5 })}; RSS should stay flat (peak above before: ${MiB(after.peak - before.now)})`,
    );

    // --- Aggregate ---
    const aggQuery = { entity: 'alerts', since_hours: 720, bucket: '1d', group_by: ['severity'] };
    const av = validateReportQuery(aggQuery);
    if (!av.query) throw new Error(JSON.stringify(av.problems));
    const aggSql = compileReportQuery(av.query, tenantId, { now: new Date(), extraRow: true });
    const ourLat: number[] = [];
    const pgLat: number[] = [];
    let rows = 0;
    for (let i = 0; i < QUERIES + 3; i++) {
      let s0 = performance.now();
      const r = await fetch(base + '/reports/query', { method: 'POST', headers: auth, body: JSON.stringify(aggQuery) });
      const body = await r.json();
      if (r.status !== 200) throw new Error(`query answered ${r.status}: ${JSON.stringify(body)}`);
      if (i >= 3) ourLat.push(performance.now() - s0);
      rows = body.row_count;
      s0 = performance.now();
      await sql.query(aggSql.sql, aggSql.params);
      if (i >= 3) pgLat.push(performance.now() - s0);
    }
    console.log(
      `\nalerts per day by severity over 30 days (${ALERTS.toLocaleString('en')} alerts, ${rows} rows), ${QUERIES} runs`,
    );
    console.log(
      `  POST /api/v1/reports/query   p50 ${fmt(quantile(ourLat, 0.5), 1)} ms   p95 ${fmt(quantile(ourLat, 0.95), 1)} ms`,
    );
    console.log(
      `  same SQL directly with pg    p50 ${fmt(quantile(pgLat, 0.5), 1)} ms   p95 ${fmt(quantile(pgLat, 0.95), 1)} ms`,
    );
    console.log(`  ratio ours/pg (p50): ${fmt(quantile(ourLat, 0.5) / quantile(pgLat, 0.5), 2)}×`);
  } finally {
    await sql.end().catch(() => undefined);
    for (const c of children) await c.stop();
    await db.drop();
  }
}

await main();
