/**
 * Config secrets never appear in a database dump or a log: the service runs as its own process
 * (`node --import tsx src/server/main.ts`, LOG_LEVEL=trace) so every log line it writes is captured; after
 * integrations are created, updated, probed, pulled and pushed to with secrets in their config,
 * `pg_dump` of its database and its whole output are searched for each secret. The remote system is a
 * real HTTP server in this file speaking Alertmanager's /-/healthy and /api/v2/alerts; it records the
 * Authorization headers it gets (the positive control that the secrets were in use).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/server.js';
import { ADMIN_URL, REDIS_URL } from './helpers/env.js';
import { childEnv, ops, REPO_ROOT, run, SERVICE_MAIN } from './helpers/cli.js';
import { untilOutput } from './helpers/processes.js';
import { rest } from './helpers/http.js';
import { freePort } from './helpers/peers.js';

let db: TestDatabase;
let child: ChildProcess;
let out = '';
let url: string;
let remote: http.Server;
let remoteUrl: string;
const authorizations: string[] = [];

const SECRETS = {
  bearer: 'am-bearer-' + crypto.randomBytes(12).toString('hex'),
  password: 'am-password-' + crypto.randomBytes(12).toString('hex'),
  tenantDefault: 'prom-default-' + crypto.randomBytes(12).toString('hex'),
};

beforeAll(async () => {
  remote = http.createServer((req, res) => {
    authorizations.push(String(req.headers.authorization ?? ''));
    if (req.url === '/-/healthy') return void res.writeHead(200).end('OK');
    if (req.url?.startsWith('/api/v2/alerts'))
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    if (req.url?.startsWith('/api/v1/alerts')) return void res.writeHead(500).end('boom');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => remote.listen(0, '127.0.0.1', r));
  remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
  db = await createTestDatabase();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL,
    PORT: String(port),
    HOST: '127.0.0.1',
    BOOTSTRAP_DEMO: 'false',
    APP_SECRET: 'secrets-test-secret-'.padEnd(48, 'x'),
    REDIS_PREFIX: `ts${crypto.randomBytes(4).toString('hex')}`,
    LOG_LEVEL: 'trace',
    WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
    INTEGRATION_HEALTH_INTERVAL_MS: '500',
  };
  child = spawn(process.execPath, SERVICE_MAIN, {
    cwd: REPO_ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await untilOutput(child, () => out, 'operations service listening', 'the service');
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  await db?.drop();
  await new Promise((r) => remote.close(r));
});

describe('integration config secrets', () => {
  it('never appear in a database dump or in the service log', async () => {
    const created = await ops(
      [
        'tenant',
        'create',
        '--name',
        'secrets',
        '--admin-email',
        'admin@secrets.test',
        '--admin-password',
        'admin-pass-123',
        '--json',
      ],
      { DATABASE_URL: db.url, REDIS_URL },
    );
    expect(created.code).toBe(0);
    const login = await rest(url).post('/auth/login', { email: 'admin@secrets.test', password: 'admin-pass-123' });
    const a = rest(url, login.body.access_token);

    const am = await a.post('/integrations', {
      provider: 'alertmanager',
      name: 'am',
      config: { url: remoteUrl, bearer_token: SECRETS.bearer },
      freshness_seconds: 60,
    });
    expect(am.status).toBe(201);
    expect(am.body.config).toEqual({ url: remoteUrl, bearer_token: '********' });
    const pushToken: string = am.body.push_token;
    const basic = await a.post('/integrations', {
      provider: 'alertmanager',
      name: 'am-basic',
      config: { url: remoteUrl, username: 'ops', password: SECRETS.password },
    });
    expect(basic.body.config).toEqual({ url: remoteUrl, username: 'ops', password: '********' });
    expect(
      (await a.patch(`/integrations/${am.body.id}`, { config: { url: remoteUrl, bearer_token: '********' } })).body
        .config.bearer_token,
    ).toBe('********');
    expect(
      (
        await a.put('/integrations/config/prometheus', {
          config: { url: remoteUrl, bearer_token: SECRETS.tenantDefault },
        })
      ).body.config.bearer_token,
    ).toBe('********');
    expect((await a.get('/integrations/config/prometheus')).body.config.bearer_token).toBe('********');
    expect((await a.post('/integrations', { provider: 'prometheus', name: 'prom' })).status).toBe(201);
    // A rejected config that carries the secret in a wrong-typed field.
    expect((await a.put('/integrations/config/alertmanager', { config: { url: SECRETS.bearer } })).status).toBe(422);
    expect(
      (
        await a.post('/integrations?dry_run=true', {
          provider: 'alertmanager',
          name: 'dry',
          config: { url: remoteUrl, bearer_token: SECRETS.bearer },
        })
      ).status,
    ).toBe(200);

    // Probes, pulls (one failing with a logged error) and pushes, all with the secrets in use.
    expect((await a.get(`/integrations/${am.body.id}/health?refresh=true`)).body.checks.reachable.ok).toBe(true);
    expect((await a.post('/integrations/alertmanager/ingest')).status).toBe(200);
    expect((await a.post('/integrations/prometheus/ingest')).body.integrations[0].error).toMatch(/HTTP 500/);
    const push = await rest(url).post(
      `/integrations/${am.body.id}/push`,
      { version: '4', status: 'firing', alerts: [{ status: 'firing', labels: { alertname: 'X' } }] },
      { token: pushToken },
    );
    expect(push.status).toBe(200);
    expect(
      (await rest(url).post(`/integrations/${am.body.id}/push`, { version: '3' }, { token: pushToken })).status,
    ).toBe(422);
    const invite = await a.post('/clusters/invite', {});
    expect(invite.status).toBe(201);

    // Positive controls: the secrets were sent where they belong, and the log has request lines.
    expect(authorizations).toContain(`Bearer ${SECRETS.bearer}`);
    expect(authorizations).toContain('Basic ' + Buffer.from(`ops:${SECRETS.password}`).toString('base64'));
    expect(authorizations).toContain(`Bearer ${SECRETS.tenantDefault}`);
    expect(out).toContain('/api/v1/integrations/config/prometheus');
    expect(out).toContain(`/api/v1/integrations/${am.body.id}/push`);

    const dump = await run('pg_dump', ['--data-only', '--no-owner', new URL(db.url).pathname.slice(1)], {
      PGHOST: new URL(ADMIN_URL).hostname,
      PGPORT: new URL(ADMIN_URL).port || '5432',
      PGUSER: 'postgres',
    });
    expect(dump.code).toBe(0);
    expect(dump.stdout).toContain(am.body.id);
    expect(dump.stdout).toContain(remoteUrl);
    const everything = { ...SECRETS, pushToken, invite: invite.body.token };
    for (const [name, value] of Object.entries(everything)) {
      expect(dump.stdout.includes(value), `${name} in the database dump`).toBe(false);
      expect(out.includes(value), `${name} in the service log`).toBe(false);
    }
  });
});
