/**
 * Inhibition rules over REST and GraphQL, and the rule "NodeDown inhibits every alert on the same
 * instance" held end to end: alerts arrive as Prometheus sends them (real POSTs to the Alertmanager API v2
 * path), the inhibited alert is recorded and marked with the alert inhibiting it, nobody is notified for
 * it (the notification records say so) while an alert on another instance pages, the alert says why it did
 * not page, and when NodeDown resolves the still-live alert pages as new.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, eventually, gql, rest } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let member: string;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  member = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
});
afterAll(async () => s?.stop());

const nodeDown = {
  name: 'node down inhibits its instance',
  source_matchers: [{ name: 'alertname', type: '=', value: 'NodeDown' }],
  target_matchers: [],
  equal: ['instance'],
};

/** POSTs alerts as Prometheus does (`endsAt` in the past resolves). */
const post = (tenant: BuiltTenant, alerts: Array<{ labels: Record<string, string>; endsAt?: string }>) =>
  call(`${s.url}/api/v1/alertmanager`, 'POST', '/api/v2/alerts', { token: tenant.ingestKey, body: alerts });
const liveAlert = (tenant: BuiltTenant, alertname: string, instance: string) =>
  eventually(async () => {
    const rows = await s.app.rt.prisma.alert.findMany({ where: { tenantId: tenant.tenantId } });
    return rows.find((a) => {
      const l = a.labels as Record<string, string>;
      return l.alertname === alertname && l.instance === instance && a.groupId;
    });
  });
const notificationsOf = (alertId: string) =>
  s.app.rt.prisma.alert
    .findUniqueOrThrow({ where: { id: alertId } })
    .then((a) => (a.groupId ? s.app.rt.prisma.notification.findMany({ where: { groupId: a.groupId } }) : []));

describe('inhibition rules over REST and GraphQL', () => {
  it('are created by admins, read by members, changed and deleted; 401, 403, 404 and 422 where they apply', async () => {
    const api = rest(s.url, t.adminToken);
    expect((await rest(s.url).get('/inhibit-rules')).status).toBe(401);
    expect((await rest(s.url, member).post('/inhibit-rules', nodeDown)).status).toBe(403);
    const created = await api.post('/inhibit-rules', { ...nodeDown, name: 'scratch' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'scratch', target_matchers: [], equal: ['instance'] });
    const id = created.body.id as string;
    expect((await rest(s.url, member).get('/inhibit-rules')).body.items.map((r: any) => r.id)).toContain(id);
    const changed = await api.patch(`/inhibit-rules/${id}`, { equal: ['instance', 'cluster'] });
    expect(changed.body.equal).toEqual(['instance', 'cluster']);
    expect((await rest(s.url, other.adminToken).get(`/inhibit-rules/${id}`)).status).toBe(404);
    expect((await rest(s.url, other.adminToken).delete(`/inhibit-rules/${id}`)).status).toBe(404);
    const bad = await api.post('/inhibit-rules', {
      source_matchers: [{ name: 'alertname', type: '=~', value: '(NodeDown' }],
      equal: ['not a label'],
    });
    expect(bad.status).toBe(422);
    const detail = JSON.stringify(bad.body.detail);
    expect(detail).toMatch(/source_matchers.*0.*invalid regex/);
    expect(detail).toMatch(/equal.*0.*label name/);
    const noSource = await api.post('/inhibit-rules', { source_matchers: [], target_matchers: [] });
    expect(noSource.status).toBe(422);
    expect(JSON.stringify(noSource.body.detail)).toMatch(/source_matchers/);
    const listed = await gql(s.url, member, '{ inhibitRules { id sourceMatchers { name type value } equal } }');
    expect(listed.data.inhibitRules).toContainEqual({
      id,
      sourceMatchers: [{ name: 'alertname', type: 'EQUAL', value: 'NodeDown' }],
      equal: ['instance', 'cluster'],
    });
    expect((await api.delete(`/inhibit-rules/${id}`)).status).toBe(204);
    expect((await api.get(`/inhibit-rules/${id}`)).status).toBe(404);
  });
});

describe('NodeDown inhibits every alert on the same instance', () => {
  it('records and marks the inhibited alert, pages no one for it, says why, and pages it as new when NodeDown resolves', async () => {
    // The tenant's default policy pages its admin at once (in-app inbox: always on).
    const pol = await gql(
      s.url,
      t.adminToken,
      'mutation($i: CreateEscalationPolicyInput!) { createEscalationPolicy(input: $i) { id } }',
      { i: { name: 'Ops', steps: [{ delayMinutes: 0, targets: [{ type: 'USER', id: t.admin.id }] }] } },
    );
    await gql(s.url, t.adminToken, 'mutation($id: ID!) { setDefaultEscalationPolicy(id: $id) { id } }', {
      id: pol.data.createEscalationPolicy.id,
    });
    expect((await rest(s.url, t.adminToken).post('/inhibit-rules', nodeDown)).status).toBe(201);

    expect((await post(t, [{ labels: { alertname: 'NodeDown', instance: 'node-1' } }])).status).toBe(200);
    const source = await liveAlert(t, 'NodeDown', 'node-1');
    expect(source.inhibitedById).toBeNull();
    // One POST, as Prometheus batches: an alert on the down node and one on a healthy node.
    expect(
      (
        await post(t, [
          { labels: { alertname: 'DiskFull', instance: 'node-1' } },
          { labels: { alertname: 'DiskFull', instance: 'node-2' } },
        ])
      ).status,
    ).toBe(200);
    const inhibited = await liveAlert(t, 'DiskFull', 'node-1');
    const control = await liveAlert(t, 'DiskFull', 'node-2');
    expect(inhibited).toMatchObject({ inhibitedById: source.id, suppressed: true, status: 'open' });
    expect(control).toMatchObject({ inhibitedById: null, suppressed: false });

    // NodeDown and the healthy node's alert page the admin; the inhibited alert pages no one.
    await eventually(async () => ((await notificationsOf(source.id)).length ? true : undefined));
    await eventually(async () => ((await notificationsOf(control.id)).length ? true : undefined));
    expect(await notificationsOf(inhibited.id)).toEqual([]);
    expect(await s.app.rt.prisma.outboxMessage.count({ where: { subjectId: inhibited.id } })).toBe(0);

    // Visible and marked, over REST and GraphQL, with the reason.
    const detail = await rest(s.url, member).get(`/alerts/${inhibited.id}`);
    expect(detail.body).toMatchObject({ inhibited_by_id: source.id, suppressed: true, silence_id: null });
    expect(detail.body.timeline[0].note).toMatch(new RegExp(`Inhibited by alert ${source.id}`));
    const why = await rest(s.url, member).get(`/alerts/${inhibited.id}/paging`);
    expect(why.status).toBe(200);
    expect(why.body.pages).toBe(false);
    expect(why.body.reasons).toContainEqual(
      expect.objectContaining({ kind: 'inhibition', blocks: true, inhibiting_alert_id: source.id }),
    );
    expect(why.body.summary).toMatch(/pages no one: Inhibited by alert/);
    const gqlWhy = await gql(
      s.url,
      member,
      'query($id: ID!) { alert(id: $id) { inhibitedBy { id } pagingExplanation { pages reasons { kind blocks } } } }',
      { id: control.id },
    );
    expect(gqlWhy.data.alert.inhibitedBy).toBeNull();
    expect(gqlWhy.data.alert.pagingExplanation.pages).toBe(true);
    expect(gqlWhy.data.alert.pagingExplanation.reasons).toContainEqual({ kind: 'POLICY', blocks: false });
    expect((await rest(s.url, other.adminToken).get(`/alerts/${inhibited.id}/paging`)).status).toBe(404);
    // Alertmanager's own API (amtool alert query) says so too, and `inhibited=false` leaves it out.
    const am = (query: string) =>
      call(`${s.url}/api/v1/alertmanager`, 'GET', `/api/v2/alerts${query}`, { token: member });
    const amAlerts = (await am('')).body as Array<{ labels: Record<string, string>; status: any }>;
    expect(amAlerts.find((x) => x.labels.alertname === 'DiskFull' && x.labels.instance === 'node-1')?.status).toEqual({
      state: 'suppressed',
      silencedBy: [],
      inhibitedBy: [source.id],
    });
    const shown = (await am('?inhibited=false')).body as Array<{ labels: Record<string, string> }>;
    expect(shown.map((x) => `${x.labels.alertname}/${x.labels.instance}`).sort()).toEqual([
      'DiskFull/node-2',
      'NodeDown/node-1',
    ]);

    // NodeDown resolves (endsAt in the past): the still-live alert pages as new.
    const past = new Date(s.app.rt.clock.now().getTime() - 1000).toISOString();
    await post(t, [{ labels: { alertname: 'NodeDown', instance: 'node-1' }, endsAt: past }]);
    const released = await eventually(async () => {
      const a = await s.app.rt.prisma.alert.findUniqueOrThrow({ where: { id: inhibited.id } });
      return a.inhibitedById === null ? a : undefined;
    });
    expect(released).toMatchObject({ suppressed: false, status: 'open' });
    await eventually(async () => ((await notificationsOf(inhibited.id)).length ? true : undefined));
    const messages = await s.app.rt.prisma.outboxMessage.findMany({ where: { subjectId: inhibited.id } });
    expect(messages.map((m) => m.topic)).toEqual(['alert.opened']);
  });
});
