/**
 * A real Redis Cluster on this machine for the scale tests: `masters` × `redis-server --cluster-enabled
 * yes` (plus `replicasPerMaster` replicas each) on 127.0.0.1 and free ports, joined with `redis-cli
 * --cluster create … --cluster-yes`, files in a temporary directory removed by `stop()`.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from './processes.js';
import { eventually } from './http.js';

const exec = promisify(execFile);

export interface RedisClusterHandle {
  ports: number[];
  /** The REDIS_CLUSTER_NODES value: every node. */
  nodesEnv: string;
  /** Port of the master currently serving `slot`. */
  masterOfSlot(slot: number): Promise<number>;
  /** The ports of the current masters. */
  masters(): Promise<number[]>;
  /** SIGKILLs the node on `port` (no shutdown, no save). */
  kill(port: number): Promise<void>;
  stop(): Promise<void>;
}

async function clusterNodes(port: number): Promise<Array<{ port: number; flags: string[]; slots: string[] }>> {
  const c = new Redis({
    host: '127.0.0.1',
    port,
    maxRetriesPerRequest: 1,
    lazyConnect: true,
    retryStrategy: () => null,
  });
  c.on('error', () => undefined);
  try {
    await c.connect();
    const text = (await c.call('CLUSTER', 'NODES')) as string;
    return text
      .trim()
      .split('\n')
      .map((line) => {
        const f = line.split(' ');
        return { port: Number(f[1].split('@')[0].split(':')[1]), flags: f[2].split(','), slots: f.slice(8) };
      });
  } finally {
    c.disconnect();
  }
}

/** Redis Cluster's bus listens on the node's port + 10000, so that port must exist and be free as well. */
const BUS_OFFSET = 10_000;

/** Tells whether `port` on 127.0.0.1 can be listened on now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A free port for a cluster node whose bus port (port + 10000) is free too, not one of `taken`. */
async function clusterPort(taken: readonly number[]): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = await freePort();
    if (
      port + BUS_OFFSET > 65535 ||
      taken.some((t) => t === port || t + BUS_OFFSET === port || t === port + BUS_OFFSET)
    )
      continue;
    if (await canListen(port + BUS_OFFSET)) return port;
  }
  throw new Error('no free port pair (port, port + 10000) for a Redis Cluster node');
}

export async function startRedisCluster(
  opts: { masters?: number; replicasPerMaster?: number } = {},
): Promise<RedisClusterHandle> {
  const masters = opts.masters ?? 3;
  const replicas = opts.replicasPerMaster ?? 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-redis-cluster-'));
  const ports: number[] = [];
  for (let i = 0; i < masters * (1 + replicas); i++) ports.push(await clusterPort(ports));
  const children = new Map<number, ChildProcess>();
  for (const port of ports) {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        '2000',
        // A replica takes over however long its link was down (a loaded machine can stall replication).
        '--cluster-replica-validity-factor',
        '0',
        '--appendonly',
        'yes',
        '--appendfilename',
        `appendonly-${port}.aof`,
        '--appenddirname',
        `aof-${port}`,
        '--save',
        '',
        '--maxmemory-policy',
        'noeviction',
        '--logfile',
        path.join(dir, `redis-${port}.log`),
      ],
      { stdio: 'ignore' },
    );
    children.set(port, child);
  }
  const handle: RedisClusterHandle = {
    ports,
    nodesEnv: ports.map((p) => `127.0.0.1:${p}`).join(','),
    async masterOfSlot(slot) {
      for (const port of await handle.masters()) {
        for (const n of await clusterNodes(port)) {
          if (!n.flags.includes('myself')) continue;
          for (const range of n.slots) {
            const [a, b] = range.split('-').map(Number);
            if (slot >= a && slot <= (b ?? a)) return port;
          }
        }
      }
      throw new Error(`no master serves slot ${slot}`);
    },
    async masters() {
      const alive = ports.filter((p) => children.get(p)?.exitCode === null && children.get(p)?.signalCode === null);
      const nodes = await clusterNodes(alive[0]);
      return nodes
        .filter((n) => n.flags.includes('master') && !n.flags.includes('fail') && n.slots.length)
        .map((n) => n.port);
    },
    async kill(port) {
      const child = children.get(port)!;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      await Promise.all(
        [...children.values()].map((c) => {
          if (c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
          const exited = new Promise((resolve) => c.once('exit', resolve));
          c.kill('SIGKILL');
          return exited;
        }),
      );
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    for (const port of ports)
      await eventually(async () => (await clusterNodes(port).catch(() => null)) !== null, 30_000, 100);
    await exec('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      String(replicas),
      '--cluster-yes',
    ]);
    // Ready when every node knows every other and all 16384 slots are served.
    await eventually(
      async () => {
        for (const port of ports) {
          const c = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1 });
          c.on('error', () => undefined);
          await c.connect();
          const info = (await c.call('CLUSTER', 'INFO')) as string;
          c.disconnect();
          if (!info.includes('cluster_state:ok') || !info.includes(`cluster_known_nodes:${ports.length}`)) return false;
        }
        const nodes = await clusterNodes(ports[0]);
        const replicaPorts = nodes.filter((n) => n.flags.includes('slave')).map((n) => n.port);
        if (replicaPorts.length !== masters * replicas) return false;
        // Every replica has synced with its master (a failover needs a replica with the data).
        for (const port of replicaPorts) {
          const c = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1 });
          c.on('error', () => undefined);
          await c.connect();
          const info = (await c.call('INFO', 'replication')) as string;
          c.disconnect();
          if (!info.includes('master_link_status:up')) return false;
        }
        return true;
      },
      60_000,
      200,
    );
  } catch (err) {
    await handle.stop();
    throw err;
  }
  return handle;
}
