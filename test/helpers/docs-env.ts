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
import { Redis } from 'ioredis';
import { dumpRedisPrefix, REDIS_URL, restoreRedisKeys, unlinkRedisPrefix, type RedisKeys } from './env.js';
import { childEnv, REPO_ROOT, runShell, SERVICE_MAIN, type CliResult } from './cli.js';
import { docBlocks } from './docs.js';
import { freePort, startServiceProcess, stopEmbeddedService, type StartedProcess } from './processes.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

export type DocsReceivers = Record<'alertmanager' | 'prometheus' | 'dcgm' | 'hooks', Receiver>;

export interface DocsEnv {
  svc: StartedProcess & { dataDir: string };
  receivers: DocsReceivers;
  /** Example hosts of the documents and what stands in for each here. */
  hosts: Array<[string, string]>;
  /**
   * Runs the blocks in order in one bash shell (`set -euo pipefail`) with BASE and DATA_DIR set; on an
   * environment started from an `AfterQuickstart`, the shell first holds the variables the quickstart's shell set.
   */
  run(blocks: Array<{ name: string; code: string }>, trailer?: string): Promise<BlocksResult>;
  /** Stops everything and removes the DATA_DIR and the Redis keys (`keep`: those two stay). */
  close(opts?: { keep?: boolean }): Promise<void>;
}

/**
 * What the README's quickstart left, to start each documentation run from without running it again: the
 * service's DATA_DIR and Redis keys after it stopped (SIGTERM, as an operator stops `npm start`), its port (the
 * URLs the quickstart's shell holds name it) and the variables that shell set (`declare -p`).
 */
export interface AfterQuickstart {
  dataDir: string;
  port: number;
  redisPrefix: string;
  redisKeys: RedisKeys;
  shellState: string;
  /** Removes the saved DATA_DIR. */
  drop(): void;
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

/**
 * Starts the receivers and the service; `redisPrefix` is the service's own. With `from`, the service starts on
 * a copy of the quickstart's DATA_DIR, its Redis keys put back, on its port (`redisPrefix` must be the quickstart's).
 */
export async function startDocsEnv(name: string, redisPrefix: string, from?: AfterQuickstart): Promise<DocsEnv> {
  if (from && from.redisPrefix !== redisPrefix) throw new Error('a restart from the quickstart keeps its Redis prefix');
  const receivers = await startReceivers();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  if (from) {
    fs.cpSync(from.dataDir, dataDir, { recursive: true });
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      await unlinkRedisPrefix(redis, `${redisPrefix}:`);
      await restoreRedisKeys(redis, from.redisKeys);
    } finally {
      redis.disconnect();
    }
  }
  const binDir = fakeNvidiaSmiDir();
  const started = await startServiceProcess(process.execPath, SERVICE_MAIN, {
    DATA_DIR: dataDir,
    PORT: String(from?.port ?? (await freePort())),
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
        from?.shellState ?? '',
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
    async close(opts = {}) {
      await stopEmbeddedService(svc, redisPrefix, opts);
      for (const r of Object.values(receivers)) await r.close();
      fs.rmSync(binDir, { recursive: true, force: true });
    },
  };
}

/** Bash that prints, between `__state_start` and `__state_end`, `declare -p` of each variable set after `VARS_BEFORE`. */
const VARS_BEFORE = '__vars_before=$(compgen -v)';
const PRINT_STATE = [
  'echo; echo __state_start',
  'for __v in $(compgen -v); do',
  '  case "$__v" in __* | BASH* | FUNCNAME | PIPESTATUS | _) continue ;; esac',
  '  grep -qxF "$__v" <<<"$__vars_before" || declare -p "$__v"',
  'done',
  'echo __state_end',
].join('\n');

/**
 * Runs the README's quickstart (test/quickstart.test.ts's blocks) in a fresh docs environment, then stops the
 * service and keeps what it left (`AfterQuickstart`), for runs that each start after the quickstart. Throws,
 * naming the block and with the shell's output, when a block fails.
 */
export async function runQuickstart(name: string, redisPrefix: string): Promise<AfterQuickstart> {
  const env = await startDocsEnv(name, redisPrefix);
  let kept = false;
  try {
    const blocks = docBlocks('quickstart').map((code, i) => ({ name: `quickstart ${i + 1}`, code }));
    blocks[0] = { ...blocks[0]!, code: `${VARS_BEFORE}\n${blocks[0]!.code}` };
    const result = await env.run(blocks, PRINT_STATE);
    const state = /^__state_start\n([\s\S]*?)^__state_end$/m.exec(result.stdout);
    if (result.code !== 0 || result.passed.length !== blocks.length || !state) {
      const failed = blocks[result.passed.length];
      throw new Error(
        `the quickstart failed at "${failed?.name}":\n${failed?.code ?? ''}\n--- stdout\n${result.stdout.slice(-6000)}\n--- stderr\n${result.stderr.slice(-4000)}`,
      );
    }
    await env.close({ keep: true });
    kept = true;
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    let redisKeys: RedisKeys;
    try {
      redisKeys = await dumpRedisPrefix(redis, `${redisPrefix}:`);
    } finally {
      redis.disconnect();
    }
    const dataDir = env.svc.dataDir;
    return {
      dataDir,
      port: env.svc.port,
      redisPrefix,
      redisKeys,
      shellState: state[1]!,
      drop: () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  } finally {
    if (!kept) await env.close();
  }
}

/** Error bodies (`{"code": "...", "detail": ...}`) in what the blocks printed: no documented command answers one. */
export function errorBodies(output: string): string[] {
  return [...output.matchAll(/\{"code":"[A-Z_]+","detail":(?:"(?:[^"\\]|\\.)*"|\[[^\]]*\])/g)].map((m) => m[0]);
}
