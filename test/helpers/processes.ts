/**
 * The service as `npm start` runs it, for tests of what only real processes show: starting on the
 * embedded database with a temporary DATA_DIR and a free port, the process tree it builds (npm → node →
 * redis-server …), and whether anything of it is left after a signal.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { childEnv, REPO_ROOT, SERVICE_MAIN } from './cli.js';
import { REDIS_URL, unlinkRedisPrefix } from './env.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface StartedProcess {
  child: ChildProcess;
  url: string;
  port: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * Resolves once stdout and stderr are closed and read to the end: every process holding the pipes (the
   * children too, which inherit them) is gone. Output checks after a stop wait for it; `exited` may come
   * before the last lines a child wrote are read.
   */
  outputClosed: Promise<void>;
}

/**
 * Resolves once `output()` matches `pattern` (checked whenever the child writes), rejects when the child
 * exits first. No deadline of its own: waiting on the fact, the test's hook or test timeout is the limit.
 */
export function untilOutput(
  child: ChildProcess,
  output: () => string,
  pattern: RegExp | string,
  what = 'the process',
): Promise<void> {
  const seen = () => (typeof pattern === 'string' ? output().includes(pattern) : pattern.test(output()));
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    // Listeners added after the output collectors run after them, so output() already holds this chunk.
    const onData = () => {
      if (seen()) {
        done();
        resolve();
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      done();
      if (seen()) resolve();
      else reject(new Error(`${what} exited (${code ?? signal}) before saying ${String(pattern)}:\n${output()}`));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', onExit);
    if (seen()) {
      done();
      resolve();
    } else if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
  });
}

/**
 * Spawns `cmd args` in the repository with `env` (on top of this process's, minus vitest's markers) and
 * resolves once the service logs that it is listening on PORT.
 */
export async function startServiceProcess(
  cmd: string,
  args: string[],
  env: Record<string, string | undefined>,
  opts: { /** In a process group of its own, like a job a terminal runs in the foreground. */ ownGroup?: boolean } = {},
): Promise<StartedProcess> {
  const port = Number(env.PORT);
  const child = spawn(cmd, args, {
    cwd: REPO_ROOT,
    env: childEnv({ HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.ownGroup ?? false,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const outputClosed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  await untilOutput(child, () => out + err, 'operations service listening', 'the service');
  return { child, url: `http://127.0.0.1:${port}`, port, stdout: () => out, stderr: () => err, exited, outputClosed };
}

/** Parent pid of `pid` from /proc, or null when it is gone. */
function parentOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces; fields after it are plain.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** Every live process below `root` (children, grandchildren, …), from /proc. */
export function descendants(root: number): number[] {
  const pids = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  const parent = new Map(pids.map((p) => [p, parentOf(p)]));
  const found: number[] = [];
  const walk = (p: number) => {
    for (const [child, pp] of parent) {
      if (pp === p && !found.includes(child)) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return found;
}

/** True while `pid` exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The command line of `pid` (for failure messages). */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '(gone)';
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * The service on the embedded database as a first `npm start` runs it: a fresh DATA_DIR (`<name>-…`
 * under the temp dir), a free port, its own Redis prefix, the demo tenant bootstrapped.
 */
export async function startEmbeddedService(
  name: string,
  redisPrefix: string,
): Promise<StartedProcess & { dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const svc = await startServiceProcess(process.execPath, SERVICE_MAIN, {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    DATABASE_URL: undefined,
    REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    BOOTSTRAP_DEMO: 'true',
  });
  return { ...svc, dataDir };
}

/**
 * Stops what `startEmbeddedService` started: SIGTERM (SIGKILL after 30 s), then anything left below it
 * (its redis-server), its DATA_DIR and its Redis keys (`keep`: the DATA_DIR and the keys stay, for a restart).
 */
export async function stopEmbeddedService(
  svc: (StartedProcess & { dataDir: string }) | undefined,
  redisPrefix: string,
  opts: { keep?: boolean } = {},
): Promise<void> {
  if (!svc) return;
  const leftovers = descendants(svc.child.pid!);
  if (svc.child.exitCode === null && svc.child.signalCode === null) {
    svc.child.kill('SIGTERM');
    const timer = setTimeout(() => svc.child.kill('SIGKILL'), 30_000);
    await svc.exited;
    clearTimeout(timer);
  }
  for (const pid of [...leftovers, ...descendants(svc.child.pid!)]) if (alive(pid)) process.kill(pid, 'SIGKILL');
  if (opts.keep) return;
  fs.rmSync(svc.dataDir, { recursive: true, force: true });
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    await unlinkRedisPrefix(redis, `${redisPrefix}:`);
  } finally {
    redis.disconnect();
  }
}
