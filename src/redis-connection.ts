/**
 * Where Redis is and how to connect to it: one server (REDIS_URL, or the private one started for the
 * embedded default) or a Redis Cluster (REDIS_CLUSTER_NODES, which wins over REDIS_URL). Everything that
 * opens a Redis connection (runtime, BullMQ queues and workers, the CLI) goes through here, so the two
 * shapes differ in this file only.
 *
 * On a cluster, a command touching several keys must keep them in one hash slot: BullMQ queues get one
 * hash-tagged prefix each (queuePrefix), pub/sub channels one hash tag per tenant (pubsub.ts), and every
 * other key (rate limits, locks, caches) is a single key per command.
 */
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { Config } from './config.js';

export type RedisTarget =
  | { kind: 'single'; url: string }
  | {
      kind: 'cluster';
      nodes: Array<{ host: string; port: number }>;
      username?: string;
      password?: string;
      tls: boolean;
    };

export type RedisClient = Redis | Cluster;

/** The target of this configuration: the cluster when REDIS_CLUSTER_NODES is set, else `url`. */
export function redisTargetOf(config: Config, url: string | undefined): RedisTarget | undefined {
  const c = config.redisCluster;
  if (c) return { kind: 'cluster', ...c };
  return url ? { kind: 'single', url } : undefined;
}

/** Opens a connection (a Cluster client on a cluster). `sharded` makes a cluster subscriber use SSUBSCRIBE per shard. */
export function connectRedis(target: RedisTarget, opts: RedisOptions = {}, sharded = false): RedisClient {
  if (target.kind === 'single') return new Redis(target.url, opts);
  const { enableAutoPipelining, maxRetriesPerRequest, lazyConnect, ...redisOptions } = opts;
  const clusterOpts: ClusterOptions = {
    enableAutoPipelining,
    lazyConnect,
    shardedSubscribers: sharded,
    // Managed clusters announce their nodes by address: keep the TLS server name of the seed.
    redisOptions: {
      ...redisOptions,
      maxRetriesPerRequest,
      username: target.username,
      password: target.password,
      ...(target.tls ? { tls: {} } : {}),
    },
    // While the cluster is unreachable or electing, commands wait in the offline queue and the client keeps
    // reconnecting (test/scale-failover.test.ts kills a master under load and loses nothing).
    enableOfflineQueue: true,
    clusterRetryStrategy: (times) => Math.min(100 * times, 2000),
    // A failover moves slots: retry the command on the new owner rather than failing it.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 300,
    retryDelayOnTryAgain: 200,
    slotsRefreshTimeout: 2000,
    maxRedirections: 32,
  };
  return new Cluster(target.nodes, clusterOpts);
}

/**
 * BullMQ's key prefix for one queue. On a cluster every queue gets its own hash tag (`{ops:q:evaluate}`),
 * so each queue's keys sit in one slot (BullMQ's scripts touch several) while the queues spread over the
 * shards. A single Redis keeps the shared `<prefix>:bull` it always had, so upgrades keep their jobs.
 */
export function queuePrefix(target: RedisTarget, redisPrefix: string, queue: string): string {
  return target.kind === 'cluster' ? `{${redisPrefix}:q:${queue}}` : `${redisPrefix}:bull`;
}

/** What BullMQ needs to open its own connections to this target (queues, workers and their blocking clients). */
export function bullConnection(target: RedisTarget): unknown {
  if (target.kind === 'single') return { url: target.url, maxRetriesPerRequest: null, enableAutoPipelining: true };
  // BullMQ duplicates a Cluster instance it is given for every blocking connection it needs.
  return connectRedis(target, { maxRetriesPerRequest: null, lazyConnect: true });
}

/** For logs and errors: the URL, or `cluster(host:port,...)`. Never includes a password. */
export function describeRedis(target: RedisTarget): string {
  if (target.kind === 'cluster') return `cluster(${target.nodes.map((n) => `${n.host}:${n.port}`).join(',')})`;
  try {
    const u = new URL(target.url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'redis';
  }
}
