/**
 * Reports over REST with PATs (and GraphQL parity) against the real service: queries and their counts
 * for ingested data, 422 paths, the JSON Schema endpoint, the offline translator, saved reports,
 * dashboards, and schedules delivering a signed `report.delivered` to a real receiver on 127.0.0.1.
 * The large-export test lives in test/reports-export.test.ts.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { TIMES_OF_DAY, testClock } from './helpers/clock.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import pg from 'pg';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let aliceToken: string;
let bobToken: string;
let rcv: Receiver;
/** Every query document the tests send; the schema endpoint must accept each one. */
const sent: unknown[] = [];

async function query(token: string, body: Record<string, unknown>) {
  sent.push(body);
  return rest(s.url, token).post('/reports/query', body);
}

async function ingest(body: Record<string, unknown>): Promise<void> {
  const r = await rest(s.url).post('/events', body, { headers: { 'x-service-key': t.ingestKey } });
  expect(r.status).toBe(202);
}

const HOUR = 3600_000;
/** The service's clock: the time-of-day cases move it; everything else reads it as "now". */
const clock = testClock();
/**
 * Alert times `daysAgo` whole days (and a minute) before the service's now: three such times always fall
 * on three consecutive UTC days, whatever the time of day, and only the newest is inside the last 24 hours.
 */
const daysAgo = (n: number) => new Date(clock.now().getTime() - n * 24 * HOUR - 60_000);
const dayOf = (d: Date) => d.toISOString().slice(0, 10) + 'T00:00:00.000Z';

function alertRow(tenantId: string, severity: 'info' | 'warning' | 'critical', createdAt: Date, source: string) {
  const key = crypto.randomBytes(6).toString('hex');
  return { tenantId, severity, summary: `${severity} ${source}`, source, dedupKey: key, liveDedupKey: key, createdAt, firstSeenAt: createdAt, lastSeenAt: createdAt };
}

/** Six alerts over three days for a tenant (written directly with their creation times). */
async function seedAlerts(tenantId: string): Promise<void> {
  const mk = (severity: 'info' | 'warning' | 'critical', createdAt: Date, source: string) => alertRow(tenantId, severity, createdAt, source);
  await s.app.rt.prisma.alert.createMany({
    data: [mk('critical', daysAgo(0), 'db-1'), mk('critical', daysAgo(0), 'db-2'), mk('warning', daysAgo(0), 'web-1'), mk('critical', daysAgo(1), 'db-1'), mk('info', daysAgo(2), 'web-1'), mk('info', daysAgo(2), 'web-2')],
  });
}

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' }, start: { clock } });
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  aliceToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
  bobToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
  rcv = await startReceiver();
  // Events through the ingest API: 3 from ci, 2 from db-1 (with labels and payload).
  for (let i = 0; i < 3; i++) await ingest({ type: 'deploy.started', source: 'ci', summary: `deploy ${i}`, severity: 'info', labels: { env: 'prod' }, payload: { sha: `abc${i}`, duration: 10 * (i + 1) } });
  for (let i = 0; i < 2; i++) await ingest({ type: 'disk.full', source: 'db-1', summary: `disk ${i}`, severity: 'critical', labels: { env: 'staging' }, payload: { pct: 97 + i } });
  const foreign = await rest(s.url).post('/events', { type: 'deploy.started', source: 'ci' }, { headers: { 'x-service-key': other.ingestKey } });
  expect(foreign.status).toBe(202);
  await seedAlerts(t.tenantId);
  await s.app.rt.prisma.alert.create({ data: alertRow(other.tenantId, 'critical', daysAgo(0), 'db-9') });
});
afterAll(async () => {
  await rcv?.close();
  await s?.stop();
});

describe('POST /reports/query', () => {
  it('counts ingested events, filtered and grouped, for the caller\'s tenant only', async () => {
    const count = await query(aliceToken, { entity: 'events', filters: [{ field: 'source', op: 'eq', value: 'ci' }], aggregate: 'count' });
    expect(count.status).toBe(200);
    expect(count.body).toEqual({ entity: 'events', columns: [{ name: 'count', type: 'integer' }], rows: [{ count: 3 }], row_count: 1, truncated: false });

    const bySource = await query(aliceToken, { entity: 'events', group_by: ['source'], order_by: [{ field: 'source', dir: 'asc' }] });
    expect(bySource.body.rows).toEqual([
      { source: 'ci', count: 3 },
      { source: 'db-1', count: 2 },
    ]);
    const labelled = await query(aliceToken, { entity: 'events', group_by: ['labels.env'], aggregate: [{ fn: 'count' }, { fn: 'sum', field: 'payload.duration' }], order_by: ['labels.env'] });
    expect(labelled.body.rows).toEqual([
      { 'labels.env': 'staging', count: 2, 'sum_payload.duration': null },
      { 'labels.env': 'prod', count: 3, 'sum_payload.duration': 60 },
    ]);
    const rows = await query(aliceToken, { entity: 'events', filters: [{ field: 'payload.pct', op: 'gte', value: 98 }], columns: ['source', 'payload.pct', 'received_at'] });
    expect(rows.body.rows).toEqual([{ source: 'db-1', 'payload.pct': 98, received_at: expect.stringMatching(/Z$/) }]);
    const truncated = await query(aliceToken, { entity: 'events', limit: 2 });
    expect(truncated.body).toMatchObject({ row_count: 2, truncated: true });
  });

  /** Per-day buckets by severity of the six seeded alerts, for a tenant's token. */
  async function expectDailyBuckets(token: string): Promise<void> {
    const r = await query(token, { entity: 'alerts', since_hours: 24 * 4, bucket: '1d', group_by: ['severity'] });
    expect(r.status).toBe(200);
    expect(r.body.columns).toEqual([
      { name: 'bucket', type: 'timestamp' },
      { name: 'severity', type: 'string' },
      { name: 'count', type: 'integer' },
    ]);
    expect(r.body.rows).toEqual([
      { bucket: dayOf(daysAgo(2)), severity: 'info', count: 2 },
      { bucket: dayOf(daysAgo(1)), severity: 'critical', count: 1 },
      { bucket: dayOf(daysAgo(0)), severity: 'warning', count: 1 },
      { bucket: dayOf(daysAgo(0)), severity: 'critical', count: 2 },
    ].sort((a, b) => a.bucket.localeCompare(b.bucket) || a.severity.localeCompare(b.severity)));
  }

  it('counts alerts grouped by severity per day', async () => {
    await expectDailyBuckets(aliceToken);
  });

  it('keeps day buckets and the 24-hour window apart at any time of day (injected clock)', async () => {
    try {
      for (const at of TIMES_OF_DAY) {
        clock.setTimeOfDay(at);
        const tenant = await buildTenant(s.app.rt);
        const token = await buildToken(s.app.rt, await buildUser(s.app.rt, tenant.tenantId));
        await seedAlerts(tenant.tenantId);
        await expectDailyBuckets(token);
        const last24h = await query(token, { entity: 'alerts', since_hours: 24, filters: [{ field: 'severity', op: 'eq', value: 'critical' }] });
        expect(last24h.body.rows.map((x: { source: string }) => x.source).sort(), `at ${at}`).toEqual(['db-1', 'db-2']);
      }
    } finally {
      clock.reset();
    }
  });
  it('answers 422 naming the path of an unknown entity, field or op and of a wrongly typed value', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ entity: 'users' }, ['body', 'entity']],
      [{ entity: 'alerts', filters: [{ field: 'severity', op: 'eq', value: 'critical' }, { field: 'nope', op: 'eq', value: 1 }] }, ['body', 'filters', '1', 'field']],
      [{ entity: 'alerts', filters: [{ field: 'severity', op: 'eq', value: 'critical' }, { field: 'severity', op: 'like', value: 'x' }] }, ['body', 'filters', '1', 'op']],
      [{ entity: 'alerts', filters: [{ field: 'severity', op: 'eq', value: 'critical' }, { field: 'severity', op: 'contains', value: 'x' }] }, ['body', 'filters', '1', 'op']],
      [{ entity: 'alerts', filters: [{ field: 'count', op: 'gt', value: 'lots' }] }, ['body', 'filters', '0', 'value']],
      [{ entity: 'alerts', limit: 10_001 }, ['body', 'limit']],
    ];
    for (const [body, loc] of cases) {
      const r = await rest(s.url, aliceToken).post('/reports/query', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail.map((d: { loc: string[] }) => d.loc)).toContainEqual(loc);
    }
    expect((await rest(s.url).post('/reports/query', { entity: 'events' })).status).toBe(401);
  });
});

describe('GET /reports/query/schema', () => {
  it('returns JSON Schema 2020-12 that validates the queries the tests send and rejects bad ones', async () => {
    const r = await rest(s.url, aliceToken).get('/reports/query/schema');
    expect(r.status).toBe(200);
    expect(r.body.schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(r.body.catalogue.map((c: { entity: string }) => c.entity)).toEqual(['events', 'alerts', 'devices', 'proposals']);
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(r.body.schema);
    expect(sent.length).toBeGreaterThan(5);
    for (const q of sent) expect(validate(q), `${JSON.stringify(q)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    expect(validate({ entity: 'alerts', filters: [{ field: 'severity', op: 'contains', value: 'x' }] })).toBe(false);
    expect(validate({ entity: 'events', filters: [{ field: 'nope', op: 'eq', value: 'x' }] })).toBe(false);
    expect(validate({ entity: 'users' })).toBe(false);
  });
});

describe('POST /reports/query/translate', () => {
  it('translates "critical alerts in the last 24 hours" offline into a valid query that runs', async () => {
    const r = await rest(s.url, aliceToken).post('/reports/query/translate', { text: 'critical alerts in the last 24 hours' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ valid: true, errors: [], query: { entity: 'alerts', since_hours: 24, filters: [{ field: 'severity', op: 'eq', value: 'critical' }] } });
    const ran = await query(aliceToken, r.body.query);
    expect(ran.status).toBe(200);
    expect(ran.body.rows.map((x: { source: string }) => x.source).sort()).toEqual(['db-1', 'db-2']);

    const bySource = await rest(s.url, aliceToken).post('/reports/query/translate', { text: 'critical alerts in the last 24 hours by source' });
    const grouped = await query(aliceToken, bySource.body.query);
    expect(grouped.body.rows).toEqual([
      { source: 'db-1', count: 1 },
      { source: 'db-2', count: 1 },
    ]);
    const nothing = await rest(s.url, aliceToken).post('/reports/query/translate', { text: 'the weather in Paris' });
    expect(nothing.body).toMatchObject({ valid: false, query: null });
    expect((await rest(s.url, aliceToken).post('/reports/query/translate', {})).status).toBe(422);
  });
});

describe('saved reports', () => {
  it('saves, runs with parameter overrides, and lets only the owner or an admin change it', async () => {
    const body = { name: 'Events by source', description: 'per source', query: { entity: 'events', filters: [{ field: 'source', op: 'eq', value: 'ci' }], aggregate: 'count' } };
    sent.push(body.query);
    const created = await rest(s.url, aliceToken).post('/reports/saved', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Events by source', entity: 'events', can_edit: true, query: { entity: 'events', since_hours: 24, limit: 1000 } });
    const id = created.body.id;

    const run = await rest(s.url, bobToken).post(`/reports/saved/${id}/run`);
    expect(run.body.rows).toEqual([{ count: 3 }]);
    const overridden = await rest(s.url, bobToken).post(`/reports/saved/${id}/run`, { parameters: { source: 'db-1' } });
    expect(overridden.body.rows).toEqual([{ count: 2 }]);
    const badParam = await rest(s.url, bobToken).post(`/reports/saved/${id}/run`, { parameters: { since_hours: 0 } });
    expect(badParam.status).toBe(422);
    expect(badParam.body.detail[0].loc).toEqual(['body', 'parameters', 'since_hours']);

    expect((await rest(s.url, bobToken).get(`/reports/saved/${id}`)).body.can_edit).toBe(false);
    expect((await rest(s.url, bobToken).patch(`/reports/saved/${id}`, { name: 'mine now' })).status).toBe(403);
    expect((await rest(s.url, bobToken).delete(`/reports/saved/${id}`)).status).toBe(403);
    const renamed = await rest(s.url, t.adminToken).patch(`/reports/saved/${id}`, { name: 'Renamed by admin' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Renamed by admin');
    const badQuery = await rest(s.url, aliceToken).patch(`/reports/saved/${id}`, { query: { entity: 'events', filters: [{ field: 'source', op: 'gt', value: 'a' }] } });
    expect(badQuery.status).toBe(422);
    expect(badQuery.body.detail[0].loc).toEqual(['body', 'query', 'filters', '0', 'op']);
    const list = await rest(s.url, bobToken).get('/reports/saved');
    expect(list.body.items.map((r: { id: string }) => r.id)).toContain(id);
  });

  it('returns 404 for another tenant on every report id', async () => {
    const created = await rest(s.url, aliceToken).post('/reports/saved', { name: 'Mine', query: { entity: 'alerts' } });
    const id = created.body.id;
    const o = rest(s.url, other.adminToken);
    expect((await o.get(`/reports/saved/${id}`)).status).toBe(404);
    expect((await o.patch(`/reports/saved/${id}`, { name: 'x' })).status).toBe(404);
    expect((await o.post(`/reports/saved/${id}/run`)).status).toBe(404);
    expect((await o.delete(`/reports/saved/${id}`)).status).toBe(404);
    expect((await o.get('/reports/saved')).body.items).toEqual([]);
    const dash = await rest(s.url, aliceToken).post('/reports/dashboards', { name: 'D', panels: [{ title: 'p', saved_report_id: id, viz: 'table', position: { x: 0, y: 0, w: 4, h: 3 } }] });
    expect(dash.status).toBe(201);
    expect((await o.get(`/reports/dashboards/${dash.body.id}`)).status).toBe(404);
    expect((await o.get(`/reports/dashboards/${dash.body.id}/data`)).status).toBe(404);
    expect((await o.patch(`/reports/dashboards/${dash.body.id}`, { name: 'x' })).status).toBe(404);
    expect((await o.delete(`/reports/dashboards/${dash.body.id}`)).status).toBe(404);
    // A dashboard cannot point at another tenant's report.
    const foreignPanel = await o.post('/reports/dashboards', { name: 'D', panels: [{ title: 'p', saved_report_id: id, viz: 'table', position: { x: 0, y: 0, w: 4, h: 3 } }] });
    expect(foreignPanel.status).toBe(422);
    expect(foreignPanel.body.detail[0].loc).toEqual(['body', 'panels', '0', 'saved_report_id']);
  });
});

describe('dashboards', () => {
  it('returns every panel\'s data in one request, over REST and GraphQL', async () => {
    const a = await rest(s.url, aliceToken).post('/reports/saved', { name: 'Alerts per day', query: { entity: 'alerts', since_hours: 96, bucket: '1d', group_by: ['severity'] } });
    const b = await rest(s.url, aliceToken).post('/reports/saved', { name: 'Event count', query: { entity: 'events', aggregate: 'count' } });
    const dash = await rest(s.url, aliceToken).post('/reports/dashboards', {
      name: 'Ops',
      panels: [
        { title: 'Alerts', saved_report_id: a.body.id, viz: 'bar', position: { x: 0, y: 0, w: 6, h: 4 } },
        { title: 'Events', saved_report_id: b.body.id, viz: 'stat', position: { x: 6, y: 0, w: 2, h: 2 } },
        { title: 'Events again', saved_report_id: b.body.id, viz: 'table', position: { x: 8, y: 0, w: 2, h: 2 } },
      ],
    });
    expect(dash.status).toBe(201);
    const data = await rest(s.url, bobToken).get(`/reports/dashboards/${dash.body.id}/data`);
    expect(data.status).toBe(200);
    expect(data.body.panels.map((p: { title: string; viz: string }) => [p.title, p.viz])).toEqual([
      ['Alerts', 'bar'],
      ['Events', 'stat'],
      ['Events again', 'table'],
    ]);
    expect(data.body.panels[0].data.rows.reduce((n: number, r: { count: number }) => n + r.count, 0)).toBe(6);
    expect(data.body.panels[1].data.rows).toEqual([{ count: 5 }]);
    expect(data.body.panels[2].data.rows).toEqual([{ count: 5 }]);

    expect((await rest(s.url, bobToken).patch(`/reports/dashboards/${dash.body.id}`, { name: 'bob' })).status).toBe(403);
    const g = await gql(s.url, bobToken, 'query($id: ID!) { dashboard(id: $id) { name panels { title viz data { entity rowCount rows } } } }', { id: dash.body.id });
    expect(g.errors).toBeUndefined();
    expect(g.data.dashboard.panels.map((p: { viz: string; data: { entity: string } }) => [p.viz, p.data.entity])).toEqual([
      ['BAR', 'ALERTS'],
      ['STAT', 'EVENTS'],
      ['TABLE', 'EVENTS'],
    ]);
    // The panel whose report is deleted answers with an error, the others still have data.
    expect((await rest(s.url, aliceToken).delete(`/reports/saved/${a.body.id}`)).status).toBe(204);
    const after = await rest(s.url, aliceToken).get(`/reports/dashboards/${dash.body.id}/data`);
    expect(after.body.panels[0]).toMatchObject({ data: null, error: expect.stringMatching(/deleted/) });
    expect(after.body.panels[1].data.rows).toEqual([{ count: 5 }]);
  });
});

/** SQL statements sent through any pg client of this process while `fn` runs (as test/graph.test.ts). */
async function countStatements<T>(fn: () => Promise<T>): Promise<string[]> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const statements: string[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    statements.push(typeof q === 'string' ? q : (q?.text ?? '?'));
    return original.apply(this, args);
  };
  try {
    await fn();
    return statements;
  } finally {
    proto.query = original;
  }
}

describe('dashboards over GraphQL', () => {
  it('resolves panels { data } with one saved-report read and one run per distinct report, however many panels', async () => {
    const a = await rest(s.url, aliceToken).post('/reports/saved', { name: 'A', query: { entity: 'alerts', aggregate: 'count' } });
    const b = await rest(s.url, aliceToken).post('/reports/saved', { name: 'B', query: { entity: 'events', aggregate: 'count' } });
    const panel = (id: string, i: number) => ({ title: `p${i}`, saved_report_id: id, viz: 'stat', position: { x: i, y: 0, w: 1, h: 1 } });
    for (let d = 0; d < 3; d++) {
      const r = await rest(s.url, bobToken).post('/reports/dashboards', { name: `GQL ${d}`, panels: [0, 1, 2, 3].map((i) => panel(i % 2 ? a.body.id : b.body.id, i)) });
      expect(r.status).toBe(201);
    }
    let result: any;
    const statements = await countStatements(async () => {
      result = await gql(s.url, bobToken, '{ dashboards(limit: 3) { name panels { title data { rowCount rows } } } }');
    });
    expect(result.errors).toBeUndefined();
    expect(result.data.dashboards).toHaveLength(3);
    for (const d of result.data.dashboards) expect(d.panels.map((p: any) => p.data.rowCount)).toEqual([1, 1, 1, 1]);
    expect(statements.filter((q) => q.includes('"SavedReport"'))).toHaveLength(1);
    expect(statements.filter((q) => /FROM "(Event|Alert)" t WHERE t\."tenantId" = \$1/.test(q))).toHaveLength(2);
  });
});

describe('report schedules', () => {
  it('are admin-only: a member gets 403', async () => {
    const rep = await rest(s.url, aliceToken).post('/reports/saved', { name: 'x', query: { entity: 'alerts' } });
    expect((await rest(s.url, aliceToken).get('/reports/schedules')).status).toBe(403);
    expect((await rest(s.url, aliceToken).post('/reports/schedules', { saved_report_id: rep.body.id, webhook_id: 'x', cron: '0 8 * * 1' })).status).toBe(403);
    const g = await gql(s.url, aliceToken, '{ reportSchedules { id } }');
    expect(g.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('delivers a signed report.delivered to the webhook, registers its cron, and disables itself when the webhook or report is deleted', async () => {
    const hook = await gql(s.url, t.adminToken, 'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id secret } }', {
      input: { name: 'reports', url: rcv.url, triggers: [{ on: 'ALERT_OPENED', severities: ['CRITICAL'] }] },
    });
    expect(hook.errors).toBeUndefined();
    const { id: webhookId, secret } = hook.data.createOutboundWebhook;
    const rep = await rest(s.url, aliceToken).post('/reports/saved', { name: 'Critical by source', query: { entity: 'alerts', filters: [{ field: 'severity', op: 'eq', value: 'critical' }], group_by: ['source'], order_by: [{ field: 'source', dir: 'asc' }] } });
    const bad = await rest(s.url, t.adminToken).post('/reports/schedules', { saved_report_id: rep.body.id, webhook_id: webhookId, cron: '0 8 * * 1', timezone: 'Mars/Olympus', parameters: { nope: 1 } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(['body.timezone']);
    const created = await rest(s.url, t.adminToken).post('/reports/schedules', { saved_report_id: rep.body.id, webhook_id: webhookId, cron: '0 8 * * 1', timezone: 'Europe/Berlin', format: 'json', parameters: { since_hours: 72 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ enabled: true, cron: '0 8 * * 1', timezone: 'Europe/Berlin', format: 'json', disabled_reason: null });
    const sid = created.body.id;
    const scheduler = await s.app.rt.queues.get('reports').getJobScheduler(`report-schedule-${sid}`);
    expect(scheduler).toMatchObject({ pattern: '0 8 * * 1', tz: 'Europe/Berlin' });
    expect((await rest(s.url, other.adminToken).get(`/reports/schedules/${sid}`)).status).toBe(404);
    expect((await rest(s.url, other.adminToken).post(`/reports/schedules/${sid}/run`)).status).toBe(404);

    const run = await rest(s.url, t.adminToken).post(`/reports/schedules/${sid}/run`);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ status: 'delivered', row_count: 2 });
    const req = await eventually(async () => rcv.requests.find((r) => r.headers['x-service-event'] === 'report.delivered'), 20_000);
    expect(req.headers['x-service-signature']).toBe(crypto.createHmac('sha256', secret).update(req.body).digest('hex'));
    const delivered = JSON.parse(req.body);
    expect(delivered).toMatchObject({ topic: 'report.delivered', kind: 'report.delivered', payload: { schedule_id: sid, saved_report: { id: rep.body.id, name: 'Critical by source' }, format: 'json', row_count: 2 } });
    expect(delivered.payload.rows).toEqual([
      { source: 'db-1', count: 2 },
      { source: 'db-2', count: 1 },
    ]);
    expect(delivered).not.toHaveProperty('addressedTo');

    // The webhook is deleted: its schedule is disabled at once, with the reason, and its cron removed.
    expect(await s.app.rt.queues.get('reports').getJobScheduler(`report-schedule-${sid}`)).toBeTruthy();
    expect((await gql(s.url, t.adminToken, 'mutation($id: ID!) { deleteOutboundWebhook(id: $id) }', { id: webhookId })).errors).toBeUndefined();
    expect((await rest(s.url, t.adminToken).get(`/reports/schedules/${sid}`)).body).toMatchObject({ enabled: false, disabled_reason: 'Its outbound webhook was deleted.' });
    expect(await s.app.rt.queues.get('reports').getJobScheduler(`report-schedule-${sid}`)).toBeUndefined();
    const gone = await rest(s.url, t.adminToken).post(`/reports/schedules/${sid}/run`);
    expect(gone.body).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/webhook was deleted/) });

    // The report is deleted: its schedules are disabled at once.
    const hook2 = await gql(s.url, t.adminToken, 'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }', { input: { name: 'r2', url: rcv.url, triggers: [{ on: 'REPORT_DELIVERED' }] } });
    expect(hook2.errors).toBeUndefined();
    const second = await rest(s.url, t.adminToken).post('/reports/schedules', { saved_report_id: rep.body.id, webhook_id: hook2.data.createOutboundWebhook.id, cron: '*/5 * * * *', format: 'csv' });
    expect(second.status).toBe(201);
    expect((await rest(s.url, aliceToken).delete(`/reports/saved/${rep.body.id}`)).status).toBe(204);
    expect((await rest(s.url, t.adminToken).get(`/reports/schedules/${second.body.id}`)).body).toMatchObject({ enabled: false, saved_report_id: null, disabled_reason: expect.stringMatching(/saved report was deleted/) });
    expect((await rest(s.url, t.adminToken).delete(`/reports/schedules/${second.body.id}`)).status).toBe(204);
  });
  it('runs on its cron pattern through the BullMQ job scheduler and the reports worker', async () => {
    const hook = await gql(s.url, t.adminToken, 'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }', { input: { name: 'cron', url: rcv.url, triggers: [{ on: 'ALERT_RESOLVED' }] } });
    const rep = await rest(s.url, aliceToken).post('/reports/saved', { name: 'Every second', query: { entity: 'events', aggregate: 'count' } });
    const invalidCron = await rest(s.url, t.adminToken).post('/reports/schedules', { saved_report_id: rep.body.id, webhook_id: hook.data.createOutboundWebhook.id, cron: '99 99 99 99 99' });
    expect(invalidCron.status).toBe(422);
    expect(invalidCron.body.detail[0].loc).toEqual(['body', 'cron']);
    const created = await rest(s.url, t.adminToken).post('/reports/schedules', { saved_report_id: rep.body.id, webhook_id: hook.data.createOutboundWebhook.id, cron: '* * * * * *', format: 'csv' });
    expect(created.status).toBe(201);
    const req = await eventually(async () => rcv.requests.find((r) => r.headers['x-service-event'] === 'report.delivered' && JSON.parse(r.body).payload.schedule_id === created.body.id), 20_000);
    expect(JSON.parse(req.body).payload).toMatchObject({ format: 'csv', csv: 'count\n5\n' });
    expect((await rest(s.url, t.adminToken).delete(`/reports/schedules/${created.body.id}`)).status).toBe(204);
    expect(await s.app.rt.queues.get('reports').getJobScheduler(`report-schedule-${created.body.id}`)).toBeUndefined();
  });
});

describe('GraphQL parity', () => {
  it('runs reportQuery, translateReport and reportSchema with UPPER_CASE enums and GraphQL paths in errors', async () => {
    const r = await gql(s.url, aliceToken, 'query($q: JSON!) { reportQuery(query: $q) { entity columns { name type } rows rowCount truncated } }', { q: { entity: 'events', aggregate: 'count' } });
    expect(r.errors).toBeUndefined();
    expect(r.data.reportQuery).toEqual({ entity: 'EVENTS', columns: [{ name: 'count', type: 'INTEGER' }], rows: [{ count: 5 }], rowCount: 1, truncated: false });
    const bad = await gql(s.url, aliceToken, 'query($q: JSON!) { reportQuery(query: $q) { rowCount } }', { q: { entity: 'events', filters: [{ field: 'type', op: 'gt', value: 1 }] } });
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((bad.errors?.[0].extensions?.fields as Array<{ loc: string[] }>)[0].loc).toEqual(['query', 'filters', '0', 'op']);
    const tr = await gql(s.url, aliceToken, '{ translateReport(text: "events from ci per day this week") { query valid errors { loc msg } } }');
    expect(tr.data.translateReport).toMatchObject({ valid: true, errors: [], query: { entity: 'events', bucket: '1d', since_hours: 168 } });
    const sc = await gql(s.url, aliceToken, '{ reportSchema reportExportUrl(format: CSV) }');
    expect(sc.data.reportSchema.schema.$schema).toMatch(/2020-12/);
    expect(sc.data.reportExportUrl).toBe('/api/v1/reports/query/export?format=csv');
  });
});
