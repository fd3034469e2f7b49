/**
 * A weekly maintenance window keeps its local time across DST, on the service's clock. "Every Sunday
 * 02:00–04:00 Europe/Berlin" is made twice in a tenant whose time zone is Europe/Berlin: as a silence
 * with a time interval, and as a window through the deprecated maintenance-window API (first Sunday
 * 22 March 2026, 02:00 CET, repeating every 604800 s), which becomes a silence with its own time
 * interval. Both mute an alert at 02:30 local and not at 01:30 or 04:30 local on the Sundays before
 * and after both DST changes of 2026 (29 March and 25 October). The migrated form of such a window:
 * test/maintenance-windows-migration.test.ts. And a window ends as a silence does: the alert it muted
 * is explained by one reason while muted, then pages as new.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, eventually, gql, rest } from './helpers/http.js';
import { testClock, type TestClock } from './helpers/clock.js';

let s: TestServer;
let t: BuiltTenant;
let clock: TestClock;

beforeAll(async () => {
  clock = testClock();
  // 24 alerts are posted in a row with one ingest key, which can go past the default 10 per second.
  s = await startTestServer({ start: { clock }, env: { INGEST_RATE_PER_SECOND: '1000' } });
  t = await buildTenant(s.app.rt);
  await s.app.rt.prisma.billingSettings.create({ data: { tenantId: t.tenantId, timeZone: 'Europe/Berlin' } });
});
afterAll(async () => s?.stop());

const setClock = (iso: string) => clock.advance(Date.parse(iso) - clock.now().getTime());
let n = 0;
/** Posts an alert with these labels (Alertmanager API) and returns the alert it opened. */
async function raise(labels: Record<string, string>) {
  const alertname = `Probe${n++}`;
  const res = await call(`${s.url}/api/v1/alertmanager`, 'POST', '/api/v2/alerts', {
    token: t.ingestKey,
    body: [{ labels: { ...labels, alertname } }],
  });
  expect(res.status).toBe(200);
  return eventually(async () => {
    const rows = await s.app.rt.prisma.alert.findMany({ where: { tenantId: t.tenantId, liveDedupKey: { not: null } } });
    return rows.find((a) => (a.labels as Record<string, string>).alertname === alertname);
  });
}

/** Instants on Sundays around both DST changes of 2026, with whether 02:00–04:00 Berlin time contains them. */
const SUNDAYS: Array<[string, string, boolean]> = [
  // 22 March, CET (UTC+1): before the spring change.
  ['2026-03-22T00:30:00Z', '01:30 CET', false],
  ['2026-03-22T01:30:00Z', '02:30 CET', true],
  ['2026-03-22T02:59:00Z', '03:59 CET', true],
  ['2026-03-22T03:30:00Z', '04:30 CET', false],
  // 5 April, CEST (UTC+2): after it; the old 604800-second window would have slipped to 03:00–05:00.
  ['2026-04-04T23:30:00Z', '01:30 CEST', false],
  ['2026-04-05T00:30:00Z', '02:30 CEST', true],
  ['2026-04-05T02:00:00Z', '04:00 CEST', false],
  // 18 October, CEST: before the autumn change.
  ['2026-10-18T00:30:00Z', '02:30 CEST', true],
  ['2026-10-18T02:30:00Z', '04:30 CEST', false],
  // 1 November, CET: after it.
  ['2026-11-01T00:30:00Z', '01:30 CET', false],
  ['2026-11-01T01:30:00Z', '02:30 CET', true],
  // A Monday at 02:30 local is outside.
  ['2026-11-02T01:30:00Z', 'Monday 02:30 CET', false],
];

describe('a weekly window in Europe/Berlin across the DST changes of 2026', () => {
  it('mutes 02:00–04:00 local on the Sundays before and after each change, as a silence and as a window', async () => {
    setClock('2026-03-20T12:00:00Z');
    const api = rest(s.url, t.adminToken);
    const ti = await api.post('/time-intervals', {
      name: 'sunday-night',
      intervals: [
        { weekdays: ['sunday'], times: [{ start_time: '02:00', end_time: '04:00' }], location: 'Europe/Berlin' },
      ],
    });
    expect(ti.status).toBe(201);
    const silence = await api.post('/silences', {
      matchers: [{ name: 'service', type: '=', value: 'via-silence' }],
      ends_at: '2027-01-01T00:00:00Z',
      comment: 'weekly batch maintenance',
      time_interval_id: ti.body.id,
    });
    expect(silence.status).toBe(201);
    const created = await gql(
      s.url,
      t.adminToken,
      `mutation($input: CreateMaintenanceWindowInput!) {
        createMaintenanceWindow(input: $input) { id name startsAt endsAt repeatEverySeconds matchLabels silence { timeInterval { intervals } } }
      }`,
      {
        input: {
          name: 'Sunday night',
          startsAt: '2026-03-22T01:00:00.000Z',
          endsAt: '2026-03-22T03:00:00.000Z',
          repeatEverySeconds: 604800,
          matchLabels: { service: 'via-window' },
        },
      },
    );
    expect(created.errors).toBeUndefined();
    const win = created.data.createMaintenanceWindow;
    // Read back as it was written; stored as a silence with a time interval in the tenant's zone.
    expect(win).toMatchObject({
      name: 'Sunday night',
      startsAt: '2026-03-22T01:00:00.000Z',
      endsAt: '2026-03-22T03:00:00.000Z',
      repeatEverySeconds: 604800,
      matchLabels: { service: 'via-window' },
    });
    expect(win.silence.timeInterval.intervals).toEqual([
      { weekdays: ['sunday'], times: [{ start_time: '02:00', end_time: '04:00' }], location: 'Europe/Berlin' },
    ]);

    // It is a silence like any other: its comment changes through the silences API (it lasts until 9999).
    const patched = await api.patch(`/silences/${win.id}`, { comment: 'Sunday night batch runs' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ comment: 'Sunday night batch runs', ends_at: '9999-12-31T00:00:00.000Z' });

    for (const [at, local, inside] of SUNDAYS) {
      setClock(at);
      const viaSilence = await raise({ service: 'via-silence' });
      const viaWindow = await raise({ service: 'via-window' });
      expect({ local, silenceId: viaSilence.silenceId }).toEqual({ local, silenceId: inside ? silence.body.id : null });
      expect({ local, silenceId: viaWindow.silenceId, window: viaWindow.maintenanceWindowId }).toEqual({
        local,
        silenceId: inside ? win.id : null,
        window: inside ? win.id : null,
      });
      expect(viaWindow.suppressed).toBe(inside);
    }
    clock.reset();
  });
});

describe('a window ends as a silence does', () => {
  it('explains the muted alert by its window alone, then pages it as new when the window ends', async () => {
    setClock('2026-06-01T10:00:00Z');
    const created = await gql(
      s.url,
      t.adminToken,
      'mutation($input: CreateMaintenanceWindowInput!) { createMaintenanceWindow(input: $input) { id } }',
      {
        input: {
          name: 'Switch swap',
          startsAt: '2026-06-01T09:00:00Z',
          endsAt: '2026-06-01T11:00:00Z',
          matchLabels: { rack: 'r1' },
        },
      },
    );
    const win = created.data.createMaintenanceWindow;
    const muted = await raise({ rack: 'r1' });
    expect(muted).toMatchObject({ suppressed: true, silenceId: win.id, maintenanceWindowId: win.id });
    const paging = await rest(s.url, t.adminToken).get(`/alerts/${muted.id}/paging`);
    const blocking = paging.body.reasons.filter((r: { blocks: boolean; kind: string }) =>
      ['maintenance_window', 'silence'].includes(r.kind),
    );
    expect(blocking).toEqual([
      expect.objectContaining({ kind: 'maintenance_window', maintenance_window_id: win.id, blocks: true }),
    ]);
    expect(blocking[0].message).toMatch(/maintenance window "Switch swap"/);
    setClock('2026-06-01T11:00:00Z');
    const released = await eventually(async () => {
      const a = await s.app.rt.prisma.alert.findUnique({ where: { id: muted.id } });
      return a && a.silenceId === null ? a : undefined;
    });
    expect(released).toMatchObject({ suppressed: false, maintenanceWindowId: null });
    const messages = await s.app.rt.prisma.outboxMessage.findMany({ where: { subjectId: muted.id } });
    expect(messages.map((m) => m.topic)).toEqual(['alert.opened']);
    clock.reset();
  });
});
