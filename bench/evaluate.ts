/**
 * `npm run bench:evaluate`: rule-evaluation throughput against real Postgres (and Redis for pubsub),
 * without HTTP. Prints events/s for batches that match nothing, batches that bump one alert, and how
 * much of a batch the per-batch rule query costs (the figure behind "query the rules per batch, no
 * cache"). Ratios are against the no-match run measured in the same process.
 *
 * Then fairness: tenant A's flood (BENCH_FLOOD events against 50 rules, in jobs of 500 as ingest queues
 * them) is queued ahead of tenant B's single event, and the jobs run through the evaluate worker's entry
 * point (`evaluateWithinBudget`) with the per-tenant budget off and on (BENCH_TENANT_BUDGET_MS per second):
 * it prints how long B's event waited and how much of A's flood was evaluated by then.
 */
import crypto from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { createRuntime } from '../src/runtime.js';
import { buildRuntimeParts } from '../src/server/runtime-parts.js';
import { applyMigrations } from '../src/db/migrate.js';
import { createTenant } from '../src/tenants/tenants.js';
import { evaluateEvents } from '../src/rules/evaluate.js';
import { evaluateWithinBudget } from '../src/rules/evaluation-budget.js';
import { unlinkRedisPrefix } from '../test/helpers/env.js';
import type { Runtime } from '../src/runtime.js';
import { v7 as uuidv7 } from 'uuid';
import { createBenchDatabase, REDIS_URL } from './lib/env.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const RULES = Number(process.env.BENCH_RULES ?? 20);
const FLOOD = Number(process.env.BENCH_FLOOD ?? 5000);
const TENANT_BUDGET_MS = process.env.BENCH_TENANT_BUDGET_MS ?? '100';

const db = await createBenchDatabase('ops_bench_eval');
await applyMigrations(db.url);
function runtimeWith(env: Record<string, string>): Runtime {
  const config = loadConfig({
    DATABASE_URL: db.url,
    REDIS_URL,
    LOG_LEVEL: 'silent',
    APP_SECRET: 'bench-secret-'.padEnd(48, 'x'),
    REDIS_PREFIX: `bench${crypto.randomBytes(4).toString('hex')}`,
    BOOTSTRAP_DEMO: 'false',
    ...env,
  });
  return createRuntime(
    config,
    db.url,
    { kind: 'single', url: REDIS_URL },
    { parts: buildRuntimeParts, poolSize: CONCURRENCY + 2 },
  );
}
const rt = runtimeWith({ EVALUATE_TENANT_BUDGET_MS: '0' });
const rtBudget = runtimeWith({ EVALUATE_TENANT_BUDGET_MS: TENANT_BUDGET_MS });

try {
  const { tenant } = await createTenant(rt.prisma, {
    name: 'bench',
    adminEmail: 'bench@bench.test',
    adminPassword: 'bench-password',
  });
  await rt.prisma.alertRule.createMany({
    data: Array.from({ length: RULES }, (_, i) => ({
      tenantId: tenant.id,
      name: `rule ${i}`,
      kind: 'match' as const,
      typeGlob: i === 0 ? 'deploy.*' : `other${i}.*`,
      payloadConditions: i % 2 ? [{ path: 'x', op: 'gt', value: 5 }] : [],
    })),
  });

  async function run(label: string, type: string): Promise<number> {
    const ids = Array.from({ length: EVENTS }, () => uuidv7());
    const now = new Date();
    for (let i = 0; i < ids.length; i += 1000) {
      await rt.prisma.event.createMany({
        data: ids.slice(i, i + 1000).map((id) => ({
          id,
          tenantId: tenant.id,
          type,
          source: 'bench',
          receivedVia: 'ingest' as const,
          receivedAt: now,
          payload: { x: 1 },
        })),
      });
    }
    const batches: string[][] = [];
    for (let i = 0; i < ids.length; i += BATCH) batches.push(ids.slice(i, i + BATCH));
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < batches.length) await evaluateEvents(rt, batches[next++]!);
      }),
    );
    const ms = performance.now() - started;
    const rate = EVENTS / (ms / 1000);
    console.log(
      `${label.padEnd(34)} ${EVENTS} events in ${ms.toFixed(0)} ms  ${rate.toFixed(0)} events/s  (${(ms / batches.length).toFixed(2)} ms per batch of ${BATCH})`,
    );
    return rate;
  }

  const noMatch = await run('no rule matches', 'build.finished');
  const bump = await run('every event bumps one alert', 'deploy.started');
  const N = 500;
  const t0 = performance.now();
  for (let i = 0; i < N; i++)
    await rt.prisma.alertRule.findMany({
      where: { tenantId: { in: [tenant.id] }, enabled: true },
      orderBy: { createdAt: 'asc' },
    });
  const ruleQueryMs = (performance.now() - t0) / N;
  console.log(
    `rule query (${RULES} rules)              ${ruleQueryMs.toFixed(3)} ms per batch = ${((ruleQueryMs / ((1000 * BATCH) / noMatch)) * 100).toFixed(1)}% of a no-match batch`,
  );
  console.log(`ratio bump / no-match                ${(bump / noMatch).toFixed(2)}x`);

  const tenantA = (
    await createTenant(rt.prisma, { name: 'flood', adminEmail: 'a@a.test', adminPassword: 'pw-flood-a' })
  ).tenant.id;
  const tenantB = (
    await createTenant(rt.prisma, { name: 'quiet', adminEmail: 'b@b.test', adminPassword: 'pw-quiet-b' })
  ).tenant.id;
  await rt.prisma.alertRule.createMany({
    data: [
      { tenantId: tenantA, name: 'count', kind: 'match' as const, typeGlob: 'flood.*', dedupKeyTemplate: 'flood' },
      ...Array.from({ length: 49 }, (_, i) => ({
        tenantId: tenantA,
        name: `heavy ${i}`,
        kind: 'match' as const,
        typeGlob: `f*l*o*o*d*.*i*t*e*m${'*'.repeat(1 + (i % 3))}`,
        payloadConditions: [{ path: 'x', op: 'gt', value: 1_000_000 + i }],
      })),
      { tenantId: tenantB, name: 'page', kind: 'match' as const, typeGlob: 'b.*', dedupKeyTemplate: 'b' },
    ],
  });

  /** A's flood in jobs of 500, then B's one event; returns B's wait and A's events evaluated by then. */
  async function fairness(label: string, runtime: Runtime): Promise<void> {
    const aIds = Array.from({ length: FLOOD }, () => uuidv7());
    const bId = uuidv7();
    const now = new Date();
    for (let i = 0; i < aIds.length; i += 1000) {
      await rt.prisma.event.createMany({
        data: aIds.slice(i, i + 1000).map((id) => ({
          id,
          tenantId: tenantA,
          type: 'flood.item',
          source: 'bench',
          receivedVia: 'ingest' as const,
          receivedAt: now,
          payload: { x: 1 },
        })),
      });
    }
    await rt.prisma.event.create({
      data: { id: bId, tenantId: tenantB, type: 'b.down', source: 'bench', receivedVia: 'ingest', receivedAt: now },
    });
    const jobs: string[][] = [];
    for (let i = 0; i < aIds.length; i += 500) jobs.push(aIds.slice(i, i + 500));
    jobs.push([bId]);
    const started = performance.now();
    let bMs = 0;
    let aByThen = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < jobs.length) {
          const job = jobs[next++]!;
          await evaluateWithinBudget(runtime, job);
          if (job[0] === bId) {
            bMs = performance.now() - started;
            aByThen = await rt.prisma.event.count({ where: { tenantId: tenantA, evaluatedAt: { not: null } } });
          }
        }
      }),
    );
    console.log(
      `B's event with A flooding, ${label.padEnd(22)} evaluated after ${bMs.toFixed(0)} ms; A's events evaluated by then: ${aByThen - evaluatedBefore}/${FLOOD}`,
    );
    evaluatedBefore = await rt.prisma.event.count({ where: { tenantId: tenantA, evaluatedAt: { not: null } } });
  }
  let evaluatedBefore = 0;
  await fairness('budget off', rt);
  await fairness(`budget ${TENANT_BUDGET_MS} ms/s`, rtBudget);
} finally {
  for (const r of [rt, rtBudget]) {
    await unlinkRedisPrefix(r.redis as never, `${r.config.redisPrefix}:`);
    await r.close();
  }
  await db.drop();
}
