/**
 * Service nodes as separate OS processes (`src/server/main.ts`, as `npm start` runs it) for the scale
 * tests: API-only nodes (RUN_WORKERS=false) and worker-only nodes (RUN_HTTP=false) sharing one database,
 * one Redis (or Redis Cluster) and one APP_SECRET. Each resolves once the process says it is running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { childEnv, REPO_ROOT } from './cli.js';
import { freePort } from './processes.js';

export interface ServiceNode {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` ('' for a worker-only node). */
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts one node with `env` on top of the shared settings; `role` picks RUN_HTTP/RUN_WORKERS. */
export async function startServiceNode(role: 'api' | 'worker', env: Record<string, string | undefined>): Promise<ServiceNode> {
  const port = role === 'api' ? await freePort() : 0;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'src/server/main.ts')], {
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
  await new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      if (/operations (service listening|worker running)/.test(out)) return resolve();
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`${role} node exited during start-up:\n${out}`));
      if (Date.now() - started > 180_000) return reject(new Error(`${role} node did not start within 180 s:\n${out}`));
      setTimeout(check, 100);
    };
    check();
  });
  return {
    child,
    url: port ? `http://127.0.0.1:${port}` : '',
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
