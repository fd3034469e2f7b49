/**
 * A Redis master dies under load: a 3 masters + 3 replicas cluster started by the test
 * (`redis-server --cluster-enabled yes` × 6, `redis-cli --cluster create --cluster-replicas 1`), one
 * API-only and one worker-only service process on it. Events are posted without pause and every one
 * becomes a webhook delivery (an EVENT trigger); while both flow, the master that owns the deliveries
 * queue is SIGKILLed and its replica takes over. Afterwards every accepted event (202) is in the
 * timeline and reached the receiver — counted by distinct event, since delivery is at-least-once — and
 * a subscriber connected before the failure hears events posted after it (sharded pub/sub re-subscribed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from './helpers/server.js';
import { startRedisCluster, type RedisClusterHandle } from './helpers/redis-cluster.js';
import { startServiceNode, type ServiceNode } from './helpers/service-nodes.js';
import { clusterEnv, clusterRuntime, nodeDataDir, untilShardSubscribed } from './helpers/scale.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { eventually, gql, subscribe, wsClient } from './helpers/http.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import type { Runtime } from '../src/runtime.js';

let cluster: RedisClusterHandle;
let db: TestDatabase;
let env: Record<string, string | undefined>;
let rt: Runtime;
let api: ServiceNode;
let worker: ServiceNode;
let rcv: Receiver;
let t: BuiltTenant;

beforeAll(async () => {
  [cluster, db] = await Promise.all([startRedisCluster({ masters: 3, replicasPerMaster: 1 }), createTestDatabase()]);
  // Re-drives after a lost job come sooner than the defaults, so the test ends sooner; nothing else changes.
  env = clusterEnv(cluster, db.url, {
    INGEST_RATE_PER_SECOND: '10000',
    EVALUATE_SWEEP_AGE_MS: '3000',
    WEBHOOK_SWEEP_AFTER_MS: '3000',
  });
  rt = clusterRuntime(env, db.url);
  [api, worker] = await Promise.all([
    startServiceNode('api', { ...env, DATA_DIR: nodeDataDir() }),
    startServiceNode('worker', { ...env, DATA_DIR: nodeDataDir() }),
  ]);
  t = await buildTenant(rt);
  rcv = await startReceiver();
  const hook = await gql(
    api.url,
    t.adminToken,
    'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }',
    {
      input: { name: 'every probe', url: rcv.url, triggers: [{ on: 'EVENT', typeGlob: 'failover.*' }] },
    },
  );
  expect(hook.errors).toBeUndefined();
}, 600_000);

afterAll(async () => {
  // Clean-up only, nothing here is asserted. After the failover the worker node often does not exit on
  // SIGTERM (in 2 of 3 runs here it was still there when stop() sent SIGKILL 30 s later; the cause is not
  // known, docs/scale.md tells of BullMQ connections stuck on a failed master), so it gets 5 s,
  // not 30 s, before SIGKILL; the cluster and the database are removed right after either way.
  await Promise.all([api?.stop(), worker?.stop(5_000)]);
  await rt?.close();
  await rcv?.close();
  await db?.drop();
  await cluster?.stop();
}, 300_000);

/** The probe numbers the receiver has seen (a delivery's body carries the event's payload as `payload`). */
function delivered(): Set<number> {
  const seen = new Set<number>();
  for (const r of rcv.requests) {
    const n = (JSON.parse(r.body) as { payload?: { n?: unknown } }).payload?.n;
    if (typeof n === 'number') seen.add(n);
  }
  return seen;
}

/** The port of the master that serves the slot of `key`. */
async function masterOfKey(key: string): Promise<number> {
  const any = new Redis({
    host: '127.0.0.1',
    port: (await cluster.masters())[0],
    lazyConnect: true,
    maxRetriesPerRequest: 1,
  });
  any.on('error', () => undefined);
  await any.connect();
  const slot = Number(await any.call('CLUSTER', 'KEYSLOT', key));
  any.disconnect();
  return cluster.masterOfSlot(slot);
}

describe('a Redis master fails over while events are ingested and delivered', () => {
  it('loses no accepted event and no delivery', async () => {
    const client = wsClient(api.url, t.adminToken);
    const sub = subscribe(client, 'subscription { eventAdded(filter: { type: "failover.*" }) { id } }');
    await untilShardSubscribed(cluster, env.REDIS_PREFIX!, 'eventAdded', t.tenantId);
    const heard = new Set<string>();
    void (async () => {
      for (;;) heard.add(((await sub.next(600_000)) as { data: { eventAdded: { id: string } } }).data.eventAdded.id);
    })().catch(() => undefined);

    // The load: one post after another, without pause, until told to stop. Only a 202 counts as accepted;
    // a post refused or cut off while the cluster elects (5xx, a network error) was not accepted.
    const accepted = new Map<number, string>(); // probe number → event id
    let refused = 0;
    let n = 0;
    const post = async (): Promise<string | undefined> => {
      const probe = n++;
      try {
        const r = await fetch(`${api.url}/api/v1/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-service-key': t.ingestKey },
          body: JSON.stringify({ type: 'failover.probe', source: 'failover-test', payload: { n: probe } }),
          signal: AbortSignal.timeout(60_000),
        });
        if (r.status !== 202) return void refused++;
        const { id } = (await r.json()) as { id: string };
        accepted.set(probe, id);
        return id;
      } catch {
        refused++;
      }
    };
    let stop = false;
    const load = (async () => {
      while (!stop) await post();
    })();

    // Both flowing: deliveries reach the receiver while posts keep coming.
    await eventually(async () => delivered().size >= 20, 120_000);
    const deliveriesKey = `{${env.REDIS_PREFIX}:q:deliveries}`;
    const victim = await masterOfKey(deliveriesKey);
    const acceptedBeforeKill = accepted.size;
    await cluster.kill(victim);

    // Its replica takes the slots over; then the service must carry on by itself.
    await eventually(
      async () => {
        const masters = await cluster.masters();
        return masters.length === 3 && !masters.includes(victim) && (await masterOfKey(deliveriesKey)) !== victim;
      },
      120_000,
      200,
    );
    const afterFailover = n;
    await eventually(async () => [...accepted.keys()].filter((p) => p >= afterFailover).length >= 20, 120_000);
    await eventually(async () => [...delivered()].some((p) => p >= afterFailover), 120_000);
    stop = true;
    await load;

    // The subscriber from before the failure hears what is posted after it (pub/sub is at most once:
    // posts go on until one is heard).
    const afterLoad: string[] = [];
    await eventually(
      async () => {
        const id = await post();
        if (id) afterLoad.push(id);
        return afterLoad.some((x) => heard.has(x));
      },
      60_000,
      200,
    );
    sub.dispose();
    await client.dispose();

    expect(accepted.size).toBeGreaterThan(acceptedBeforeKill);
    // Every accepted event is in the timeline.
    const ids = [...accepted.values()];
    expect(await rt.prisma.event.count({ where: { tenantId: t.tenantId, id: { in: ids } } })).toBe(ids.length);
    // Every accepted event's delivery reaches the receiver (at least once: distinct probes).
    await eventually(async () => [...accepted.keys()].every((p) => delivered().has(p)), 180_000, 200);
    const missing = [...accepted.keys()].filter((p) => !delivered().has(p));
    expect(missing).toEqual([]);
    console.log(
      `failover: ${accepted.size} accepted (${refused} refused or cut off during the election), ${rcv.requests.length} delivery requests for ${delivered().size} events`,
    );
  }, 600_000);
});
