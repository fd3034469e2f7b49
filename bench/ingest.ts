/**
 * `npm run bench:ingest`: ingest throughput and latency of the real service against real Postgres and
 * Redis, next to a bare Express 5 + one-INSERT-per-request baseline measured in the same run.
 *
 * 1. A fresh database (migrated), TENANTS tenants each with an ingest key, one tenant with an admin.
 * 2. Three child processes on loopback: the API (no workers), a worker process (rule evaluation),
 *    and the baseline server. The load generator runs in this process.
 * 3. Baseline, then ours: CONNECTIONS keep-alive connections POSTing back to back for DURATION
 *    (after a warm-up). Ours spreads requests over all keys round-robin; the per-key limit is raised
 *    (INGEST_RATE_PER_SECOND) so the limiter still runs (one Redis round trip) but is not what is
 *    measured. Prints accepted events/s, p50/p99 and ours ÷ baseline.
 * 4. Once the evaluation backlog is drained: ~1,000 events/s open-loop for ALERT_PHASE seconds, every
 *    tenth one matching a `bench.alert.*` rule; prints event→alert (AlertEvent.createdAt −
 *    Event.receivedAt) and event→evaluated (evaluatedAt − receivedAt) p50/p95.
 *
 * 5. With BENCH_TRACING=compare (`npm run bench:ingest -- --tracing`): a second API process with OpenTelemetry
 *    export on (OTEL_EXPORTER_OTLP_ENDPOINT at a sink on 127.0.0.1, every request sampled) takes the same
 *    closed loop right after the untraced one; prints both rates, p99s and traced ÷ untraced.
 *
 * Env: BENCH_DURATION_S (10), BENCH_CONNECTIONS (50), BENCH_TENANTS (100), BENCH_ALERT_RATE (1000),
 * BENCH_ALERT_PHASE_S (5), BENCH_TRACING (off | compare), TEST_DATABASE_ADMIN_URL / TEST_REDIS_URL (or BENCH_*), as the tests.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { applyMigrations } from '../src/db/migrate.js';
import { createPrisma } from '../src/db/client.js';
import { createIngestKey } from '../src/tenants/ingest-keys.js';
import { createTenant } from '../src/tenants/tenants.js';
import { ADMIN_URL, REDIS_URL, createBenchDatabase, serviceEnv } from './lib/env.js';
import { startChild, type Child } from './lib/child.js';
import { closedLoop, latencySummary, openLoop, quantile, type LoadResult } from './lib/load.js';
import { BASELINE_TABLE_SQL } from './lib/serve-baseline.js';
import { goalLine } from './lib/goal.js';
import { startOtlpSink } from './lib/otlp-sink.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const DURATION_MS = num('BENCH_DURATION_S', 10) * 1000;
const WARMUP_MS = 2000;
const CONNECTIONS = num('BENCH_CONNECTIONS', 50);
const TENANTS = num('BENCH_TENANTS', 100);
const ALERT_RATE = num('BENCH_ALERT_RATE', 1000);
const ALERT_PHASE_MS = num('BENCH_ALERT_PHASE_S', 5) * 1000;
const TRACING = process.env.BENCH_TRACING === 'compare' || process.argv.includes('--tracing');

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

function eventBody(i: number, type = 'bench.tick', severity = 'info'): string {
  return JSON.stringify({
    type,
    module: 'bench',
    source: `host-${i % 50}`,
    summary: `Synthetic event ${i}`,
    severity,
    labels: { env: 'bench', zone: `z${i % 3}` },
    payload: { seq: i, value: 42, tags: ['a', 'b'] },
  });
}

function report(name: string, r: LoadResult): number {
  const ok = r.latencies.length;
  const rate = ok / (r.durationMs / 1000);
  const lat = latencySummary(r.latencies);
  const others = Object.entries(r.statuses).filter(([s]) => s !== '202');
  console.log(
    `${name.padEnd(30)} ${fmt(rate, 0).padStart(7)} accepted/s   p50 ${fmt(lat.p50, 2).padStart(6)} ms   p99 ${fmt(lat.p99, 2).padStart(6)} ms   max ${fmt(lat.max, 1)} ms` +
      (others.length ? `   (non-202: ${others.map(([s, c]) => `${s}×${c}`).join(', ')})` : ''),
  );
  return rate;
}

async function waitFor(cond: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(
    `ingest benchmark: ${os.cpus().length} CPUs, ${CONNECTIONS} connections, ${DURATION_MS / 1000}s per run (+${WARMUP_MS / 1000}s warm-up), Postgres ${new URL(ADMIN_URL).host}, Redis ${new URL(REDIS_URL).host}, load average ${os.loadavg()[0].toFixed(1)}`,
  );
  const db = await createBenchDatabase();
  const children: Array<Child<{ url: string }>> = [];
  const prisma = createPrisma(db.url, 4);
  try {
    await applyMigrations(db.url);
    const keys: string[] = [];
    for (let i = 0; i < TENANTS; i += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, TENANTS - i) }, async (_, j) => {
          const tenant = await prisma.tenant.create({ data: { name: `bench-${i + j}` } });
          keys.push((await createIngestKey(prisma, tenant.id)).cleartext);
        }),
      );
    }
    const adminPassword = crypto.randomBytes(12).toString('hex');
    const alerting = await createTenant(prisma, {
      name: 'bench-alerting',
      adminEmail: 'admin@bench.local',
      adminPassword,
    });
    const sql = new pg.Client({ connectionString: db.url });
    // Dropping the database at the end (or after a failure) ends this connection: not a crash that hides the failure.
    sql.on('error', (err) => console.error(`bench database connection: ${err.message}`));
    await sql.connect();
    await sql.query(BASELINE_TABLE_SQL);

    const env = serviceEnv(db.url, { INGEST_RATE_PER_SECOND: '1000000' });
    const [api, worker, baseline] = await Promise.all([
      startChild<{ url: string }>(path.join(here, 'lib/serve-app.ts'), { ...env, BENCH_ROLE: 'api' }),
      startChild<{ url: string }>(path.join(here, 'lib/serve-app.ts'), { ...env, BENCH_ROLE: 'worker' }),
      startChild<{ url: string }>(path.join(here, 'lib/serve-baseline.ts'), {
        BENCH_ROLE: 'baseline',
        DATABASE_URL: db.url,
        BASELINE_TENANT_ID: alerting.tenant.id,
        NODE_ENV: 'production',
      }),
    ]);
    children.push(api, worker, baseline);
    console.log(
      `setup ${((Date.now() - started) / 1000).toFixed(1)}s: ${TENANTS} tenants/keys; per-key limit raised to ${env.INGEST_RATE_PER_SECOND}/s (still enforced in Redis per request)\n`,
    );

    const base = await closedLoop({
      baseUrl: baseline.info.url,
      connections: CONNECTIONS,
      warmupMs: WARMUP_MS,
      durationMs: DURATION_MS,
      okStatus: 202,
      next: (i) => ({ path: '/events', headers: {}, body: eventBody(i) }),
    });
    const baseRate = report('baseline (Express + INSERT)', base);
    const ours = await closedLoop({
      baseUrl: api.info.url,
      connections: CONNECTIONS,
      warmupMs: WARMUP_MS,
      durationMs: DURATION_MS,
      okStatus: 202,
      next: (i) => ({
        path: '/api/v1/events',
        headers: { 'x-service-key': keys[i % keys.length] },
        body: eventBody(i),
      }),
    });
    const ourRate = report('POST /api/v1/events', ours);
    const ourLat = latencySummary(ours.latencies);
    console.log(`\n${goalLine('ratio ours/baseline', ourRate / baseRate, { atLeast: 1.3 })}`);
    console.log(goalLine('p99', ourLat.p99, { atMost: 50 }, ' ms', 1));
    if (TRACING) await compareTracing(env, keys, ourRate, ourLat.p99, children);

    // Event → alert at ~ALERT_RATE events/s, after the evaluation backlog of the runs above.
    const backlog = async () =>
      Number((await sql.query('SELECT count(*) FROM "Event" WHERE "evaluatedAt" IS NULL')).rows[0].count);
    const drainStart = Date.now();
    const drained = await waitFor(async () => (await backlog()) === 0, 60_000);
    console.log(
      `\nevaluation backlog ${drained ? `drained in ${((Date.now() - drainStart) / 1000).toFixed(1)}s` : `NOT drained after 60s (${await backlog()} left)`}`,
    );

    const login = await fetch(`${api.info.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@bench.local', password: adminPassword }),
    });
    const jwt = ((await login.json()) as { access_token: string }).access_token;
    const rule = await fetch(`${api.info.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
      body: JSON.stringify({
        query: 'mutation($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }',
        variables: {
          input: {
            name: 'bench critical',
            kind: 'MATCH',
            typeGlob: 'bench.alert.*',
            severities: ['CRITICAL'],
            alertSeverity: 'CRITICAL',
          },
        },
      }),
    });
    const ruleResult = (await rule.json()) as { data?: { createAlertRule?: { id: string } }; errors?: unknown };
    const haveRule = !!ruleResult.data?.createAlertRule?.id;
    if (!haveRule)
      console.log(`createAlertRule failed (${JSON.stringify(ruleResult.errors)}); reporting event→evaluated only`);

    const phaseStart = new Date(Date.now() - 5);
    const paced = await openLoop({
      baseUrl: api.info.url,
      ratePerSecond: ALERT_RATE,
      durationMs: ALERT_PHASE_MS,
      okStatus: 202,
      next: (i) =>
        i % 10 === 0
          ? {
              path: '/api/v1/events',
              headers: { 'x-service-key': alerting.ingestKey },
              body: eventBody(i, 'bench.alert.fired', 'critical'),
            }
          : { path: '/api/v1/events', headers: { 'x-service-key': keys[i % keys.length] }, body: eventBody(i) },
    });
    report(`POST at ${ALERT_RATE}/s (open loop)`, paced);
    await waitFor(
      async () =>
        Number(
          (
            await sql.query('SELECT count(*) FROM "Event" WHERE "evaluatedAt" IS NULL AND "receivedAt" >= $1', [
              phaseStart,
            ])
          ).rows[0].count,
        ) === 0,
      30_000,
    );
    const evaluated = (
      await sql.query(
        'SELECT EXTRACT(EPOCH FROM ("evaluatedAt" - "receivedAt")) * 1000 AS ms FROM "Event" WHERE "receivedAt" >= $1 AND "evaluatedAt" IS NOT NULL',
        [phaseStart],
      )
    ).rows.map((r) => Number(r.ms));
    const alerted = (
      await sql.query(
        'SELECT EXTRACT(EPOCH FROM (ae."createdAt" - e."receivedAt")) * 1000 AS ms FROM "AlertEvent" ae JOIN "Event" e ON e.id = ae."eventId" WHERE e."receivedAt" >= $1',
        [phaseStart],
      )
    ).rows.map((r) => Number(r.ms));
    console.log(
      `event→evaluated (${evaluated.length} events)        p50 ${fmt(quantile(evaluated, 0.5))} ms   p95 ${fmt(quantile(evaluated, 0.95))} ms`,
    );
    if (haveRule)
      console.log(
        `event→alert (${alerted.length} matching events)    p50 ${fmt(quantile(alerted, 0.5))} ms   p95 ${fmt(quantile(alerted, 0.95))} ms   (goal p95 ≤ 250 ms)`,
      );
    await sql.end();
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await prisma.$disconnect();
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

/** The same closed loop against an API process exporting traces and metrics (OTLP/HTTP to a local sink). */
async function compareTracing(
  env: Record<string, string>,
  keys: string[],
  untracedRate: number,
  untracedP99: number,
  children: Array<Child<{ url: string }>>,
): Promise<void> {
  const sink = await startOtlpSink();
  try {
    const traced = await startChild<{ url: string }>(path.join(here, 'lib/serve-app.ts'), {
      ...env,
      BENCH_ROLE: 'api',
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_SERVICE_NAME: 'bench-ingest',
    });
    children.push(traced);
    const r = await closedLoop({
      baseUrl: traced.info.url,
      connections: CONNECTIONS,
      warmupMs: WARMUP_MS,
      durationMs: DURATION_MS,
      okStatus: 202,
      next: (i) => ({
        path: '/api/v1/events',
        headers: { 'x-service-key': keys[i % keys.length] },
        body: eventBody(i),
      }),
    });
    const rate = report('POST /api/v1/events (traced)', r);
    const p99 = latencySummary(r.latencies).p99;
    console.log(
      `tracing on ÷ off: ${fmt(rate / untracedRate, 3)} of the throughput (${fmt(rate, 0)} vs ${fmt(untracedRate, 0)}/s), ` +
        `p99 ${fmt(p99, 2)} vs ${fmt(untracedP99, 2)} ms; the sink got ${sink.exports} exports, ${fmt(sink.bytes / 1024, 0)} KiB`,
    );
  } finally {
    await sink.close();
  }
}
