/**
 * The routing tree over REST and GraphQL: the implicit default, replacing it, the "which route" check,
 * named receivers, and importing an alertmanager.yml whose routing Debian's real amtool
 * (`amtool config routes test --config.file=…`) answers on the same file: receivers compared by name.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { gql, rest } from './helpers/http.js';

const run = promisify(execFile);
let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let memberToken: string;
let dir: string;

const CONFIG = `
global:
  smtp_smarthost: '127.0.0.1:25'
  smtp_from: am@example.com
route:
  receiver: default
  group_by: [alertname, cluster]
  group_wait: 45s
  routes:
    - matchers: ['team="db"']
      receiver: db
      continue: true
      group_by: ['...']
      routes:
        - matchers: ['severity=~"critical|page"', 'env!="dev"']
          receiver: db-pager
    - match: { team: db }
      receiver: db-audit
    - match_re: { service: '^(?:api|web)$' }
      receiver: frontend
      mute_time_intervals: [weekends]
    - matchers: ['service!~"batch.*"', 'team="ml"']
      receiver: ml
receivers:
  - name: default
  - name: db
    email_configs: [{ to: 'db@example.com' }]
  - name: db-pager
  - name: db-audit
  - name: frontend
    webhook_configs: [{ url: 'http://127.0.0.1:9/hook' }]
  - name: ml
inhibit_rules:
  - source_matchers: ['alertname="NodeDown"']
    target_matchers: ['severity!="none"']
    equal: [instance]
time_intervals:
  - name: weekends
    time_intervals:
      - weekdays: ['saturday', 'sunday']
        location: Europe/Berlin
`;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId, { role: 'member' }));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'routing-tree-'));
  fs.writeFileSync(path.join(dir, 'alertmanager.yml'), CONFIG);
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await s?.stop();
});

/** A 422's field problems as `loc: msg` lines. */
const problems = (body: { detail: Array<{ loc: string[]; msg: string }> }) =>
  body.detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('\n');

async function amtoolReceivers(labels: Record<string, string>): Promise<string[]> {
  const args = Object.entries(labels).map(([k, v]) => `${k}=${v}`);
  const { stdout } = await run('amtool', [
    'config',
    'routes',
    'test',
    `--config.file=${path.join(dir, 'alertmanager.yml')}`,
    ...args,
  ]);
  return stdout.trim().split(',');
}

describe('the routing tree', () => {
  it('is the implicit default until replaced: one root sending to the default policy', async () => {
    const tree = await rest(s.url, memberToken).get('/routing/tree');
    expect(tree.status).toBe(200);
    expect(tree.body.custom).toBe(false);
    expect(tree.body.routes).toHaveLength(1);
    expect(tree.body.routes[0]).toMatchObject({ parent_id: null, receiver: null, matchers: [] });
    const tested = await rest(s.url, memberToken).post('/routing/test', { labels: { alertname: 'X' } });
    expect(tested.status).toBe(200);
    expect(tested.body.routes).toMatchObject([{ receiver: null, group_wait_seconds: 30, path: ['root'] }]);
  });

  it('is replaced whole by an admin, refused for a member (403) and for a bad tree (422 naming the field)', async () => {
    const admin = rest(s.url, t.adminToken);
    expect((await admin.post('/routing/receivers', { name: 'team-a' })).status).toBe(201);
    const routes = [
      { id: 'top', parent_id: null, receiver: 'team-a', group_by: ['alertname'] },
      { id: 'a', parent_id: 'top', matchers: [{ name: 'team', type: '=', value: 'a' }], group_wait: '5s' },
    ];
    expect((await rest(s.url, memberToken).put('/routing/tree', { routes })).status).toBe(403);
    const put = await admin.put('/routing/tree', { routes });
    expect(put.status).toBe(200);
    expect(put.body.custom).toBe(true);
    expect(put.body.routes[1]).toMatchObject({ id: 'a', parent_id: 'top', receiver: null, group_wait: '5s' });

    const tested = await admin.post('/routing/test', { labels: { team: 'a' } });
    expect(tested.body.routes).toMatchObject([
      { route_id: 'a', path: ['top', 'a'], receiver: 'team-a', group_by: ['alertname'], group_wait_seconds: 5 },
    ]);
    expect(tested.body.routes[0].receiver_detail.name).toBe('team-a');

    const bad = await admin.put('/routing/tree', {
      routes: [...routes, { id: 'b', parent_id: 'top', receiver: 'nobody', group_wait: 'soon' }],
    });
    expect(bad.status).toBe(422);
    expect(problems(bad.body)).toMatch(/body\.routes\.2\.group_wait: must be a duration/);
    const unknown = await admin.put('/routing/tree', {
      routes: [...routes, { id: 'b', parent_id: 'top', receiver: 'nobody' }],
    });
    expect(unknown.status).toBe(422);
    expect(problems(unknown.body)).toContain('body.routes.2.receiver: no receiver named "nobody"');
    // A receiver a route sends to cannot be deleted; another tenant's is not found.
    const rid = (await admin.get('/routing/receivers')).body.items[0].id;
    expect((await admin.delete(`/routing/receivers/${rid}`)).status).toBe(409);
    expect((await rest(s.url, other.adminToken).patch(`/routing/receivers/${rid}`, { name: 'x' })).status).toBe(404);
    expect((await rest(s.url).get('/routing/tree')).status).toBe(401);
  });

  it('answers "which route" over GraphQL too', async () => {
    const r = await gql(s.url, memberToken, 'query($l: JSON!) { routeTest(labels: $l) { routeId path receiver } }', {
      l: { team: 'a' },
    });
    expect(r.errors).toBeUndefined();
    expect(r.data.routeTest).toEqual([{ routeId: 'a', path: ['top', 'a'], receiver: 'team-a' }]);
  });
});

describe('importing an alertmanager.yml', () => {
  it('routes label sets as amtool does on the same file, and reports what it could not map', async () => {
    const imported = await rest(s.url, t.adminToken).post('/routing/import', { config: CONFIG });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ routes: 6, inhibit_rules: 1, time_intervals: ['weekends'] });
    expect(imported.body.receivers).toEqual(['default', 'db', 'db-pager', 'db-audit', 'frontend', 'ml']);
    const unmapped = imported.body.unmapped.join('\n');
    expect(unmapped).toContain('global');
    expect(unmapped).toContain('receivers.db.email_configs');
    expect(unmapped).toContain('receivers.frontend.webhook_configs');

    const labelSets: Array<Record<string, string>> = [
      { alertname: 'DiskFull', team: 'db', severity: 'critical', env: 'prod' },
      { alertname: 'DiskFull', team: 'db', severity: 'critical', env: 'dev' },
      { alertname: 'DiskFull', team: 'db', severity: 'warning' },
      { alertname: 'Latency', service: 'api' },
      { alertname: 'Latency', service: 'apix' },
      { alertname: 'Train', team: 'ml', service: 'batch-7' },
      { alertname: 'Train', team: 'ml', service: 'serve' },
      { alertname: 'Other', cluster: 'eu-1' },
    ];
    for (const labels of labelSets) {
      const ours = await rest(s.url, memberToken).post('/routing/test', { labels });
      expect(ours.status).toBe(200);
      const names = ours.body.routes.map((r: { receiver: string }) => r.receiver);
      expect({ labels, receivers: names }).toEqual({ labels, receivers: await amtoolReceivers(labels) });
    }

    // Inheritance as Alertmanager's: db-pager groups by every label (from db) and waits 45s (from the root).
    const deep = await rest(s.url, memberToken).post('/routing/test', {
      labels: { team: 'db', severity: 'page', env: 'prod' },
    });
    expect(deep.body.routes[0]).toMatchObject({ receiver: 'db-pager', group_by_all: true, group_wait_seconds: 45 });
    expect(deep.body.routes[0].path).toHaveLength(3);

    // The inhibit rule and the time interval are stored in their shapes.
    const rules = await s.app.rt.prisma.inhibitRule.findMany({ where: { tenantId: t.tenantId } });
    expect(rules).toMatchObject([
      {
        sourceMatchers: [{ name: 'alertname', type: '=', value: 'NodeDown' }],
        targetMatchers: [{ name: 'severity', type: '!=', value: 'none' }],
        equal: ['instance'],
      },
    ]);
    const ti = await rest(s.url, memberToken).get('/time-intervals');
    expect(ti.body.items.map((i: { name: string }) => i.name)).toContain('weekends');
    // The other tenant is untouched.
    expect((await rest(s.url, other.adminToken).get('/routing/tree')).body.custom).toBe(false);
  });

  it('refuses a file that is not an alertmanager.yml with a 422 that names the field, changing nothing', async () => {
    const before = (await rest(s.url, t.adminToken).get('/routing/tree')).body;
    const bad = await rest(s.url, t.adminToken).post('/routing/import', {
      config: 'route:\n  receiver: x\n  routes:\n    - matchers: ["team=~\\"(\\""]\n',
    });
    expect(bad.status).toBe(422);
    expect(problems(bad.body)).toContain('body.config.route.routes.0.matchers.0');
    expect((await rest(s.url, t.adminToken).post('/routing/import', { config: ': : :' })).status).toBe(422);
    expect((await rest(s.url, memberToken).post('/routing/import', { config: CONFIG })).status).toBe(403);
    expect((await rest(s.url, t.adminToken).get('/routing/tree')).body).toEqual(before);
  });
});
