/**
 * Report queries over REST with PATs (and GraphQL parity) against the real service: counts for ingested
 * data, day buckets at any time of day (injected clock), 422 paths, the JSON Schema endpoint, the offline
 * translator. Saved reports, dashboards and schedules: test/reports-saved.test.ts; the large export:
 * test/reports-export.test.ts. Set-up: test/helpers/reports-suite.ts.
 */
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { TIMES_OF_DAY } from './helpers/clock.js';
import { buildTenant, buildToken, buildUser } from './factories.js';
import { gql, rest } from './helpers/http.js';
import {
  aliceToken,
  clock,
  dayOf,
  daysAgo,
  query,
  s,
  seedAlerts,
  sent,
  useReportsSuite,
} from './helpers/reports-suite.js';

useReportsSuite();

describe('POST /reports/query', () => {
  it("counts ingested events, filtered and grouped, for the caller's tenant only", async () => {
    const count = await query(aliceToken, {
      entity: 'events',
      filters: [{ field: 'source', op: 'eq', value: 'ci' }],
      aggregate: 'count',
    });
    expect(count.status).toBe(200);
    expect(count.body).toEqual({
      entity: 'events',
      columns: [{ name: 'count', type: 'integer' }],
      rows: [{ count: 3 }],
      row_count: 1,
      truncated: false,
    });

    const bySource = await query(aliceToken, {
      entity: 'events',
      group_by: ['source'],
      order_by: [{ field: 'source', dir: 'asc' }],
    });
    expect(bySource.body.rows).toEqual([
      { source: 'ci', count: 3 },
      { source: 'db-1', count: 2 },
    ]);
    const labelled = await query(aliceToken, {
      entity: 'events',
      group_by: ['labels.env'],
      aggregate: [{ fn: 'count' }, { fn: 'sum', field: 'payload.duration' }],
      order_by: ['labels.env'],
    });
    expect(labelled.body.rows).toEqual([
      { 'labels.env': 'staging', count: 2, 'sum_payload.duration': null },
      { 'labels.env': 'prod', count: 3, 'sum_payload.duration': 60 },
    ]);
    const rows = await query(aliceToken, {
      entity: 'events',
      filters: [{ field: 'payload.pct', op: 'gte', value: 98 }],
      columns: ['source', 'payload.pct', 'received_at'],
    });
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
    expect(r.body.rows).toEqual(
      [
        { bucket: dayOf(daysAgo(2)), severity: 'info', count: 2 },
        { bucket: dayOf(daysAgo(1)), severity: 'critical', count: 1 },
        { bucket: dayOf(daysAgo(0)), severity: 'warning', count: 1 },
        { bucket: dayOf(daysAgo(0)), severity: 'critical', count: 2 },
      ].sort((a, b) => a.bucket.localeCompare(b.bucket) || a.severity.localeCompare(b.severity)),
    );
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
        const last24h = await query(token, {
          entity: 'alerts',
          since_hours: 24,
          filters: [{ field: 'severity', op: 'eq', value: 'critical' }],
        });
        expect(last24h.body.rows.map((x: { source: string }) => x.source).sort(), `at ${at}`).toEqual(['db-1', 'db-2']);
      }
    } finally {
      clock.reset();
    }
  });
  it('answers 422 naming the path of an unknown entity, field or op and of a wrongly typed value', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ entity: 'users' }, ['body', 'entity']],
      [
        {
          entity: 'alerts',
          filters: [
            { field: 'severity', op: 'eq', value: 'critical' },
            { field: 'nope', op: 'eq', value: 1 },
          ],
        },
        ['body', 'filters', '1', 'field'],
      ],
      [
        {
          entity: 'alerts',
          filters: [
            { field: 'severity', op: 'eq', value: 'critical' },
            { field: 'severity', op: 'like', value: 'x' },
          ],
        },
        ['body', 'filters', '1', 'op'],
      ],
      [
        {
          entity: 'alerts',
          filters: [
            { field: 'severity', op: 'eq', value: 'critical' },
            { field: 'severity', op: 'contains', value: 'x' },
          ],
        },
        ['body', 'filters', '1', 'op'],
      ],
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
    expect(r.body.catalogue.map((c: { entity: string }) => c.entity)).toEqual([
      'events',
      'alerts',
      'devices',
      'proposals',
    ]);
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
    const r = await rest(s.url, aliceToken).post('/reports/query/translate', {
      text: 'critical alerts in the last 24 hours',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      valid: true,
      errors: [],
      query: { entity: 'alerts', since_hours: 24, filters: [{ field: 'severity', op: 'eq', value: 'critical' }] },
    });
    const ran = await query(aliceToken, r.body.query);
    expect(ran.status).toBe(200);
    expect(ran.body.rows.map((x: { source: string }) => x.source).sort()).toEqual(['db-1', 'db-2']);

    const bySource = await rest(s.url, aliceToken).post('/reports/query/translate', {
      text: 'critical alerts in the last 24 hours by source',
    });
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

describe('GraphQL parity', () => {
  it('runs reportQuery, translateReport and reportSchema with UPPER_CASE enums and GraphQL paths in errors', async () => {
    const r = await gql(
      s.url,
      aliceToken,
      'query($q: JSON!) { reportQuery(query: $q) { entity columns { name type } rows rowCount truncated } }',
      { q: { entity: 'events', aggregate: 'count' } },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.reportQuery).toEqual({
      entity: 'EVENTS',
      columns: [{ name: 'count', type: 'INTEGER' }],
      rows: [{ count: 5 }],
      rowCount: 1,
      truncated: false,
    });
    const bad = await gql(s.url, aliceToken, 'query($q: JSON!) { reportQuery(query: $q) { rowCount } }', {
      q: { entity: 'events', filters: [{ field: 'type', op: 'gt', value: 1 }] },
    });
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((bad.errors?.[0].extensions?.fields as Array<{ loc: string[] }>)[0].loc).toEqual([
      'query',
      'filters',
      '0',
      'op',
    ]);
    const tr = await gql(
      s.url,
      aliceToken,
      '{ translateReport(text: "events from ci per day this week") { query valid errors { loc msg } } }',
    );
    expect(tr.data.translateReport).toMatchObject({
      valid: true,
      errors: [],
      query: { entity: 'events', bucket: '1d', since_hours: 168 },
    });
    const sc = await gql(s.url, aliceToken, '{ reportSchema reportExportUrl(format: CSV) }');
    expect(sc.data.reportSchema.schema.$schema).toMatch(/2020-12/);
    expect(sc.data.reportExportUrl).toBe('/api/v1/reports/query/export?format=csv');
  });
});
