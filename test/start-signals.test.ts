/**
 * `npm start` stops cleanly on SIGTERM and SIGINT whichever process receives it: npm itself (what a
 * supervisor or `kill <pid of npm>` hits) or the node server under it. npm forwards the signal to its
 * child; the start script `exec`s node, so that child is the server (no `sh` in between that would die
 * and orphan it). Afterwards the port is closed and nothing npm started is left: not the server, not its
 * private redis-server and watchdog, not esbuild's service. Runs on the embedded database (no
 * DATABASE_URL) with the private Redis (no REDIS_URL): the first start as a newcomer runs it (an empty
 * DATA_DIR: migrations, the demo tenant), the later ones on a copy of the DATA_DIR it left, as any later
 * `npm start` does (the signals are the subject; the first start's set-up need not be paid four times).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from './helpers/http.js';
import {
  alive,
  commandLine,
  descendants,
  freePort,
  portOpen,
  startServiceProcess,
  type StartedProcess,
} from './helpers/processes.js';

const started: StartedProcess[] = [];
const dirs: string[] = [];
/** A DATA_DIR a start left after stopping cleanly: later starts begin from a copy of it. */
let stoppedDataDir: string | undefined;

afterAll(() => {
  for (const s of started) {
    for (const pid of descendants(s.child.pid!)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  }
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function npmStart(ownGroup = false): Promise<StartedProcess & { dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-start-'));
  dirs.push(dataDir);
  if (stoppedDataDir) fs.cpSync(stoppedDataDir, dataDir, { recursive: true });
  const svc = await startServiceProcess(
    'npm',
    ['start'],
    {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      BOOTSTRAP_DEMO: 'true',
    },
    { ownGroup },
  );
  started.push(svc);
  return { ...svc, dataDir };
}

/** Sends `signal` to `target` and checks that the whole tree goes away and the port closes. */
async function stopsCleanly(svc: StartedProcess, target: number, signal: NodeJS.Signals): Promise<void> {
  // target < 0: the process group -target (what a terminal's Ctrl-C signals).
  const tree = descendants(svc.child.pid!);
  const cmds = tree.map(commandLine);
  // What npm start runs: node on the compiled service (directly: the script execs it) and the private redis-server under it.
  expect(cmds.some((c) => c.includes('scripts/start.mjs'))).toBe(true);
  expect(cmds.some((c) => c.includes('redis-server'))).toBe(true);
  expect(cmds.some((c) => /^sh -c node /.test(c))).toBe(false);
  expect(await portOpen(svc.port)).toBe(true);

  process.kill(target, signal);
  const exit = await svc.exited;
  // npm exits 0 once the server under it has; a signal sent to npm itself it may re-raise on itself after
  // that (seen under CPU load), so then death by that same signal is npm's own clean end too. The server's
  // clean stop is what its log and the process tree below show.
  const npmSignalled = target === svc.child.pid || target === -svc.child.pid!;
  const clean = exit.code === 0 || (npmSignalled && exit.code === null && exit.signal === signal);
  expect(clean, `exit ${JSON.stringify(exit)}; output:\n${svc.stdout()}`).toBe(true);
  await eventually(async () => !(await portOpen(svc.port)), 30_000);
  const left = await eventually(async () => (tree.every((pid) => !alive(pid)) ? [] : null), 30_000).catch(() =>
    tree.filter(alive).map((p) => `${p} ${commandLine(p)}`),
  );
  expect(left).toEqual([]);
  // The server logs the signal as it stops; after a group signal npm may exit before that line is written
  // or read: wait for the pipes to be read to the end (every writer is gone by now).
  await svc.outputClosed;
  expect(svc.stdout()).not.toMatch(/shutdown (failed|did not finish)/);
  expect(svc.stdout()).toContain(`"signal":"${signal}"`);
}

describe('npm start and signals', () => {
  it(
    'SIGTERM to the npm process stops the server and every child; the banner names the console, /docs and /graphql',
    { timeout: 180_000 },
    async () => {
      const svc = await npmStart();
      // The banner follows the listening line, possibly in a later read of the pipe.
      await eventually(async () => svc.stdout().includes(`Console: ${svc.url}/`), 30_000);
      expect(svc.stdout()).toContain(`${svc.url}/docs`);
      expect(svc.stdout()).toContain(`${svc.url}/graphql`);
      await stopsCleanly(svc, svc.child.pid!, 'SIGTERM');
      stoppedDataDir = svc.dataDir;
    },
  );

  it('SIGINT to the npm process stops the server and every child', { timeout: 180_000 }, async () => {
    const svc = await npmStart();
    await stopsCleanly(svc, svc.child.pid!, 'SIGINT');
  });

  it(
    'Ctrl-C in a terminal (SIGINT to npm and node at once, and forwarded by npm) stops everything with exit code 0',
    { timeout: 180_000 },
    async () => {
      const svc = await npmStart(true);
      await stopsCleanly(svc, -svc.child.pid!, 'SIGINT');
    },
  );

  it('SIGTERM to the node server under npm stops it, its children and npm', { timeout: 180_000 }, async () => {
    const svc = await npmStart();
    const node = descendants(svc.child.pid!).find((p) => commandLine(p).includes('scripts/start.mjs'))!;
    expect(node).toBeDefined();
    await stopsCleanly(svc, node, 'SIGTERM');
  });
});
