/**
 * Shared set-up of the scale tests: the settings every node of one installation shares on a Redis
 * Cluster, an in-test runtime on the same cluster (for factories and database checks), and the count of
 * sharded subscribers on a channel, asked of the master that owns the channel's slot.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { buildRuntimeParts } from '../../src/server/runtime-parts.js';
import { pubsubChannel, type PubSubChannels } from '../../src/pubsub.js';
import type { RedisClusterHandle } from './redis-cluster.js';
import { eventually } from './http.js';

/** Environment every node of one installation on `cluster` shares (each node adds its DATA_DIR). */
export function clusterEnv(
  cluster: RedisClusterHandle,
  databaseUrl: string,
  extra: Record<string, string> = {},
): Record<string, string | undefined> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: undefined,
    REDIS_CLUSTER_NODES: cluster.nodesEnv,
    REDIS_PREFIX: `scale${crypto.randomBytes(4).toString('hex')}`,
    APP_SECRET: 'scale-test-secret-'.padEnd(48, 'x'),
    WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
    ...extra,
  };
}

/** A fresh DATA_DIR for one node. */
export function nodeDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ops-scale-node-'));
}

/** A runtime in the test process on the installation's cluster and database (no HTTP, no workers). */
export function clusterRuntime(env: Record<string, string | undefined>, databaseUrl: string): Runtime {
  const config = loadConfig({
    ...(env as Record<string, string>),
    REDIS_URL: '',
    LOG_LEVEL: 'silent',
    BOOTSTRAP_DEMO: 'false',
    DATA_DIR: nodeDataDir(),
  });
  return createRuntime(
    config,
    databaseUrl,
    { kind: 'cluster', ...config.redisCluster! },
    { parts: buildRuntimeParts, poolSize: 2 },
  );
}

/** Waits until `count` connections listen on the sharded channel of `topic` for `tenantId`. */
export async function untilShardSubscribed(
  cluster: RedisClusterHandle,
  redisPrefix: string,
  topic: keyof PubSubChannels,
  tenantId: string,
  count = 1,
): Promise<void> {
  const channel = pubsubChannel(redisPrefix, topic, tenantId, true);
  await eventually(
    async () => {
      const any = new Redis({
        host: '127.0.0.1',
        port: (await cluster.masters())[0],
        lazyConnect: true,
        maxRetriesPerRequest: 1,
      });
      any.on('error', () => undefined);
      await any.connect();
      const slot = Number(await any.call('CLUSTER', 'KEYSLOT', channel));
      any.disconnect();
      const owner = new Redis({
        host: '127.0.0.1',
        port: await cluster.masterOfSlot(slot),
        lazyConnect: true,
        maxRetriesPerRequest: 1,
      });
      owner.on('error', () => undefined);
      await owner.connect();
      const [, n] = (await owner.call('PUBSUB', 'SHARDNUMSUB', channel)) as [string, number];
      owner.disconnect();
      return n >= count;
    },
    60_000,
    100,
  );
}

/** The masters (ports) holding at least one key that starts with `prefix`. */
export async function mastersHolding(cluster: RedisClusterHandle, prefix: string): Promise<number[]> {
  const holding: number[] = [];
  for (const port of await cluster.masters()) {
    const c = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1 });
    c.on('error', () => undefined);
    await c.connect();
    const [, keys] = await c.scan('0', 'MATCH', `${prefix}*`, 'COUNT', 100_000);
    c.disconnect();
    if (keys.length) holding.push(port);
  }
  return holding;
}
