/**
 * The operator's overview (issue 44, point 8; GraphQL `alertOverview`, computed in SQL): live alerts by
 * severity and age with the unacknowledged ones, the noisiest sources and rules of the last 7 days, and
 * MTTA/MTTR per week from the alerts' timelines. Times come from the injected clock: an
 * alert is acknowledged 10 minutes and resolved an hour after it opened.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { testClock } from './helpers/clock.js';

const clock = testClock();
let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let ruleId: string;
const DAY = 86_400_000;

beforeAll(async () => {
  s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000' }, start: { clock } });
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  const r = await rest(s.url, t.adminToken).post('/alert-rules', {
    name: 'Everything',
    type_glob: '*.*',
    alert_severity: 'critical',
    summary_template: '{{summary}}',
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  ruleId = r.body.id;
}, 180_000);
afterAll(async () => {
  await s?.stop();
});

/** Sends an event and waits for the alert it opens (one alert per type and source under the rule). */
async function openAlert(type: string, source: string): Promise<any> {
  const sent = await rest(s.url).post(
    '/events',
    { type, source, summary: `${type} on ${source}`, severity: 'critical' },
    { headers: { 'x-service-key': t.ingestKey } },
  );
  expect(sent.status).toBe(202);
  return eventually(async () => {
    const items = (await rest(s.url, t.adminToken).get(`/alerts?rule=${ruleId}&limit=100`)).body.items as any[];
    return items.find((a) => a.summary === `${type} on ${source}`) ?? null;
  }, 30_000);
}

const OVERVIEW = `{ alertOverview {
  live { severity age live unacknowledged }
  noisiestSources(days: 7, first: 5) { source alerts events }
  noisiestRules { ruleId ruleName alerts }
  responseTimes(weeks: 8) { weekStart opened acknowledged mttaSeconds resolved mttrSeconds }
} }`;

describe('alertOverview', () => {
  it('computes MTTA and MTTR per week from the timelines, live alerts by age, and the noisy sources', async () => {
    const first = await openAlert('disk.full', 'db-1');
    clock.advance(600_000);
    expect((await rest(s.url, t.adminToken).post(`/alerts/${first.id}/acknowledge`)).status).toBe(200);
    clock.advance(3_000_000);
    expect((await rest(s.url, t.adminToken).post(`/alerts/${first.id}/resolve`)).status).toBe(200);
    // Events are stored by the time of their id, so the next ones arrive on the machine's own time again.
    clock.reset();
    const others = [
      await openAlert('link.down', 'edge-1'),
      await openAlert('link.flap', 'edge-1'),
      await openAlert('cpu.hot', 'web-1'),
    ];
    await rest(s.url, t.adminToken).post(`/alerts/${others[2].id}/acknowledge`);

    const g = await gql(s.url, t.adminToken, OVERVIEW);
    expect(g.errors).toBeUndefined();
    const o = g.data.alertOverview;
    expect(o.live).toEqual([{ severity: 'CRITICAL', age: 'UNDER_1H', live: 3, unacknowledged: 2 }]);
    expect(o.noisiestSources).toEqual([
      { source: 'edge-1', alerts: 2, events: 2 },
      { source: 'db-1', alerts: 1, events: 1 },
      { source: 'web-1', alerts: 1, events: 1 },
    ]);
    expect(o.noisiestRules).toEqual([{ ruleId, ruleName: 'Everything', alerts: 4 }]);

    expect(o.responseTimes).toHaveLength(8);
    const weeks = o.responseTimes.map((w: any) => new Date(w.weekStart).getTime());
    expect(weeks.every((w: number, i: number) => i === 0 || w - weeks[i - 1] === 7 * DAY)).toBe(true);
    const weekOf = (a: any) =>
      o.responseTimes.find((w: any) => {
        const start = new Date(w.weekStart).getTime();
        const at = new Date(a.created_at).getTime();
        return start <= at && at < start + 7 * DAY;
      });
    const sum = (k: string) => o.responseTimes.reduce((n: number, w: any) => n + w[k], 0);
    expect([sum('opened'), sum('acknowledged'), sum('resolved')]).toEqual([4, 2, 1]);
    const w1 = weekOf(first);
    // Resolved an hour after it opened on the service's clock, plus however long the machine took.
    expect(w1.mttrSeconds).toBeGreaterThanOrEqual(3600);
    expect(w1.mttrSeconds).toBeLessThan(3900);
    // Acknowledged after 10 minutes; the other acknowledged alert (within a minute) may share its week.
    if (weekOf(others[2]) === w1) {
      expect(w1.mttaSeconds).toBeGreaterThanOrEqual(300);
      expect(w1.mttaSeconds).toBeLessThan(600);
    } else {
      expect(w1.mttaSeconds).toBeGreaterThanOrEqual(600);
      expect(w1.mttaSeconds).toBeLessThan(900);
    }
    const quiet = o.responseTimes.filter((w: any) => w !== w1 && w !== weekOf(others[0]) && w !== weekOf(others[2]));
    expect(quiet.length).toBeGreaterThanOrEqual(6);
    expect(quiet.every((w: any) => w.opened === 0 && w.mttaSeconds === null && w.mttrSeconds === null)).toBe(true);
  });

  it('is per tenant, and names a bad window', async () => {
    const g = await gql(s.url, other.adminToken, OVERVIEW);
    expect(g.data.alertOverview.live).toEqual([]);
    expect(g.data.alertOverview.noisiestSources).toEqual([]);
    expect(g.data.alertOverview.responseTimes.every((w: any) => w.opened === 0)).toBe(true);
    const bad = await gql(s.url, t.adminToken, '{ alertOverview { responseTimes(weeks: 0) { opened } } }');
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'VALIDATION_FAILED' });
    expect(
      (await gql(s.url, undefined as unknown as string, '{ alertOverview { live { live } } }')).errors?.[0]?.extensions
        ?.code,
    ).toBe('UNAUTHENTICATED');
  });
});
