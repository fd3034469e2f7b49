/**
 * The GPU collector (`ops gpu collect`) as the operator runs it: the real CLI entry (in this process
 * through runCli, and once as a child process stopped with SIGTERM: the compiled CLI's runCliProcess, as
 * main.js runs it) against a real test server, on the server's clock (the collector stamps the samples). A
 * shell script named `nvidia-smi`, first on PATH in a temp dir, stands in for NVIDIA's nvidia-smi
 * (which needs a GPU): it checks it was asked the collector's query and prints the fixture CSV
 * (test/fixtures/gpu/nvidia-smi.csv, real nvidia-smi output format).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockOffsetMs, startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, rest } from './helpers/http.js';
import { childEnv, CLI_ON_CLOCK, opsInProcess as opsAnyClock, REPO_ROOT } from './helpers/cli.js';
import { nvidiaSmiArgs } from '../src/gpu/nvidia-smi.js';

const FIXTURE = path.join(REPO_ROOT, 'test/fixtures/gpu/nvidia-smi.csv');

let s: TestServer;
let t: BuiltTenant;
let binDir: string;
let emptyDir: string;
let smiPath: string;

/** Where a tool is on this machine's PATH (the fake script runs with a PATH that may not have it). */
function which(tool: string): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, tool);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`${tool} not found on PATH`);
}

/**
 * A stand-in nvidia-smi: the collector's exact arguments → the fixture CSV; anything else → exit 6 like
 * nvidia-smi's usage error. FAKE_GPU_HOST (env) makes the GPU UUIDs those of another host, so each
 * test's node has GPUs of its own; FAKE_GPU_REPEAT=N prints N times as many GPUs (a big host).
 */
function writeFakeNvidiaSmi(dir: string): string {
  const file = path.join(dir, 'nvidia-smi');
  const [query, format] = nvidiaSmiArgs();
  fs.writeFileSync(
    file,
    [
      '#!/bin/sh',
      '# Stands in for NVIDIA nvidia-smi (needs a GPU) in test/gpu-collector.test.ts: prints the fixture',
      '# of real `nvidia-smi --query-gpu=... --format=csv,noheader,nounits` output for the collector query.',
      `if [ "$1" != '${query}' ] || [ "$2" != '${format}' ]; then echo "Invalid combination of input arguments: $*" >&2; exit 6; fi`,
      'i=0',
      'while [ "$i" -lt "${FAKE_GPU_REPEAT:-1}" ]; do',
      `  ${which('sed')} "s/GPU-/GPU-\${FAKE_GPU_HOST:-}\${FAKE_GPU_REPEAT:+r$i-}/" '${FIXTURE}'`,
      '  i=$((i + 1))',
      'done',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return file;
}

beforeAll(async () => {
  // One push per second per key, so concurrent collectors meet a real 429 with Retry-After.
  s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1' } });
  t = await buildTenant(s.app.rt);
  binDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-nvidia-smi-'));
  emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'no-nvidia-smi-'));
  smiPath = writeFakeNvidiaSmi(binDir);
}, 180_000);

afterAll(async () => {
  await s?.stop();
  for (const d of [binDir, emptyDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

/** The collector stamps samples on the test server's clock (TEST_TIME_OF_DAY), as a host in sync with the hub. */
const opsInProcess = (args: string[], env: Record<string, string | undefined>) =>
  opsAnyClock(args, env, { clock: s.app.rt.clock });

const withSmi = (host = '') => ({ PATH: `${binDir}:${process.env.PATH}`, FAKE_GPU_HOST: host });

async function gpusOf(node: string): Promise<any[]> {
  const b = (await rest(s.url, t.adminToken).get(`/ai-factory/gpu/summary?node=${encodeURIComponent(node)}`)).body;
  return b.gpus;
}

describe('ops gpu collect', () => {
  it('--once runs nvidia-smi, pushes the samples with the ingest key, and they show in the summary', async () => {
    const out = await opsInProcess(
      ['gpu', 'collect', '--hub', s.url, '--key', t.ingestKey, '--once', '--node', 'gpu-host-1', '--json'],
      withSmi(),
    );
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({
      node: 'gpu-host-1',
      rounds: 1,
      samples: 3,
      posts: 1,
      gzipped: 0,
      stored: 3,
      pending: 0,
    });
    expect(out.stdout + out.stderr).not.toContain(t.ingestKey);
    const gpus = await gpusOf('gpu-host-1');
    expect(gpus).toHaveLength(3);
    const a100 = gpus.find((g) => g.uuid === 'GPU-5d3e6c1a-8f2b-4c7d-9e0a-1b2c3d4e5f60');
    expect(a100).toMatchObject({
      node: 'gpu-host-1',
      index: 0,
      model: 'NVIDIA A100-SXM4-80GB',
      source: 'nvidia-smi',
      health: 'healthy',
      latest: {
        utilization: 87,
        memory_used_mib: 40321,
        memory_total_mib: 81920,
        temperature_c: 62,
        power_w: 312.44,
        power_limit_w: 400,
        sm_clock_mhz: 1410,
        ecc_dbe: 0,
      },
    });
    expect(gpus.find((g) => g.model === 'NVIDIA GeForce RTX 3090').latest.ecc_dbe).toBeNull();
  });

  it('waits out a 429 (Retry-After) and delivers everything', async () => {
    const run = (node: string) =>
      opsInProcess(
        ['gpu', 'collect', '--hub', s.url, '--key', t.ingestKey, '--once', '--node', node, '--json'],
        withSmi(`${node}-`),
      );
    const [a, b] = await Promise.all([run('gpu-host-3'), run('gpu-host-4')]);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    const ra = JSON.parse(a.stdout);
    const rb = JSON.parse(b.stdout);
    expect(ra.rate_limited + rb.rate_limited).toBeGreaterThanOrEqual(1);
    expect([ra.stored, rb.stored]).toEqual([3, 3]);
    expect(await gpusOf('gpu-host-3')).toHaveLength(3);
    expect(await gpusOf('gpu-host-4')).toHaveLength(3);
  });

  it('gzips a body over a few KiB, which the hub accepts', async () => {
    const out = await opsInProcess(
      ['gpu', 'collect', '--hub', s.url, '--key', t.ingestKey, '--once', '--node', 'gpu-host-big', '--json'],
      { ...withSmi('big-'), FAKE_GPU_REPEAT: '20' },
    );
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ samples: 60, posts: 1, gzipped: 1, stored: 60 });
    expect(await gpusOf('gpu-host-big')).toHaveLength(60);
  });

  it('takes --nvidia-smi when it is not on PATH', async () => {
    const out = await opsInProcess(
      [
        'gpu',
        'collect',
        '--hub',
        s.url,
        '--key',
        t.ingestKey,
        '--once',
        '--node',
        'gpu-host-5',
        '--nvidia-smi',
        smiPath,
      ],
      { PATH: emptyDir, FAKE_GPU_HOST: 'h5-' },
    );
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(
      /^Collected 3 sample\(s\) in 1 round\(s\) on gpu-host-5; 3 stored by the hub in 1 POST\(s\)\./,
    );
  });

  it('says clearly, with exit code 2, that nvidia-smi is not installed', async () => {
    const out = await opsInProcess(['gpu', 'collect', '--hub', s.url, '--key', t.ingestKey, '--once'], {
      PATH: emptyDir,
    });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/nvidia-smi was not found/);
    expect(out.stderr).toMatch(/install the driver/);
    expect(out.stderr).toMatch(/--nvidia-smi <path>/);
    const wrong = await opsInProcess(
      [
        'gpu',
        'collect',
        '--hub',
        s.url,
        '--key',
        t.ingestKey,
        '--once',
        '--nvidia-smi',
        path.join(emptyDir, 'nvidia-smi'),
      ],
      { PATH: emptyDir },
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`nvidia-smi was not found (${path.join(emptyDir, 'nvidia-smi')})`);
  });

  it('stops at a refused key (exit 1) and on bad options (exit 2)', async () => {
    const bad = await opsInProcess(
      ['gpu', 'collect', '--hub', s.url, '--key', 'not-a-key', '--once', '--node', 'gpu-host-6'],
      withSmi('h6-'),
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/refused the ingest key \(HTTP 401\)/);
    expect(await gpusOf('gpu-host-6')).toEqual([]);
    const interval = await opsInProcess(
      ['gpu', 'collect', '--hub', s.url, '--key', t.ingestKey, '--interval', 'often'],
      withSmi(),
    );
    expect(interval.code).toBe(2);
    expect(interval.stderr).toMatch(/--interval must be a duration/);
    const missing = await opsInProcess(['gpu', 'collect', '--hub', s.url], withSmi());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Missing --key/);
  });

  it('as a process: collects every interval until SIGTERM, delivers the round in flight, then exits 0', async () => {
    const child = spawn(
      process.execPath,
      [
        ...CLI_ON_CLOCK,
        'gpu',
        'collect',
        '--hub',
        s.url,
        '--key',
        t.ingestKey,
        '--interval',
        '1s',
        '--node',
        'gpu-host-2',
        '--json',
      ],
      {
        cwd: REPO_ROOT,
        env: childEnv({ ...withSmi('h2-'), TEST_CLOCK_OFFSET_MS: String(clockOffsetMs(s)) }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      // Two rounds arrive at the hub (each GPU has two stored samples), then the operator stops it.
      await eventually(
        async () => {
          const gpus = await gpusOf('gpu-host-2');
          if (gpus.length !== 3) return false;
          const rows = await s.app.rt.prisma.gpuSample.count({
            where: { gpu: { node: 'gpu-host-2', tenantId: t.tenantId } },
          });
          return rows >= 6;
        },
        60_000,
        200,
      );
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, stderr).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.rounds).toBeGreaterThanOrEqual(2);
    expect(result).toMatchObject({ node: 'gpu-host-2', pending: 0 });
    expect(stderr).toMatch(/gpu collect: pushed 3 sample\(s\) of 3 GPU\(s\)/);
    expect(stderr).toMatch(/stopping after the round in flight/);
  }, 90_000);
});
