/**
 * Time to ready on a restart: the service on an existing embedded database (DATA_DIR made by a first
 * start), started as `npm start` runs it (compiled dist/, scripts/start.mjs) and as `npm run dev` runs it
 * (TypeScript through tsx), alternately, BENCH_START_RUNS times each (default 3). Ready = the "listening"
 * log line. Prints the medians, their ratio (same run) and the compiled median against the 3 s goal.
 *
 *   npm run bench:start
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_START_RUNS ?? 3);
const GOAL_MS = 3000;
const MODES = {
  compiled: ['--enable-source-maps', 'scripts/start.mjs'],
  tsx: ['--import', 'tsx', 'src/server/main.ts'],
} as const;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts the service, resolves with the ms until it logs that it listens, then stops it and waits for its exit. */
async function timeToReady(args: readonly string[], dataDir: string): Promise<number> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    BOOTSTRAP_DEMO: 'true',
    LOG_LEVEL: 'info',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const started = performance.now();
  const child = spawn(process.execPath, [...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('operations service listening')) resolve(performance.now() - started);
    });
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) =>
      reject(new Error(`the service exited (${code}) before it was ready:\n${out.slice(-2000)}`)),
    );
  });
  child.kill('SIGTERM');
  await exited;
  return ready;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
try {
  const first = await timeToReady(MODES.compiled, dataDir); // creates and migrates the database, builds dist/ if stale
  console.log(`first start (empty database, migrations): ${(first / 1000).toFixed(2)} s`);
  const times: Record<keyof typeof MODES, number[]> = { compiled: [], tsx: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const mode of Object.keys(MODES) as (keyof typeof MODES)[])
      times[mode].push(await timeToReady(MODES[mode], dataDir));
  }
  const compiled = median(times.compiled);
  const tsx = median(times.tsx);
  for (const mode of Object.keys(MODES) as (keyof typeof MODES)[])
    console.log(
      `restart, ${mode.padEnd(8)}: median ${(median(times[mode]) / 1000).toFixed(2)} s  (${times[mode].map((t) => (t / 1000).toFixed(2)).join(', ')})`,
    );
  console.log(`compiled vs tsx (same run): ${(compiled / tsx).toFixed(2)}× the time`);
  console.log(
    `goal: ready ≤ ${GOAL_MS / 1000} s on restart → ${(compiled / 1000).toFixed(2)} s, ${(GOAL_MS / compiled).toFixed(2)} of the goal's budget left ${compiled <= GOAL_MS ? '(met)' : '(NOT met)'}`,
  );
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
