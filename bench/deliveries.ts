/**
 * `npm run bench:deliveries`: throughput and latency of outbound deliveries on this machine.
 *
 * N receivers listen on 127.0.0.1 (in a child process, so their CPU is not counted as the engine's).
 * 1. Baseline: the same number of signed POSTs sent straight to the receivers by a plain keep-alive
 *    client with the engine's concurrency: what the machine can push without the engine.
 * 2. Engine: M outbox messages, each fanned out to every receiver's webhook (N×M deliveries), sent by
 *    the delivery workers with signing, rate limits, retries and history; twice, on one engine: a cold
 *    start (the first N×M deliveries of a process just started: its JIT, pools and connections cold),
 *    then, once the receivers' windows have cleared, steady state (the same again, as a service that
 *    has been running sends them). The goals are judged on steady state; the cold start is printed beside it.
 * Prints deliveries/s, p50/p99 trigger→delivered latency (outbox row written → delivery recorded as
 * delivered), the highest request count any receiver saw in a sliding second (the 50/s cap), and
 * lost/duplicated counts (receivers count distinct webhook-ids). Uses a throwaway database and Redis
 * prefix; bounded by BENCH_TIMEOUT_MS. Settings: BENCH_RECEIVERS (60), BENCH_MESSAGES (200); BENCH_CPU_PROF=<dir>
 * writes a CPU profile of each engine phase, BENCH_COUNT_REDIS=1 counts the Redis commands sent, BENCH_COUNT_SQL=1 (or a prefix length) the SQL statements by their first words, BENCH_TIMELINE=1 prints deliveries and fan-outs per 250 ms.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { startApp } from '../src/server/app.js';
import { applyMigrations } from '../src/db/migrate.js';
import { createTenant } from '../src/tenants/tenants.js';
import { createCtx } from '../src/context.js';
import { createOutboundWebhook } from '../src/webhooks/webhooks.js';
import { dispatchOutbox, writeOutboxBatch } from '../src/outbox/outbox.js';
import { hmacHex } from '../src/signing.js';
import { profiled } from './lib/profile.js';
import { goalLine } from './lib/goal.js';
import { countRedisCommands, countSqlStatements } from './lib/counters.js';
import { cpuByCommand, cpuSince } from './lib/process-cpu.js';
import { dropRedisPrefix, perQuarterSecond } from './lib/run-data.js';
import { ask, startReceivers, type ReceiverStats } from './lib/receivers.js';
import { ADMIN_URL, REDIS_URL } from './lib/env.js';

const RECEIVERS = Number(process.env.BENCH_RECEIVERS ?? 60);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 200);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 180_000);
const CAP = Number(process.env.WEBHOOK_RATE_PER_SECOND ?? 50);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function baseline(urls: string[], total: number, concurrency: number, secret: string): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const started = performance.now();
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({
        id: `baseline-${i}`,
        timestamp: new Date().toISOString(),
        topic: 'alert.opened',
        source: 'bench',
        kind: 'alert.opened',
        severity: 'critical',
        labels: {},
        payload: { n: i },
      });
      const req = http.request(urls[i % urls.length], {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'webhook-id': `baseline-${i}`,
          'x-service-signature': hmacHex(secret, body),
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < total; i = next++) await one(i);
    }),
  );
  const secs = (performance.now() - started) / 1000;
  agent.destroy();
  return total / secs;
}

interface Phase {
  rate: number;
  cpuMsPerDelivery: number;
  ok: boolean;
}

/**
 * One measured phase: the messages announced as the service announces a batch of changes, then the wait
 * for every delivery; prints what it measured, each line after `label`.
 */
async function measurePhase(
  label: string,
  app: Awaited<ReturnType<typeof startApp>>,
  tenantId: string,
  receivers: ChildProcess,
  total: number,
  tag: string,
): Promise<Phase> {
  const rt = app.rt;
  await ask(receivers, 'reset', 'reset');
  const cpuBefore = process.cpuUsage();
  const others = { names: ['postgres', 'redis-server'], pids: { receivers: receivers.pid } };
  const othersBefore = cpuByCommand(others.names, others.pids);
  const triggerStart = Date.now();
  const ids: string[] = [];
  await profiled(`deliveries-engine-${label.replace(/\W+/g, '-')}`, async () => {
    for (let i = 0; i < MESSAGES; i += 100) {
      const batch = Array.from({ length: Math.min(100, MESSAGES - i) }, (_v, k) => ({
        tenantId,
        topic: 'alert.opened' as const,
        subjectId: `${tag}-${i + k}`,
        body: {
          source: 'bench',
          kind: 'alert.opened',
          severity: 'critical',
          labels: { bench: tag },
          payload: { n: i + k },
        },
        createdAt: rt.clock.now(),
      }));
      // As the service announces a batch of changes (src/webhooks/event-triggers.ts): one statement.
      const written = await writeOutboxBatch(rt.prisma, batch);
      ids.push(...written);
      await dispatchOutbox(rt, written);
    }
    // Waits on the receivers' process (IPC) until they have had as many requests as there are deliveries,
    // and only then on Postgres for the last records: a count(*) every 100 ms during the run cost Postgres
    // ~5% of its CPU in the measured phase (pg_stat_statements), taken from what the engine could use.
    while ((await ask<number>(receivers, 'total', 'total')) < total) await new Promise((r) => setTimeout(r, 50));
    while ((await rt.prisma.delivery.count({ where: { outboxId: { in: ids }, status: 'delivered' } })) < total)
      await new Promise((r) => setTimeout(r, 20));
  });
  const cpu = process.cpuUsage(cpuBefore);
  const othersCpu = cpuSince(othersBefore, others.names, others.pids);
  const cpuMsPerDelivery = (cpu.user + cpu.system) / 1000 / total;
  const rows = await rt.prisma.delivery.findMany({
    where: { outboxId: { in: ids } },
    select: { outboxId: true, status: true, deliveredAt: true },
  });
  const delivered = rows.filter((r) => r.status === 'delivered');
  const messages = await rt.prisma.outboxMessage.findMany({
    where: { id: { in: ids } },
    select: { id: true, createdAt: true, dispatchedAt: true },
  });
  const triggeredAt = new Map(messages.map((m) => [m.id, m.createdAt.getTime()]));
  const latencies = delivered
    .map((r) => r.deliveredAt!.getTime() - triggeredAt.get(r.outboxId!)!)
    .sort((a, b) => a - b);
  const lastDelivered = Math.max(...delivered.map((r) => r.deliveredAt!.getTime()));
  const say = (line: string) => console.log(`${label}: ${line}`);
  if (process.env.BENCH_TIMELINE) {
    // Deliveries recorded and messages fanned out per 250 ms after the first trigger: where the rounds of the cap lose time.
    say(
      `delivered per 250 ms: ${perQuarterSecond(
        delivered.map((r) => r.deliveredAt),
        triggerStart,
      )}`,
    );
    say(
      `messages fanned out per 250 ms: ${perQuarterSecond(
        messages.map((m) => m.dispatchedAt),
        triggerStart,
      )}`,
    );
    const { rounds, first } = await ask<{ rounds: number[][]; first: number[] }>(receivers, 'rounds', 'rounds');
    const perRound = rounds[0].map((_v, r) => rounds.map((t) => t[r] - triggerStart).sort((a, b) => a - b));
    say(
      `end of each round of the cap (ms after the trigger; min / median / max over receivers): ${perRound.map((ts) => `${ts[0].toFixed(0)}/${ts[ts.length >> 1].toFixed(0)}/${ts[ts.length - 1].toFixed(0)}`).join('  ')}`,
    );
    const buckets: number[] = [];
    for (const t of first)
      buckets[Math.floor((t - triggerStart) / 50)] = (buckets[Math.floor((t - triggerStart) / 50)] ?? 0) + 1;
    say(`first round's requests per 50 ms: ${Array.from(buckets, (n, b) => `${b * 50}:${n ?? 0}`).join(' ')}`);
  }
  const rate = total / ((lastDelivered - triggerStart) / 1000);
  const lags = await ask<{ p50: number; p90: number; p99: number }>(receivers, 'lags', 'lags');
  const stats = await ask<ReceiverStats[]>(receivers, 'stats', 'stats');
  const requests = stats.reduce((n, s) => n + s.requests, 0);
  const unique = stats.reduce((n, s) => n + s.unique, 0);
  const maxPerSecond = Math.max(...stats.map((s) => s.maxPerSlidingSecond));
  const failed = rows.length - delivered.length;
  say(
    `${total} deliveries in ${((lastDelivered - triggerStart) / 1000).toFixed(2)} s = ${rate.toFixed(0)} deliveries/s aggregate`,
  );
  say(
    `trigger→delivered latency: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies[latencies.length - 1]} ms`,
  );
  say(
    `per-receiver cap: max ${maxPerSecond} requests in any sliding second (cap ${CAP}/s; the ideal for ${MESSAGES} per receiver at the cap is ${(MESSAGES / CAP).toFixed(1)} s)`,
  );
  say(
    `lag at the cap: request k + ${CAP} reached its receiver p50 ${lags.p50} ms, p90 ${lags.p90} ms, p99 ${lags.p99} ms after request k's second was over (each round of the cap adds it)`,
  );
  say(
    `receivers: ${requests} requests, ${unique} distinct webhook-ids; lost ${total - unique}, duplicated ${requests - unique}, not delivered ${failed}`,
  );
  say(
    `engine process CPU: ${cpuMsPerDelivery.toFixed(3)} ms per delivery (user ${(cpu.user / 1000).toFixed(0)} ms, system ${(cpu.system / 1000).toFixed(0)} ms; Postgres and Redis not included) → ${(1000 / cpuMsPerDelivery).toFixed(0)} deliveries/s per core of engine CPU`,
  );
  say(
    `other processes' CPU per delivery: ${Object.entries(othersCpu)
      .map(([k, ms]) => `${k} ${(ms / total).toFixed(3)} ms`)
      .join(', ')} (from /proc; other work on the machine counts too)`,
  );
  return { rate, cpuMsPerDelivery, ok: unique === total && requests === unique && maxPerSecond <= CAP && failed === 0 };
}

async function main(): Promise<void> {
  const redisCounts = process.env.BENCH_COUNT_REDIS ? await countRedisCommands() : {};
  const sqlCounts = process.env.BENCH_COUNT_SQL
    ? countSqlStatements(Number(process.env.BENCH_COUNT_SQL) > 1 ? Number(process.env.BENCH_COUNT_SQL) : 40)
    : {};
  const runId = crypto.randomBytes(4).toString('hex');
  const dbName = `ops_bench_${runId}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = '/' + dbName;
  const { proc: receivers, urls } = await startReceivers(RECEIVERS, CAP);
  let app: Awaited<ReturnType<typeof startApp>> | undefined;
  const deadline = setTimeout(() => {
    console.error(`bench: gave up after ${TIMEOUT_MS} ms`);
    process.exit(1);
  }, TIMEOUT_MS);
  try {
    await applyMigrations(dbUrl.toString());
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL,
      REDIS_PREFIX: `bench${runId}`,
      APP_SECRET: crypto.randomBytes(24).toString('hex'),
      BOOTSTRAP_DEMO: 'false',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
    });
    const total = RECEIVERS * MESSAGES;
    console.log(
      `bench:deliveries  receivers=${RECEIVERS} messages=${MESSAGES} deliveries=${total} cap=${CAP}/s per receiver  concurrency=${config.webhooks.concurrency}`,
    );

    // 1. Baseline: plain POSTs, no engine.
    const baseCpuBefore = process.cpuUsage();
    const baseReceiversBefore = cpuByCommand([], { receivers: receivers.pid });
    const baseRate = await baseline(urls, total, config.webhooks.concurrency, 'whsec_baseline');
    const baseCpu = process.cpuUsage(baseCpuBefore);
    const baseReceivers = cpuSince(baseReceiversBefore, [], { receivers: receivers.pid });
    const baseStats = await ask<ReceiverStats[]>(receivers, 'stats', 'stats');
    console.log(
      `baseline (plain keep-alive POSTs, no engine, no cap): ${baseRate.toFixed(0)} req/s; max per receiver in a sliding second ${Math.max(...baseStats.map((s) => s.maxPerSlidingSecond))}`,
    );
    // The floor of the engine's CPU per delivery: a bare client's signing and POST, and what the receivers take per request.
    console.log(
      `  baseline CPU per request: client ${((baseCpu.user + baseCpu.system) / 1000 / total).toFixed(3)} ms (signing and the POST, no engine), receivers ${((baseReceivers.receivers ?? 0) / total).toFixed(3)} ms`,
    );

    // 2. The engine: a cold start, then steady state once every receiver's window has cleared.
    app = await startApp(config, { http: false, workers: true });
    const { tenant, admin: adminUser } = await createTenant(app.rt.prisma, {
      name: `bench-${runId}`,
      adminEmail: `admin@bench-${runId}.test`,
      adminPassword: crypto.randomBytes(12).toString('hex'),
    });
    const ctx = createCtx(
      app.rt,
      {
        tenantId: tenant.id,
        userId: adminUser.id,
        email: adminUser.email,
        role: 'admin',
        userKind: 'human',
        credential: { kind: 'pat', id: 'bench' },
      },
      'bench',
    );
    for (const url of urls) await createOutboundWebhook(ctx, { name: url, url, triggers: [{ on: 'ALERT_OPENED' }] });
    const cold = await measurePhase('cold start', app, tenant.id, receivers, total, `${runId}-cold`);
    await new Promise((r) => setTimeout(r, 1200));
    const steady = await measurePhase('steady state', app, tenant.id, receivers, total, `${runId}-steady`);

    if (process.env.BENCH_COUNT_REDIS)
      console.log(`Redis commands sent by the engine process (both phases): ${JSON.stringify(redisCounts)}`);
    if (process.env.BENCH_COUNT_SQL)
      for (const [k, n] of Object.entries(sqlCounts).sort((a, b) => b[1] - a[1]))
        console.log(`  SQL ${String(n).padStart(6)}  ${k}`);
    console.log(`  ceiling at the cap: ${RECEIVERS * CAP} deliveries/s (receivers × cap)`);
    console.log(
      `cold start: ${cold.rate.toFixed(0)} deliveries/s (${(cold.rate / (RECEIVERS * CAP)).toFixed(3)} of the ceiling), engine CPU ${cold.cpuMsPerDelivery.toFixed(3)} ms per delivery (the first ${total} after the process started)`,
    );
    console.log(
      `ratio engine / baseline: ${(steady.rate / baseRate).toFixed(3)}  (steady state; engine / cap ceiling: ${(steady.rate / (RECEIVERS * CAP)).toFixed(3)})`,
    );
    console.log(goalLine('deliveries/s (steady state)', steady.rate, { atLeast: 2900 }, '/s', 0));
    console.log(
      goalLine('engine / cap ceiling (steady state)', steady.rate / (RECEIVERS * CAP), { atLeast: 0.97 }, '', 3),
    );
    console.log(
      goalLine('engine CPU per delivery (steady state)', steady.cpuMsPerDelivery, { atMost: 0.25 }, ' ms', 3),
    );
    const ok = cold.ok && steady.ok;
    console.log(ok ? 'result: no lost or duplicated deliveries; cap held (both phases)' : 'result: CHECK FAILED');
    process.exitCode = ok ? 0 : 1;
  } finally {
    clearTimeout(deadline);
    if (app) await app.stop();
    receivers.kill();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    await dropRedisPrefix(REDIS_URL, `bench${runId}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
