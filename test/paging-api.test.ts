/**
 * The paging API over REST (schedules with layers and overrides, who is on call in one schedule and its shifts,
 * escalation policies, the tenant default, alert groups and their actions, `escalation_policy_id` on rules and
 * integrations) and GraphQL's `node(id:)` and `AlertGroup.notifications`; another tenant's objects are 404/null.
 * One real server (workers in-process, test clock) against real Postgres and Redis; responses are validated
 * against the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { testClock } from './helpers/clock.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';

const ENV = { ESCALATION_SWEEP_INTERVAL_MS: '200', INGEST_RATE_PER_SECOND: '1000' };
const clock = testClock();
let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let memberToken: string;
const ids: Record<string, string> = {};
let otherPolicyId = '';
let otherScheduleId = '';

const admin = () => rest(s.url, t.adminToken);
const qs = (params: Record<string, string>) => '?' + new URLSearchParams(params).toString();
const detailLocs = (body: { detail: Array<{ loc: string[] }> }) => body.detail.map((d) => d.loc.join('.'));

beforeAll(async () => {
  s = await startTestServer({ env: ENV, start: { clock, workers: true } });
  clock.advance(Date.parse('2027-01-04T12:00:00Z') - clock.now().getTime()); // a Monday, 13:00 in Amsterdam
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt, { name: 'other' });
  for (const name of ['ann', 'bob', 'lead']) ids[name] = (await buildUser(s.app.rt, t.tenantId, { name })).id;
  const member = await buildUser(s.app.rt, t.tenantId, { name: 'member' });
  memberToken = await buildToken(s.app.rt, member);
  ids.stranger = (await buildUser(s.app.rt, other.tenantId, { name: 'stranger' })).id;
  const o = rest(s.url, other.adminToken);
  otherScheduleId = (
    await o.post('/schedules', {
      name: 'Theirs',
      time_zone: 'UTC',
      layers: [{ starts_at: '2027-01-01T00:00:00Z', rotation: 'daily', user_ids: [ids.stranger] }],
    })
  ).body.id;
  otherPolicyId = (
    await o.post('/escalation-policies', {
      name: 'Theirs',
      steps: [{ targets: [{ type: 'user', id: ids.stranger }] }],
    })
  ).body.id;
  expect(otherScheduleId && otherPolicyId).toBeTruthy();
});
afterAll(async () => s?.stop());

describe('schedules over REST', () => {
  it('creates a schedule with layers, answers who is on call and its shifts, takes overrides, and deletes', async () => {
    const created = await admin().post('/schedules', {
      name: 'Database',
      time_zone: 'Europe/Amsterdam',
      layers: [
        {
          name: 'Weekly',
          starts_at: '2027-01-04T08:00:00Z',
          rotation: 'weekly',
          handoff_time: '09:00',
          handoff_weekday: 1,
          user_ids: [ids.ann, ids.bob],
        },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Database', time_zone: 'Europe/Amsterdam' });
    expect(created.body.layers[0]).toMatchObject({
      rotation: 'weekly',
      handoff_time: '09:00',
      user_ids: [ids.ann, ids.bob],
    });
    expect(created.body.on_call.user_id).toBe(ids.ann);
    const id = created.body.id as string;

    const next = await admin().get(`/schedules/${id}/oncall${qs({ at: '2027-01-12T12:00:00Z' })}`);
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body).toMatchObject({ schedule_id: id, at: '2027-01-12T12:00:00Z', shift: { user_id: ids.bob } });

    const shifts = await admin().get(
      `/schedules/${id}/shifts${qs({ from: '2027-01-04T08:00:00Z', to: '2027-01-18T08:00:00Z' })}`,
    );
    expect(shifts.status).toBe(200);
    expect(shifts.body.items.map((x: { user_id: string }) => x.user_id)).toEqual([ids.ann, ids.bob]);
    expect(shifts.body.items[1]).toMatchObject({ start: '2027-01-11T08:00:00.000Z', end: '2027-01-18T08:00:00.000Z' });
    const defaultWindow = await admin().get(`/schedules/${id}/shifts`);
    expect(defaultWindow.body.items.length).toBeGreaterThanOrEqual(2); // now .. 14 days on: two weekly turns at least

    const ov = await rest(s.url, memberToken).post(`/schedules/${id}/overrides`, {
      user_id: ids.lead,
      starts_at: '2027-01-12T10:00:00Z',
      ends_at: '2027-01-12T14:00:00Z',
    });
    expect(ov.status).toBe(201);
    expect(ov.body).toMatchObject({ schedule_id: id, user_id: ids.lead });
    expect(
      (await admin().get(`/schedules/${id}/oncall${qs({ at: '2027-01-12T12:00:00Z' })}`)).body.shift,
    ).toMatchObject({
      user_id: ids.lead,
      override_id: ov.body.id,
    });
    expect((await admin().get(`/schedules/${id}/overrides`)).body.items.map((o: { id: string }) => o.id)).toEqual([
      ov.body.id,
    ]);

    const patched = await admin().patch(`/schedules/${id}`, {
      name: 'Database primary',
      layers: [{ starts_at: '2027-01-04T08:00:00Z', rotation: 'daily', user_ids: [ids.bob] }],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Database primary', on_call: { user_id: ids.bob } });
    expect(patched.body.layers).toHaveLength(1);

    expect((await admin().delete(`/schedules/${id}/overrides/${ov.body.id}`)).status).toBe(204);
    expect((await admin().delete(`/schedules/${id}/overrides/${ov.body.id}`)).status).toBe(404);
    expect((await admin().delete(`/schedules/${id}`)).status).toBe(204);
    expect((await admin().get(`/schedules/${id}`)).status).toBe(404);
  });

  it('answers 422 naming the field for a bad zone, a bad window or an override that ends before it starts', async () => {
    const bad = await admin().post('/schedules', { name: 'X', time_zone: 'Mars/Olympus' });
    expect(bad.status).toBe(422);
    expect(detailLocs(bad.body)).toContain('body.time_zone');
    const missing = await admin().post('/schedules', { time_zone: 'UTC' });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body.detail)).toContain('name');
    const id = (await admin().post('/schedules', { name: 'Window', time_zone: 'UTC' })).body.id;
    const win = await admin().get(
      `/schedules/${id}/shifts${qs({ from: '2027-02-01T00:00:00Z', to: '2027-01-01T00:00:00Z' })}`,
    );
    expect(win.status).toBe(422);
    expect(detailLocs(win.body), JSON.stringify(win.body)).toContain('query.to');
    const ov = await admin().post(`/schedules/${id}/overrides`, {
      user_id: ids.ann,
      starts_at: '2027-01-02T00:00:00Z',
      ends_at: '2027-01-01T00:00:00Z',
    });
    expect(ov.status).toBe(422);
    expect(detailLocs(ov.body)).toContain('body.ends_at');
    const stranger = await admin().post(`/schedules/${id}/overrides`, {
      user_id: ids.stranger,
      starts_at: '2027-01-01T00:00:00Z',
      ends_at: '2027-01-02T00:00:00Z',
    });
    expect(stranger.status).toBe(422);
    expect(detailLocs(stranger.body)).toContain('body.user_id');
  });

  it("returns 404 for another tenant's schedule on every route, and 403 to a member creating one", async () => {
    const a = admin();
    for (const r of [
      await a.get(`/schedules/${otherScheduleId}`),
      await a.get(`/schedules/${otherScheduleId}/oncall`),
      await a.get(`/schedules/${otherScheduleId}/shifts`),
      await a.get(`/schedules/${otherScheduleId}/overrides`),
      await a.patch(`/schedules/${otherScheduleId}`, { name: 'mine' }),
      await a.post(`/schedules/${otherScheduleId}/overrides`, {
        user_id: ids.ann,
        starts_at: '2027-01-01T00:00:00Z',
        ends_at: '2027-01-02T00:00:00Z',
      }),
      await a.delete(`/schedules/${otherScheduleId}`),
    ])
      expect(r.status).toBe(404);
    expect((await rest(s.url, memberToken).post('/schedules', { name: 'M', time_zone: 'UTC' })).status).toBe(403);
    expect((await rest(s.url).get('/schedules')).status).toBe(401);
  });
});

describe('escalation policies, the default policy and policies of rules and integrations', () => {
  it('creates, reads, updates and deletes a policy with steps', async () => {
    const c = await admin().post('/escalation-policies', {
      name: 'CRUD',
      repeat: 1,
      steps: [
        { targets: [{ type: 'user', id: ids.ann }] },
        { delay_minutes: 10, targets: [{ type: 'user', id: ids.lead }] },
      ],
    });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ name: 'CRUD', repeat: 1, high_urgency_severities: ['critical'] });
    expect(c.body.steps).toEqual([
      { position: 0, delay_minutes: 0, targets: [{ type: 'user', id: ids.ann }] },
      { position: 1, delay_minutes: 10, targets: [{ type: 'user', id: ids.lead }] },
    ]);
    const id = c.body.id as string;
    expect((await admin().get('/escalation-policies')).body.items.map((p: { id: string }) => p.id)).toContain(id);
    const u = await admin().patch(`/escalation-policies/${id}`, {
      steps: [{ delay_minutes: 0, targets: [{ type: 'user', id: ids.bob }] }],
    });
    expect(u.status).toBe(200);
    expect(u.body.steps).toEqual([{ position: 0, delay_minutes: 0, targets: [{ type: 'user', id: ids.bob }] }]);
    expect((await admin().get(`/escalation-policies/${id}`)).body.name).toBe('CRUD');
    expect((await admin().delete(`/escalation-policies/${id}`)).status).toBe(204);
    expect((await admin().get(`/escalation-policies/${id}`)).status).toBe(404);
  });

  it("answers 422 naming the target for another tenant's user, 403 to members, 404 for another tenant's policy", async () => {
    const bad = await admin().post('/escalation-policies', {
      name: 'Bad',
      steps: [{ targets: [{ type: 'user', id: ids.stranger }] }],
    });
    expect(bad.status).toBe(422);
    expect(detailLocs(bad.body)).toContain('body.steps.0.targets.0.id');
    const member = rest(s.url, memberToken);
    expect((await member.post('/escalation-policies', { name: 'M', steps: [] })).status).toBe(403);
    expect((await admin().get(`/escalation-policies/${otherPolicyId}`)).status).toBe(404);
    expect((await admin().patch(`/escalation-policies/${otherPolicyId}`, { name: 'x' })).status).toBe(404);
    expect((await admin().delete(`/escalation-policies/${otherPolicyId}`)).status).toBe(404);
  });

  it('sets and clears the tenant default; a policy of another tenant is 422', async () => {
    const p = (
      await admin().post('/escalation-policies', {
        name: 'Default',
        steps: [{ targets: [{ type: 'user', id: ids.ann }] }],
      })
    ).body;
    const set = await admin().patch('/paging-settings', { default_escalation_policy_id: p.id });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ default_escalation_policy_id: p.id });
    expect((await rest(s.url, memberToken).get('/paging-settings')).body).toEqual({
      default_escalation_policy_id: p.id,
    });
    const theirs = await admin().patch('/paging-settings', { default_escalation_policy_id: otherPolicyId });
    expect(theirs.status).toBe(422);
    expect(detailLocs(theirs.body)).toContain('body.default_escalation_policy_id');
    expect(
      (await rest(s.url, memberToken).patch('/paging-settings', { default_escalation_policy_id: null })).status,
    ).toBe(403);
    expect((await admin().patch('/paging-settings', { default_escalation_policy_id: null })).body).toEqual({
      default_escalation_policy_id: null,
    });
  });

  it('reads and writes escalation_policy_id on alert rules and integrations (422 for a foreign or missing policy)', async () => {
    const p = (
      await admin().post('/escalation-policies', {
        name: 'Rules',
        steps: [{ targets: [{ type: 'user', id: ids.ann }] }],
      })
    ).body;
    const rule = await admin().post('/alert-rules', { name: 'R', type_glob: 'r.*', escalation_policy_id: p.id });
    expect(rule.status).toBe(201);
    expect(rule.body.escalation_policy_id).toBe(p.id);
    for (const bad of [otherPolicyId, '01900000-0000-7000-8000-000000000000']) {
      const r = await admin().post('/alert-rules', { name: 'R2', type_glob: 'r.*', escalation_policy_id: bad });
      expect(r.status).toBe(422);
      expect(detailLocs(r.body)).toContain('body.escalation_policy_id');
      const u = await admin().patch(`/alert-rules/${rule.body.id}`, { escalation_policy_id: bad });
      expect(u.status).toBe(422);
      expect(detailLocs(u.body)).toContain('body.escalation_policy_id');
    }
    expect(
      (await admin().patch(`/alert-rules/${rule.body.id}`, { escalation_policy_id: null })).body.escalation_policy_id,
    ).toBe(null);
    const integ = await admin().post('/integrations', {
      provider: 'webhook',
      name: 'paged',
      escalation_policy_id: p.id,
    });
    expect(integ.status).toBe(201);
    expect(integ.body.escalation_policy_id).toBe(p.id);
    const integId = integ.body.id as string;
    const foreign = await admin().patch(`/integrations/${integId}`, { escalation_policy_id: otherPolicyId });
    expect(foreign.status).toBe(422);
    expect(detailLocs(foreign.body)).toContain('body.escalation_policy_id');
    expect(
      (await admin().patch(`/integrations/${integId}`, { escalation_policy_id: null })).body.escalation_policy_id,
    ).toBe(null);
    const g = await gql(s.url, t.adminToken, 'query($id: ID!) { alertRule(id: $id) { escalationPolicy { id } } }', {
      id: rule.body.id,
    });
    expect(g.data.alertRule.escalationPolicy).toBe(null);
  });
});

describe('alert groups', () => {
  let groupId = '';
  let policyId = '';

  beforeAll(async () => {
    policyId = (
      await admin().post('/escalation-policies', {
        name: 'Groups',
        steps: [
          { targets: [{ type: 'user', id: ids.ann }] },
          { delay_minutes: 5, targets: [{ type: 'user', id: ids.lead }] },
        ],
      })
    ).body.id;
    await admin().post('/alert-rules', {
      name: 'Disk full',
      type_glob: 'disk.full',
      alert_severity: 'critical',
      escalation_policy_id: policyId,
    });
    const r = await rest(s.url).post(
      '/events',
      { type: 'disk.full', source: 'db-1', severity: 'critical', payload: {} },
      { headers: { 'x-service-key': t.ingestKey } },
    );
    expect(r.status).toBe(202);
    groupId = await eventually(async () => {
      const a = await s.app.rt.prisma.alert.findFirst({ where: { tenantId: t.tenantId, groupId: { not: null } } });
      return a?.groupId;
    });
    // The first step has run (ann paged) before the actions below, so "escalate now" races no timer.
    await eventually(async () => (await s.app.rt.prisma.alertGroup.findUnique({ where: { id: groupId } }))?.step === 0);
  });

  it("lists and gets a group under its rule's policy, and its notifications are in GraphQL", async () => {
    const list = await admin().get('/alert-groups?status=firing');
    expect(list.status).toBe(200);
    expect(list.body.items.map((g: { id: string }) => g.id)).toContain(groupId);
    const g = await admin().get(`/alert-groups/${groupId}`);
    expect(g.body).toMatchObject({ id: groupId, status: 'firing', urgency: 'high', policy_id: policyId, step: 0 });
    expect(g.body.alert_ids).toHaveLength(1);
    const n = await eventually(async () => {
      const r = await gql(
        s.url,
        t.adminToken,
        'query($id: ID!) { alertGroup(id: $id) { notifications(first: 10) { totalCount edges { node { user { id } kind } } } } }',
        { id: groupId },
      );
      return r.data.alertGroup.notifications.totalCount > 0 ? r.data.alertGroup.notifications : null;
    });
    expect(n.edges[0].node).toMatchObject({ user: { id: ids.ann }, kind: 'INBOX' });
    const r = await admin().get(`/alert-groups/${groupId}/notifications?limit=10`);
    expect(r.status).toBe(200);
    expect(r.body.items[0]).toMatchObject({ user: { id: ids.ann }, kind: 'inbox', group_id: groupId });
    expect((await rest(s.url, other.adminToken).get(`/alert-groups/${groupId}/notifications`)).status).toBe(404);
  });

  it('escalates now, reassigns, snoozes, acknowledges and resolves over REST', async () => {
    const esc = await admin().post(`/alert-groups/${groupId}/escalate`);
    expect(esc.status).toBe(200);
    expect(esc.body).toMatchObject({ status: 'firing', step: 1 });
    const re = await admin().post(`/alert-groups/${groupId}/reassign`, { user_id: ids.bob });
    expect(re.status).toBe(200);
    const noUser = await admin().post(`/alert-groups/${groupId}/reassign`, {});
    expect(noUser.status).toBe(422);
    expect(JSON.stringify(noUser.body.detail)).toContain('user_id');
    const stranger = await admin().post(`/alert-groups/${groupId}/reassign`, { user_id: ids.stranger });
    expect(stranger.status).toBe(422);
    const sn = await admin().post(`/alert-groups/${groupId}/snooze`, { duration: '1h' });
    expect(sn.status).toBe(200);
    expect(sn.body.status).toBe('snoozed');
    const until = Date.parse(sn.body.snoozed_until) - 3600_000;
    expect(until).toBeGreaterThan(clock.now().getTime() - 60_000);
    expect(until).toBeLessThanOrEqual(clock.now().getTime());
    const ack = await admin().post(`/alert-groups/${groupId}/acknowledge`);
    expect(ack.body).toMatchObject({ status: 'acknowledged', acknowledged_by_id: expect.any(String) });
    expect((await admin().post(`/alert-groups/${groupId}/escalate`)).status).toBe(409);
    const res = await admin().post(`/alert-groups/${groupId}/resolve`);
    expect(res.body.status).toBe('resolved');
    expect((await admin().get(`/alert-groups?status=resolved`)).body.items[0].id).toBe(groupId);
  });

  it("is 404 for another tenant's group on every route", async () => {
    const o = rest(s.url, other.adminToken);
    expect((await o.get(`/alert-groups/${groupId}`)).status).toBe(404);
    for (const action of ['acknowledge', 'resolve', 'escalate'])
      expect((await o.post(`/alert-groups/${groupId}/${action}`)).status).toBe(404);
    expect((await o.post(`/alert-groups/${groupId}/snooze`, { duration: '1h' })).status).toBe(404);
    expect((await o.post(`/alert-groups/${groupId}/reassign`, { user_id: ids.stranger })).status).toBe(404);
    expect((await o.get('/alert-groups')).body.items).toEqual([]);
  });

  it("finds schedules, policies and groups by node(id:), and another tenant's as null", async () => {
    const q = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`;
    const mine = await gql(s.url, t.adminToken, q, { ids: [groupId, policyId] });
    expect(mine.data.nodes.map((n: { __typename: string }) => n.__typename)).toEqual([
      'AlertGroup',
      'EscalationPolicy',
    ]);
    const theirs = await gql(s.url, other.adminToken, q, { ids: [groupId, policyId] });
    expect(theirs.data.nodes).toEqual([null, null]);
    const sched = await gql(s.url, other.adminToken, 'query($id: ID!) { node(id: $id) { __typename } }', {
      id: otherScheduleId,
    });
    expect(sched.data.node.__typename).toBe('Schedule');
    expect(
      (await gql(s.url, t.adminToken, 'query($id: ID!) { node(id: $id) { id } }', { id: otherScheduleId })).data.node,
    ).toBe(null);
    const g = await gql(s.url, t.adminToken, 'query($id: ID!) { alertGroup(id: $id) { id } }', { id: otherPolicyId });
    expect(g.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
