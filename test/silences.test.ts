/**
 * Silences and named time intervals over REST and GraphQL: create, read, change, expire; the access
 * rules (401, 403, 404 for another tenant, 422 naming the field, 409 with its reason); a recurring
 * silence that follows its time interval across a DST change on the service's clock; and an alert a
 * silence stopped muting pages as new.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, eventually, gql, rest } from './helpers/http.js';
import { testClock, type TestClock } from './helpers/clock.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let member: string;
let clock: TestClock;

beforeAll(async () => {
  clock = testClock();
  s = await startTestServer({ start: { clock } });
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  member = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
});
afterAll(async () => s?.stop());

const inHours = (h: number) => new Date(clock.now().getTime() + h * 3600_000).toISOString();
const post = (ingestKey: string, labels: Record<string, string>) =>
  call(`${s.url}/api/v1/alertmanager`, 'POST', '/api/v2/alerts', { token: ingestKey, body: [{ labels }] });
const alertOf = (tenantId: string, alertname: string) =>
  eventually(async () => {
    const rows = await s.app.rt.prisma.alert.findMany({ where: { tenantId, liveDedupKey: { not: null } } });
    return rows.find((a) => (a.labels as Record<string, string>).alertname === alertname);
  });

describe('silences over REST', () => {
  it('creates, reads, changes and expires a silence (members may), and lists it by state', async () => {
    const api = rest(s.url, member);
    const created = await api.post('/silences', {
      matchers: [
        { name: 'alertname', type: '=', value: 'DiskFull' },
        { name: 'instance', type: '=~', value: 'db-.*' },
      ],
      ends_at: inHours(2),
      comment: 'migrating disks',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ state: 'active', comment: 'migrating disks', time_interval_id: null });
    expect(created.body.created_by).toMatch(/@example\.test$/);
    const id = created.body.id as string;
    expect((await api.get(`/silences/${id}`)).body.id).toBe(id);
    const changed = await api.patch(`/silences/${id}`, { comment: 'still migrating', ends_at: inHours(3) });
    expect(changed.status).toBe(200);
    expect(changed.body.comment).toBe('still migrating');
    const pending = await api.post('/silences', {
      matchers: [{ name: 'alertname', type: '=', value: 'Later' }],
      starts_at: inHours(1),
      ends_at: inHours(2),
      comment: 'tomorrow',
    });
    expect(pending.body.state).toBe('pending');
    expect((await api.get('/silences?state=active')).body.items.map((x: any) => x.id)).toEqual([id]);
    expect((await api.get('/silences?state=pending')).body.items.map((x: any) => x.id)).toEqual([pending.body.id]);
    const expired = await api.post(`/silences/${id}/expire`);
    expect(expired.status).toBe(200);
    expect(expired.body.state).toBe('expired');
    const again = await api.post(`/silences/${id}/expire`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('SILENCE_EXPIRED');
    expect((await api.patch(`/silences/${id}`, { comment: 'x' })).body.code).toBe('SILENCE_EXPIRED');
    // A pending silence that is expired never starts.
    const never = await api.post(`/silences/${pending.body.id}/expire`);
    expect(never.body.state).toBe('expired');
    expect(never.body.starts_at).toBe(never.body.ends_at);
  });

  it('answers 401, 404 for another tenant, and 422 naming what to fix', async () => {
    expect((await rest(s.url).get('/silences')).status).toBe(401);
    const mine = await rest(s.url, t.adminToken).post('/silences', {
      matchers: [{ name: 'a', type: '=', value: 'b' }],
      ends_at: inHours(1),
      comment: 'x',
    });
    const theirs = rest(s.url, other.adminToken);
    expect((await theirs.get(`/silences/${mine.body.id}`)).status).toBe(404);
    expect((await theirs.post(`/silences/${mine.body.id}/expire`)).status).toBe(404);
    const api = rest(s.url, t.adminToken);
    const everything = await api.post('/silences', {
      matchers: [{ name: 'a', type: '=~', value: '.*' }],
      ends_at: inHours(1),
      comment: 'all',
    });
    expect(everything.status).toBe(422);
    expect(JSON.stringify(everything.body.detail)).toMatch(/body.*matchers.*empty string/);
    const badRegex = await api.post('/silences', {
      matchers: [{ name: 'a', type: '=~', value: '(b' }],
      ends_at: inHours(1),
      comment: 'x',
    });
    expect(badRegex.status).toBe(422);
    expect(JSON.stringify(badRegex.body.detail)).toMatch(/matchers.*0.*invalid regex/);
    const past = await api.post('/silences', {
      matchers: [{ name: 'a', type: '=', value: 'b' }],
      ends_at: inHours(-1),
      comment: 'x',
    });
    expect(past.status).toBe(422);
    expect(JSON.stringify(past.body.detail)).toMatch(/ends_at/);
    const unknownInterval = await api.post('/silences', {
      matchers: [{ name: 'a', type: '=', value: 'b' }],
      ends_at: inHours(1),
      comment: 'x',
      time_interval_id: '0190f2a0-0000-7000-8000-000000000000',
    });
    expect(JSON.stringify(unknownInterval.body.detail)).toMatch(/time_interval_id/);
  });
});

describe('time intervals over REST and GraphQL', () => {
  it('are managed by admins, validated as Alertmanager validates them, and kept while a silence uses them', async () => {
    const body = {
      name: 'business-hours',
      intervals: [{ weekdays: ['monday:friday'], times: [{ start_time: '09:00', end_time: '17:00' }] }],
    };
    expect((await rest(s.url, member).post('/time-intervals', body)).status).toBe(403);
    const api = rest(s.url, t.adminToken);
    const created = await api.post('/time-intervals', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'business-hours', intervals: body.intervals });
    expect((await api.post('/time-intervals', body)).body.code).toBe('ALREADY_EXISTS');
    const bad = await api.post('/time-intervals', {
      name: 'bad',
      intervals: [{ weekdays: ['friday:monday'], days_of_month: ['0'], location: 'Mars/Base' }],
    });
    expect(bad.status).toBe(422);
    const detail = JSON.stringify(bad.body.detail);
    expect(detail).toMatch(/intervals.*0.*weekdays/);
    expect(detail).toMatch(/days_of_month/);
    expect(detail).toMatch(/location/);
    expect((await rest(s.url, other.adminToken).get(`/time-intervals/${created.body.id}`)).status).toBe(404);
    const silence = await api.post('/silences', {
      matchers: [{ name: 'team', type: '=', value: 'web' }],
      ends_at: inHours(24),
      comment: 'quiet in office hours',
      time_interval_id: created.body.id,
    });
    expect(silence.body.time_interval_id).toBe(created.body.id);
    const inUse = await api.delete(`/time-intervals/${created.body.id}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.code).toBe('IN_USE');
    const renamed = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!) { updateTimeInterval(id: $id, input: { name: "office" }) { name } }',
      { id: created.body.id },
    );
    expect(renamed.data.updateTimeInterval.name).toBe('office');
    const listed = (
      await gql(s.url, member, '{ timeIntervals { name } silences(state: ACTIVE) { comment timeInterval { name } } }')
    ).data;
    expect(listed.timeIntervals.map((x: any) => x.name)).toContain('office');
    expect(listed.silences).toContainEqual({ comment: 'quiet in office hours', timeInterval: { name: 'office' } });
  });
});

describe('a recurring silence on the service clock', () => {
  it('mutes "every Sunday 02:00-04:00 Europe/Berlin" at its local time on both sides of a DST change', async () => {
    const tenant = await buildTenant(s.app.rt);
    const api = rest(s.url, tenant.adminToken);
    // Sunday 18 October 2026, 00:30 UTC = 02:30 CEST.
    clock.advance(Date.parse('2026-10-18T00:30:00Z') - clock.now().getTime());
    const ti = await api.post('/time-intervals', {
      name: 'sunday-maintenance',
      intervals: [
        { weekdays: ['sunday'], times: [{ start_time: '02:00', end_time: '04:00' }], location: 'Europe/Berlin' },
      ],
    });
    const silence = await api.post('/silences', {
      matchers: [{ name: 'service', type: '=', value: 'batch' }],
      ends_at: '2026-12-31T00:00:00Z',
      comment: 'weekly batch maintenance',
      time_interval_id: ti.body.id,
    });
    expect(silence.status).toBe(201);
    expect((await post(tenant.ingestKey, { alertname: 'Summer', service: 'batch' })).status).toBe(200);
    expect((await alertOf(tenant.tenantId, 'Summer')).silenceId).toBe(silence.body.id);
    // Sunday 1 November 2026 (CET, UTC+1): 00:30 UTC is 01:30 local, outside; 01:30 UTC is 02:30, inside.
    clock.advance(Date.parse('2026-11-01T00:30:00Z') - clock.now().getTime());
    expect((await post(tenant.ingestKey, { alertname: 'WinterEarly', service: 'batch' })).status).toBe(200);
    expect((await alertOf(tenant.tenantId, 'WinterEarly')).silenceId).toBeNull();
    clock.advance(Date.parse('2026-11-01T01:30:00Z') - clock.now().getTime());
    expect((await post(tenant.ingestKey, { alertname: 'WinterInside', service: 'batch' })).status).toBe(200);
    const inside = await alertOf(tenant.tenantId, 'WinterInside');
    expect(inside).toMatchObject({ silenceId: silence.body.id, suppressed: true });
    // At 04:00 local the interval ends: the still-live alert pages as new.
    clock.advance(Date.parse('2026-11-01T03:00:00Z') - clock.now().getTime());
    const released = await eventually(async () => {
      const a = await s.app.rt.prisma.alert.findUnique({ where: { id: inside.id } });
      return a && a.silenceId === null ? a : undefined;
    });
    expect(released.suppressed).toBe(false);
    const messages = await s.app.rt.prisma.outboxMessage.findMany({ where: { subjectId: inside.id } });
    expect(messages.map((m) => m.topic)).toEqual(['alert.opened']);
    const timeline = await s.app.rt.prisma.alertTimelineEntry.findMany({ where: { alertId: inside.id } });
    expect(timeline.map((e) => e.note)).toContainEqual(expect.stringMatching(/no longer mutes it; it pages as new/));
    const detail = await rest(s.url, tenant.adminToken).get(`/alerts/${inside.id}`);
    expect(detail.status).toBe(200);
    clock.reset();
  });

  it('pages as new a live alert whose silence is expired', async () => {
    const tenant = await buildTenant(s.app.rt);
    const api = rest(s.url, tenant.adminToken);
    const silence = await api.post('/silences', {
      matchers: [{ name: 'alertname', type: '=', value: 'Quiet' }],
      ends_at: inHours(1),
      comment: 'for a while',
    });
    await post(tenant.ingestKey, { alertname: 'Quiet' });
    const muted = await alertOf(tenant.tenantId, 'Quiet');
    expect(muted.silenceId).toBe(silence.body.id);
    expect(await s.app.rt.prisma.outboxMessage.count({ where: { subjectId: muted.id } })).toBe(0);
    await api.post(`/silences/${silence.body.id}/expire`);
    await eventually(
      async () => (await s.app.rt.prisma.outboxMessage.count({ where: { subjectId: muted.id } })) === 1 || undefined,
    );
    const after = await s.app.rt.prisma.alert.findUniqueOrThrow({ where: { id: muted.id } });
    expect(after).toMatchObject({ silenceId: null, suppressed: false, status: 'open' });
  });
});
