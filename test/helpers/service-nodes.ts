/**
 * Service nodes as separate OS processes (the compiled service, as `npm start` runs it) for the scale
 * tests: API-only nodes (RUN_WORKERS=false) and worker-only nodes (RUN_HTTP=false) sharing one database,
 * one Redis (or Redis Cluster) and one APP_SECRET. Each resolves once the process says it is running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { childEnv, REPO_ROOT, SERVICE_MAIN } from './cli.js';
import { freePort, untilOutput } from './processes.js';

export interface ServiceNode {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` ('' for a worker-only node). */
  url: string;
  output(): string;
  /** SIGTERM, then SIGKILL if the process has not exited after `graceMs` (default 30 s). */
  stop(graceMs?: number): Promise<void>;
}

/** Starts one node with `env` on top of the shared settings; `role` picks RUN_HTTP/RUN_WORKERS. */
export async function startServiceNode(
  role: 'api' | 'worker',
  env: Record<string, string | undefined>,
): Promise<ServiceNode> {
  const port = role === 'api' ? await freePort() : 0;
  const child = spawn(process.execPath, SERVICE_MAIN, {
    cwd: REPO_ROOT,
    env: childEnv({
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      BOOTSTRAP_DEMO: 'false',
      RUN_HTTP: role === 'api' ? 'true' : 'false',
      RUN_WORKERS: role === 'api' ? 'false' : 'true',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out = (out + d).slice(-200_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-200_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await untilOutput(child, () => out, /operations (service listening|worker running)/, `${role} node`);
  return {
    child,
    url: port ? `http://127.0.0.1:${port}` : '',
    output: () => out,
    async stop(graceMs = 30_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
