/**
 * At-least-once delivery with real processes and a real receiver: a worker killed mid-send, Redis losing
 * its jobs, and the API restarted after a change was announced all end in exactly one delivered record
 * per trigger, and the receiver sees one distinct webhook-id per trigger.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type App } from '../src/server/app.js';
import { startTestServer, testConfig, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, gql } from './helpers/http.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { REDIS_URL } from './helpers/env.js';
import { REPO_ROOT } from './helpers/cli.js';
import { dispatchOutbox, writeOutbox } from '../src/outbox/outbox.js';

const WEBHOOK_ENV = {
  WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
  WEBHOOK_RETRY_BASE_MS: '1500',
  WEBHOOK_RETRY_MAX_DELAY_MS: '1500',
  WEBHOOK_RETRY_WINDOW_MS: '60000',
  WEBHOOK_TIMEOUT_MS: '20000',
  WEBHOOK_SWEEP_AFTER_MS: '1000',
  WEBHOOK_JOB_LOCK_MS: '1000',
};

let s: TestServer;
let t: BuiltTenant;
const receivers: Receiver[] = [];
const children: ChildProcess[] = [];
const apps: App[] = [];

beforeAll(async () => {
  // The API alone: every worker in these tests runs in a process the test starts and stops.
  s = await startTestServer({ env: WEBHOOK_ENV, start: { workers: false } });
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const a of apps) await a.stop();
  await Promise.all(receivers.map((r) => r.close()));
  await s?.stop();
});

/**
 * A worker-only service process (no HTTP) on the test's database and Redis prefix: the compiled service
 * (dist/, as `npm start` runs it; built by the global setup when a source is newer), run by plain node.
 */
async function spawnWorkerProcess(): Promise<ChildProcess> {
  const env = { ...process.env, ...envOf(s), LOG_LEVEL: 'silent' };
  const app = path.join(REPO_ROOT, 'dist/src/server/app.js');
  const config = path.join(REPO_ROOT, 'dist/src/config.js');
  const code = `
    import { startApp } from ${JSON.stringify(app)};
    import { loadConfig } from ${JSON.stringify(config)};
    const app = await startApp(loadConfig(process.env), { http: false, workers: true });
    process.stdout.write('READY\\n');
    process.on('SIGTERM', () => app.stop().then(() => process.exit(0)));`;
  const child = spawn(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', code], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((ok, fail) => {
    child.stdout!.on('data', (b: Buffer) => b.toString().includes('READY') && ok());
    child.on('exit', (code) => fail(new Error(`worker process exited early with ${code}`)));
  });
  return child;
}

function envOf(server: TestServer): Record<string, string> {
  return {
    ...WEBHOOK_ENV,
    DATABASE_URL: server.db.url,
    REDIS_URL,
    REDIS_PREFIX: server.config.redisPrefix,
    APP_SECRET: server.config.appSecret!,
    BOOTSTRAP_DEMO: 'false',
    DATA_DIR: server.config.dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
  };
}

/** A worker-only app in this process, sharing the test server's database and Redis prefix. */
async function startWorkerApp(): Promise<App> {
  const app = await startApp(testConfig(s.db.url, envOf(s)), { http: false, workers: true });
  apps.push(app);
  return app;
}

async function webhookFor(rcv: Receiver): Promise<string> {
  const r = await gql(
    s.url,
    t.adminToken,
    'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }',
    {
      input: { name: 'reliable', url: rcv.url, triggers: [{ on: 'ALERT_OPENED' }] },
    },
  );
  expect(r.errors).toBeUndefined();
  return r.data.createOutboundWebhook.id;
}

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

/** Writes an alert.opened announcement; `dispatch: false` simulates a crash between commit and enqueue. */
async function announce(dispatch = true): Promise<string> {
  const id = await writeOutbox(s.app.rt.prisma, {
    createdAt: s.app.rt.clock.now(),
    tenantId: t.tenantId,
    topic: 'alert.opened',
    subjectId: crypto.randomUUID(),
    body: { source: 'rules', kind: 'alert.opened', severity: 'critical', labels: {}, payload: { n: 1 } },
  });
  if (dispatch) await dispatchOutbox(s.app.rt, [id]);
  return id;
}

async function deliveriesOf(webhookId: string) {
  return s.app.rt.prisma.delivery.findMany({ where: { webhookId }, include: { attempts: true } });
}

async function allDelivered(webhookId: string, n: number) {
  return eventually(
    async () => {
      const ds = await deliveriesOf(webhookId);
      return ds.length === n && ds.every((d) => d.status === 'delivered') ? ds : null;
    },
    30_000,
    200,
  );
}

/** Deletes every Redis key of this test's prefix (jobs, schedules, limits) — never anything else. */
async function loseRedisState(): Promise<number> {
  const redis = s.app.rt.redis;
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${s.config.redisPrefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) deleted += await redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
}

describe('at-least-once outbound delivery', () => {
  it('a worker process killed mid-delivery loses the job to another; exactly one delivered record', async () => {
    let held = false;
    const rcv = await receiver(() => {
      if (!held) {
        held = true;
        return { status: 200, hold: true }; // the first request hangs until its sender dies
      }
      return { status: 200 };
    });
    const hook = await webhookFor(rcv);
    const first = await spawnWorkerProcess();
    await announce();
    await eventually(async () => rcv.requests.length >= 1, 20_000);
    first.kill('SIGKILL');
    await new Promise((ok) => first.once('exit', ok));
    const second = await spawnWorkerProcess();
    const [d] = await allDelivered(hook, 1);
    expect(rcv.requests.length).toBeGreaterThanOrEqual(2); // sent again after the kill
    expect(rcv.uniqueIds()).toEqual(new Set([d.id])); // ... under the same webhook-id
    expect(d.attempts).toHaveLength(1); // only the completed send is recorded
    expect(d.attempts[0].responseStatus).toBe(200);
    second.kill('SIGTERM');
    await new Promise((ok) => second.once('exit', ok));
  });

  it('jobs lost from Redis are re-driven by the sweeper: a delayed retry and an undispatched fan-out', async () => {
    const rcv = await receiver((_r, i) => (i === 0 ? { status: 500 } : { status: 200 }));
    const hook = await webhookFor(rcv);
    const worker = await startWorkerApp();
    await announce();
    // First attempt fails; the retry now waits as a delayed job in Redis.
    await eventually(async () => ((await deliveriesOf(hook))[0]?.status === 'retrying' ? true : null), 20_000);
    expect(await loseRedisState()).toBeGreaterThan(0);
    const [retried] = await allDelivered(hook, 1);
    expect(retried.attempts.map((a) => a.responseStatus).sort()).toEqual([200, 500]);
    await worker.stop();

    // A fan-out job lost before any worker saw it.
    await announce();
    await loseRedisState();
    await startWorkerApp();
    const both = await allDelivered(hook, 2);
    expect(rcv.uniqueIds()).toEqual(new Set(both.map((d) => d.id)));
  });

  it('the API restarted after changes were announced still delivers each exactly once', async () => {
    const rcv = await receiver();
    const hook = await webhookFor(rcv);
    for (const a of apps.splice(0)) await a.stop();
    await announce(true); // enqueued, no worker running
    await announce(false); // committed, but the process "crashed" before enqueueing
    await s.app.stop();
    const restarted = await startApp(testConfig(s.db.url, envOf(s)), {
      http: true,
      workers: true,
      validateResponses: true,
    });
    apps.push(restarted);
    const ds = await allDelivered(hook, 2);
    expect(rcv.requests).toHaveLength(2);
    expect(rcv.uniqueIds()).toEqual(new Set(ds.map((d) => d.id)));
  });
});
