/**
 * `npm run bench:timeline`: issue 19's "Done when" timings of the timeline, through the real GraphQL
 * HTTP endpoint of the service (a child process, API only, against a real Postgres).
 *
 * A fresh migrated database; one tenant with TIMELINE_LAST_HOUR events (400,000) in the last hour,
 * written by Postgres (bench/lib/growth-data.ts: steady arrival, UUIDv7 ids, 500 sources, 20 types,
 * summaries with the event number), plus five events each of a rare source and a rare word; then
 * ANALYZE. The console's own timeline document (`ConsoleEvents`, first: 100, no window given: the
 * query's 24 h default applies) is POSTed with a personal access token TIMELINE_RUNS times (30) after 3
 * warm-ups, for: the newest page, a rare source, a text search for a rare word. Prints p50/p95 and the
 * goals (p95 ≤ 60 ms, ≤ 150 ms, ≤ 250 ms).
 *
 * Baseline in the same run: the same three reads as one SQL statement each over pg (no HTTP, no
 * GraphQL), so the ratio shows what the service adds on top of the database.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { applyMigrations } from '../src/db/migrate.js';
import { createPrisma } from '../src/db/client.js';
import { createTenant } from '../src/tenants/tenants.js';
import { createBenchDatabase, serviceEnv } from './lib/env.js';
import { startChild } from './lib/child.js';
import { quantile } from './lib/load.js';
import { fillEvents } from './lib/growth-data.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const LAST_HOUR = Number(process.env.TIMELINE_LAST_HOUR ?? 400_000);
const RUNS = Number(process.env.TIMELINE_RUNS ?? 30);

/** The console's timeline document (console/src/pages/Timeline.tsx). */
const CONSOLE_EVENTS = `query ConsoleEvents($filter: EventFilter, $first: Int) {
    events(filter: $filter, first: $first) {
      edges { node { id type source severity module summary receivedAt receivedVia payload } }
    }
  }`;

const CASES: Array<{ name: string; filter: Record<string, unknown>; goal: number; sql: string }> = [
  { name: 'newest page', filter: {}, goal: 60, sql: '' },
  { name: 'rare source', filter: { source: 'rare-source' }, goal: 150, sql: `AND source = 'rare-source'` },
  {
    name: 'text search (rare word)',
    filter: { search: 'zebrafish' },
    goal: 250,
    sql: `AND (summary ILIKE '%zebrafish%' OR type ILIKE '%zebrafish%' OR source ILIKE '%zebrafish%')`,
  },
];

const fmt = (n: number) => n.toFixed(1);

async function timed(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

async function main(): Promise<void> {
  const db = await createBenchDatabase('ops_bench_timeline');
  const client = new pg.Client({ connectionString: db.url });
  const prisma = createPrisma(db.url, 2);
  let api: Awaited<ReturnType<typeof startChild<{ url: string }>>> | undefined;
  try {
    await applyMigrations(db.url);
    await client.connect();
    const password = crypto.randomBytes(12).toString('hex');
    const { tenant } = await createTenant(prisma, {
      name: 'bench-timeline',
      adminEmail: 'admin@bench.local',
      adminPassword: password,
    });
    const t0 = performance.now();
    await fillEvents(client, tenant.id, Date.now(), LAST_HOUR * 24, 0, LAST_HOUR);
    await client.query('ANALYZE "Event"');
    const n = Number(
      (
        await client.query(
          `SELECT count(*)::int AS n FROM "Event" WHERE "receivedAt" >= (now() AT TIME ZONE 'UTC') - interval '1 hour'`,
        )
      ).rows[0].n,
    );
    console.log(
      `bench:timeline — ${n.toLocaleString('en')} events in the last hour (generated in ${((performance.now() - t0) / 1000).toFixed(0)} s); GraphQL over HTTP, ${RUNS} runs after 3 warm-ups`,
    );

    api = await startChild<{ url: string }>(path.join(here, 'lib/serve-app.ts'), serviceEnv(db.url));
    const base = api.info.url;
    const post = async (p: string, body: unknown, auth?: string) => {
      const r = await fetch(base + p, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
        body: JSON.stringify(body),
      });
      const json = (await r.json()) as Record<string, any>;
      if (r.status !== 200 && r.status !== 201) throw new Error(`${p}: ${r.status} ${JSON.stringify(json)}`);
      return json;
    };
    const login = await post('/api/v1/auth/login', { email: 'admin@bench.local', password });
    const { token } = await post('/api/v1/auth/tokens', { name: 'bench' }, login.access_token);

    console.log(
      `\n${'timeline read (console document)'.padEnd(34)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'goal p95'.padStart(10)}   rows   SQL only p50 / p95 ms`,
    );
    for (const c of CASES) {
      let rows = 0;
      const ms = await timed(async () => {
        const r = await post('/graphql', { query: CONSOLE_EVENTS, variables: { filter: c.filter, first: 100 } }, token);
        if (r.errors) throw new Error(JSON.stringify(r.errors));
        rows = r.data.events.edges.length;
      });
      const sqlMs = await timed(() =>
        client.query(
          `SELECT * FROM "Event" WHERE "tenantId" = $1 ${c.sql} AND "receivedAt" >= (now() AT TIME ZONE 'UTC') - interval '24 hours' ORDER BY "receivedAt" DESC, id DESC LIMIT 101`,
          [tenant.id],
        ),
      );
      const p95 = quantile(ms, 0.95);
      console.log(
        `${c.name.padEnd(34)}${fmt(quantile(ms, 0.5)).padStart(9)}${fmt(p95).padStart(9)}${`≤ ${c.goal}`.padStart(10)} ${p95 <= c.goal ? 'met' : 'MISSED'} ${String(rows).padStart(4)}   ${fmt(quantile(sqlMs, 0.5))} / ${fmt(quantile(sqlMs, 0.95))}`,
      );
    }
  } finally {
    await api?.stop();
    await client.end().catch(() => undefined);
    await prisma.$disconnect();
    await db.drop();
  }
}

await main();
