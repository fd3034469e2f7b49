/**
 * bench:growth: the reads and jobs that must not slow down as a tenant's history grows, measured on one
 * migrated Postgres database at two history sizes (GROWTH_SIZES, default 1,000,000 and 10,000,000
 * events, generated with generate_series over the last GROWTH_DAYS days, one tenant; the last hour holds
 * GROWTH_LAST_HOUR events of them). Prints p50/p95 per operation at each size and the large/small
 * ratio (goal ≤ 1.3 for reads); retention of one day is timed once per size.
 *
 *   GROWTH_SIZES=1000000,10000000 npm run bench:growth
 *
 * The statements are the ones the service sends (the timeline's `where` as Prisma writes it, the
 * partition drop of src/history, the GPU minute rollup of src/gpu/rollups.ts).
 */
import pg from 'pg';
import { applyMigrations } from '../src/db/migrate.js';

const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const SIZES = (process.env.GROWTH_SIZES ?? '1000000,10000000').split(',').map(Number);
const DAYS = Number(process.env.GROWTH_DAYS ?? 30);
const LAST_HOUR = Number(process.env.GROWTH_LAST_HOUR ?? 400_000);
const RUNS = Number(process.env.GROWTH_RUNS ?? 30);
const TENANT = 'bench-tenant';

const OPS: Record<string, string> = {
  'newest page': `SELECT * FROM "Event" WHERE "tenantId" = $1 AND "receivedAt" >= now() AT TIME ZONE 'UTC' - interval '24 hours' ORDER BY "receivedAt" DESC, id DESC LIMIT 100`,
  'rare source': `SELECT * FROM "Event" WHERE "tenantId" = $1 AND source = 'rare-source' AND "receivedAt" >= now() AT TIME ZONE 'UTC' - interval '24 hours' ORDER BY "receivedAt" DESC, id DESC LIMIT 100`,
  'text search': `SELECT * FROM "Event" WHERE "tenantId" = $1 AND (summary ILIKE '%zebrafish%' OR type ILIKE '%zebrafish%' OR source ILIKE '%zebrafish%') AND "receivedAt" >= now() AT TIME ZONE 'UTC' - interval '24 hours' ORDER BY "receivedAt" DESC, id DESC LIMIT 100`,
  'label filter': `SELECT * FROM "Event" WHERE "tenantId" = $1 AND labels @> '{"team":"rare"}' AND "receivedAt" >= now() AT TIME ZONE 'UTC' - interval '24 hours' ORDER BY "receivedAt" DESC, id DESC LIMIT 100`,
  '7-day report': `SELECT date_trunc('day', "receivedAt") d, severity, count(*) FROM "Event" WHERE "tenantId" = $1 AND "receivedAt" >= now() AT TIME ZONE 'UTC' - interval '7 days' GROUP BY 1, 2`,
  'alert by dedup key': `SELECT * FROM "Alert" WHERE "tenantId" = $1 AND "liveDedupKey" = 'key-77'`,
  'metering one hour': `SELECT source, module, count(*) FROM "Event" WHERE "tenantId" = $1 AND "receivedAt" >= date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '1 hour' AND "receivedAt" < date_trunc('hour', now() AT TIME ZONE 'UTC') GROUP BY 1, 2`,
  'gpu minute rollup': `SELECT "gpuId", date_bin('60 seconds', at, TIMESTAMP '2000-01-01'), count(*), avg(utilization) FROM "GpuSample" WHERE at >= now() AT TIME ZONE 'UTC' - interval '5 minutes' AND $1::text IS NOT NULL GROUP BY 1, 2`,
};

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function time(c: pg.Client, sql: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await c.query(sql, [TENANT]);
    out.push(performance.now() - t);
  }
  return out;
}

/** Adds events up to `total`: LAST_HOUR in the last hour, the rest spread over DAYS days; a few rare ones. */
async function grow(c: pg.Client, from: number, total: number): Promise<void> {
  const n = total - from;
  const recent = from === 0 ? Math.min(LAST_HOUR, n) : 0;
  await c.query(
    `INSERT INTO "Event" (id, "tenantId", type, source, summary, labels, "receivedVia", "receivedAt")
     SELECT gen_random_uuid()::text, $1, 'metric.sample' || (g % 20), 'host-' || (g % 500), 'sample ' || g || ' from host ' || (g % 500),
            jsonb_build_object('team', 'team-' || (g % 30)), 'ingest',
            CASE WHEN g <= $2 THEN now() AT TIME ZONE 'UTC' - (g::float / $2) * interval '1 hour'
                 ELSE now() AT TIME ZONE 'UTC' - interval '1 hour' - ((g * 7919) % ($4 * 86400))::int * interval '1 second' END
       FROM generate_series($3::bigint + 1, $3::bigint + $5) g`,
    [TENANT, recent, from, DAYS, n],
  );
  await c.query(
    `INSERT INTO "Event" (id, "tenantId", type, source, summary, labels, "receivedVia", "receivedAt")
     SELECT gen_random_uuid()::text, $1, 'rare.thing', 'rare-source', 'a zebrafish sighting', '{"team":"rare"}', 'ingest', now() AT TIME ZONE 'UTC' - g * interval '1 minute'
       FROM generate_series(1, 5) g`,
    [TENANT],
  );
  await c.query('ANALYZE "Event"');
}

async function main(): Promise<void> {
  const name = `bench_growth_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const c = new pg.Client({ connectionString: url.toString() });
  try {
    await applyMigrations(url.toString());
    await c.connect();
    await c.query(`SELECT ops_ensure_partitions('Event', 'day', now() AT TIME ZONE 'UTC' - $1 * interval '1 day', now() AT TIME ZONE 'UTC' + interval '7 days', NULL)`, [DAYS + 2]);
    await c.query(`INSERT INTO "Tenant" (id, name) VALUES ($1, 'bench')`, [TENANT]);
    await c.query(`INSERT INTO "Alert" (id, "tenantId", severity, summary, "dedupKey", "liveDedupKey", "updatedAt")
                   SELECT 'al-' || g, $1, 'info', 's', 'key-' || g, 'key-' || g, now() FROM generate_series(1, 20000) g`, [TENANT]);
    await c.query(`INSERT INTO "Gpu" (id, "tenantId", uuid, node, index, source) SELECT 'g' || g, $1, 'GPU-' || g, 'n' || (g / 8), g % 8, 'dcgm' FROM generate_series(1, 1000) g`, [TENANT]);
    const results: Record<string, Record<number, { p50: number; p95: number }>> = {};
    let have = 0;
    for (const size of SIZES) {
      const t0 = performance.now();
      await grow(c, have, size);
      // GPU samples: 1,000 GPUs, one sample per 10 s, history proportional to the event size.
      await c.query(`INSERT INTO "GpuSample" ("gpuId", "tenantId", at, utilization)
                     SELECT 'g' || (g % 1000 + 1), $1, now() AT TIME ZONE 'UTC' - (g / 1000) * interval '10 seconds' - interval '1 millisecond' * (g % 1000), random() * 100
                       FROM generate_series($2::bigint, $3::bigint) g ON CONFLICT DO NOTHING`, [TENANT, have / 10, size / 10]);
      await c.query('ANALYZE "GpuSample"');
      have = size;
      console.log(`generated ${size.toLocaleString()} events in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      for (const [op, sql] of Object.entries(OPS)) {
        const xs = await time(c, sql);
        (results[op] ??= {})[size] = { p50: pct(xs, 50), p95: pct(xs, 95) };
      }
      // Retention of one day: drop the oldest day's partition (what src/history/retention.ts does).
      const oldest = (await c.query(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"Event"'::regclass AND c.relname <> 'Event_default' ORDER BY c.relname LIMIT 1`)).rows[0].relname;
      const rows = (await c.query(`SELECT count(*)::int AS n FROM "${oldest}"`)).rows[0].n;
      const t = performance.now();
      await c.query(`DROP TABLE "${oldest}"`);
      (results['retention of one day'] ??= {})[size] = { p50: performance.now() - t, p95: performance.now() - t };
      console.log(`  dropped ${oldest} (${rows.toLocaleString()} rows)`);
      await c.query(`SELECT ops_ensure_partitions('Event', 'day', now() AT TIME ZONE 'UTC' - $1 * interval '1 day', now() AT TIME ZONE 'UTC', NULL)`, [DAYS + 2]);
    }
    const [small, large] = [SIZES[0]!, SIZES.at(-1)!];
    console.log(`\n${'operation'.padEnd(22)} ${SIZES.map((s) => `${(s / 1e6).toString()}M p50/p95 ms`.padStart(20)).join(' ')}  ratio p50 ${large / 1e6}M/${small / 1e6}M`);
    for (const [op, bySize] of Object.entries(results)) {
      const cells = SIZES.map((s) => `${bySize[s]!.p50.toFixed(1)} / ${bySize[s]!.p95.toFixed(1)}`.padStart(20)).join(' ');
      console.log(`${op.padEnd(22)} ${cells}  ${(bySize[large]!.p50 / bySize[small]!.p50).toFixed(2)}`);
    }
  } finally {
    await c.end().catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

await main();
