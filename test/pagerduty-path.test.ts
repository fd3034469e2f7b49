/**
 * PagerDuty's own path (`POST /v2/enqueue`, `/v2/change/enqueue`) driven by the unmodified
 * `@pagerduty/pdjs` `event()` and `change()`, which always post to `https://<server>/v2/...`: the test
 * makes a self-signed certificate for 127.0.0.1, puts a TLS port in front of the service (as a load
 * balancer would), and runs pdjs in a child process that trusts the certificate through
 * NODE_EXTRA_CA_CERTS. The trigger opens an alert whose 202 `dedup_key` acknowledges and resolves it and
 * finds it with `GET /alerts?dedup_key=`; a change event becomes a `pagerduty.changed` timeline event that
 * triage reads as a recent change; errors answer in PagerDuty's shape.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { spawn } from 'node:child_process';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, eventually, rest } from './helpers/http.js';
import { REPO_ROOT } from './helpers/cli.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let tlsServer: tls.Server;
let server: string; // `127.0.0.1:<tls port>`, what pdjs calls `server`
let routingKey: string;
let webhookToken: string;
// Inside the repository, so the child resolves @pagerduty/pdjs from its node_modules (test-results/ is not committed).
const dir = path.join(REPO_ROOT, 'test-results', `pagerduty-path-${process.pid}`);
const certFile = path.join(dir, 'ca.pem');

const CHILD = `const { event, change } = require('@pagerduty/pdjs');
const [kind, params] = [process.argv[2], JSON.parse(process.argv[3])];
(kind === 'change' ? change(params) : event(params)).then(
  (r) => console.log(JSON.stringify({ status: r.status, data: r.data })),
  (e) => { console.error(String(e && e.stack || e)); process.exit(1); },
);
`;

/** One pdjs call in a child process; `trust: false` leaves the test certificate untrusted. */
function pdjs(
  kind: 'event' | 'change',
  data: Record<string, unknown>,
  trust = true,
): Promise<{ code: number | null; out: { status: number; data: any } | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.NODE_EXTRA_CA_CERTS;
    if (trust) env.NODE_EXTRA_CA_CERTS = certFile;
    const child = spawn(process.execPath, ['child.cjs', kind, JSON.stringify({ data, server })], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stderr, out: code === 0 ? JSON.parse(stdout.trim().split('\n').at(-1)!) : null }),
    );
  });
}

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'child.cjs'), CHILD);

  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  fs.writeFileSync(certFile, pems.cert);
  const upstream = new URL(s.url);
  tlsServer = tls.createServer({ key: pems.private, cert: pems.cert }, (socket) => {
    const up = net.connect(Number(upstream.port), upstream.hostname);
    socket.pipe(up).pipe(socket);
    socket.on('error', () => up.destroy());
    up.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  server = `127.0.0.1:${(tlsServer.address() as net.AddressInfo).port}`;

  const admin = rest(s.url, t.adminToken);
  const pd = await admin.post('/integrations', { provider: 'pagerduty', name: 'pd' });
  expect(pd.status, JSON.stringify(pd.body)).toBe(201);
  routingKey = pd.body.push_token;
  const hook = await admin.post('/integrations', { provider: 'webhook', name: 'plain', config: {} });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  webhookToken = hook.body.push_token;
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (tlsServer ? tlsServer.close(() => resolve()) : resolve()));
  await s?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const alertsByKey = async (key: string, token = t.adminToken) =>
  (await rest(s.url, token).get(`/alerts?dedup_key=${encodeURIComponent(key)}`)).body.items as Array<any>;

describe('PagerDuty Events API v2 at /v2/enqueue, with the unmodified pdjs over TLS', () => {
  it('opens, acknowledges and resolves an alert by the 202 dedup_key, which GET /alerts?dedup_key= finds', async () => {
    const trigger = await pdjs('event', {
      routing_key: routingKey,
      event_action: 'trigger',
      payload: {
        summary: 'Checkout latency over 2 s',
        source: 'web-7',
        severity: 'error',
        custom_details: { service: 'checkout' },
      },
    });
    expect(trigger.code, trigger.stderr).toBe(0);
    expect(trigger.out!.status).toBe(202);
    expect(trigger.out!.data).toEqual({ status: 'success', message: 'Event processed', dedup_key: expect.any(String) });
    const key = trigger.out!.data.dedup_key as string;

    const [opened] = await eventually(async () => {
      const items = await alertsByKey(key);
      return items.length ? items : null;
    });
    expect(opened).toMatchObject({ status: 'open', severity: 'critical', summary: 'Checkout latency over 2 s' });
    expect(opened.labels).toMatchObject({ service: 'checkout', source: 'web-7' });
    // Another alert is not returned by the filter, and another tenant finds nothing by the key.
    const second = await pdjs('event', {
      routing_key: routingKey,
      event_action: 'trigger',
      dedup_key: 'disk-full-db-2',
      payload: { summary: 'Disk full', source: 'db-2', severity: 'warning' },
    });
    expect(second.out!.data.dedup_key).toBe('disk-full-db-2');
    expect((await alertsByKey(key)).map((a) => a.id)).toEqual([opened.id]);
    expect((await alertsByKey('disk-full-db-2')).map((a) => a.summary)).toEqual(['Disk full']);
    expect(await alertsByKey(key, other.adminToken)).toEqual([]);
    // The alert's own dedup_key finds it too.
    expect((await alertsByKey(opened.dedup_key)).map((a) => a.id)).toEqual([opened.id]);

    const ack = await pdjs('event', { routing_key: routingKey, event_action: 'acknowledge', dedup_key: key });
    expect(ack.out).toEqual({ status: 202, data: { status: 'success', message: 'Event processed', dedup_key: key } });
    await eventually(async () => (await alertsByKey(key))[0]?.status === 'acknowledged');

    const resolved = await pdjs('event', { routing_key: routingKey, event_action: 'resolve', dedup_key: key });
    expect(resolved.out!.status).toBe(202);
    await eventually(async () => (await alertsByKey(key))[0]?.status === 'resolved');
  });

  it('records a change event on the timeline, which triage reads as a recent change', async () => {
    const changed = await pdjs('change', {
      routing_key: routingKey,
      payload: {
        summary: 'Deployed checkout v2.4.1',
        source: 'web-8',
        timestamp: new Date().toISOString(),
        custom_details: { service: 'payments' },
      },
      links: [{ href: 'https://ci.example.test/builds/1', text: 'build' }],
    });
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.out).toEqual({ status: 202, data: { status: 'success', message: 'Change event processed' } });
    const change = await eventually(async () => {
      const events = (await rest(s.url, t.adminToken).get('/events?limit=50')).body as Array<any>;
      return events.find((e) => e.type === 'pagerduty.changed') ?? null;
    });
    expect(change).toMatchObject({ summary: 'Deployed checkout v2.4.1', source: 'pagerduty/pd' });
    expect(change.payload).not.toHaveProperty('routing_key');

    const trigger = await pdjs('event', {
      routing_key: routingKey,
      event_action: 'trigger',
      payload: {
        summary: 'Payments errors',
        source: 'web-8',
        severity: 'critical',
        custom_details: { service: 'payments' },
      },
    });
    const [alert] = await eventually(async () => {
      const items = await alertsByKey(trigger.out!.data.dedup_key);
      return items.length ? items : null;
    });
    const triage = await rest(s.url, t.adminToken).post(`/alerts/${alert.id}/triage`);
    expect(triage.status, JSON.stringify(triage.body)).toBe(201);
    const recent = (triage.body.checks as Array<any>).find((c) => c.name === 'recent_changes');
    expect(recent.evidence.map((e: any) => e.id)).toContain(change.id);
  });

  it('fails without trusting the certificate: the TLS in front of the service is real', async () => {
    const r = await pdjs(
      'event',
      { routing_key: routingKey, event_action: 'trigger', payload: { summary: 'x', source: 'y', severity: 'info' } },
      false,
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/certificate|self.signed|SELF_SIGNED/i);
  });
});

describe("PagerDuty's error shape on its paths", () => {
  const post = (p: string, body: unknown, raw?: string) =>
    call(s.url, 'POST', p, raw !== undefined ? { raw, headers: { 'content-type': 'application/json' } } : { body });

  it("answers an unknown routing key, or another provider's token, as an invalid event", async () => {
    const event = { event_action: 'trigger', payload: { summary: 's', source: 'x', severity: 'info' } };
    for (const key of ['not-a-key', webhookToken]) {
      const r = await post('/v2/enqueue', { ...event, routing_key: key });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        status: 'invalid event',
        message: 'Event object is invalid',
        errors: ['Invalid routing key'],
      });
    }
    const missing = await post('/v2/change/enqueue', { payload: { summary: 's' } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual(["'routing_key' is missing or not a string of 1 to 512 characters"]);
  });

  it('names what is wrong with an event or change it cannot take, and refuses malformed JSON', async () => {
    const bad = await post('/v2/enqueue', {
      routing_key: routingKey,
      event_action: 'trigger',
      payload: { source: 'x', severity: 'loud' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      status: 'invalid event',
      message: 'Event object is invalid',
      errors: ["'payload.summary' is missing or blank", "'payload.severity' must be critical, error, warning or info"],
    });
    const change = await post('/v2/change/enqueue', { routing_key: routingKey, payload: { timestamp: 'yesterday' } });
    expect(change.status).toBe(400);
    expect(change.body.errors).toEqual([
      "'payload.summary' is missing or blank",
      "'payload.timestamp' must be an ISO 8601 date-time",
    ]);
    const malformed = await post('/v2/enqueue', undefined, '{"routing_key": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ status: 'invalid event', message: 'Event object is invalid' });
  });
});
