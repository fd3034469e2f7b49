/**
 * Issue 40, item 11: credentials in URLs never reach the access log, and the session cookie gets no data
 * across origins. The service runs as its own process (`node --import tsx src/server/main.ts`, JSON logs
 * at info) so the test reads exactly what it logs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/server.js';
import { REDIS_URL } from './helpers/env.js';
import { childEnv, ops, REPO_ROOT, SERVICE_MAIN } from './helpers/cli.js';
import { untilOutput } from './helpers/processes.js';
import { call, eventually, rest } from './helpers/http.js';
import { freePort } from './helpers/peers.js';
import { redactUrl } from '../src/http/redact-url.js';

let db: TestDatabase;
let child: ChildProcess;
let out = '';
let url: string;
let token: string;
let cookie: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, SERVICE_MAIN, {
    cwd: REPO_ROOT,
    env: childEnv({
      DATABASE_URL: db.url,
      REDIS_URL,
      PORT: String(port),
      HOST: '127.0.0.1',
      BOOTSTRAP_DEMO: 'false',
      APP_SECRET: 'access-log-test-secret-'.padEnd(48, 'x'),
      REDIS_PREFIX: `tl${crypto.randomBytes(4).toString('hex')}`,
      LOG_LEVEL: 'info',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await untilOutput(child, () => out, 'operations service listening', 'the service');
  const created = await ops(
    ['tenant', 'create', '--name', 'logs', '--admin-email', 'admin@logs.test', '--admin-password', 'admin-pass-123'],
    { DATABASE_URL: db.url, REDIS_URL },
  );
  expect(created.code).toBe(0);
  const login = await rest(url).post('/auth/login', { email: 'admin@logs.test', password: 'admin-pass-123' });
  token = login.body.access_token;
  cookie = login.headers.get('set-cookie')!.split(';')[0]!;
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  await db?.drop();
});

describe('the access log', () => {
  it('redacts tokens in query strings, calendar feed paths and action links', async () => {
    const secrets = Array.from({ length: 6 }, (_, i) => `s${i}-${crypto.randomBytes(8).toString('hex')}`);
    const paths = [
      `/api/v1/alerts?token=${secrets[0]}&severity=critical&access_token=${secrets[1]}`,
      `/api/v1/events?KEY=${secrets[2]}&limit=5`,
      `/api/v1/calendar-feeds/${secrets[3]}.ics`,
      `/actions/${secrets[4]}`,
      `/graphql?query=%7B__typename%7D&access_token=${secrets[5]}`,
    ];
    for (const p of paths) await call(url, 'GET', p, { token });
    await eventually(
      async () => out.includes('/api/v1/calendar-feeds/[redacted].ics') && out.includes('/actions/'),
      20_000,
    );
    await eventually(async () => out.includes('/graphql?query='), 20_000);
    for (const secret of secrets) expect(out).not.toContain(secret);
    expect(out).toContain('/api/v1/alerts?token=[redacted]&severity=critical&access_token=[redacted]');
    expect(out).toContain('/api/v1/events?KEY=[redacted]&limit=5');
  });

  it('redactUrl leaves URLs without credentials as they are', () => {
    expect(redactUrl('/api/v1/alerts?severity=critical&limit=5')).toBe('/api/v1/alerts?severity=critical&limit=5');
    expect(redactUrl('/api/v1/calendar-feeds')).toBe('/api/v1/calendar-feeds');
    expect(redactUrl('/api/v1/x?%74oken=abc')).toBe('/api/v1/x?%74oken=[redacted]');
  });
});

describe('GraphQL over GET with the session cookie', () => {
  const query = `${'/graphql'}?query=${encodeURIComponent('{ me { email } }')}`;

  it('answers no data and echoes no origin to a foreign or null Origin', async () => {
    for (const origin of ['https://evil.example', 'null']) {
      const r = await call(url, 'GET', query, { headers: { cookie, origin, accept: 'application/json' } });
      expect(r.status, origin).toBe(403);
      expect(JSON.stringify(r.body)).not.toContain('admin@logs.test');
      expect(r.body.errors[0].extensions.code).toBe('FORBIDDEN');
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
      expect(r.headers.get('access-control-allow-credentials')).toBeNull();
    }
    const site = await call(url, 'GET', query, {
      headers: { cookie, 'sec-fetch-site': 'cross-site', accept: 'application/json' },
    });
    expect(site.status).toBe(403);
  });

  it("still answers the service's own pages, and Bearer callers from anywhere", async () => {
    const own = await call(url, 'GET', query, { headers: { cookie, origin: url, accept: 'application/json' } });
    expect(own.status).toBe(200);
    expect(own.body.data.me.email).toBe('admin@logs.test');
    const bearer = await call(url, 'GET', query, {
      token,
      headers: { origin: 'https://elsewhere.example', accept: 'application/json' },
    });
    expect(bearer.status).toBe(200);
    expect(bearer.headers.get('access-control-allow-credentials')).toBeNull();
  });
});
