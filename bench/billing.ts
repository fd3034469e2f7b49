/**
 * `npm run bench:billing`: metering and the billing reads over a large timeline, against a single
 * `SELECT … GROUP BY` over the raw rows measured in the same run.
 *
 * 1. A fresh database (migrated), one tenant with an admin; BENCH_BILLING_EVENTS events (10,000,000)
 *    spread evenly over BENCH_BILLING_DAYS days (30) ending 10 minutes ago, written by Postgres itself
 *    (`INSERT … SELECT … FROM generate_series`, in chunks of 1,000,000; 8 sources × 4 modules × 20 types),
 *    then ANALYZE.
 * 2. Metering: the 24 hourly windows of the last full UTC day, one after the other, through the same
 *    function the BullMQ job runs (src/billing/metering.ts computeWindow: delete the window, insert every
 *    meter's rows, stamp the window, one transaction each; the 00:00 window also takes the daily stored
 *    GB-month snapshot, a sum of the stored-bytes rows of the windows before it). Baseline: one
 *    `SELECT source, module, count(*) … GROUP BY` over that day's raw rows. Then every other window of
 *    the span is metered (two at a time, as the worker's concurrency), so the reads have data.
 * 3. Reads: the service in a child process (API only); BENCH_BILLING_QUERIES (30) timed requests after 3
 *    warm-ups of GET /api/v1/billing/current and GET /api/v1/billing/daily?days=30 (PAT). Baselines: the
 *    raw-row queries answering the same questions without usage rows, i.e. this month's
 *    `SELECT source, module, count(*) … GROUP BY` and the last 30 days' `SELECT date, source, module,
 *    count(*) … GROUP BY`, the same number of times. p50/p95 and the ratio.
 *
 * Env: BENCH_BILLING_EVENTS (10000000), BENCH_BILLING_DAYS (30), BENCH_BILLING_QUERIES (30),
 * TEST_DATABASE_ADMIN_URL / TEST_REDIS_URL (or BENCH_*), as the tests.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { applyMigrations } from '../src/db/migrate.js';
import { createPrisma } from '../src/db/client.js';
import { createTenant } from '../src/tenants/tenants.js';
import { computeWindow } from '../src/billing/metering.js';
import { WINDOW_MS } from '../src/billing/periods.js';
import type { Runtime } from '../src/runtime.js';
import { createBenchDatabase, serviceEnv } from './lib/env.js';
import { startChild } from './lib/child.js';
import { quantile } from './lib/load.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const EVENTS = num('BENCH_BILLING_EVENTS', 10_000_000);
const DAYS = num('BENCH_BILLING_DAYS', 30);
const QUERIES = num('BENCH_BILLING_QUERIES', 30);
const CHUNK = 1_000_000;
const DAY_MS = 86400_000;

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const int = (n: number) => Math.round(n).toLocaleString('en');

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const v = await fn();
  return [v, performance.now() - t];
}

async function repeat(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await timed(fn))[1]);
  return out;
}

const line = (label: string, ms: number[]) =>
  `${label.padEnd(58)} p50 ${fmt(quantile(ms, 0.5)).padStart(8)} ms   p95 ${fmt(quantile(ms, 0.95)).padStart(8)} ms`;

async function main(): Promise<void> {
  const db = await createBenchDatabase('ops_bench_billing');
  const client = new pg.Client({ connectionString: db.url });
  let api: Awaited<ReturnType<typeof startChild<{ url: string }>>> | undefined;
  const prisma = createPrisma(db.url, 4);
  try {
    await applyMigrations(db.url);
    await client.connect();
    const adminPassword = crypto.randomBytes(12).toString('hex');
    const { tenant } = await createTenant(prisma, {
      name: 'bench-billing',
      adminEmail: 'admin@bench.local',
      adminPassword,
    });
    console.log(`bench:billing — ${int(EVENTS)} events over ${DAYS} days, one tenant`);

    // 1. The timeline, written by Postgres.
    const end = Date.now() - 10 * 60_000;
    const start = end - DAYS * DAY_MS;
    const step = (end - start) / EVENTS;
    const [, genMs] = await timed(async () => {
      for (let from = 0; from < EVENTS; from += CHUNK) {
        const to = Math.min(EVENTS, from + CHUNK);
        await client.query(
          `INSERT INTO "Event" (id, "tenantId", type, module, source, severity, labels, payload, "receivedVia", "receivedAt", "evaluatedAt")
           SELECT gen_random_uuid()::text, $1, 'bench.t' || (i % 20), 'mod-' || (i % 4), 'src-' || (i % 8), 'info'::"Severity", '{}'::jsonb,
                  jsonb_build_object('i', i), 'ingest'::"ReceivedVia", t, t
           FROM (SELECT i, $2::timestamp + (i * $3::double precision) * interval '1 millisecond' AS t FROM generate_series($4::bigint, $5::bigint - 1) AS i) g`,
          [tenant.id, new Date(start).toISOString(), step, from, to],
        );
        process.stdout.write(`\r  generating events … ${int(to)}`);
      }
      await client.query('ANALYZE "Event"');
    });
    console.log(`\r  generated ${int(EVENTS)} events in ${fmt(genMs / 1000)} s (INSERT … SELECT generate_series)`);

    // 2. Metering one full UTC day, window by window, against one GROUP BY over the same raw rows.
    const rt = { prisma } as unknown as Runtime;
    const dayStart = Math.floor(end / DAY_MS) * DAY_MS - DAY_MS;
    const dayWindows = Array.from({ length: 24 }, (_, h) => new Date(dayStart + h * WINDOW_MS));
    const perWindow: number[] = [];
    const [, dayMs] = await timed(async () => {
      for (const w of dayWindows) perWindow.push((await timed(() => computeWindow(rt, tenant.id, w)))[1]);
    });
    const baselineDay = await client.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) SELECT source, module, count(*) FROM "Event" WHERE "tenantId" = $1 AND "receivedAt" >= $2::timestamp AND "receivedAt" < $3::timestamp AND "receivedVia" <> 'system' GROUP BY 1, 2`,
      [tenant.id, new Date(dayStart).toISOString(), new Date(dayStart + DAY_MS).toISOString()],
    );
    const [, baseDayMs] = await timed(() =>
      client.query(
        `SELECT source, module, count(*) FROM "Event" WHERE "tenantId" = $1 AND "receivedAt" >= $2::timestamp AND "receivedAt" < $3::timestamp AND "receivedVia" <> 'system' GROUP BY 1, 2`,
        [tenant.id, new Date(dayStart).toISOString(), new Date(dayStart + DAY_MS).toISOString()],
      ),
    );
    void baselineDay;
    const dayEvents = Number(
      (
        await client.query(
          `SELECT count(*) FROM "Event" WHERE "tenantId" = $1 AND "receivedAt" >= $2::timestamp AND "receivedAt" < $3::timestamp`,
          [tenant.id, new Date(dayStart).toISOString(), new Date(dayStart + DAY_MS).toISOString()],
        )
      ).rows[0].count,
    );
    console.log(
      `\nMetering one day (${new Date(dayStart).toISOString().slice(0, 10)}, ${int(dayEvents)} events, 24 hourly windows, all meters, incl. the daily storage snapshot)`,
    );
    console.log(`  ours      24 × computeWindow (one transaction each)               ${fmt(dayMs)} ms`);
    console.log(`  baseline  one SELECT source, module, count(*) … GROUP BY over the day ${fmt(baseDayMs)} ms`);
    console.log(
      `            of which the 00:00 window (with the stored-events snapshot, summed from the windows' stored-bytes rows) ${fmt(perWindow[0]!)} ms; the other 23 windows p50 ${fmt(quantile(perWindow.slice(1), 0.5))} ms, max ${fmt(Math.max(...perWindow.slice(1)))} ms`,
    );
    console.log(
      `  ratio     ${fmt(dayMs / baseDayMs, 2)}× the single GROUP BY (${fmt((dayMs - perWindow[0]!) / baseDayMs, 2)}× without the snapshot window)`,
    );

    // The rest of the span, two windows at a time (the worker's concurrency).
    const rest: Date[] = [];
    for (let t = Math.floor(start / WINDOW_MS) * WINDOW_MS; t <= end; t += WINDOW_MS)
      if (t < dayStart || t >= dayStart + DAY_MS) rest.push(new Date(t));
    const [, restMs] = await timed(async () => {
      let next = 0;
      await Promise.all(
        [0, 1].map(async () => {
          while (next < rest.length) {
            const w = rest[next++]!;
            await computeWindow(rt, tenant.id, w);
          }
        }),
      );
    });
    const usageRows = Number(
      (await client.query(`SELECT count(*) FROM "BillingUsage" WHERE "tenantId" = $1`, [tenant.id])).rows[0].count,
    );
    console.log(
      `  the other ${rest.length} windows of the span, 2 at a time: ${fmt(restMs / 1000)} s (${fmt(restMs / rest.length)} ms per window); ${int(usageRows)} usage rows in all`,
    );

    // 3. Reads through the service against the raw-row GROUP BY.
    const env = serviceEnv(db.url);
    api = await startChild<{ url: string }>(path.join(here, 'lib/serve-app.ts'), { ...env, BENCH_ROLE: 'api' });
    const base = api.info.url + '/api/v1';
    const login = (await (
      await fetch(base + '/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@bench.local', password: adminPassword }),
      })
    ).json()) as { access_token: string };
    const minted = (await (
      await fetch(base + '/auth/tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${login.access_token}` },
        body: JSON.stringify({ name: 'bench' }),
      })
    ).json()) as { token: string };
    const auth = { authorization: `Bearer ${minted.token}` };
    const get = async (p: string) => {
      const r = await fetch(base + p, { headers: auth });
      if (r.status !== 200) throw new Error(`${p}: ${r.status} ${await r.text()}`);
      return r.json() as Promise<Record<string, any>>;
    };
    const current = await get('/billing/current');
    const daily = await get('/billing/daily?days=30');
    const monthStart = new Date(current.period.start as string).toISOString();
    const curMs = await repeat(QUERIES, () => get('/billing/current'));
    const dailyMs = await repeat(QUERIES, () => get('/billing/daily?days=30'));
    const baseCurMs = await repeat(QUERIES, () =>
      client.query(
        `SELECT source, module, count(*) * 0.00001 AS amount FROM "Event" WHERE "tenantId" = $1 AND "receivedAt" >= $2::timestamp AND "receivedVia" <> 'system' GROUP BY 1, 2`,
        [tenant.id, monthStart],
      ),
    );
    const baseDailyMs = await repeat(QUERIES, () =>
      client.query(
        `SELECT date_trunc('day', "receivedAt") AS day, source, module, count(*) * 0.00001 AS amount FROM "Event" WHERE "tenantId" = $1 AND "receivedAt" >= $2::timestamp AND "receivedVia" <> 'system' GROUP BY 1, 2, 3`,
        [tenant.id, new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - 29 * DAY_MS).toISOString()],
      ),
    );
    console.log(
      `\nReads (${QUERIES} timed after 3 warm-ups; month to date ${current.total.amount} ${current.currency} from ${current.skus.length} SKU(s), 30-day total ${daily.total.amount})`,
    );
    console.log(line('  ours      GET /billing/current (HTTP, PAT, GraphQL)', curMs));
    console.log(line("  baseline  SELECT … GROUP BY over the month's raw rows", baseCurMs));
    console.log(`  ratio     p95 ${fmt(quantile(curMs, 0.95) / quantile(baseCurMs, 0.95), 3)}× the raw GROUP BY`);
    console.log(line('  ours      GET /billing/daily?days=30 (HTTP, PAT, GraphQL)', dailyMs));
    console.log(line('  baseline  SELECT day, … GROUP BY over 30 days of raw rows', baseDailyMs));
    console.log(`  ratio     p95 ${fmt(quantile(dailyMs, 0.95) / quantile(baseDailyMs, 0.95), 3)}× the raw GROUP BY`);
  } finally {
    await api?.stop();
    await client.end().catch(() => undefined);
    await prisma.$disconnect();
    await db.drop();
  }
}

await main();
