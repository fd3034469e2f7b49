/**
 * Durable escalation across a Redis failover (issue 41's "done when", second run): a 3 masters + 3 replicas Redis
 * Cluster started by the test (test/helpers/redis-cluster.ts, as test/scale-failover.test.ts), an API-only service
 * process and a worker process (test/fixtures/durability-worker.mjs, whose clock the test moves) on it. A critical
 * event pages the on-call person (email at a real SMTP server); between the steps the master that holds the
 * `escalation` queue (the lead's timer) is SIGKILLed and its replica takes over; then, 5 minutes later on the
 * worker's clock, the lead is paged exactly once: one email at the SMTP server, one notification per method.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from './helpers/server.js';
import { startRedisCluster, type RedisClusterHandle } from './helpers/redis-cluster.js';
import { startServiceNode, type ServiceNode } from './helpers/service-nodes.js';
import { clusterEnv, clusterRuntime, nodeDataDir } from './helpers/scale.js';
import { setWorkerClock, spawnWorkerProcess } from './helpers/worker-process.js';
import { startHttpPeer, startSmtpPeer, type HttpPeer, type SmtpPeer } from './helpers/paging-receivers.js';
import { eventually, gql, rest } from './helpers/http.js';
import { buildTenant, buildUser, type BuiltTenant } from './factories.js';
import type { Runtime } from '../src/runtime.js';

let cluster: RedisClusterHandle;
let db: TestDatabase;
let env: Record<string, string | undefined>;
let rt: Runtime;
let api: ServiceNode;
let worker: ChildProcess;
let smtp: SmtpPeer;
let ntfy: HttpPeer;
let t: BuiltTenant;
const kills: Array<() => Promise<void>> = [];

beforeAll(async () => {
  [cluster, db, smtp, ntfy] = await Promise.all([
    startRedisCluster({ masters: 3, replicasPerMaster: 1 }),
    createTestDatabase(),
    startSmtpPeer(),
    startHttpPeer(),
  ]);
  env = clusterEnv(cluster, db.url, {
    INGEST_RATE_PER_SECOND: '1000',
    ESCALATION_SWEEP_INTERVAL_MS: '200',
    NOTIFY_SWEEP_INTERVAL_MS: '200',
    SMTP_URL: smtp.url,
    SMTP_FROM: 'Pager <pager@ops.test>',
  });
  rt = clusterRuntime(env, db.url);
  [api, worker] = await Promise.all([
    startServiceNode('api', { ...env, DATA_DIR: nodeDataDir() }),
    spawnWorkerProcess({ ...env, DATA_DIR: nodeDataDir(), TEST_CLOCK_OFFSET_MS: '0' }, (k) => kills.push(k)),
  ]);
  t = await buildTenant(rt);
}, 600_000);

afterAll(async () => {
  // Clean-up only. The worker is SIGKILLed (after a failover a node may not exit on SIGTERM: scale-failover.test.ts).
  for (const k of kills) await k();
  await api?.stop(10_000);
  await rt?.close();
  await Promise.all([smtp?.close(), ntfy?.close()]);
  await db?.drop();
  await cluster?.stop();
}, 300_000);

/** The port of the master that serves the slot of `key`. */
async function masterOfKey(key: string): Promise<number> {
  const any = new Redis({ host: '127.0.0.1', port: (await cluster.masters())[0], lazyConnect: true });
  any.on('error', () => undefined);
  await any.connect();
  const slot = Number(await any.call('CLUSTER', 'KEYSLOT', key));
  any.disconnect();
  return cluster.masterOfSlot(slot);
}

async function admin<T = any>(query: string, variables: Record<string, unknown>): Promise<T> {
  const r = await gql(api.url, t.adminToken, query, variables);
  expect(r.errors).toBeUndefined();
  return r.data as T;
}

const mailsTo = (email: string) => smtp.messages.filter((m) => JSON.stringify(m.to).includes(email));

describe('a Redis master fails over between two escalation steps', () => {
  it('pages the lead exactly once', async () => {
    const onCall = await buildUser(rt, t.tenantId);
    const lead = await buildUser(rt, t.tenantId);
    const sched = await admin(`mutation($i: CreateScheduleInput!) { createSchedule(input: $i) { id } }`, {
      i: {
        name: 'Database',
        timeZone: 'Europe/Amsterdam',
        layers: [
          {
            startsAt: new Date(Date.now() - 86400_000).toISOString(),
            rotation: 'WEEKLY',
            handoffTime: '09:00',
            handoffWeekday: 1,
            userIds: [onCall.id],
          },
        ],
      },
    });
    const pol = await admin(`mutation($i: CreateEscalationPolicyInput!) { createEscalationPolicy(input: $i) { id } }`, {
      i: {
        name: 'Database',
        steps: [
          { delayMinutes: 0, targets: [{ type: 'SCHEDULE', id: sched.createSchedule.id }] },
          { delayMinutes: 5, targets: [{ type: 'USER', id: lead.id }] },
        ],
      },
    });
    await admin(`mutation($id: ID!) { setDefaultEscalationPolicy(id: $id) { id } }`, {
      id: pol.createEscalationPolicy.id,
    });
    await admin(
      'mutation { createAlertRule(input: { name: "DB down", typeGlob: "db.*", alertSeverity: CRITICAL }) { id } }',
      {},
    );

    const posted = await rest(api.url).post(
      '/events',
      { type: 'db.down', source: 'db-1', severity: 'critical', payload: {} },
      { headers: { 'x-service-key': t.ingestKey } },
    );
    expect(posted.status).toBe(202);
    await eventually(async () => mailsTo(onCall.email)[0], 60_000);
    const group = await rt.prisma.alertGroup.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    expect(group).toMatchObject({ status: 'firing', step: 0 });

    // The master holding the escalation queue (the lead's delayed timer) dies; its replica takes over.
    const escalationKey = `{${env.REDIS_PREFIX}:q:escalation}`;
    const victim = await masterOfKey(escalationKey);
    await cluster.kill(victim);
    await eventually(
      async () => {
        const masters = await cluster.masters();
        return masters.length === 3 && !masters.includes(victim) && (await masterOfKey(escalationKey)) !== victim;
      },
      120_000,
      200,
    );

    await setWorkerClock(worker, 5 * 60_000);
    await eventually(async () => mailsTo(lead.email)[0], 120_000);
    await eventually(
      async () => {
        const counts = await Promise.all(
          (['escalation', 'page', 'notify'] as const).map((q) => rt.queues.get(q).getJobCounts('waiting', 'active')),
        );
        const pending = await rt.prisma.notification.count({ where: { groupId: group.id, status: 'pending' } });
        return pending === 0 && counts.every((c) => c.waiting === 0 && c.active === 0);
      },
      120_000,
      200,
    );
    expect(mailsTo(lead.email)).toHaveLength(1);
    const toLead = await rt.prisma.notification.findMany({ where: { groupId: group.id, userId: lead.id } });
    expect(toLead.map((n) => `${n.kind} ${n.status}`).sort()).toEqual(['email sent', 'inbox sent']);
    const paged = await rt.prisma.alertTimelineEntry.findMany({
      where: { tenantId: t.tenantId, action: 'paged', actorId: lead.id },
    });
    expect(paged).toHaveLength(1);
    expect(await rt.prisma.alertGroup.findUniqueOrThrow({ where: { id: group.id } })).toMatchObject({ step: 1 });
  }, 600_000);
});
