/**
 * One graph: the dashboard's nested query (alerts → latest events, device → open proposals → proposer)
 * must be planned into a constant number of SQL statements, whatever the number of alerts. Statements
 * are counted at the pg driver (every query Prisma's adapter sends), on a server without background
 * workers so nothing else talks to the database while a request runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import {
  DASHBOARD_QUERY,
  buildDashboardData,
  buildTenant,
  buildToken,
  buildUser,
  type BuiltTenant,
  type DashboardData,
} from './factories.js';
import { gql } from './helpers/http.js';
import { countStatements } from './helpers/sql-statements.js';

let s: TestServer;
const scenarios: Record<'small' | 'large', { tenant: BuiltTenant; token: string; data: DashboardData }> = {} as never;

beforeAll(async () => {
  s = await startTestServer({ start: { workers: false } });
  for (const [key, alerts] of [
    ['small', 5],
    ['large', 50],
  ] as const) {
    const tenant = await buildTenant(s.app.rt);
    const proposer = await buildUser(s.app.rt, tenant.tenantId);
    const data = await buildDashboardData(s.app.rt, tenant.tenantId, proposer.id, {
      alerts,
      devices: 10,
      eventsPerAlert: 6,
    });
    scenarios[key] = { tenant, token: await buildToken(s.app.rt, tenant.admin), data };
  }
  // Warm up: pool connections, prepared plans, the token's last-used write.
  for (const sc of Object.values(scenarios)) await gql(s.url, sc.token, DASHBOARD_QUERY, { first: 100 });
});
afterAll(async () => {
  await s?.stop();
});

describe('dashboard graph', () => {
  it('answers 50 alerts with their 5 latest events, device and open proposals correctly', async () => {
    const { token, data } = scenarios.large;
    const r = await gql(s.url, token, DASHBOARD_QUERY, { first: 100 });
    expect(r.errors).toBeUndefined();
    const nodes = r.data.alerts.edges.map((e: { node: any }) => e.node);
    expect(nodes).toHaveLength(50);
    for (const a of nodes) {
      expect(a.events).toHaveLength(5);
      const times = a.events.map((e: { receivedAt: string }) => Date.parse(e.receivedAt));
      expect([...times].sort((x, y) => y - x)).toEqual(times);
      expect(a.events.map((e: { summary: string }) => e.summary.replace(/^alert \d+ /, ''))).toEqual([
        'event 0',
        'event 1',
        'event 2',
        'event 3',
        'event 4',
      ]);
      const proposals = a.device.proposals.edges.map((e: { node: { id: string; status: string } }) => e.node);
      expect(proposals.map((p: { id: string }) => p.id).sort()).toEqual(
        [...data.openProposalsByDevice.get(a.device.id)!].sort(),
      );
      expect(
        proposals.every(
          (p: { status: string; proposer: { email: string } }) => p.status !== 'DENIED' && p.proposer.email,
        ),
      ).toBe(true);
    }
  });

  it('runs the same number of SQL statements for 5 alerts as for 50 (no N+1)', async () => {
    const small = await countStatements(() => gql(s.url, scenarios.small.token, DASHBOARD_QUERY, { first: 100 }));
    const large = await countStatements(() => gql(s.url, scenarios.large.token, DASHBOARD_QUERY, { first: 100 }));
    expect(small.result.data.alerts.edges).toHaveLength(5);
    expect(large.result.data.alerts.edges).toHaveLength(50);
    // Authentication (1) plus one statement per level of the graph: alerts, their events (link and
    // event in one), devices, proposals, proposers. Far below one per alert either way.
    expect(large.statements.length).toBe(small.statements.length);
    expect(large.statements.length).toBeLessThanOrEqual(6);
  });
});

describe('columns', () => {
  const ROWS = `{ alerts(first: 100) { edges { node { id dedupKey count source firstSeenAt labels events(limit: 1) { id module payload } device { id role } } } } }`;

  it('loads the columns a query asks for and no others, and answers each from the row', async () => {
    const { tenant, token } = scenarios.small;
    const dashboard = await countStatements(() => gql(s.url, token, DASHBOARD_QUERY, { first: 100 }));
    const alertSql = (r: { statements: string[] }) => r.statements.find((q) => q.includes('FROM "public"."Alert"'))!;
    expect(alertSql(dashboard)).toContain('"summary"');
    expect(alertSql(dashboard)).not.toMatch(/"dedupKey"|"labels"|"count"|"firstSeenAt"/);
    const asked = await countStatements(() => gql(s.url, token, ROWS));
    expect(asked.result.errors).toBeUndefined();
    for (const column of ['"dedupKey"', '"count"', '"source"', '"labels"']) expect(alertSql(asked)).toContain(column);
    // An alert's events too: the latest-events statement reads the event columns asked for.
    const eventSql = (r: { statements: string[] }) => r.statements.find((q) => q.includes('"AlertEvent" ae'))!;
    expect(eventSql(dashboard)).toContain('"summary"');
    expect(eventSql(dashboard)).not.toMatch(/"module"|"payload"|"labels"|"evaluationError"|"deviceId"/);
    for (const column of ['"module"', '"payload"']) expect(eventSql(asked)).toContain(column);
    // Each asked column in one statement per level, as the dashboard: no row is loaded again for a column.
    expect(asked.statements.length).toBeLessThanOrEqual(dashboard.statements.length);
    const stored = await s.app.rt.prisma.alert.findMany({
      where: { tenantId: tenant.tenantId },
      include: { device: true },
    });
    const byId = new Map(stored.map((a) => [a.id, a]));
    for (const { node } of asked.result.data.alerts.edges as Array<{ node: any }>) {
      const a = byId.get(node.id)!;
      expect(node).toMatchObject({
        dedupKey: a.dedupKey,
        count: a.count,
        source: a.source,
        firstSeenAt: a.firstSeenAt.toISOString(),
        labels: a.labels,
        device: { id: a.device!.id, role: a.device!.role },
      });
      expect(node.events[0]).toMatchObject({ module: null, payload: {} }); // the factory's events: no module, the default payload
    }
  });
});

describe('lists built by services (not by Prisma selections)', () => {
  // Objects a service returned whole must not make Pothos load each one again for a field (a field-level
  // `select` on a scalar did exactly that for every GPU of the summary: 1,000 GPUs were 1,000 lookups).
  const SUMMARY =
    '{ gpuSummary { fleet { gpus } gpus { id uuid health { status reasons } latest { utilization powerW } lastSeenAt } } }';

  async function tenantWithGpus(n: number): Promise<string> {
    const tenant = await buildTenant(s.app.rt);
    const now = new Date();
    await s.app.rt.prisma.gpu.createMany({
      data: Array.from({ length: n }, (_, i) => ({
        tenantId: tenant.tenantId,
        uuid: `GPU-${tenant.tenantId}-${i}`,
        node: `n${Math.floor(i / 8)}`,
        index: i % 8,
        model: 'NVIDIA A100',
        source: 'dcgm',
        latest: { utilization: 50, powerW: 200 },
        lastSeenAt: now,
        lastSampleAt: now,
      })),
    });
    return buildToken(s.app.rt, tenant.admin);
  }

  it('answers gpuSummary in the same number of statements for 3 GPUs as for 60', async () => {
    const few = await tenantWithGpus(3);
    const many = await tenantWithGpus(60);
    await gql(s.url, few, SUMMARY);
    await gql(s.url, many, SUMMARY);
    const small = await countStatements(() => gql(s.url, few, SUMMARY));
    const large = await countStatements(() => gql(s.url, many, SUMMARY));
    expect(small.result.errors).toBeUndefined();
    expect(large.result.data.gpuSummary.gpus).toHaveLength(60);
    expect(large.result.data.gpuSummary.gpus[0]).toMatchObject({
      health: { status: expect.any(String) },
      latest: { utilization: 50, powerW: 200 },
    });
    expect(large.statements.length, large.statements.join('\n')).toBe(small.statements.length);
    // The GPUs are read once (by the service), not once more by the GraphQL layer.
    const gpuReads = large.statements.filter((q) => /FROM "[^"]*"\."Gpu"|FROM "Gpu"/.test(q));
    expect(gpuReads, large.statements.join('\n')).toHaveLength(1);
  });
});
