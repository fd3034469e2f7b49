/**
 * `npm run bench:gpu`: GPU telemetry ingest and the two GPU reads, against the real service on real
 * Postgres and Redis, with a baseline measured in the same run.
 *
 * 1. A fresh database (migrated); a tenant with an admin and an ingest key; a second tenant for the
 *    baseline with the same 1,000 GPUs (rows in "Gpu" created with SQL).
 * 2. The simulated fleet: BENCH_GPUS GPUs (1,000; 8 per node) × 10 metrics, one sample per GPU every
 *    10 s for BENCH_GPU_HOURS hours (a full day is 24; the default keeps the run near 3 minutes on two
 *    shared cores), ending 5 minutes before the run started. Batches of 5,000 samples in time order
 *    (5 rounds of the whole fleet per batch, `node` on each sample), BENCH_GPU_CONNECTIONS at once.
 * 3. Baseline: the same rows, same batches, same concurrency, as one plain multi-row
 *    `INSERT INTO "GpuSample" … SELECT * FROM unnest($1::text[], …)` per batch through `pg` clients
 *    (no JSON, no auth, no GPU state, no rollups). Then the table is emptied (TRUNCATE).
 * 4. Ours: the service (API only, a child process) gets the same batches over HTTP:
 *    `POST /api/v1/ai-factory/gpu/samples` with the ingest key in X-Service-Key (JSON; the per-key rate
 *    limit is raised with INGEST_RATE_PER_SECOND so it still runs but is not what is measured, and
 *    BODY_LIMIT_BYTES is raised when 5,000 full samples do not fit in the default 1 MiB: the run says so).
 *    Rollups: every batch is older than 4 minutes, so the service's own backfill path rolls up the
 *    1-minute and 1-hour buckets it touched, after each 202 (src/gpu/backfill-rollups.ts); the bench
 *    then waits until the rollup rows cover every sample, prints how long after the last POST that was
 *    (and the ratio counting it), and calls no rollup itself. Prints samples/s against the baseline.
 * 5. One live round (1,000 samples stamped now) so the summary has fresh verdicts, then BENCH_GPU_QUERIES
 *    (30) timed runs after 3 warm-ups of: GET /ai-factory/gpu/summary (all GPUs), GET
 *    /ai-factory/gpu/timeseries?metric=utilization&since_hours=24 for one node (8 GPUs) and for all GPUs
 *    (the API caps a query at 200 series). p50/p95, and the server's peak RSS (VmHWM).
 *
 * The fleet and the baseline statement are in lib/gpu-fleet.ts.
 * Env: BENCH_GPU_HOURS (2), BENCH_GPUS (1000), BENCH_GPU_CONNECTIONS (4), BENCH_GPU_QUERIES (30),
 * TEST_DATABASE_ADMIN_URL / TEST_REDIS_URL (or BENCH_*), as the tests.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { applyMigrations } from '../src/db/migrate.js';
import { createPrisma } from '../src/db/client.js';
import { createTenant } from '../src/tenants/tenants.js';
import { ADMIN_URL, REDIS_URL, createBenchDatabase, serviceEnv } from './lib/env.js';
import { startChild, type Child } from './lib/child.js';
import { quantile } from './lib/load.js';
import { goalLine } from './lib/goal.js';
import {
  BASELINE_SQL,
  BATCH,
  CONNECTIONS,
  GPUS,
  GPUS_PER_NODE,
  HOURS,
  INTERVAL_S,
  MODEL,
  QUERIES,
  ROUNDS,
  SAMPLES,
  baselineParams,
  metrics,
  nodeOf,
  pushBody,
  shards,
  uuidOf,
} from './lib/gpu-fleet.js';

const here = path.dirname(fileURLToPath(import.meta.url));

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const int = (n: number) => Math.round(n).toLocaleString('en');
const MiB = (b: number) => `${fmt(b / 2 ** 20, 0)} MiB`;

/** Peak and current resident set of a process (Linux /proc). */
function memoryOf(pid: number): { peak: number; now: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { peak: kb('VmHWM'), now: kb('VmRSS') };
}

/** One worker per queue, each running `work(item)` over its queue in order; returns wall time and per-item latencies (ms). */
async function pool<T>(
  queues: T[][],
  work: (item: T, worker: number) => Promise<void>,
): Promise<{ ms: number; latencies: number[] }> {
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    queues.map(async (queue, w) => {
      for (const item of queue) {
        const s = performance.now();
        await work(item, w);
        latencies.push(performance.now() - s);
      }
    }),
  );
  return { ms: performance.now() - t0, latencies };
}

function request(
  agent: http.Agent,
  url: string,
  opts: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const r = http.request(
      url,
      {
        agent,
        method: opts.method,
        headers: {
          ...opts.headers,
          ...(opts.body !== undefined
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(opts.body)) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    r.on('error', reject);
    r.end(opts.body);
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  const queues = shards();
  const list = queues.flat();
  console.log(
    `gpu benchmark: ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}, Postgres ${new URL(ADMIN_URL).host}, Redis ${new URL(REDIS_URL).host}\n` +
      `simulated: ${int(GPUS)} GPUs (${Math.ceil(GPUS / GPUS_PER_NODE)} nodes × ${GPUS_PER_NODE}) × 10 metrics every ${INTERVAL_S} s for ${HOURS} h = ${int(ROUNDS)} rounds = ${int(SAMPLES)} samples` +
      (HOURS < 24 ? ` (a full day is BENCH_GPU_HOURS=24: ${int(8640 * GPUS)} samples)` : '') +
      `\n           in ${int(list.length)} batches of up to ${int(BATCH)} samples (${list[0]!.rounds} rounds × ${list[0]!.gpuTo - list[0]!.gpuFrom} GPUs), ${CONNECTIONS} concurrent connections, each pushing its own ${int(GPUS / CONNECTIONS)} GPUs in time order`,
  );
  const db = await createBenchDatabase('ops_bench_gpu');
  const children: Array<Child<{ url: string }>> = [];
  const clients: pg.Client[] = [];
  const sql = new pg.Client({ connectionString: db.url });
  try {
    await applyMigrations(db.url);
    const prisma = createPrisma(db.url, 2);
    const adminPassword = crypto.randomBytes(12).toString('hex');
    const ours = await createTenant(prisma, { name: 'bench-gpu', adminEmail: 'admin@bench.local', adminPassword });
    const base = await createTenant(prisma, {
      name: 'bench-gpu-baseline',
      adminEmail: 'admin@baseline.local',
      adminPassword,
    });
    await prisma.$disconnect();
    await sql.connect();
    const gpuIds = (
      await sql.query(
        `INSERT INTO "Gpu" ("id", "tenantId", "uuid", "node", "index", "model", "source")
         SELECT gen_random_uuid()::text, $1, u, n, i, $5, 'nvidia-smi' FROM unnest($2::text[], $3::text[], $4::int[]) WITH ORDINALITY AS x(u, n, i, o) ORDER BY o RETURNING "id"`,
        [
          base.tenant.id,
          Array.from({ length: GPUS }, (_, g) => uuidOf(g)),
          Array.from({ length: GPUS }, (_, g) => nodeOf(g)),
          Array.from({ length: GPUS }, (_, g) => g % GPUS_PER_NODE),
          MODEL,
        ],
      )
    ).rows.map((r) => r.id as string);

    // The span ends 5 minutes before now, so every batch is history (the service's backfill path).
    const t0 = Date.now() - 5 * 60_000 - ROUNDS * INTERVAL_S * 1000;
    const sampleBody = pushBody(list[0]!, t0);
    const bodyLimit = Math.max(1024 * 1024, Math.ceil((Buffer.byteLength(sampleBody) * 1.1) / 1024) * 1024);

    // --- Baseline ---
    for (let i = 0; i < CONNECTIONS; i++) {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      clients.push(c);
    }
    const baseRun = await pool(queues, async (b, w) => {
      await clients[w]!.query(BASELINE_SQL, baselineParams(b, t0, gpuIds, base.tenant.id));
    });
    const baseStored = Number((await sql.query('SELECT count(*) FROM "GpuSample"')).rows[0].count);
    const baseRate = baseStored / (baseRun.ms / 1000);
    await sql.query('TRUNCATE "GpuSample"');
    for (const c of clients.splice(0)) await c.end();

    // --- Ours ---
    const env = serviceEnv(db.url, { INGEST_RATE_PER_SECOND: '1000000', BODY_LIMIT_BYTES: String(bodyLimit) });
    const api = await startChild<{ url: string }>(path.join(here, 'lib/serve-app.ts'), { ...env, BENCH_ROLE: 'api' });
    children.push(api);
    const rssBefore = memoryOf(api.process.pid!);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const pushUrl = `${api.info.url}/api/v1/ai-factory/gpu/samples`;
    const ingestHeaders = { 'x-service-key': ours.ingestKey };
    let accepted = 0;
    const ourRun = await pool(queues, async (b) => {
      const res = await request(agent, pushUrl, { method: 'POST', headers: ingestHeaders, body: pushBody(b, t0) });
      if (res.status !== 202) throw new Error(`push answered ${res.status}: ${res.body.slice(0, 500)}`);
      accepted += (JSON.parse(res.body) as { samples: number }).samples;
    });
    const ourStored = Number((await sql.query('SELECT count(*) FROM "GpuSample"')).rows[0].count);
    const ourRate = ourStored / (ourRun.ms / 1000);
    const rssIngest = memoryOf(api.process.pid!);
    // The service rolls history up after answering: wait (on the rows) until both resolutions cover every sample.
    const rollupsOf = async () =>
      (
        await sql.query(
          'SELECT "resolution", count(*)::int AS n, sum("samples")::bigint AS s FROM "GpuRollup" WHERE "tenantId" = $1 GROUP BY 1 ORDER BY 1',
          [ours.tenant.id],
        )
      ).rows as Array<{ resolution: number; n: number; s: string }>;
    const rollupWait = performance.now();
    let rollups = await rollupsOf();
    while (
      !(rollups.length === 2 && rollups.every((r) => Number(r.s) === ourStored)) &&
      performance.now() - rollupWait < 120_000
    ) {
      await new Promise((r) => setTimeout(r, 100));
      rollups = await rollupsOf();
    }
    const rollupLagMs = performance.now() - rollupWait;

    console.log(
      `\ningest of ${int(SAMPLES)} samples (${MiB(Buffer.byteLength(sampleBody))} of JSON per 5,000-sample POST${bodyLimit > 1024 * 1024 ? `; BODY_LIMIT_BYTES raised to ${int(bodyLimit)} for it` : ''})`,
    );
    console.log(
      `  baseline: INSERT … SELECT unnest(…) via pg  ${fmt(baseRate, 0).padStart(8)} samples/s   ${fmt(baseRun.ms / 1000, 1)} s   per batch p50 ${fmt(quantile(baseRun.latencies, 0.5), 0)} ms  p95 ${fmt(quantile(baseRun.latencies, 0.95), 0)} ms   (${int(baseStored)} rows)`,
    );
    console.log(
      `  POST /api/v1/ai-factory/gpu/samples         ${fmt(ourRate, 0).padStart(8)} samples/s   ${fmt(ourRun.ms / 1000, 1)} s   per POST  p50 ${fmt(quantile(ourRun.latencies, 0.5), 0)} ms  p95 ${fmt(quantile(ourRun.latencies, 0.95), 0)} ms   (${int(ourStored)} rows, ${int(accepted)} reported stored)`,
    );
    console.log(`  ${goalLine('ratio ours/baseline', ourRate / baseRate, { atLeast: 0.7 }, '×', 3)}`);
    console.log(
      `  rollups (by the service's backfill roller, after each 202): ${rollups.map((r) => `${r.resolution === 60 ? '1-minute' : '1-hour'} ${int(r.n)} rows over ${int(Number(r.s))} samples`).join(', ') || 'none'}; complete ${fmt(rollupLagMs / 1000, 1)} s after the last POST (ratio counting that time too: ${fmt(ourStored / ((ourRun.ms + rollupLagMs) / 1000) / baseRate, 3)}×)`,
    );
    console.log(
      `  server RSS ${MiB(rssBefore.now)} idle, ${MiB(rssIngest.now)} after ingest, peak ${MiB(rssIngest.peak)}`,
    );

    // --- Reads ---
    // One live round so verdicts are current (not counted above).
    const live = Date.now();
    const liveSamples = Array.from({ length: GPUS }, (_, g) => ({
      node: nodeOf(g),
      uuid: uuidOf(g),
      index: g % GPUS_PER_NODE,
      model: MODEL,
      at: new Date(live).toISOString(),
      ...metrics(g, ROUNDS),
    }));
    for (let i = 0; i < liveSamples.length; i += BATCH) {
      const res = await request(agent, pushUrl, {
        method: 'POST',
        headers: ingestHeaders,
        body: JSON.stringify({ samples: liveSamples.slice(i, i + BATCH) }),
      });
      if (res.status !== 202) throw new Error(`live push answered ${res.status}: ${res.body.slice(0, 500)}`);
    }
    const fresh = Number(
      (
        await sql.query('SELECT count(*) FROM "Gpu" WHERE "tenantId" = $1 AND "lastSampleAt" = $2::timestamp', [
          ours.tenant.id,
          new Date(live).toISOString(),
        ])
      ).rows[0].count,
    );
    if (fresh !== GPUS) throw new Error(`after the live round ${fresh} of ${GPUS} GPUs have it as their last sample`);
    const apiBase = api.info.url + '/api/v1';
    const login = await request(agent, apiBase + '/auth/login', {
      method: 'POST',
      headers: {},
      body: JSON.stringify({ email: 'admin@bench.local', password: adminPassword }),
    });
    const jwt = (JSON.parse(login.body) as { access_token: string }).access_token;
    const minted = await request(agent, apiBase + '/auth/tokens', {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
      body: JSON.stringify({ name: 'bench' }),
    });
    const auth = { authorization: `Bearer ${(JSON.parse(minted.body) as { token: string }).token}` };
    await sql.query('ANALYZE "GpuSample"; ANALYZE "GpuRollup"; ANALYZE "Gpu"');

    const reads: Array<{ name: string; path: string; describe: (body: any) => string }> = [
      {
        name: 'GET gpu/summary',
        path: '/ai-factory/gpu/summary',
        describe: (b) => `${b.gpus.length} GPUs, ${JSON.stringify(b.fleet.by_health ?? b.fleet.byHealth ?? {})}`,
      },
      {
        name: 'GET gpu/timeseries 24 h, 1 node',
        path: `/ai-factory/gpu/timeseries?metric=utilization&since_hours=24&node=${nodeOf(0)}`,
        describe: (b) =>
          `${b.series.length} series × ≤${Math.max(...b.series.map((s: any) => s.points.length))} points, step ${b.step_seconds ?? b.stepSeconds} s from ${b.resolution}`,
      },
      {
        name: 'GET gpu/timeseries 24 h, all GPUs',
        path: '/ai-factory/gpu/timeseries?metric=utilization&since_hours=24',
        describe: (b) =>
          `${b.series.length} series × ≤${Math.max(...b.series.map((s: any) => s.points.length))} points, step ${b.step_seconds ?? b.stepSeconds} s from ${b.resolution}`,
      },
    ];
    console.log(`\nreads, ${QUERIES} runs each after 3 warm-ups, one at a time`);
    for (const r of reads) {
      const lat: number[] = [];
      let last = '';
      let bytes = 0;
      for (let i = 0; i < QUERIES + 3; i++) {
        const s = performance.now();
        const res = await request(agent, apiBase + r.path, { method: 'GET', headers: auth });
        const ms = performance.now() - s;
        if (res.status !== 200) throw new Error(`${r.path} answered ${res.status}: ${res.body.slice(0, 500)}`);
        if (i >= 3) lat.push(ms);
        last = res.body;
        bytes = Buffer.byteLength(res.body);
      }
      console.log(
        `  ${r.name.padEnd(34)} p50 ${fmt(quantile(lat, 0.5), 1).padStart(7)} ms   p95 ${fmt(quantile(lat, 0.95), 1).padStart(7)} ms   ${r.describe(JSON.parse(last))}, ${fmt(bytes / 1024, 0)} KiB`,
      );
    }
    const rssEnd = memoryOf(api.process.pid!);
    console.log(`  server peak RSS over the whole run ${MiB(rssEnd.peak)}`);
    agent.destroy();
  } finally {
    for (const c of clients) await c.end().catch(() => undefined);
    await sql.end().catch(() => undefined);
    for (const c of children) await c.stop();
    await db.drop();
    console.log(
      `\ntotal ${((Date.now() - started) / 1000).toFixed(1)}s, load average ${os.loadavg()[0].toFixed(1)} (figures are only comparable on an otherwise idle machine)`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
