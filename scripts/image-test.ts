/**
 * `npm run image:test`: builds the service's image (Containerfile) and tests it here, where no registry
 * can be pulled from and `podman run` is refused (setrlimit):
 *   1. a local base: `debootstrap --variant=minbase bookworm` plus this machine's Node runtime (node, the
 *      libraries `ldd` lists, npm, the CA bundle), `podman import`ed; kept between runs (`podman image exists`);
 *   2. `podman build --isolation=chroot --build-arg BASE=<that base>`;
 *   3. the image's entrypoint under `buildah run --isolation chroot` (host network) against this machine's
 *      Postgres (a fresh database) and Redis (a fresh key prefix): /readyz, the CLI in the image creating a
 *      tenant, one event → alert → signed delivery to a receiver on 127.0.0.1, and a clean SIGTERM;
 *   4. the image's size on top of its base (goal: under 300 MB).
 * Without Podman, Buildah and debootstrap (and no way to install them) it prints "skipped: <why>" and exits 0.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const ROOT = path.resolve(import.meta.dirname, '..');
const IMAGE = 'localhost/ops-service:image-test';
const BASE = `localhost/ops-image-test-base:bookworm-node${process.versions.node}`;
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const GOAL_MB = 300;
const started = Date.now();

function log(msg: string): void {
  console.log(`[image:test ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${msg}`);
}

function skip(why: string): never {
  console.log(`image:test skipped: ${why}`);
  process.exit(0);
}

function has(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** Runs a command to completion; its output goes to the terminal unless captured. Throws on a non-zero exit. */
function run(cmd: string, args: string[], opts: { capture?: boolean; input?: Buffer } = {}): string {
  const r = spawnSync(cmd, args, {
    cwd: ROOT,
    input: opts.input,
    stdio: [opts.input ? 'pipe' : 'ignore', opts.capture ? 'pipe' : 'inherit', opts.capture ? 'pipe' : 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    const err = opts.capture ? `: ${r.stderr?.toString().trim().slice(-2000)}` : '';
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}${err}`);
  }
  return opts.capture ? r.stdout.toString() : '';
}

function ensureTools(): void {
  const missing = ['podman', 'buildah', 'debootstrap'].filter((t) => !has(t));
  if (!missing.length) return;
  if (process.getuid?.() !== 0) skip(`${missing.join(', ')} missing and not root to apt-get install them`);
  if (!has('apt-get')) skip(`${missing.join(', ')} missing and no apt-get to install them`);
  log(`installing podman buildah debootstrap (missing: ${missing.join(', ')})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install =
    update.status === 0 &&
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'podman', 'buildah', 'debootstrap'], {
      stdio: 'inherit',
      env,
    }).status === 0;
  if (!install) skip('apt-get could not install podman, buildah and debootstrap');
  const still = ['podman', 'buildah', 'debootstrap'].filter((t) => !has(t));
  if (still.length) skip(`${still.join(', ')} still missing after apt-get install`);
}

/** The Debian mirror apt uses here (debootstrap's default otherwise). */
function debianMirror(): string {
  for (const f of ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']) {
    const text = fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '';
    const m = /^URIs:\s*(\S+\/debian)\s*$/m.exec(text) ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\s+/m.exec(text);
    if (m) return m[1];
  }
  return 'http://deb.debian.org/debian';
}

/** Copies a file into the root file system at the same path (parents created, symlinks resolved). */
function copyIn(rootfs: string, file: string, dest = file): void {
  const target = path.join(rootfs, dest);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(fs.realpathSync(file), target);
}

/** debootstrap minbase + this machine's node, its libraries, npm and CA bundle, imported as BASE. */
function buildBase(): void {
  if (spawnSync('podman', ['image', 'exists', BASE]).status === 0) {
    log(`base ${BASE} exists (kept from an earlier run)`);
    return;
  }
  const rootfs = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-image-base-'));
  try {
    log(`debootstrap --variant=minbase bookworm ${rootfs} (about a minute)`);
    run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, debianMirror()], { capture: true });
    const node = fs.realpathSync(run('sh', ['-c', 'command -v node'], { capture: true }).trim());
    copyIn(rootfs, node, '/usr/local/bin/node');
    for (const line of run('ldd', [node], { capture: true }).split('\n')) {
      const lib = /=>\s*(\/\S+)/.exec(line)?.[1] ?? /^\s*(\/\S+)\s/.exec(line)?.[1];
      if (lib && !fs.existsSync(path.join(rootfs, lib))) copyIn(rootfs, lib);
    }
    // npm (the build stage runs npm ci) from beside this machine's node.
    const npmCli = fs.realpathSync(run('sh', ['-c', 'command -v npm'], { capture: true }).trim());
    const npmDir = path.resolve(path.dirname(npmCli), '..');
    fs.cpSync(npmDir, path.join(rootfs, 'usr/local/lib/node_modules/npm'), { recursive: true });
    fs.symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(rootfs, 'usr/local/bin/npm'));
    fs.symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(rootfs, 'usr/local/bin/npx'));
    // This machine's CA bundle: npm ci in the build reaches the registry the way this machine does.
    const caBundle = '/etc/ssl/certs/ca-certificates.crt';
    const hasCa = fs.existsSync(caBundle);
    if (hasCa) copyIn(rootfs, caBundle);
    fs.rmSync(path.join(rootfs, 'var/cache/apt/archives'), { recursive: true, force: true });
    log(`podman import → ${BASE}`);
    const tar = spawnSync('tar', ['-C', rootfs, '-c', '.'], { maxBuffer: 2 * 1024 * 1024 * 1024 });
    if (tar.status !== 0) throw new Error(`tar exited with ${tar.status}`);
    const changes = ['ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin', 'CMD ["node"]'];
    if (hasCa) changes.push(`ENV NODE_EXTRA_CA_CERTS=${caBundle}`);
    run('podman', ['import', ...changes.flatMap((c) => ['--change', c]), '-', BASE], {
      input: tar.stdout,
      capture: true,
    });
  } finally {
    fs.rmSync(rootfs, { recursive: true, force: true });
  }
}

function imageSize(ref: string): number {
  return Number(run('podman', ['image', 'inspect', '--format', '{{.Size}}', ref], { capture: true }).trim());
}

async function freePort(): Promise<number> {
  const srv = http.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/** Polls until `check` returns a value (not undefined), or fails after `seconds`. */
async function until<T>(what: string, seconds: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${seconds} s waiting for ${what}`);
    await sleep(250);
  }
}

async function api(base: string, method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** The entrypoint in the image under `buildah run` (host network), with `env`; returns the running child. */
function buildahRun(ctr: string, env: Record<string, string>, args: string[]): ChildProcess {
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
  return spawn('buildah', ['run', '--isolation', 'chroot', '--network', 'host', ...envArgs, ctr, '--', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs the image's CLI (`entrypoint.sh ops ...`) to completion; its stdout. */
async function opsCli(ctr: string, env: Record<string, string>, args: string[]): Promise<string> {
  const child = buildahRun(ctr, env, ['/app/container/entrypoint.sh', 'ops', ...args]);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`ops ${args.join(' ')} exited with ${code}: ${err.trim().slice(-2000)}`);
  return out;
}

/** The `node` process the entrypoint exec'd: chroot isolation shares the PID namespace, so it is ours to signal. */
function serviceNodePid(buildahPid: number): number | undefined {
  const children = (pid: number): number[] =>
    spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)])
      .stdout.toString()
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
  const queue = [buildahPid];
  while (queue.length) {
    const pid = queue.shift()!;
    const comm = spawnSync('ps', ['-o', 'comm=', '-p', String(pid)])
      .stdout.toString()
      .trim();
    if (comm === 'node' && pid !== buildahPid) return pid;
    queue.push(...children(pid));
  }
  return undefined;
}

async function exercise(): Promise<void> {
  const tag = `image_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${tag}`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${tag}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL,
    REDIS_PREFIX: tag,
    APP_SECRET: randomBytes(32).toString('hex'),
    HOST: '127.0.0.1',
    PORT: String(port),
    WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  // The receiver of the outbound webhook, on loopback.
  const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const ctr = run('buildah', ['from', '--pull=never', IMAGE], { capture: true }).trim();
  let service: ChildProcess | undefined;
  let serviceLog = '';
  try {
    log(`starting the image's entrypoint (OPS_ROLE=all) on ${base}, database ${tag}`);
    service = buildahRun(ctr, env, ['/app/container/entrypoint.sh']);
    service.stdout!.on('data', (c: Buffer) => (serviceLog += c.toString()));
    service.stderr!.on('data', (c: Buffer) => (serviceLog += c.toString()));
    const exited = new Promise<number | null>((r) => service!.on('exit', r));
    const ready = await until('/readyz', 180, async () => {
      const res = await fetch(`${base}/readyz`);
      return res.ok ? ((await res.json()) as { status: string }) : undefined;
    });
    log(`/readyz: ${JSON.stringify(ready)}`);
    const created = JSON.parse(
      await opsCli(ctr, env, [
        'tenant',
        'create',
        '--name',
        'image-test',
        '--admin-email',
        'admin@image-test.local',
        '--admin-password',
        'image-test-password-1',
        '--json',
      ]),
    ) as { ingest_key: string };
    log('tenant created with the CLI in the image');
    const login = await api(base, 'POST', '/api/v1/auth/login', {
      email: 'admin@image-test.local',
      password: 'image-test-password-1',
    });
    const auth = { authorization: `Bearer ${String(login.access_token)}` };
    await api(
      base,
      'POST',
      '/api/v1/alert-rules',
      { name: 'Disk full', type_glob: 'node.disk_*', alert_severity: 'critical' },
      auth,
    );
    await api(
      base,
      'POST',
      '/api/v1/outbound-webhooks',
      { name: 'receiver', url: receiverUrl, triggers: [{ on: 'alert.opened' }] },
      auth,
    );
    await api(
      base,
      'POST',
      '/api/v1/events',
      { type: 'node.disk_full', module: 'infra', source: 'image-test', summary: 'disk full', severity: 'critical' },
      { 'x-service-key': created.ingest_key },
    );
    const delivery = await until('the alert.opened delivery at the receiver', 60, () =>
      Promise.resolve(received.find((r) => r.body.includes('alert.opened'))),
    );
    if (!delivery.headers['webhook-signature']) throw new Error('the delivery carries no webhook-signature header');
    log(`event → alert → delivery: the receiver got alert.opened (${delivery.body.length} bytes, signed)`);
    const nodePid = serviceNodePid(service.pid!);
    if (!nodePid) throw new Error('no node process found under buildah run');
    process.kill(nodePid, 'SIGTERM');
    const code = await Promise.race([exited, sleep(40_000).then(() => 'timeout' as const)]);
    if (code !== 0) throw new Error(`after SIGTERM the service exited with ${code}`);
    if (!/shutting down/.test(serviceLog) && env.LOG_LEVEL !== 'warn') throw new Error('no shutdown logged');
    log('SIGTERM: the service drained and exited with 0');
  } catch (err) {
    console.error(`--- service output ---\n${serviceLog.slice(-6000)}\n---`);
    throw err;
  } finally {
    if (service && service.exitCode === null) service.kill('SIGKILL');
    spawnSync('buildah', ['rm', ctr], { stdio: 'ignore' });
    receiver.close();
    await admin.query(`DROP DATABASE IF EXISTS ${tag} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    await clearRedisPrefix(tag);
  }
}

async function clearRedisPrefix(prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  ensureTools();
  const phase = Date.now();
  buildBase();
  const baseSeconds = (Date.now() - phase) / 1000;
  const buildStart = Date.now();
  log(`podman build --isolation=chroot --build-arg BASE=${BASE} -t ${IMAGE}`);
  run('podman', [
    'build',
    '--isolation=chroot',
    '--network=host',
    '--pull=never',
    '--build-arg',
    `BASE=${BASE}`,
    '-f',
    'Containerfile',
    '-t',
    IMAGE,
    '.',
  ]);
  const mb = (n: number) => n / 1024 / 1024;
  const onTop = mb(imageSize(IMAGE) - imageSize(BASE));
  log(
    `image ${IMAGE}: ${mb(imageSize(IMAGE)).toFixed(0)} MB, ${onTop.toFixed(0)} MB on top of its base (goal < ${GOAL_MB} MB)`,
  );
  const buildSeconds = (Date.now() - buildStart) / 1000;
  const runStart = Date.now();
  await exercise();
  const runSeconds = (Date.now() - runStart) / 1000;
  log(
    `passed in ${((Date.now() - started) / 1000).toFixed(0)} s (base ${baseSeconds.toFixed(0)} s, build ${buildSeconds.toFixed(0)} s, ` +
      `run ${runSeconds.toFixed(0)} s); image ${mb(imageSize(IMAGE)).toFixed(0)} MB, ${onTop.toFixed(0)} MB on top of the base`,
  );
  if (onTop > GOAL_MB) console.log(`note: the image is over its ${GOAL_MB} MB goal`);
}

main().catch((err: unknown) => {
  console.error(`image:test failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
