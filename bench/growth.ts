/**
 * `npm run bench:growth`: the reads and jobs that must not slow down as a tenant's history grows, on
 * one migrated Postgres database at two (or more) history sizes in one run (GROWTH_SIZES, default
 * 1,000,000 and 10,000,000 events of one tenant). History grows the way it does in production: the
 * same GROWTH_PER_DAY events a day (25,000), going further back in time (40 days at 1 M, 400 at 10 M),
 * so every window holds the same rows at both sizes and only the history behind it grows.
 *
 * Data is written by Postgres (generate_series); a day that has no partition yet is filled as a plain
 * table and attached (the indexes are built once per day instead of row by row). Every size also has
 * 1,000 GPUs: a sample every 10 s from the start of the hour before the run's start, plus GPU history
 * older than that growing with the size (raw samples and minute rollups, size / 10 rows each), open
 * alerts (size / 100), and stored-bytes rows. The jobs run at the start time (an injected now), so
 * they see the same recent data at every size.
 *
 * The operations are the service's own code: the GraphQL timeline's Prisma query (tenant-scoped
 * client, 24 h default window, newest first, page of 100): newest page, a rare source, a text search
 * (trigram) and a label filter; a 7-day report aggregate compiled by src/reports; the alert lookup by
 * live dedup key; one retention run (src/history/retention.ts, set so that exactly the oldest day of
 * events expires); the periodic GPU rollup (src/gpu/rollups.ts, minutes and hours) at 1,000 GPUs; and
 * metering one hourly window (src/billing/metering.ts computeWindow, every meter). p50 / p95 per size
 * (GROWTH_RUNS timed runs after 3 warm-ups; GROWTH_JOB_RUNS for the jobs) and the largest/smallest ratio
 * of the p50s. Goals: reads ≤ 1.3; retention of a day ≤ 1 s; rollup and metering flat.
 *
 *   GROWTH_SIZES=1000000,10000000 npm run bench:growth     (a quick run: GROWTH_SIZES=100000,300000)
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { applyMigrations } from '../src/db/migrate.js';
import { createPrisma } from '../src/db/client.js';
import { scopedDb } from '../src/db/scope.js';
import { loadConfig } from '../src/config.js';
import { createTenant } from '../src/tenants/tenants.js';
import { NEWEST_FIRST, timelinePage, timelineWhere } from '../src/events/timeline.js';
import type { Ctx } from '../src/context.js';
import { TIMELINE_LIMITS, type EventFilter } from '../src/events/filter.js';
import { parseReportQuery } from '../src/reports/query.js';
import { compileReportQuery } from '../src/reports/compile.js';
import { runRetention } from '../src/history/retention.js';
import { listPartitions } from '../src/history/partitions.js';
import { rollUpRecent } from '../src/gpu/rollups.js';
import { computeWindow } from '../src/billing/metering.js';
import type { Runtime } from '../src/runtime.js';
import { createBenchDatabase, serviceEnv } from './lib/env.js';
import { quantile } from './lib/load.js';
import { fillEvents, growGpus } from './lib/growth-data.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SIZES = (process.env.GROWTH_SIZES ?? '1000000,10000000').split(',').map(Number);
const PER_DAY = num('GROWTH_PER_DAY', 25_000);
const RUNS = num('GROWTH_RUNS', 20);
const JOB_RUNS = num('GROWTH_JOB_RUNS', 5);
const DAY_MS = 86400_000;
const HOUR_MS = 3600_000;

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const millions = (n: number) => `${+(n / 1e6).toFixed(2)} M`;

async function timed(n: number, fn: () => Promise<unknown>, warmups = 3): Promise<number[]> {
  for (let i = 0; i < warmups; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

async function main(): Promise<void> {
  const db = await createBenchDatabase('ops_bench_growth');
  const client = new pg.Client({ connectionString: db.url });
  const prisma = createPrisma(db.url, 4);
  const config = loadConfig(serviceEnv(db.url));
  try {
    await applyMigrations(db.url);
    await client.connect();
    await client.query(`SET maintenance_work_mem = '256MB'`);
    const { tenant } = await createTenant(prisma, {
      name: 'bench-growth',
      adminEmail: 'admin@bench.local',
      adminPassword: crypto.randomBytes(12).toString('hex'),
    });
    const tdb = scopedDb(prisma, tenant.id);
    const ctx = { db: tdb } as unknown as Ctx;
    const rt = { prisma, config, clock: { now: () => new Date() } } as unknown as Runtime;
    const anchor = Date.now();
    console.log(
      `bench:growth — sizes ${SIZES.map(millions).join(', ')}; ${PER_DAY.toLocaleString('en')} events a day back from now; 1,000 GPUs`,
    );

    const page = (filter: EventFilter) => () =>
      tdb.event.findMany({
        where: timelineWhere(
          { ...filter, sinceHours: filter.sinceHours ?? TIMELINE_LIMITS.defaultSinceHours },
          rt.clock.now(),
        ),
        orderBy: NEWEST_FIRST,
        take: TIMELINE_LIMITS.defaultLimit + 1,
      });
    const report = parseReportQuery({ entity: 'events', since_hours: 168, bucket: '1d', group_by: ['severity'] });
    let cursorId = ''; // the last event of the newest page, as the connection's `after` cursor
    const reads: Record<string, () => Promise<unknown>> = {
      'newest page (24 h)': page({}),
      // As the connection pages after a cursor (Pothos' cursor query, turned into a keyset by timelinePage).
      'next page (cursor)': async () => {
        const q = { cursor: { id: cursorId }, skip: 1, take: TIMELINE_LIMITS.defaultLimit + 1 };
        return tdb.event.findMany({
          ...(await timelinePage(
            ctx,
            q,
            timelineWhere({ sinceHours: TIMELINE_LIMITS.defaultSinceHours }, rt.clock.now()),
          )),
          orderBy: NEWEST_FIRST,
        });
      },
      'rare source': page({ source: 'rare-source' }),
      'text search (rare word)': page({ search: 'zebrafish' }),
      'label filter': page({ labels: { team: 'rare' } }),
      '7-day report aggregate': () => {
        const c = compileReportQuery(report, tenant.id, { now: new Date(), extraRow: true });
        return client.query(c.sql, c.params);
      },
      'alert by dedup key': () =>
        prisma.alert.findUnique({ where: { tenantId_liveDedupKey: { tenantId: tenant.id, liveDedupKey: 'key-77' } } }),
    };
    const results: Record<string, Record<number, number[]>> = {};
    const record = (op: string, size: number, xs: number[]) => ((results[op] ??= {})[size] = xs);

    let have = 0;
    for (const size of SIZES) {
      const t0 = performance.now();
      await fillEvents(
        client,
        tenant.id,
        anchor,
        PER_DAY,
        have,
        size,
        (msg) => process.stdout.isTTY && process.stdout.write(`\r  ${msg}`.padEnd(70)),
      );
      await growGpus(client, tenant.id, anchor, have, size);
      // Open alerts grow with the history (size / 100), looked up by their live dedup key.
      await client.query(
        `INSERT INTO "Alert" ("id", "tenantId", "severity", "summary", "dedupKey", "liveDedupKey", "updatedAt")
         SELECT gen_random_uuid()::text, $1, 'warning', 'alert ' || g, 'key-' || g, 'key-' || g, now() FROM generate_series($2::int + 1, $3::int) g`,
        [tenant.id, Math.floor(have / 100), Math.floor(size / 100)],
      );
      await client.query('ANALYZE');
      have = size;
      const stored = Number((await client.query(`SELECT count(*)::bigint AS n FROM "Event"`)).rows[0].n);
      const parts = await listPartitions(prisma, 'Event');
      console.log(
        `\r  ${millions(size)}: ${stored.toLocaleString('en')} events in ${parts.length} day partitions, generated in ${((performance.now() - t0) / 1000).toFixed(0)} s`.padEnd(
          70,
        ),
      );

      cursorId = (await page({})()).at(-2)!.id;
      for (const [op, fn] of Object.entries(reads)) record(op, size, await timed(RUNS, fn));
      // The jobs run at the anchor's time, on data made relative to it: the same minute of the hour at every size.
      record(
        'GPU rollup, 1,000 GPUs (minutes + hours)',
        size,
        await timed(JOB_RUNS, () => rollUpRecent(rt, new Date(anchor)), 1),
      );
      const window = new Date(Math.floor(anchor / HOUR_MS) * HOUR_MS - HOUR_MS);
      record(
        'metering one hour (all meters)',
        size,
        await timed(JOB_RUNS, () => computeWindow(rt, tenant.id, window), 1),
      );

      // Retention runs with EVENT_RETENTION_DAYS set so that the oldest day of events, and only it, expires.
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const oldest = (await listPartitions(prisma, 'Event'))[0]!;
        const days = Math.floor((Date.now() - oldest.from.getTime()) / DAY_MS) - 1;
        const retentionRt = {
          ...rt,
          config: { ...config, history: { ...config.history, eventRetentionDays: days } },
        } as Runtime;
        const before = Number((await client.query(`SELECT count(*)::int AS n FROM "${oldest.name}"`)).rows[0].n);
        const t = performance.now();
        const ran = await runRetention(retentionRt, new Date());
        runs.push(performance.now() - t);
        const dropped = ran.tables.find((x) => x.table === 'Event')!.partitionsDropped;
        console.log(
          `  retention run dropped ${dropped.join(', ')} (${before.toLocaleString('en')} events) in ${fmt(runs.at(-1)!)} ms`,
        );
      }
      record('retention run (drops one day)', size, runs);
    }

    const [small, large] = [SIZES[0]!, SIZES.at(-1)!];
    const head = `${'operation'.padEnd(42)}${SIZES.map((s) => `${millions(s)} p50 / p95 ms`.padStart(24)).join('')}   p50 ratio ${millions(large)} / ${millions(small)}`;
    console.log(`\n${head}`);
    for (const [op, bySize] of Object.entries(results)) {
      const cells = SIZES.map((s) =>
        `${fmt(quantile(bySize[s]!, 0.5))} / ${fmt(quantile(bySize[s]!, 0.95))}`.padStart(24),
      ).join('');
      console.log(
        `${op.padEnd(42)}${cells}   ${(quantile(bySize[large]!, 0.5) / quantile(bySize[small]!, 0.5)).toFixed(2)}`,
      );
    }
  } finally {
    await client.end().catch(() => undefined);
    await prisma.$disconnect();
    await db.drop();
  }
}

await main();
