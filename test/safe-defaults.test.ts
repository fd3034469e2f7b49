/**
 * Safe by default (issue 44, point 6): with no HOST the service listens on 127.0.0.1 only; GraphQL
 * introspection is off under NODE_ENV=production unless INTROSPECTION enables it; /metrics takes a
 * bearer token when METRICS_TOKEN is set.
 */
import net from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant } from './factories.js';
import { call, gql } from './helpers/http.js';
import { loadConfig } from '../src/config.js';

/** A non-loopback IPv4 address of this machine, if it has one. */
function externalAddress(): string | null {
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return null;
}

/** Resolves with the connect error's code, or 'connected'. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const sock = net.createConnection({ host, port });
    sock.setTimeout(5000, () => {
      sock.destroy();
      resolve('timeout');
    });
    sock.once('connect', () => {
      sock.destroy();
      resolve('connected');
    });
    sock.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}

describe('the listen address', () => {
  let s: TestServer;
  beforeAll(async () => {
    // HOST empty is HOST unset (the test helper sets 127.0.0.1 otherwise).
    s = await startTestServer({ env: { HOST: '' } });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('defaults to 127.0.0.1', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(s.config.host).toBe('127.0.0.1');
    expect(s.app.server!.server.address()).toMatchObject({ address: '127.0.0.1' });
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('is not reachable on a non-loopback address of this machine', async () => {
    const port = (s.app.server!.server.address() as net.AddressInfo).port;
    expect(await tryConnect('127.0.0.1', port)).toBe('connected');
    const external = externalAddress();
    if (external) expect(await tryConnect(external, port)).not.toBe('connected');
    else expect((s.app.server!.server.address() as net.AddressInfo).address).toBe('127.0.0.1');
  });
});

describe('introspection in production', () => {
  let prod: TestServer;
  let enabled: TestServer;
  beforeAll(async () => {
    prod = await startTestServer({ env: { NODE_ENV: 'production' } });
    enabled = await startTestServer({ env: { NODE_ENV: 'production', INTROSPECTION: 'authenticated' } });
  });
  afterAll(async () => {
    await prod?.stop();
    await enabled?.stop();
  });

  it('is off under NODE_ENV=production, even with a PAT, while queries still work', async () => {
    const t = await buildTenant(prod.app.rt);
    const r = await gql(prod.url, t.adminToken, '{ __schema { queryType { name } } }');
    expect(r.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await gql(prod.url, t.adminToken, '{ me { id } }')).data.me.id).toBe(t.admin.id);
  });

  it('is back with INTROSPECTION=authenticated (or public)', async () => {
    const t = await buildTenant(enabled.app.rt);
    const r = await gql(enabled.url, t.adminToken, '{ __schema { queryType { name } } }');
    expect(r.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { METRICS_TOKEN: 'metrics-secret-123' } });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('answers 401 without the bearer token or with a wrong one, and the metrics with it', async () => {
    const none = await call(s.url, 'GET', '/metrics');
    expect(none.status).toBe(401);
    expect(JSON.stringify(none.body)).toContain('METRICS_TOKEN');
    const wrong = await call(s.url, 'GET', '/metrics', { token: 'nope' });
    expect(wrong.status).toBe(401);
    const ok = await call(s.url, 'GET', '/metrics', { token: 'metrics-secret-123' });
    expect(ok.status).toBe(200);
    expect(String(ok.body)).toContain('http_request_duration_seconds');
  });
});
