/**
 * A schedule end to end (issue 41's "done when"): Europe/Amsterdam, weekly handoff Monday 09:00, two layers and
 * one override, asked "who is on call" at ten instants including both sides of both DST changes (October 2026 and
 * March 2027; GraphQL and REST), and its iCalendar feed, fetched over HTTP at its secret URL around each change,
 * parsed by node-ical with those shifts; a revoked feed is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ical from 'node-ical';
import { startTestServer, type TestServer } from './helpers/server.js';
import { testClock } from './helpers/clock.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, gql, rest } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;
const clock = testClock();
const ids: Record<string, string> = {};
let scheduleId = '';

beforeAll(async () => {
  s = await startTestServer({ start: { clock, workers: false } });
  // "Now" is a week before the DST change, so the feed (a week back, 60 days ahead) holds these shifts.
  clock.advance(Date.parse('2027-03-20T00:00:00Z') - clock.now().getTime());
  t = await buildTenant(s.app.rt);
  for (const name of ['ann', 'bob', 'cat', 'dan', 'eve'])
    ids[name] = (await buildUser(s.app.rt, t.tenantId, { name })).id;
  const r = await gql(s.url, t.adminToken, `mutation($i: CreateScheduleInput!) { createSchedule(input: $i) { id } }`, {
    i: {
      name: 'Amsterdam',
      timeZone: 'Europe/Amsterdam',
      layers: [
        {
          name: 'Weekdays',
          startsAt: '2026-10-12T07:00:00Z', // Monday 09:00 CEST
          rotation: 'WEEKLY',
          handoffTime: '09:00',
          handoffWeekday: 1,
          userIds: [ids.ann, ids.bob],
        },
        {
          name: 'Weekends',
          startsAt: '2026-10-12T07:00:00Z',
          rotation: 'WEEKLY',
          handoffTime: '09:00',
          handoffWeekday: 1,
          userIds: [ids.cat, ids.dan],
          restrictions: [{ kind: 'weekly', startDay: 6, start: '00:00', endDay: 1, end: '09:00' }],
        },
      ],
    },
  });
  scheduleId = r.data.createSchedule.id;
  const o = await gql(
    s.url,
    t.adminToken,
    `mutation($i: CreateScheduleOverrideInput!) { createScheduleOverride(input: $i) { id } }`,
    { i: { scheduleId, userId: ids.eve, startsAt: '2027-03-24T10:00:00Z', endsAt: '2027-03-24T14:00:00Z' } },
  );
  expect(o.data.createScheduleOverride.id).toBeTruthy();
});
afterAll(async () => s?.stop());

// Weeks from Monday 2026-10-12: even weeks ann (weekdays) and cat (weekends), odd weeks bob and dan.
const INSTANTS: Array<[string, string]> = [
  ['2026-10-13T10:00:00Z', 'ann'], // Tuesday: the weekday layer (the weekend layer has nobody then)
  ['2026-10-25T00:30:00Z', 'dan'], // Sunday 02:30 CEST, before the autumn change (03:00 CEST → 02:00 CET)
  ['2026-10-25T01:30:00Z', 'dan'], // Sunday 02:30 CET, after it
  ['2026-10-26T07:59:00Z', 'dan'], // Monday 08:59 CET: still the weekend (a handoff kept at UTC+2 would be at 07:00Z)
  ['2026-10-26T08:00:00Z', 'ann'], // Monday 09:00 CET: handoff
  ['2027-03-24T12:00:00Z', 'eve'], // the override
  ['2027-03-27T23:30:00Z', 'dan'], // Sunday 00:30 CET, before the spring change (02:00 CET → 03:00 CEST)
  ['2027-03-28T01:30:00Z', 'dan'], // Sunday 03:30 CEST, after it
  ['2027-03-29T06:59:00Z', 'dan'], // Monday 08:59 CEST
  ['2027-03-29T07:00:00Z', 'ann'], // Monday 09:00 CEST: the handoff kept its wall-clock time
];

describe('who is on call', () => {
  it('answers at ten instants, across both DST changes', async () => {
    const fields = INSTANTS.map(([at], i) => `a${i}: onCall(at: "${at}") { userId start end }`).join(' ');
    const r = await gql(s.url, t.adminToken, `query($id: ID!) { schedule(id: $id) { ${fields} } }`, { id: scheduleId });
    const got = INSTANTS.map((_x, i) => r.data.schedule[`a${i}`]?.userId);
    expect(got).toEqual(INSTANTS.map(([, who]) => ids[who]));
    // Ann's shifts after each change start at 09:00 local: 08:00Z in CET, 07:00Z in CEST.
    expect(r.data.schedule.a4.start).toBe('2026-10-26T08:00:00.000Z');
    expect(r.data.schedule.a9.start).toBe('2027-03-29T07:00:00.000Z');
  });

  it('answers over REST (/oncall?at= and /schedules/{id}?at=), members included; another tenant gets 404', async () => {
    const member = await buildUser(s.app.rt, t.tenantId);
    const token = await buildToken(s.app.rt, member);
    const r = await rest(s.url, token).get(`/oncall?at=${encodeURIComponent('2027-03-24T12:00:00Z')}`);
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([
      {
        schedule: { id: scheduleId, name: 'Amsterdam', time_zone: 'Europe/Amsterdam' },
        shift: expect.objectContaining({
          user_id: ids.eve,
          start: '2027-03-24T10:00:00.000Z',
          end: '2027-03-24T14:00:00.000Z',
        }),
      },
    ]);
    const one = await rest(s.url, token).get(
      `/schedules/${scheduleId}?at=${encodeURIComponent('2027-03-29T07:00:00Z')}`,
    );
    expect(one.body).toMatchObject({ id: scheduleId });
    expect(one.status).toBe(200);
    expect(one.body.on_call.user_id).toBe(ids.ann);
    expect(one.body.layers.map((l: { rotation: string }) => l.rotation)).toEqual(['weekly', 'weekly']);
    const other = await buildTenant(s.app.rt);
    expect((await rest(s.url, other.adminToken).get(`/schedules/${scheduleId}`)).status).toBe(404);
    expect((await rest(s.url).get('/oncall')).status).toBe(401);
  });

  it('refuses a bad time zone and an unknown user with 422 naming the field; members may not create', async () => {
    const bad = await gql(
      s.url,
      t.adminToken,
      `mutation { createSchedule(input: { name: "x", timeZone: "Mars/Base" }) { id } }`,
    );
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(bad.errors?.[0]?.message).toContain('timeZone');
    const member = await buildUser(s.app.rt, t.tenantId);
    const denied = await gql(
      s.url,
      await buildToken(s.app.rt, member),
      `mutation { createSchedule(input: { name: "y", timeZone: "UTC" }) { id } }`,
    );
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('iCalendar feed', () => {
  it('serves the final shifts at a secret URL that parses in node-ical, and 404 once revoked', async () => {
    const f = await gql(
      s.url,
      t.adminToken,
      `mutation($id: ID!) { createCalendarFeed(input: { scheduleId: $id }) { id url } }`,
      {
        id: scheduleId,
      },
    );
    const { id, url } = f.data.createCalendarFeed;
    expect(url).toMatch(/^\/api\/v1\/calendar-feeds\/ocal_[\w-]+\.ics$/);
    const res = await call<string>(s.url, 'GET', url);
    expect(res.status).toBe(200);
    const events = Object.values(ical.sync.parseICS(res.body)).filter((c) => c?.type === 'VEVENT') as ical.VEvent[];
    const span = (who: string) =>
      events
        .filter((e) => String(e.summary).includes(`On call: ${who} `))
        .map((e) => [new Date(e.start).toISOString(), new Date(e.end!).toISOString()]);
    expect(span('eve')).toEqual([['2027-03-24T10:00:00.000Z', '2027-03-24T14:00:00.000Z']]);
    expect(span('ann')).toContainEqual(['2027-03-29T07:00:00.000Z', '2027-04-02T22:00:00.000Z']); // to Saturday 00:00 CEST
    expect(span('dan')).toContainEqual(['2027-03-26T23:00:00.000Z', '2027-03-29T07:00:00.000Z']); // the weekend across the change

    // The same URL in the week of the autumn change (the feed covers a week back and 60 days ahead of "now").
    const march = clock.now().getTime();
    clock.advance(Date.parse('2026-10-20T00:00:00Z') - march);
    try {
      const autumn = await call<string>(s.url, 'GET', url);
      expect(autumn.status).toBe(200);
      const parsed = Object.values(ical.sync.parseICS(autumn.body)).filter(
        (c) => c?.type === 'VEVENT',
      ) as ical.VEvent[];
      const spanOf = (who: string) =>
        parsed
          .filter((e) => String(e.summary).includes(`On call: ${who} `))
          .map((e) => [new Date(e.start).toISOString(), new Date(e.end!).toISOString()]);
      // Saturday 00:00 CEST to Monday 09:00 CET, then ann from Monday 09:00 CET to Saturday 00:00 CET.
      expect(spanOf('dan')).toContainEqual(['2026-10-23T22:00:00.000Z', '2026-10-26T08:00:00.000Z']);
      expect(spanOf('ann')).toContainEqual(['2026-10-26T08:00:00.000Z', '2026-10-30T23:00:00.000Z']);
      expect(spanOf('bob')).toContainEqual(['2026-10-19T07:00:00.000Z', '2026-10-23T22:00:00.000Z']);
    } finally {
      clock.advance(march - clock.now().getTime());
    }
    await gql(s.url, t.adminToken, `mutation($id: ID!) { revokeCalendarFeed(id: $id) }`, { id });
    expect((await call(s.url, 'GET', url)).status).toBe(404);
  });
});
