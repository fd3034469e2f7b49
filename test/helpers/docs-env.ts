/**
 * The environment the documentation's shell blocks run in (test/readme-using-it.test.ts and the generic runner
 * test/docs-run.test.ts): a service process started the way `npm start` starts it (the compiled service,
 * embedded database under a temporary DATA_DIR, HTTP on a free port), real receivers on 127.0.0.1 standing in
 * for the example hosts the documents name (an Alertmanager, a Prometheus, a dcgm-exporter and a webhook
 * receiver answering as those systems do), the service itself standing in for a hub (`hub.example.net`,
 * `ops.example.net`), `WEBHOOK_URL_ALLOWLIST=127.0.0.1` as the documents tell an operator to set, and a
 * stand-in `nvidia-smi` first on the PATH printing real nvidia-smi output (test/fixtures/gpu/nvidia-smi.csv).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REDIS_URL } from './env.js';
import { childEnv, REPO_ROOT, runShell, SERVICE_MAIN, type CliResult } from './cli.js';
import { freePort, startServiceProcess, stopEmbeddedService, type StartedProcess } from './processes.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

export type DocsReceivers = Record<'alertmanager' | 'prometheus' | 'dcgm' | 'hooks', Receiver>;

export interface DocsEnv {
  svc: StartedProcess & { dataDir: string };
  receivers: DocsReceivers;
  /** Example hosts of the documents and what stands in for each here. */
  hosts: Array<[string, string]>;
  /** Runs the blocks in order in one bash shell (`set -euo pipefail`) with BASE and DATA_DIR set. */
  run(blocks: Array<{ name: string; code: string }>, trailer?: string): Promise<BlocksResult>;
  close(): Promise<void>;
}

export interface BlocksResult extends CliResult {
  /** Names of the blocks that ran to their end, in order. */
  passed: string[];
  /** What the blocks printed from the first block on (after any earlier markers). */
  output: string;
}

const json = (body: unknown) => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function startReceivers(): Promise<DocsReceivers> {
  const alertmanager = await startReceiver((req) =>
    req.path.includes('/api/v2/alerts') ? json([]) : { status: 200, body: 'OK' },
  );
  const prometheus = await startReceiver((req) => {
    if (req.path.includes('/api/v1/alerts')) {
      return json({
        status: 'success',
        data: {
          alerts: [
            {
              labels: { alertname: 'DiskFilling', severity: 'warning', instance: 'web-1:9100' },
              annotations: { summary: 'disk 91% full' },
              state: 'firing',
              activeAt: '2026-11-25T07:00:00Z',
              value: '91',
            },
          ],
        },
      });
    }
    if (req.path.includes('/api/v1/targets')) return json({ status: 'success', data: { activeTargets: [] } });
    return { status: 200, body: 'Prometheus Server is Healthy.' };
  });
  const dcgmText = fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/gpu/dcgm-exporter.txt'), 'utf8');
  const dcgm = await startReceiver(() => ({
    status: 200,
    headers: { 'content-type': 'text/plain; version=0.0.4' },
    body: dcgmText,
  }));
  const hooks = await startReceiver(() => ({ status: 200 }));
  return { alertmanager, prometheus, dcgm, hooks };
}

/** A directory holding an `nvidia-smi` that prints the fixture of real `nvidia-smi --query-gpu` output. */
function fakeNvidiaSmiDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-nvidia-smi-'));
  const fixture = path.join(REPO_ROOT, 'test/fixtures/gpu/nvidia-smi.csv');
  fs.writeFileSync(path.join(dir, 'nvidia-smi'), `#!/bin/sh\nexec cat '${fixture}'\n`, { mode: 0o755 });
  return dir;
}

/** Starts the receivers and the service; `redisPrefix` is the service's own. */
export async function startDocsEnv(name: string, redisPrefix: string): Promise<DocsEnv> {
  const receivers = await startReceivers();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const binDir = fakeNvidiaSmiDir();
  const started = await startServiceProcess(process.execPath, SERVICE_MAIN, {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    DATABASE_URL: undefined,
    REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    BOOTSTRAP_DEMO: 'true',
    WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
  });
  const svc = { ...started, dataDir };
  const origin = (r: Receiver) => new URL(r.url).origin;
  const hosts: Array<[string, string]> = [
    ['https://am.example.net', origin(receivers.alertmanager)],
    ['https://prom.example.net', origin(receivers.prometheus)],
    ['http://gpu-node-1:9400/metrics', `${origin(receivers.dcgm)}/metrics`],
    ['https://hooks.example.net/ops', `${origin(receivers.hooks)}/ops`],
    ['https://hub.example.net', svc.url],
    ['https://ops.example.net', svc.url],
  ];
  const env = childEnv({
    BASE: svc.url,
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    REDIS_URL: undefined,
    LOG_LEVEL: undefined,
    PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`,
  });

  return {
    svc,
    receivers,
    hosts,
    async run(blocks, trailer = '') {
      const withHosts = (code: string) => hosts.reduce((text, [from, to]) => text.replaceAll(from, to), code);
      // Many commands print JSON without a newline: each marker starts a line of its own.
      const script = [
        'set -euo pipefail',
        ...blocks.flatMap((b) => [
          `echo; echo "__block_start ${b.name}"`,
          withHosts(b.code),
          `echo; echo "__block_ok ${b.name}"`,
        ]),
        trailer,
      ].join('\n');
      const result = await runShell(script, env);
      const passed = [...result.stdout.matchAll(/^__block_ok (.+)$/gm)].map((m) => m[1]!);
      return { ...result, passed, output: result.stdout };
    },
    async close() {
      await stopEmbeddedService(svc, redisPrefix);
      for (const r of Object.values(receivers)) await r.close();
      fs.rmSync(binDir, { recursive: true, force: true });
    },
  };
}

/** Error bodies (`{"code": "...", "detail": ...}`) in what the blocks printed: no documented command answers one. */
export function errorBodies(output: string): string[] {
  return [...output.matchAll(/\{"code":"[A-Z_]+","detail":(?:"(?:[^"\\]|\\.)*"|\[[^\]]*\])/g)].map((m) => m[0]);
}
