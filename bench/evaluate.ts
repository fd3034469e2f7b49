/**
 * `npm run bench:evaluate`: rule-evaluation throughput against real Postgres (and Redis for pubsub),
 * without HTTP. Prints events/s for batches that match nothing, batches that bump one alert, and how
 * much of a batch the per-batch rule query costs (the figure behind "query the rules per batch, no
 * cache"). Ratios are against the no-match run measured in the same process.
 */
import crypto from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { createRuntime } from '../src/runtime.js';
import { buildRuntimeParts } from '../src/server/runtime-parts.js';
import { applyMigrations } from '../src/db/migrate.js';
import { createTenant } from '../src/tenants/tenants.js';
import { evaluateEvents } from '../src/rules/evaluate.js';
import { v7 as uuidv7 } from 'uuid';
import { createBenchDatabase, REDIS_URL } from './lib/env.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const RULES = Number(process.env.BENCH_RULES ?? 20);

const db = await createBenchDatabase('ops_bench_eval');
await applyMigrations(db.url);
const config = loadConfig({
  DATABASE_URL: db.url,
  REDIS_URL,
  LOG_LEVEL: 'silent',
  APP_SECRET: 'bench-secret-'.padEnd(48, 'x'),
  REDIS_PREFIX: `bench${crypto.randomBytes(4).toString('hex')}`,
  BOOTSTRAP_DEMO: 'false',
});
const rt = createRuntime(
  config,
  db.url,
  { kind: 'single', url: REDIS_URL },
  { parts: buildRuntimeParts, poolSize: CONCURRENCY + 2 },
);

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
} finally {
  await rt.close();
  await db.drop();
}
