/**
 * Past one machine on real engines started by the test: a 3-master Redis Cluster, a Postgres streaming
 * replica (pg_basebackup -R) serving reports, and three service processes — two API-only nodes
 * (RUN_WORKERS=false) and one worker-only node (RUN_HTTP=false) — sharing the database, the cluster and
 * APP_SECRET. The receiver of outbound webhooks is a real HTTP server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/server.js';
import { startRedisCluster, type RedisClusterHandle } from './helpers/redis-cluster.js';
import { startPgReplica, type PgReplica } from './helpers/pg-replica.js';
import { startServiceNode, type ServiceNode } from './helpers/service-nodes.js';
import { clusterEnv, clusterRuntime, mastersHolding, nodeDataDir, untilShardSubscribed } from './helpers/scale.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { eventually, gql, rest, subscribe, wsClient, type HttpResult } from './helpers/http.js';
import { burstUntilLimited } from './helpers/rate.js';
import { ops } from './helpers/cli.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import type { Runtime } from '../src/runtime.js';

let cluster: RedisClusterHandle;
let db: TestDatabase;
let replica: PgReplica;
let env: Record<string, string | undefined>;
let rt: Runtime;
let api1: ServiceNode;
let api2: ServiceNode;
let worker: ServiceNode;
let rcv: Receiver;
let t: BuiltTenant;

beforeAll(async () => {
  [cluster, db] = await Promise.all([startRedisCluster({ masters: 3 }), createTestDatabase()]);
  replica = await startPgReplica(); // after the database exists: the base backup carries it
  env = clusterEnv(cluster, db.url, {
    INGEST_RATE_PER_SECOND: '10',
    REPORTS_DATABASE_URL: replica.url(db.name),
    REPORTS_LAG_NOTICE_SECONDS: '0',
  });
  rt = clusterRuntime(env, db.url);
  [api1, api2, worker] = await Promise.all([
    startServiceNode('api', { ...env, DATA_DIR: nodeDataDir() }),
    startServiceNode('api', { ...env, DATA_DIR: nodeDataDir() }),
    startServiceNode('worker', { ...env, DATA_DIR: nodeDataDir() }),
  ]);
  t = await buildTenant(rt);
  rcv = await startReceiver();
  const rule = await gql(
    api1.url,
    t.adminToken,
    'mutation { createAlertRule(input: { name: "Disk", typeGlob: "disk.*", alertSeverity: CRITICAL }) { id } }',
  );
  expect(rule.errors).toBeUndefined();
  const hook = await gql(
    api2.url,
    t.adminToken,
    'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }',
    {
      input: { name: 'pager', url: rcv.url, triggers: [{ on: 'ALERT_OPENED' }] },
    },
  );
  expect(hook.errors).toBeUndefined();
}, 600_000);

afterAll(async () => {
  await Promise.all([api1?.stop(), api2?.stop(), worker?.stop()]);
  await rt?.close();
  await rcv?.close();
  await replica?.stop();
  await db?.drop();
  await cluster?.stop();
}, 300_000);

describe('three service processes on a Redis Cluster and a Postgres replica', () => {
  it('an event posted to node 1 reaches a subscriber on node 2, opens an alert through the worker, and its delivery arrives', async () => {
    const client = wsClient(api2.url, t.adminToken);
    const sub = subscribe(client, 'subscription { eventAdded { id type } }');
    await untilShardSubscribed(cluster, env.REDIS_PREFIX!, 'eventAdded', t.tenantId);
    const posted = await rest(api1.url).post(
      '/events',
      { type: 'disk.full', source: 'db-1', severity: 'warning', summary: 'disk 98%' },
      { headers: { 'x-service-key': t.ingestKey } },
    );
    expect(posted.status).toBe(202);
    expect((await sub.next()).data.eventAdded).toEqual({ id: posted.body.id, type: 'disk.full' });
    sub.dispose();
    await client.dispose();

    const alert = await eventually(() => rt.prisma.alert.findFirst({ where: { tenantId: t.tenantId } }), 120_000);
    await eventually(async () => rcv.requests.length >= 1, 120_000);
    const body = JSON.parse(rcv.requests[0].body);
    expect(body).toMatchObject({ topic: 'alert.opened' });
    expect(JSON.stringify(body.payload)).toContain(alert.id);
  }, 300_000);

  it('holds the ingest limit across both API nodes (16 posts at a time over both, 10/s)', async () => {
    let i = 0;
    const send = (): Promise<HttpResult> =>
      rest(i++ % 2 ? api2.url : api1.url).post(
        '/events',
        { type: 'burst.test', source: 'b' },
        { headers: { 'x-service-key': t.ingestKey } },
      );
    const burst = await burstUntilLimited(send, { perSecond: 10, acceptedStatus: 202, size: 16 });
    expect(burst.limited.length).toBeGreaterThan(0);
    expect(burst.accepted.length).toBeLessThanOrEqual(burst.maxAccepted);
  }, 300_000);

  it('spreads the queue keys over at least two masters (one hash tag per queue)', async () => {
    const holding = await mastersHolding(cluster, `{${env.REDIS_PREFIX}:q:`);
    expect(holding.length).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('runs reports on the replica: a row the replica has not replayed yet is not in the report, then is', async () => {
    const countDisk = async () => {
      const r = await rest(api2.url, t.adminToken).post('/reports/query', {
        entity: 'events',
        filters: [{ field: 'type', op: 'eq', value: 'replica.check' }],
        aggregate: 'count',
      });
      expect(r.status).toBe(200);
      return r.body as { rows: Array<{ count: number }>; replica_lag_seconds?: number };
    };
    expect((await countDisk()).rows).toEqual([{ count: 0 }]);
    await replica.query('SELECT pg_wal_replay_pause()');
    let primaryLsn = '';
    try {
      // The burst above may have used this second's budget: post until accepted.
      const posted = await eventually(async () => {
        const r = await rest(api1.url).post(
          '/events',
          { type: 'replica.check', source: 'r' },
          { headers: { 'x-service-key': t.ingestKey } },
        );
        return r.status === 202 ? r : undefined;
      }, 30_000);
      expect(await rt.prisma.event.count({ where: { id: posted.body.id } })).toBe(1); // the primary has it
      primaryLsn = (
        await rt.prisma.$queryRawUnsafe<Array<{ lsn: string }>>('SELECT pg_current_wal_lsn()::text AS lsn')
      )[0].lsn;
      await eventually(
        async () =>
          (await replica.query<{ paused: string }>('SELECT pg_get_wal_replay_pause_state() AS paused'))[0].paused ===
          'paused',
        30_000,
      );
      const behind = await countDisk();
      expect(behind.rows).toEqual([{ count: 0 }]); // the replica does not: the report read there
      expect(behind.replica_lag_seconds).toBeGreaterThan(0);
      const metrics = await (await fetch(`${api2.url}/metrics`)).text();
      expect(metrics).toMatch(/reports_replica_lag_seconds [0-9.]+/);
    } finally {
      await replica.query('SELECT pg_wal_replay_resume()');
    }
    // Once resumed, the replica replays what piled up meanwhile, every other test file's CREATE and DROP
    // DATABASE included (minutes on a loaded machine): wait for it to reach the insert, then for the report.
    await eventually(
      async () =>
        (await replica.query<{ ok: boolean }>(`SELECT pg_last_wal_replay_lsn() >= '${primaryLsn}'::pg_lsn AS ok`))[0]
          .ok,
      200_000,
      500,
    );
    await eventually(async () => (await countDisk()).rows[0].count === 1, 60_000);
  }, 900_000);

  it('lets the CLI work with the same setting: a token it mints is announced to a subscriber on node 2', async () => {
    const client = wsClient(api2.url, t.adminToken);
    const sub = subscribe(client, 'subscription { tokenChanged { id change } }');
    await untilShardSubscribed(cluster, env.REDIS_PREFIX!, 'tokenChanged', t.tenantId);
    const r = await ops(['token', 'create', '--email', t.admin.email, '--name', 'cli-on-cluster', '--json'], {
      ...env,
      DATA_DIR: nodeDataDir(),
    });
    expect(r.code, r.stderr).toBe(0);
    const minted = JSON.parse(r.stdout) as { id: string };
    expect((await sub.next()).data.tokenChanged).toEqual({ id: minted.id, change: 'created' });
    sub.dispose();
    await client.dispose();
  }, 300_000);
});
