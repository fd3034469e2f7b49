import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/server.js';
import { REDIS_URL, testRedisPrefix, unlinkRedisPrefix } from './helpers/env.js';
import { untilSubscribed } from './helpers/pubsub.js';
import { childEnv, REPO_ROOT, run, SERVICE_MAIN } from './helpers/cli.js';
import { eventually, rest, subscribe } from './helpers/http.js';
import { untilOutput } from './helpers/processes.js';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

// Plain node on the compiled service (what `npm start` execs) rather than npm or the tsx binary: both wrap
// the service in a parent process, npm does not pass the exit code through a signal, and tsx SIGKILLs a
// child that does not acknowledge SIGTERM within 30 ms (which happens on a busy machine).
const SERVICE = SERVICE_MAIN;
let db: TestDatabase;
const children: ChildProcess[] = [];
/** Redis prefixes of the service starts (run-scoped, so the global teardown also finds them). */
const prefixes: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await db?.drop();
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    for (const p of prefixes) await unlinkRedisPrefix(redis, `${p}:`);
  } finally {
    redis.disconnect();
  }
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  redisPrefix: string;
  exited: Promise<number | null>;
}

/** `node --import tsx src/server/main.ts` on the test database; resolves once it logs that it is listening. */
async function startService(extraEnv: Record<string, string> = {}): Promise<Started> {
  const port = await freePort();
  const redisPrefix = `${testRedisPrefix(inject('testRunId'))}p${crypto.randomBytes(4).toString('hex')}`;
  prefixes.push(redisPrefix);
  const env = childEnv({
    DATABASE_URL: db.url,
    REDIS_URL,
    PORT: String(port),
    HOST: '127.0.0.1',
    BOOTSTRAP_DEMO: 'true',
    APP_SECRET: 'process-test-secret-'.padEnd(48, 'x'),
    REDIS_PREFIX: redisPrefix,
    LOG_LEVEL: 'info',
    ...extraEnv,
  });
  const child = spawn(process.execPath, SERVICE, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await untilOutput(child, () => out + err, 'operations service listening', 'the service');
  return { child, url: `http://127.0.0.1:${port}`, stdout: () => out, redisPrefix, exited };
}

/** The id of the tenant the first start created. */
async function demoTenantId(): Promise<string> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query<{ id: string }>('SELECT id FROM "Tenant"')).rows[0]!.id;
  } finally {
    await c.end();
  }
}

/** The demo login the first start prints (never logged as JSON). */
function demoLogin(stdout: string): { email: string; password: string } {
  const email = /^\s+email:\s+(\S+)$/m.exec(stdout)?.[1];
  const password = /^\s+password:\s+(\S+)$/m.exec(stdout)?.[1];
  if (!email || !password) throw new Error(`no demo login in output:\n${stdout}`);
  return { email, password };
}

describe('the service process', () => {
  it('prints a demo login on first start that works end to end, and exits 0 on SIGTERM', async () => {
    const svc = await startService();
    // The banner and the "listening" log line may reach this pipe in separate reads: wait for the banner.
    const { email, password } = await eventually(async () => demoLogin(svc.stdout()));
    const login = await rest(svc.url).post('/auth/login', { email, password });
    expect(login.status).toBe(200);
    const pat = await rest(svc.url, login.body.access_token).post('/auth/tokens', { name: 'newcomer' });
    expect(pat.status).toBe(201);
    expect((await rest(svc.url, pat.body.token).get('/auth/me')).body.email).toBe(email);
    expect((await rest(svc.url, pat.body.token).delete(`/auth/tokens/${pat.body.id}`)).status).toBe(204);
    expect((await rest(svc.url, pat.body.token).get('/auth/me')).status).toBe(401);
    // The password appears only in the banner, never in a JSON log line.
    const logLines = svc
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.some((l) => l.includes(password))).toBe(false);

    // A live subscription must not hold the shutdown open: the server closes it.
    const ws = createClient({
      url: svc.url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${login.body.access_token}` },
    });
    const sub = subscribe(ws, 'subscription { tokenChanged { id change } }');
    await untilSubscribed({ config: { redisPrefix: svc.redisPrefix } }, 'tokenChanged', await demoTenantId());

    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
    expect(svc.stdout()).toContain('shutting down');
    const closed = await eventually(async () => sub.error as { code?: number } | undefined);
    expect(closed.code).toBe(1001);
    await ws.dispose();
    await expect(fetch(svc.url + '/healthz')).rejects.toThrow();
  }, 60_000);

  it('does not print the demo login again once the database has a tenant', async () => {
    const svc = await startService();
    expect(svc.stdout()).not.toContain('Demo tenant created');
    expect((await fetch(svc.url + '/readyz')).status).toBe(200);
    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
  }, 180_000);

  it('exits 2 naming PORT when PORT is not a number', async () => {
    const r = await run(process.execPath, SERVICE, { DATABASE_URL: db.url, REDIS_URL, PORT: 'abc' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Configuration error: PORT must be an integer');
    expect(r.stderr).toContain('"abc"');
  }, 180_000);

  it('exits 2 naming DATABASE_URL when it is not a Postgres URL', async () => {
    const r = await run(process.execPath, SERVICE, { DATABASE_URL: 'mysql://x', REDIS_URL, PORT: '0' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('DATABASE_URL');
  }, 180_000);
});
