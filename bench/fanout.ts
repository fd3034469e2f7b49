/**
 * bench:fanout — live `eventAdded` subscribers per API node. API nodes run as child processes
 * (bench/lib/serve-app.ts, RUN_WORKERS off); the subscribers are graphql-ws connections opened by
 * separate client processes (bench/lib/fanout-clients.ts), so the load generator is not what is measured.
 * For each scenario (BENCH_SCENARIOS, default `1x100,1x10000,2x20000`: nodes × subscribers, the first
 * being the baseline), events are posted one at a time and the time from the ingest response to each
 * subscriber's receipt is recorded; it prints p50/p95/p99, the share received, p95 against the baseline
 * measured in the same run, and both against the goal (p95 ≤ 250 ms, 100% received: issue 20).
 *
 * Every socket is a file descriptor on both sides: the open-file limit (`ulimit -n`) of this shell must
 * exceed the subscribers of one node (server) and of one client process; the run stops early if not.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { createRuntime } from '../src/runtime.js';
import { buildRuntimeParts } from '../src/server/runtime-parts.js';
import { applyMigrations } from '../src/db/migrate.js';
import { createTenant } from '../src/tenants/tenants.js';
import { mintToken } from '../src/auth/tokens.js';
import { createCtx } from '../src/context.js';
import { createBenchDatabase, REDIS_URL, serviceEnv } from './lib/env.js';
import { startChild, type Child } from './lib/child.js';
import { quantile } from './lib/load.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SCENARIOS = (process.env.BENCH_SCENARIOS ?? '1x100,1x10000,2x20000')
  .split(',')
  .map((s) => s.split('x').map(Number) as [number, number]);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20);
const CLIENT_PROCS = Number(process.env.BENCH_CLIENT_PROCS ?? 4);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 50);
const GOAL_P95_MS = 250;

/** The soft open-file limit of this process (children inherit it). */
function openFileLimit(): number {
  const line = fs
    .readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  return Number(line?.split(/\s+/)[3] ?? Infinity);
}
const fdLimit = openFileLimit();
for (const [nodes, subscribers] of SCENARIOS) {
  const perProcess = Math.max(Math.ceil(subscribers / nodes), Math.ceil(subscribers / CLIENT_PROCS));
  if (perProcess + 1000 > fdLimit)
    throw new Error(
      `ulimit -n is ${fdLimit}: ${nodes}x${subscribers} needs about ${perProcess + 1000} open files per process (raise it: ulimit -n 65536)`,
    );
}

const db = await createBenchDatabase('ops_bench_fanout');
await applyMigrations(db.url);
const env = serviceEnv(db.url, { INGEST_RATE_PER_SECOND: '100000' });
const rt = createRuntime(
  loadConfig({ ...env, LOG_LEVEL: 'silent' }),
  db.url,
  { kind: 'single', url: REDIS_URL },
  { parts: buildRuntimeParts, poolSize: 2 },
);
const { tenant, admin, ingestKey } = (await createTenant(rt.prisma, {
  name: 'fanout',
  adminEmail: 'fanout@bench.test',
  adminPassword: 'bench-password',
})) as never as {
  tenant: { id: string };
  admin: { id: string; email: string; role: 'admin'; kind: 'human' };
  ingestKey: string;
};
const ctx = createCtx(
  rt,
  {
    tenantId: tenant.id,
    userId: admin.id,
    email: admin.email,
    role: admin.role,
    userKind: admin.kind,
    credential: { kind: 'system', id: 'bench' },
  },
  'bench',
);
const tokens: string[] = [];
for (let i = 0; i < TOKENS; i++)
  tokens.push((await mintToken(ctx, { name: `fanout-${i}`, expiresInDays: null })).cleartext);

type Receipts = Record<string, number[]>;
function ask(child: ChildProcess): Promise<{ receipts: Receipts; closed: number }> {
  return new Promise((resolve) => {
    const on = (msg: { receipts?: Receipts; closed: number }) => {
      if (!msg.receipts) return;
      child.off('message', on);
      resolve(msg as { receipts: Receipts; closed: number });
    };
    child.on('message', on);
    child.send({ collect: true });
  });
}

async function post(url: string): Promise<{ id: string; at: number }> {
  const r = await fetch(`${url}/api/v1/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': ingestKey },
    body: JSON.stringify({ type: 'bench.fanout', source: 'bench' }),
  });
  const at = Date.now();
  if (r.status !== 202) throw new Error(`ingest answered ${r.status}`);
  return { id: ((await r.json()) as { id: string }).id, at };
}

async function scenario(
  nodes: number,
  subscribers: number,
): Promise<{ p50: number; p95: number; p99: number; received: number }> {
  const apis: Child<{ url: string }>[] = [];
  for (let i = 0; i < nodes; i++)
    apis.push(
      await startChild<{ url: string }>(path.join(here, 'lib/serve-app.ts'), { ...env, BENCH_ROLE: 'api' }, 120_000),
    );
  const urls = apis.map((a) => a.info.url);
  const procs = Math.min(CLIENT_PROCS, Math.max(1, Math.ceil(subscribers / 500)));
  const clients: ChildProcess[] = [];
  try {
    await Promise.all(
      Array.from({ length: procs }, (_, p) => {
        const per = Math.floor(subscribers / procs) + (p < subscribers % procs ? 1 : 0);
        const child = fork(path.join(here, 'lib/fanout-clients.ts'), [], {
          execArgv: ['--import', 'tsx'],
          env: {
            ...process.env,
            FANOUT_URLS: urls.join(','),
            FANOUT_TOKENS: tokens.join(','),
            FANOUT_CONNECTIONS: String(per),
            FANOUT_OFFSET: String(p),
          },
        });
        clients.push(child);
        return new Promise<void>((resolve, reject) => {
          child.on('message', (m: { ready?: number }) => m.ready !== undefined && resolve());
          child.once('exit', (code) => reject(new Error(`client process exited (${code})`)));
        });
      }),
    );
    // Warm up until every subscriber has received an event (its subscription is live on the server).
    for (let tries = 0; ; tries++) {
      const { id } = await post(urls[0]);
      await new Promise((r) => setTimeout(r, 2000));
      const got = (await Promise.all(clients.map(ask))).reduce((n, c) => n + (c.receipts[id]?.length ?? 0), 0);
      if (got >= subscribers) break;
      if (tries > 60) throw new Error(`only ${got} of ${subscribers} subscribers live after warm-up`);
    }
    // Receipts are gathered across every collect (a late one still counts, with its real latency).
    const all = new Map<string, number[]>();
    const gather = async () => {
      for (const c of await Promise.all(clients.map(ask)))
        for (const [id, ts] of Object.entries(c.receipts)) all.set(id, [...(all.get(id) ?? []), ...ts]);
    };
    const posted: Array<{ id: string; at: number }> = [];
    for (let e = 0; e < EVENTS; e++) {
      posted.push(await post(urls[e % urls.length]));
      await new Promise((r) => setTimeout(r, 1000));
      await gather();
    }
    // Until every subscriber has every event, or nothing more arrives for 10 s.
    for (let quiet = 0; quiet < 10; quiet++) {
      const before = [...all.values()].reduce((n, l) => n + l.length, 0);
      if (before >= EVENTS * subscribers) break;
      await new Promise((r) => setTimeout(r, 1000));
      await gather();
      if ([...all.values()].reduce((n, l) => n + l.length, 0) > before) quiet = 0;
    }
    const latencies: number[] = [];
    let received = 0;
    for (const { id, at } of posted) {
      for (const t of all.get(id) ?? []) latencies.push(t - at);
      received += all.get(id)?.length ?? 0;
    }
    latencies.sort((a, b) => a - b);
    return {
      p50: quantile(latencies, 0.5),
      p95: quantile(latencies, 0.95),
      p99: quantile(latencies, 0.99),
      received: received / (EVENTS * subscribers),
    };
  } finally {
    for (const c of clients) c.kill('SIGTERM');
    await Promise.all(apis.map((a) => a.stop()));
  }
}

try {
  let baseline: number | undefined;
  console.log(
    `bench:fanout — ${EVENTS} events per scenario, ${CLIENT_PROCS} client processes, ${TOKENS} PATs, ulimit -n ${fdLimit}; goal p95 ≤ ${GOAL_P95_MS} ms, 100% received`,
  );
  for (const [nodes, subscribers] of SCENARIOS) {
    const r = await scenario(nodes, subscribers);
    baseline ??= r.p95;
    console.log(
      `${nodes} API node(s), ${subscribers} subscribers: p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, ` +
        `received ${(r.received * 100).toFixed(2)}%, p95 ${(r.p95 / Math.max(1, baseline)).toFixed(1)}× the baseline, ` +
        `p95 ${(r.p95 / GOAL_P95_MS).toFixed(2)}× the goal (${r.p95 <= GOAL_P95_MS && r.received === 1 ? 'met' : 'NOT met'})`,
    );
  }
} finally {
  await rt.close();
  await db.drop();
}
