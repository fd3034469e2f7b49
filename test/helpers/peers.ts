/**
 * Real monitoring peers for integration tests: Debian's `prometheus-alertmanager` and `prometheus`
 * binaries (installed by .ci/run when missing), each on its own free port on 127.0.0.1 with its own
 * temporary storage, stopped (SIGTERM, then SIGKILL) by `stop()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from './processes.js';
import { eventually } from './http.js';
import os from 'node:os';
import path from 'node:path';

export { freePort };

export interface Peer {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Waits until the peer answers `/-/ready` (the fact), failing at once if it exits first. */
async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const outcome = await eventually(
    async () => {
      if (child.exitCode !== null) return 'exited';
      const r = await fetch(url + '/-/ready').catch(() => undefined); // not listening yet
      return r?.ok ? 'ready' : undefined;
    },
    60_000,
    100,
  );
  if (outcome === 'exited') throw new Error(`${url}: exited with ${child.exitCode}:\n${output()}`);
}

async function startPeer(
  binary: string,
  args: (port: number, dir: string) => string[],
  files: Record<string, string>,
): Promise<Peer> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${path.basename(binary)}-`));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const child = spawn(binary, args(port, dir), { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  // A missing binary is a spawn 'error' event: report it as the test's failure, not an uncaught exception.
  child.once('error', (err: NodeJS.ErrnoException) => {
    out +=
      err.code === 'ENOENT'
        ? `${binary} is not installed (.ci/run installs it: apt-get install ${binary})\n`
        : `${err.message}\n`;
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(url, child, () => out);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, child, output: () => out, stop };
}

/** A real Alertmanager with `config` (YAML) and no clustering. */
export function startAlertmanager(config: string): Promise<Peer> {
  return startPeer(
    'prometheus-alertmanager',
    (port, dir) => [
      `--config.file=${path.join(dir, 'alertmanager.yml')}`,
      `--storage.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=warn',
    ],
    { 'alertmanager.yml': config },
  );
}

/** A real Prometheus with `config` (YAML) and `rules` (YAML, loaded as rules.yml next to it). */
export function startPrometheus(config: string, rules: string): Promise<Peer> {
  return startPeer(
    'prometheus',
    (port, dir) => [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { 'prometheus.yml': config, 'rules.yml': rules },
  );
}
