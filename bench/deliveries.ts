/**
 * `npm run bench:deliveries`: throughput and latency of outbound deliveries on this machine.
 *
 * N receivers listen on 127.0.0.1 (in a child process, so their CPU is not counted as the engine's).
 * 1. Baseline: the same number of signed POSTs sent straight to the receivers by a plain keep-alive
 *    client with the engine's concurrency: what the machine can push without the engine.
 * 2. Engine: M outbox messages, each fanned out to every receiver's webhook (N×M deliveries), sent by
 *    the delivery workers with signing, rate limits, retries and history.
 * Prints deliveries/s, p50/p99 trigger→delivered latency (outbox row written → delivery recorded as
 * delivered), the highest request count any receiver saw in a sliding second (the 50/s cap), and
 * lost/duplicated counts (receivers count distinct webhook-ids). Uses a throwaway database and Redis
 * prefix; bounded by BENCH_TIMEOUT_MS. Settings: BENCH_RECEIVERS (60), BENCH_MESSAGES (200), BENCH_WARMUP (0: messages sent to every receiver before the clock starts); BENCH_CPU_PROF=<dir>
 * writes a CPU profile of the engine phase, BENCH_COUNT_REDIS=1 counts the Redis commands sent, BENCH_COUNT_SQL=1 (or a prefix length) the SQL statements by their first words, BENCH_TIMELINE=1 prints deliveries and fan-outs per 250 ms.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
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

const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const RECEIVERS = Number(process.env.BENCH_RECEIVERS ?? 60);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 200);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 180_000);
const CAP = Number(process.env.WEBHOOK_RATE_PER_SECOND ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 0);

interface ReceiverStats {
  requests: number;
  unique: number;
  maxPerSlidingSecond: number;
}

const RECEIVER_PROCESS = `
const http = require('node:http');
const parentPort = { postMessage: (m) => process.send(m), on: (e, f) => process.on(e, f) };
const workerData = { n: Number(process.env.BENCH_RECEIVERS) };
const stats = [];
const urls = [];
let started = 0;
function maxSliding(times) {
  times.sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= 1000) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}
for (let i = 0; i < workerData.n; i++) {
  const st = { times: [], ids: new Set(), requests: 0 };
  stats.push(st);
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      st.requests++;
      st.times.push(performance.timeOrigin + performance.now());
      st.ids.add(String(req.headers['webhook-id']));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  srv.keepAliveTimeout = 60000;
  srv.listen(0, '127.0.0.1', () => {
    urls[i] = 'http://127.0.0.1:' + srv.address().port + '/hook/' + i;
    if (++started === workerData.n) parentPort.postMessage({ urls });
  });
}
parentPort.on('message', (m) => {
  if (m === 'reset') {
    for (const st of stats) { st.times = []; st.ids = new Set(); st.requests = 0; }
    parentPort.postMessage({ reset: true });
  } else if (m === 'stats') {
    parentPort.postMessage({ stats: stats.map((st) => ({ requests: st.requests, unique: st.ids.size, maxPerSlidingSecond: maxSliding(st.times) })) });
  } else if (m === 'lags') {
    // At the cap, request k + cap may reach a receiver a second after request k: how much later it did (ms).
    const cap = Number(process.env.BENCH_CAP), lags = [];
    for (const st of stats) { const t = st.times.slice().sort((a, b) => a - b); for (let k = 0; k + cap < t.length; k++) lags.push(t[k + cap] - t[k] - 1000); }
    lags.sort((a, b) => a - b);
    const q = (p) => lags.length ? Math.round(lags[Math.floor(p * (lags.length - 1))]) : 0;
    parentPort.postMessage({ lags: { p50: q(0.5), p90: q(0.9), p99: q(0.99) } });
  } else if (m === 'rounds') {
    // Each receiver's request k·cap (the last of each round of the cap), and the first requests per 50 ms: where a run loses time.
    const cap = Number(process.env.BENCH_CAP), rounds = [], first = [];
    for (const st of stats) { const t = st.times.slice().sort((a, b) => a - b); rounds.push(t.filter((_v, k) => (k + 1) % cap === 0)); first.push(...t.slice(0, cap)); }
    parentPort.postMessage({ rounds: { rounds, first } });
  } else if (m === 'total') {
    parentPort.postMessage({ total: stats.reduce((n, st) => n + st.requests, 0) });
  }
});
`;

function ask<T>(w: ChildProcess, msg: string, key: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: Record<string, unknown>) => {
      if (key in m) {
        w.off('message', on);
        resolve(m[key] as T);
      }
    };
    w.on('message', on);
    w.send(msg);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function baseline(urls: string[], total: number, concurrency: number, secret: string): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const started = performance.now();
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({ id: `baseline-${i}`, timestamp: new Date().toISOString(), topic: 'alert.opened', source: 'bench', kind: 'alert.opened', severity: 'critical', labels: {}, payload: { n: i } });
      const req = http.request(urls[i % urls.length], {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'webhook-id': `baseline-${i}`, 'x-service-signature': hmacHex(secret, body) },
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

async function main(): Promise<void> {
  const redisCounts = process.env.BENCH_COUNT_REDIS ? await countRedisCommands() : {};
  const sqlCounts = process.env.BENCH_COUNT_SQL ? countSqlStatements(Number(process.env.BENCH_COUNT_SQL) > 1 ? Number(process.env.BENCH_COUNT_SQL) : 40) : {};
  const runId = crypto.randomBytes(4).toString('hex');
  const dbName = `ops_bench_${runId}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = '/' + dbName;
  // Receivers run in their own process so their CPU is not counted as the engine's.
  const receiverThread = spawn(process.execPath, ['-e', RECEIVER_PROCESS], { env: { ...process.env, BENCH_RECEIVERS: String(RECEIVERS), BENCH_CAP: String(CAP) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const urls = await ask<string[]>(receiverThread, 'noop', 'urls');
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
    console.log(`bench:deliveries  receivers=${RECEIVERS} messages=${MESSAGES} deliveries=${total} cap=${CAP}/s per receiver  concurrency=${config.webhooks.concurrency}`);

    // 1. Baseline: plain POSTs, no engine.
    const baseCpuBefore = process.cpuUsage();
    const baseReceiversBefore = cpuByCommand([], { receivers: receiverThread.pid });
    const baseRate = await baseline(urls, total, config.webhooks.concurrency, 'whsec_baseline');
    const baseCpu = process.cpuUsage(baseCpuBefore);
    const baseReceivers = cpuSince(baseReceiversBefore, [], { receivers: receiverThread.pid });
    const baseStats = await ask<ReceiverStats[]>(receiverThread, 'stats', 'stats');
    console.log(`baseline (plain keep-alive POSTs, no engine, no cap): ${baseRate.toFixed(0)} req/s; max per receiver in a sliding second ${Math.max(...baseStats.map((s) => s.maxPerSlidingSecond))}`);
    // The floor of the engine's CPU per delivery: a bare client's signing and POST, and what the receivers take per request.
    console.log(`  baseline CPU per request: client ${((baseCpu.user + baseCpu.system) / 1000 / total).toFixed(3)} ms (signing and the POST, no engine), receivers ${((baseReceivers.receivers ?? 0) / total).toFixed(3)} ms`);
    await ask(receiverThread, 'reset', 'reset');

    // 2. The engine.
    app = await startApp(config, { http: false, workers: true });
    const rt = app.rt;
    const { tenant, admin: adminUser } = await createTenant(rt.prisma, { name: `bench-${runId}`, adminEmail: `admin@bench-${runId}.test`, adminPassword: crypto.randomBytes(12).toString('hex') });
    const ctx = createCtx(rt, { tenantId: tenant.id, userId: adminUser.id, email: adminUser.email, role: 'admin', userKind: 'human', credential: { kind: 'pat', id: 'bench' } }, 'bench');
    for (const url of urls) await createOutboundWebhook(ctx, { name: url, url, triggers: [{ on: 'ALERT_OPENED' }] });

    if (WARMUP > 0) {
      // A warm-up round before the clock starts (BENCH_WARMUP messages to every receiver): the JIT, the
      // connections to the receivers and Prisma's query plans are warm, as in a service that has run a
      // while; then the receivers' windows are left to clear and the round's rows are removed.
      const w = WARMUP;
      const batch = Array.from({ length: w }, (_v, k) => ({ tenantId: tenant.id, topic: 'alert.opened', subjectId: `warm-${k}`, body: { source: 'bench', kind: 'alert.opened', severity: 'critical', labels: { bench: runId }, payload: { n: -k } } }));
      const rows = await rt.prisma.$transaction((tx) => tx.outboxMessage.createManyAndReturn({ data: batch, select: { id: true } }));
      await dispatchOutbox(rt, rows.map((r) => r.id));
      while ((await rt.prisma.delivery.count({ where: { status: 'delivered' } })) < w * RECEIVERS) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 1200));
      await ask(receiverThread, 'reset', 'reset');
      await rt.prisma.$executeRawUnsafe('DELETE FROM "DeliveryAttempt"');
      await rt.prisma.$executeRawUnsafe('DELETE FROM "Delivery"');
      console.log(`warm-up: ${w * RECEIVERS} deliveries before the measured phase`);
    }
    const cpuBefore = process.cpuUsage();
    const others = { names: ['postgres', 'redis-server'], pids: { receivers: receiverThread.pid } };
    const othersBefore = cpuByCommand(others.names, others.pids);
    const triggerStart = Date.now();
    const ids: string[] = [];
    await profiled('deliveries-engine', async () => {
    for (let i = 0; i < MESSAGES; i += 100) {
      const batch = Array.from({ length: Math.min(100, MESSAGES - i) }, (_v, k) => ({
        tenantId: tenant.id,
        topic: 'alert.opened' as const,
        subjectId: `alert-${i + k}`,
        body: { source: 'bench', kind: 'alert.opened', severity: 'critical', labels: { bench: runId }, payload: { n: i + k } },
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
    while ((await ask<number>(receiverThread, 'total', 'total')) < total) await new Promise((r) => setTimeout(r, 50));
    for (;;) {
      const delivered = await rt.prisma.delivery.count({ where: { status: 'delivered' } });
      if (delivered >= total) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    });
    const cpu = process.cpuUsage(cpuBefore);
    const othersCpu = cpuSince(othersBefore, others.names, others.pids);
    const cpuMsPerDelivery = (cpu.user + cpu.system) / 1000 / total;
    const rows = await rt.prisma.delivery.findMany({ where: { status: 'delivered' }, select: { outboxId: true, deliveredAt: true } });
    const messages = await rt.prisma.outboxMessage.findMany({ where: { id: { in: ids } }, select: { id: true, createdAt: true } });
    const triggeredAt = new Map(messages.map((m) => [m.id, m.createdAt.getTime()]));
    const latencies = rows.map((r) => r.deliveredAt!.getTime() - triggeredAt.get(r.outboxId!)!).sort((a, b) => a - b);
    const lastDelivered = Math.max(...rows.map((r) => r.deliveredAt!.getTime()));
    if (process.env.BENCH_TIMELINE) {
      // Deliveries recorded and messages fanned out per 250 ms after the first trigger: where the rounds of the cap lose time.
      const fanned = await rt.prisma.outboxMessage.findMany({ where: { id: { in: ids } }, select: { dispatchedAt: true } });
      console.log(`  delivered per 250 ms: ${perQuarterSecond(rows.map((r) => r.deliveredAt), triggerStart)}`);
      console.log(`  messages fanned out per 250 ms: ${perQuarterSecond(fanned.map((m) => m.dispatchedAt), triggerStart)}`);
      const { rounds, first } = await ask<{ rounds: number[][]; first: number[] }>(receiverThread, 'rounds', 'rounds');
      const perRound = rounds[0].map((_v, r) => rounds.map((t) => t[r] - triggerStart).sort((a, b) => a - b));
      console.log(`  end of each round of the cap (ms after the trigger; min / median / max over receivers): ${perRound.map((ts) => `${ts[0].toFixed(0)}/${ts[ts.length >> 1].toFixed(0)}/${ts[ts.length - 1].toFixed(0)}`).join('  ')}`);
      const buckets: number[] = [];
      for (const t of first) buckets[Math.floor((t - triggerStart) / 50)] = (buckets[Math.floor((t - triggerStart) / 50)] ?? 0) + 1;
      console.log(`  first round's requests per 50 ms: ${Array.from(buckets, (n, b) => `${b * 50}:${n ?? 0}`).join(' ')}`);
    }
    const engineRate = total / ((lastDelivered - triggerStart) / 1000);
    const lags = await ask<{ p50: number; p90: number; p99: number }>(receiverThread, 'lags', 'lags');
    const stats = await ask<ReceiverStats[]>(receiverThread, 'stats', 'stats');
    const requests = stats.reduce((n, s) => n + s.requests, 0);
    const unique = stats.reduce((n, s) => n + s.unique, 0);
    const maxPerSecond = Math.max(...stats.map((s) => s.maxPerSlidingSecond));
    const failed = await rt.prisma.delivery.count({ where: { status: { not: 'delivered' } } });

    if (process.env.BENCH_COUNT_REDIS) console.log(`Redis commands sent by the engine process: ${JSON.stringify(redisCounts)}`);
    if (process.env.BENCH_COUNT_SQL) for (const [k, n] of Object.entries(sqlCounts).sort((a, b) => b[1] - a[1])) console.log(`  SQL ${String(n).padStart(6)}  ${k}`);
    console.log(`engine: ${total} deliveries in ${((lastDelivered - triggerStart) / 1000).toFixed(2)} s = ${engineRate.toFixed(0)} deliveries/s aggregate`);
    console.log(`  trigger→delivered latency: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies[latencies.length - 1]} ms`);
    console.log(`  per-receiver cap: max ${maxPerSecond} requests in any sliding second (cap ${CAP}/s; the ideal for ${MESSAGES} per receiver at the cap is ${(MESSAGES / CAP).toFixed(1)} s)`);
    console.log(`  lag at the cap: request k + ${CAP} reached its receiver p50 ${lags.p50} ms, p90 ${lags.p90} ms, p99 ${lags.p99} ms after request k's second was over (each round of the cap adds it)`);
    console.log(`  receivers: ${requests} requests, ${unique} distinct webhook-ids; lost ${total - unique}, duplicated ${requests - unique}, not delivered ${failed}`);
    console.log(`  engine process CPU: ${cpuMsPerDelivery.toFixed(3)} ms per delivery (user ${(cpu.user / 1000).toFixed(0)} ms, system ${(cpu.system / 1000).toFixed(0)} ms; Postgres and Redis not included) → ${(1000 / cpuMsPerDelivery).toFixed(0)} deliveries/s per core of engine CPU`);
    console.log(`  other processes' CPU per delivery: ${Object.entries(othersCpu).map(([k, ms]) => `${k} ${(ms / total).toFixed(3)} ms`).join(', ')} (from /proc; other work on the machine counts too)`);
    console.log(`  ceiling at the cap: ${RECEIVERS * CAP} deliveries/s (receivers × cap)`);
    console.log(`ratio engine / baseline: ${(engineRate / baseRate).toFixed(3)}  (engine / cap ceiling: ${(engineRate / (RECEIVERS * CAP)).toFixed(3)})`);
    console.log(goalLine('deliveries/s', engineRate, { atLeast: 2900 }, '/s', 0));
    console.log(goalLine('engine / cap ceiling', engineRate / (RECEIVERS * CAP), { atLeast: 0.97 }, '', 3));
    console.log(goalLine('engine CPU per delivery', cpuMsPerDelivery, { atMost: 0.25 }, ' ms', 3));
    const ok = unique === total && requests === unique && maxPerSecond <= CAP;
    console.log(ok ? 'result: no lost or duplicated deliveries; cap held' : 'result: CHECK FAILED');
    process.exitCode = ok ? 0 : 1;
  } finally {
    clearTimeout(deadline);
    if (app) {
      const redis = app.rt.redis;
      await app.stop();
      void redis;
    }
    receiverThread.kill();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    await dropRedisPrefix(REDIS_URL, `bench${runId}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
