/**
 * A worker node as a separate OS process (test/fixtures/durability-worker.mjs: the compiled service, workers
 * only, no HTTP) on a test server's database and Redis prefix, for tests that kill a worker mid-job (SIGKILL)
 * and check that nothing is lost or counted twice. Resolves once the process says it is ready.
 * `setWorkerClock` moves a running worker's clock (it reads offsets from its stdin), for a worker on an
 * installation whose other nodes are processes too (test/paging-failover.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clockOffsetMs, type TestServer } from './server.js';
import { REDIS_URL } from './env.js';
import { untilOutput } from './processes.js';

const testDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Starts the worker process; `onCleanup` receives a function that kills it if it still runs. */
export async function spawnWorker(
  s: TestServer,
  onCleanup: (kill: () => Promise<void>) => void,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  return spawnWorkerProcess(
    {
      DATABASE_URL: s.db.url,
      REDIS_URL,
      REDIS_PREFIX: s.config.redisPrefix,
      APP_SECRET: s.config.appSecret,
      DATA_DIR: s.config.dataDir,
      // The worker reads the server's clock (TEST_TIME_OF_DAY or a test's own clock).
      TEST_CLOCK_OFFSET_MS: String(clockOffsetMs(s)),
      ...env,
    },
    onCleanup,
  );
}

/** Starts the worker process with `env` (database, Redis, secret, DATA_DIR, TEST_CLOCK_OFFSET_MS, ...). */
export async function spawnWorkerProcess(
  env: Record<string, string | undefined>,
  onCleanup: (kill: () => Promise<void>) => void,
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', path.join(testDir, 'fixtures/durability-worker.mjs')],
    {
      env: { ...process.env, BOOTSTRAP_DEMO: 'false', LOG_LEVEL: 'silent', PORT: '0', ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  (child as ChildProcess & { output?: () => string }).output = () => out;
  // Waits on the fact (the process says it is ready, or exits), bounded by the test's hook timeout.
  await untilOutput(child, () => out, 'ready', 'the worker process');
  return child;
}

/** Sets a running worker's clock offset from the system clock (ms) and waits until it says it took it. */
export async function setWorkerClock(child: ChildProcess, offsetMs: number): Promise<void> {
  const output = (child as ChildProcess & { output?: () => string }).output!;
  child.stdin!.write(`clock-offset ${Math.round(offsetMs)}\n`);
  await untilOutput(child, output, `clock-offset ${Math.round(offsetMs)} set`, 'the worker clock');
}
