/**
 * Compiled execution (src/server/compiled-execution.ts): a document's first run is interpreted by
 * graphql-js, later runs are compiled by graphql-jit. Whichever runs, the answer, its errors and the SQL
 * it costs are the same. `graphql_executions_total{executor}` tells which executor ran.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { DASHBOARD_QUERY, buildDashboardData, buildTenant, buildUser, type BuiltTenant } from './factories.js';
import { gql } from './helpers/http.js';
import { countStatements } from './helpers/sql-statements.js';
import { graphqlExecutions } from '../src/metrics.js';

/** The executions counted so far, by executor. */
async function executions(): Promise<{ compiled: number; interpreted: number }> {
  const { values } = await graphqlExecutions.get();
  const of = (executor: string) => values.find((v) => v.labels.executor === executor)?.value ?? 0;
  return { compiled: of('compiled'), interpreted: of('interpreted') };
}

/** Runs `fn` and returns its result, the SQL statements sent meanwhile, and which executor ran. */
async function observed<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; statements: number; executor: 'compiled' | 'interpreted' }> {
  const before = await executions();
  const { result, statements } = await countStatements(fn);
  const after = await executions();
  const ran = { compiled: after.compiled - before.compiled, interpreted: after.interpreted - before.interpreted };
  expect(ran.compiled + ran.interpreted, 'one execution').toBe(1);
  return { result, statements: statements.length, executor: ran.compiled ? 'compiled' : 'interpreted' };
}

/** A document text no earlier test sent (a new document for yoga's parse cache, so it starts interpreted). */
const fresh = (query: string) => `${query}\n# ${crypto.randomUUID()}`;

let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer({ start: { workers: false } });
  t = await buildTenant(s.app.rt);
  const proposer = await buildUser(s.app.rt, t.tenantId);
  await buildDashboardData(s.app.rt, t.tenantId, proposer.id, { alerts: 12, devices: 4, eventsPerAlert: 6 });
  await gql(s.url, t.adminToken, DASHBOARD_QUERY, { first: 100 }); // pool connections, the token's last-used write
});
afterAll(async () => {
  await s?.stop();
});

describe('compiled execution', () => {
  it('answers the dashboard the same interpreted and compiled, in the same SQL statements', async () => {
    const query = fresh(DASHBOARD_QUERY);
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await observed(() => gql(s.url, t.adminToken, query, { first: 100 })));
    expect(runs.map((r) => r.executor)).toEqual(['interpreted', 'compiled', 'compiled']);
    expect(runs[0]!.result.errors).toBeUndefined();
    expect(runs[0]!.result.data.alerts.edges).toHaveLength(12);
    for (const r of runs.slice(1)) {
      expect(r.result).toEqual(runs[0]!.result);
      // plugin-prisma finds what the planned queries loaded (stable paths): no relation is loaded again per row.
      expect(r.statements).toBe(runs[0]!.statements);
    }
  });

  it('gives a resolver’s error the same code, path and message compiled', async () => {
    const query = fresh('query Missing($id: ID!) { device(id: $id) { id name } }');
    const first = await observed(() => gql(s.url, t.adminToken, query, { id: crypto.randomUUID() }));
    const second = await observed(() => gql(s.url, t.adminToken, query, { id: crypto.randomUUID() }));
    expect([first.executor, second.executor]).toEqual(['interpreted', 'compiled']);
    expect(first.result.errors?.[0]).toMatchObject({ path: ['device'], extensions: { code: 'NOT_FOUND' } });
    expect(second.result.errors).toEqual(first.result.errors);
    expect(second.result.data).toEqual(first.result.data);
  });

  it('leaves variables graphql-js refuses to graphql-js, in its words', async () => {
    const query = fresh('query Page($first: Int!) { alerts(first: $first) { totalCount } }');
    await gql(s.url, t.adminToken, query, { first: 1 });
    const bad = await observed(() => gql(s.url, t.adminToken, query, { first: 'ten' }));
    expect(bad.executor).toBe('interpreted');
    expect(bad.result.errors?.[0]?.message).toMatch(/^Variable "\$first" got invalid value "ten"/);
    const good = await observed(() => gql(s.url, t.adminToken, query, { first: 2 }));
    expect(good.executor).toBe('compiled');
    expect(good.result.data.alerts.totalCount).toBe(12);
  });

  it('runs a mutation compiled, with its audit row', async () => {
    const mutation = fresh('mutation Add($input: DeviceInput!) { createDevice(input: $input) { id name site } }');
    const made = [];
    for (const name of ['compiled-a', 'compiled-b'])
      made.push(await observed(() => gql(s.url, t.adminToken, mutation, { input: { name, site: 'lab' } })));
    expect(made.map((m) => m.executor)).toEqual(['interpreted', 'compiled']);
    const second = made[1]!.result.data.createDevice;
    expect(second).toMatchObject({ name: 'compiled-b', site: 'lab' });
    const stored = await s.app.rt.prisma.device.findFirst({ where: { tenantId: t.tenantId, id: second.id } });
    expect(stored).toMatchObject({ name: 'compiled-b', site: 'lab' });
    await expect
      .poll(() =>
        s.app.rt.prisma.auditLog.count({
          where: { tenantId: t.tenantId, action: 'createDevice', targetId: second.id },
        }),
      )
      .toBe(1);
  });

  it('never compiles a document whose string literal spells graphql-jit’s internal markers (that would run as code)', async () => {
    // graphql-jit turns a JSON string "__MAGIC_DATE__<uuid><text>" in the generated code into `new Date(<text>)`.
    const marker = '__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d';
    const escaped = marker.replace(/_/g, '\\u005f'); // the same string, spelled with GraphQL escapes
    for (const spelled of [marker, escaped]) {
      const query = fresh(
        `{ auditLog(action: "${spelled}0)};globalThis.__compiledInjection=1;const x={a:(0") { totalCount } }`,
      );
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await observed(() => gql(s.url, t.adminToken, query)));
      expect(runs.map((r) => r.executor)).toEqual(['interpreted', 'interpreted', 'interpreted']);
      for (const r of runs) expect(r.result).toEqual({ status: 200, data: { auditLog: { totalCount: 0 } } });
    }
    expect((globalThis as { __compiledInjection?: unknown }).__compiledInjection).toBeUndefined();
  });
});
