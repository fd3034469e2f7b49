/**
 * `npm run bench:graph`: the dashboard query (50 alerts, each with its 5 latest events, its device and
 * the device's open proposals with their proposer) over real HTTP against real Postgres, next to a
 * hand-written baseline measured in the same run.
 *
 * - ours: POST /graphql on the real service (no workers in this process, so nothing else queries).
 * - baseline: a bare node:http endpoint in the same process that authenticates the same PAT and runs a
 *   fixed handful of Prisma queries (alerts; attached events; devices; open proposals with proposer),
 *   then stitches the same JSON by hand.
 *
 * The two sides' requests alternate, so the machine's load weighs on both alike. Prints p50/p95 latency,
 * SQL statements per request (counted at the pg driver), ours ÷ baseline and each goal.
 * Env: BENCH_REQUESTS (300), BENCH_WARMUP (30), BENCH_ALERTS (50), TEST_DATABASE_ADMIN_URL / TEST_REDIS_URL;
 * BENCH_CPU_PROF=<dir> profiles each side alone (one after the other); BENCH_SQL_LOG=<chars> prints each statement.
 */
import './lib/production-mode.js'; // before anything loads graphql-js
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { startApp } from '../src/server/app.js';
import { authenticate } from '../src/auth/authenticate.js';
import type { Runtime } from '../src/runtime.js';
import { DASHBOARD_QUERY, buildDashboardData, buildTenant, buildUser } from '../test/factories.js';
import { createBenchDatabase, REDIS_URL } from './lib/env.js';
import { profiled } from './lib/profile.js';
import { goalLine } from './lib/goal.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const ALERTS = Number(process.env.BENCH_ALERTS ?? 50);

/** Counts statements sent through any pg client of this process. */
let statements = 0;
const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
const originalQuery = proto.query;
proto.query = function (this: unknown, ...args: unknown[]) {
  statements++;
  if (process.env.BENCH_SQL_LOG)
    console.log(
      'SQL',
      String(typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text).slice(
        0,
        Number(process.env.BENCH_SQL_LOG),
      ),
      JSON.stringify((args[0] as { values?: unknown })?.values ?? args[1]),
    );
  return originalQuery.apply(this, args);
};

/** The hand-written dashboard: fixed queries, stitched in memory. */
async function handWrittenDashboard(rt: Runtime, authorization: string | undefined): Promise<unknown> {
  const { principal } = await authenticate(rt, { authorization });
  if (!principal) throw new Error('unauthenticated');
  const tenantId = principal.tenantId;
  const alerts = await rt.prisma.alert.findMany({
    where: { tenantId },
    orderBy: { id: 'desc' },
    take: 100,
    select: { id: true, summary: true, severity: true, status: true, deviceId: true },
  });
  const links = await rt.prisma.alertEvent.findMany({
    where: { alertId: { in: alerts.map((a) => a.id) } },
    orderBy: [{ event: { receivedAt: 'desc' } }, { eventId: 'desc' }],
    select: { alertId: true, event: { select: { id: true, type: true, summary: true, receivedAt: true } } },
  });
  const deviceIds = [...new Set(alerts.map((a) => a.deviceId).filter((d): d is string => !!d))];
  const devices = await rt.prisma.device.findMany({
    where: { tenantId, id: { in: deviceIds } },
    select: { id: true, name: true, site: true },
  });
  const proposals = await rt.prisma.proposal.findMany({
    where: { tenantId, deviceId: { in: deviceIds }, status: { in: ['proposed', 'approved'] } },
    orderBy: { id: 'desc' },
    select: { id: true, title: true, status: true, deviceId: true, proposer: { select: { email: true } } },
  });
  const eventsByAlert = new Map<string, unknown[]>();
  for (const l of links) {
    const list = eventsByAlert.get(l.alertId) ?? [];
    if (list.length < 5) list.push(l.event);
    eventsByAlert.set(l.alertId, list);
  }
  const proposalsByDevice = new Map<string, unknown[]>();
  for (const p of proposals) {
    const list = proposalsByDevice.get(p.deviceId!) ?? [];
    if (list.length < 10)
      list.push({ node: { id: p.id, title: p.title, status: p.status.toUpperCase(), proposer: p.proposer } }); // GraphQL enum names
    proposalsByDevice.set(p.deviceId!, list);
  }
  const deviceById = new Map(devices.map((d) => [d.id, d]));
  return {
    data: {
      alerts: {
        edges: alerts.map(({ deviceId, ...a }) => {
          const d = deviceId ? deviceById.get(deviceId) : undefined;
          return {
            node: {
              ...a,
              severity: a.severity.toUpperCase(),
              status: a.status.toUpperCase(),
              events: eventsByAlert.get(a.id) ?? [],
              device: d ? { ...d, proposals: { edges: proposalsByDevice.get(d.id) ?? [] } } : null,
            },
          };
        }),
      },
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Side {
  label: string;
  send: () => Promise<Response>;
  times: number[];
  statements: number;
}

/** One request of `side`, timed, its SQL statements counted, its answer checked. */
async function once(side: Side): Promise<void> {
  const before = statements;
  const t0 = performance.now();
  const res = await side.send();
  const body = (await res.json()) as { data?: { alerts?: { edges?: unknown[] } }; errors?: unknown };
  side.times.push(performance.now() - t0);
  side.statements += statements - before;
  if (body.errors || body.data?.alerts?.edges?.length !== ALERTS)
    throw new Error(`${side.label}: unexpected answer ${JSON.stringify(body).slice(0, 300)}`);
}

/**
 * Runs the sides' requests interleaved (one of each in turn), so a change in the machine's load during
 * the run weighs on both alike; with BENCH_CPU_PROF one side after the other, each in its own profile.
 */
async function measure(sides: Side[]): Promise<Array<{ p50: number; p95: number; statementsPerRequest: number }>> {
  for (let i = 0; i < WARMUP; i++) for (const side of sides) await (await side.send()).text();
  if (process.env.BENCH_CPU_PROF) {
    for (const side of sides)
      await profiled(`graph-${side.label.split(' ')[0]}`, async () => {
        for (let i = 0; i < REQUESTS; i++) await once(side);
      });
  } else {
    for (let i = 0; i < REQUESTS; i++) for (const side of sides) await once(side);
  }
  return sides.map((side) => {
    const times = [...side.times].sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const p95 = percentile(times, 95);
    const statementsPerRequest = side.statements / REQUESTS;
    console.log(
      `${side.label.padEnd(34)} p50 ${p50.toFixed(2).padStart(7)} ms   p95 ${p95.toFixed(2).padStart(7)} ms   ${statementsPerRequest.toFixed(1)} SQL statements per request`,
    );
    return { p50, p95, statementsPerRequest };
  });
}

const db = await createBenchDatabase('ops_bench_graph');
const config = loadConfig({
  DATABASE_URL: db.url,
  REDIS_URL,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  APP_SECRET: 'bench-secret-'.padEnd(48, 'x'),
  REDIS_PREFIX: `bench${crypto.randomBytes(4).toString('hex')}`,
  BOOTSTRAP_DEMO: 'false',
  NODE_ENV: 'production',
});
const app = await startApp(config, { workers: false });
const baseline = http.createServer((req, res) => {
  handWrittenDashboard(app.rt, req.headers.authorization)
    .then((body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    })
    .catch((err: Error) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [err.message] }));
    });
});
await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
const baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}/`;

try {
  const tenant = await buildTenant(app.rt);
  const proposer = await buildUser(app.rt, tenant.tenantId);
  await buildDashboardData(app.rt, tenant.tenantId, proposer.id, { alerts: ALERTS, devices: 10, eventsPerAlert: 6 });
  // Noise in other tenants: the queries must stay selective.
  for (let i = 0; i < 3; i++) {
    const t = await buildTenant(app.rt);
    await buildDashboardData(app.rt, t.tenantId, t.admin.id, { alerts: ALERTS, devices: 10, eventsPerAlert: 6 });
  }
  const headers = { authorization: `Bearer ${tenant.adminToken}`, 'content-type': 'application/json' };
  console.log(
    `dashboard: ${ALERTS} alerts × 5 latest events, device, open proposals + proposer; ${REQUESTS} sequential requests after ${WARMUP} warm-up`,
  );
  const [base, ours] = await measure([
    { label: 'baseline (hand-written Prisma)', send: () => fetch(baselineUrl, { headers }), times: [], statements: 0 },
    {
      label: 'ours (GraphQL, Pothos planning)',
      send: () =>
        fetch(`${app.url}/graphql`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ query: DASHBOARD_QUERY, variables: { first: 100 } }),
        }),
      times: [],
      statements: 0,
    },
  ]);
  console.log(
    `ratio ours / baseline                p50 ${(ours!.p50 / base!.p50).toFixed(2)}x   p95 ${(ours!.p95 / base!.p95).toFixed(2)}x   statements ${(ours!.statementsPerRequest / base!.statementsPerRequest).toFixed(2)}x`,
  );
  console.log(goalLine('ratio p95', ours!.p95 / base!.p95, { atMost: 1.2 }));
  console.log(goalLine('ratio p50', ours!.p50 / base!.p50, { atMost: 1.2 }));
  console.log(goalLine('SQL statements per request', ours!.statementsPerRequest, { atMost: 6 }, '', 1));
} finally {
  proto.query = originalQuery;
  await new Promise<void>((resolve) => baseline.close(() => resolve()));
  await app.stop();
  await db.drop();
}
