/**
 * Alertmanager API v2 at /api/v1/alertmanager/api/v2/ against the real peers: Debian's Prometheus
 * sends a firing rule's alert here (ingest key as Bearer) and its resolution when the rule stops;
 * Debian's amtool adds, queries and expires silences with a PAT from `--http.config.file`, and a
 * silenced alert is recorded, marked, and pages no one (no outbound message).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, eventually, rest } from './helpers/http.js';
import { startPrometheus, type Peer } from './helpers/peers.js';

const run = promisify(execFile);
let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let dir: string;
let amBase: string;

/** The switch Prometheus scrapes: the rule fires while it reads 1. */
let switchValue = 1;
let target: http.Server;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  amBase = `${s.url}/api/v1/alertmanager`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amtool-'));
  fs.writeFileSync(path.join(dir, 'http.yml'), `authorization:\n  credentials: ${t.adminToken}\n`);
  target = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/plain; version=0.0.4');
    res.end(`# TYPE routing_test_switch gauge\nrouting_test_switch ${switchValue}\n`);
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await new Promise((r) => target?.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
  await s?.stop();
});

async function amtool(...args: string[]): Promise<string> {
  const { stdout } = await run('amtool', [
    `--alertmanager.url=${amBase}`,
    `--http.config.file=${path.join(dir, 'http.yml')}`,
    ...args,
  ]);
  return stdout;
}

const live = (dedupKeyPrefix = 'alertmanager:') =>
  s.app.rt.prisma.alert.findMany({ where: { tenantId: t.tenantId, dedupKey: { startsWith: dedupKeyPrefix } } });

describe('Alertmanager API v2 with a real Prometheus', () => {
  let prom: Peer;
  afterAll(async () => prom?.stop());

  it('opens an alert for a firing rule and resolves it when the rule stops firing', async () => {
    const ours = new URL(s.url).host;
    const targetPort = (target.address() as { port: number }).port;
    const config = [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      "rule_files: ['rules.yml']",
      'alerting:',
      '  alertmanagers:',
      '    - path_prefix: /api/v1/alertmanager',
      '      authorization:',
      `        credentials: ${t.ingestKey}`,
      `      static_configs: [{ targets: ['${ours}'] }]`,
      'scrape_configs:',
      '  - job_name: switch',
      `    static_configs: [{ targets: ['127.0.0.1:${targetPort}'] }]`,
      '',
    ].join('\n');
    const rules = [
      'groups:',
      '  - name: routing',
      '    rules:',
      '      - alert: SwitchOn',
      '        expr: routing_test_switch == 1',
      '        labels: { severity: critical, team: storage }',
      "        annotations: { summary: 'the switch is on' }",
      '',
    ].join('\n');
    prom = await startPrometheus(config, rules);
    const opened = await eventually(async () => {
      const rows = await live();
      return rows.find((a) => (a.labels as Record<string, string>).alertname === 'SwitchOn');
    });
    expect(opened.status).toBe('open');
    expect(opened.severity).toBe('critical');
    expect(opened.summary).toContain('the switch is on');
    expect(opened.source).toBe('alertmanager-api');
    expect(opened.labels).toMatchObject({ alertname: 'SwitchOn', team: 'storage', job: 'switch' });
    expect(opened.suppressed).toBe(false);
    // Its opening was announced for outbound delivery (an unsilenced alert pages).
    expect(await s.app.rt.prisma.outboxMessage.count({ where: { subjectId: opened.id } })).toBeGreaterThan(0);
    // amtool lists it.
    const listed = JSON.parse(await amtool('alert', 'query', '-o', 'json')) as Array<{
      labels: Record<string, string>;
    }>;
    expect(listed.map((a) => a.labels.alertname)).toContain('SwitchOn');

    switchValue = 0;
    const resolved = await eventually(async () => {
      const a = await s.app.rt.prisma.alert.findUnique({ where: { id: opened.id } });
      return a?.status === 'resolved' ? a : undefined;
    });
    expect(resolved.resolvedAt).not.toBeNull();
    const events = await call(s.url, 'GET', `/api/v1/alerts/${opened.id}`, { token: t.adminToken });
    expect(events.status).toBe(200);
  });
});

describe('amtool silences against this service', () => {
  it('adds, queries and expires a silence; a silenced alert is recorded, marked, and pages no one', async () => {
    const id = (await amtool('silence', 'add', 'alertname=Foo', '--comment=deploy window', '--duration=2h')).trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const queried = JSON.parse(await amtool('silence', 'query', '-o', 'json')) as Array<Record<string, any>>;
    expect(queried).toHaveLength(1);
    expect(queried[0]).toMatchObject({
      id,
      status: { state: 'active' },
      comment: 'deploy window',
      matchers: [{ name: 'alertname', value: 'Foo', isRegex: false, isEqual: true }],
    });
    expect(await amtool('silence', 'query', '-q', 'alertname=Foo')).toContain(id);
    expect(await amtool('silence', 'query', '-q', 'alertname=Bar')).not.toContain(id);
    // Our own API shows the same silence.
    const mine = await rest(s.url, t.adminToken).get(`/silences/${id}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ state: 'active', matchers: [{ name: 'alertname', type: '=', value: 'Foo' }] });

    const post = (alertname: string) =>
      call(amBase, 'POST', '/api/v2/alerts', {
        token: t.ingestKey,
        body: [{ labels: { alertname, instance: 'db-1' }, annotations: { summary: `${alertname} fired` } }],
      });
    expect((await post('Foo')).status).toBe(200);
    expect((await post('Baz')).status).toBe(200);
    const [foo, baz] = await eventually(async () => {
      const rows = await live();
      const f = rows.find((a) => (a.labels as Record<string, string>).alertname === 'Foo');
      const b = rows.find((a) => (a.labels as Record<string, string>).alertname === 'Baz');
      return f && b ? [f, b] : undefined;
    });
    expect(foo).toMatchObject({ status: 'open', suppressed: true, silenceId: id });
    expect(await s.app.rt.prisma.outboxMessage.count({ where: { subjectId: foo.id } })).toBe(0);
    expect(baz).toMatchObject({ status: 'open', suppressed: false, silenceId: null });
    expect(await s.app.rt.prisma.outboxMessage.count({ where: { subjectId: baz.id } })).toBeGreaterThan(0);
    const amAlerts = JSON.parse(await amtool('alert', 'query', '-o', 'json', '--silenced')) as Array<
      Record<string, any>
    >;
    expect(amAlerts.find((a) => a.labels.alertname === 'Foo')?.status).toMatchObject({
      state: 'suppressed',
      silencedBy: [id],
    });
    const gql = await call(s.url, 'POST', '/graphql', {
      token: t.adminToken,
      body: { query: `{ alert(id: "${foo.id}") { suppressed silence { id comment state } } }` },
    });
    expect(gql.body.data.alert).toEqual({
      suppressed: true,
      silence: { id, comment: 'deploy window', state: 'ACTIVE' },
    });

    await amtool('silence', 'expire', id);
    const after = JSON.parse(await amtool('silence', 'query', '--expired', '-o', 'json')) as Array<Record<string, any>>;
    expect(after.find((x) => x.id === id)?.status.state).toBe('expired');
    // Expiring twice is a conflict, not a silent success.
    expect((await call(amBase, 'DELETE', `/api/v2/silence/${id}`, { token: t.adminToken })).status).toBe(409);
  });

  it('answers /status for amtool', async () => {
    const out = await amtool('config', 'show');
    expect(out).toBeDefined();
    const status = await call(amBase, 'GET', '/api/v2/status', { token: t.adminToken });
    expect(status.status).toBe(200);
    expect(status.body.cluster.status).toBe('disabled');
  });
});

describe('Alertmanager API v2 access and input', () => {
  it('takes only an ingest key on POST /alerts and only a user credential elsewhere', async () => {
    const alert = [{ labels: { alertname: 'X' } }];
    expect((await call(amBase, 'POST', '/api/v2/alerts', { body: alert })).status).toBe(401);
    expect((await call(amBase, 'POST', '/api/v2/alerts', { body: alert, token: 'sik_wrong' })).status).toBe(401);
    expect((await call(amBase, 'POST', '/api/v2/alerts', { body: alert, token: t.adminToken })).status).toBe(401);
    expect((await call(amBase, 'GET', '/api/v2/silences')).status).toBe(401);
    expect((await call(amBase, 'GET', '/api/v2/silences', { token: t.ingestKey })).status).toBe(401);
  });

  it('answers 422 naming the field for a body that is not a list of alerts, and for a bad filter', async () => {
    const bad = await call(amBase, 'POST', '/api/v2/alerts', {
      token: t.ingestKey,
      body: [{ labels: {} }, { labels: { a: 'b' }, endsAt: 'yesterday' }],
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toMatch(/0.*labels/);
    expect(JSON.stringify(bad.body.detail)).toMatch(/1.*endsAt/);
    const notList = await call(amBase, 'POST', '/api/v2/alerts', { token: t.ingestKey, body: { labels: {} } });
    expect(notList.status).toBe(422);
    const filter = await call(amBase, 'GET', '/api/v2/silences?filter=' + encodeURIComponent('a=~"(x"'), {
      token: t.adminToken,
    });
    expect(filter.status).toBe(422);
    expect(JSON.stringify(filter.body.detail)).toMatch(/filter.*invalid regex/);
  });

  it("resolves an alert posted with endsAt in the past, and keeps each tenant's silences apart", async () => {
    const labels = { alertname: 'Past', instance: 'x' };
    const post = (endsAt?: string) =>
      call(amBase, 'POST', '/api/v2/alerts', {
        token: other.ingestKey,
        body: [{ labels, ...(endsAt ? { endsAt } : {}) }],
      });
    expect((await post()).status).toBe(200);
    expect((await post(new Date(Date.now() - 60_000).toISOString())).status).toBe(200);
    const rows = await s.app.rt.prisma.alert.findMany({ where: { tenantId: other.tenantId } });
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe('resolved');
    const created = await call(amBase, 'POST', '/api/v2/silences', {
      token: t.adminToken,
      body: {
        matchers: [{ name: 'alertname', value: 'Past', isRegex: false }],
        startsAt: new Date().toISOString(),
        endsAt: new Date(Date.now() + 3600_000).toISOString(),
        createdBy: 'me',
        comment: '',
      },
    });
    expect(created.status).toBe(200);
    const otherToken = await buildToken(s.app.rt, await buildUser(s.app.rt, other.tenantId));
    const seen = await call(amBase, 'GET', `/api/v2/silence/${created.body.silenceID}`, { token: otherToken });
    expect(seen.status).toBe(404);
    expect((await call(amBase, 'GET', '/api/v2/silences', { token: otherToken })).body).toEqual([]);
  });
});
