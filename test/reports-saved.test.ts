/**
 * Saved reports, dashboards (REST and GraphQL, one run per distinct report) and schedules delivering a
 * signed `report.delivered` to a real receiver on 127.0.0.1, on their cron through BullMQ. Set-up:
 * test/helpers/reports-suite.ts.
 */
import crypto from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { eventually, gql, rest } from './helpers/http.js';
import { countStatements } from './helpers/sql-statements.js';
import { aliceToken, bobToken, other, rcv, s, sent, t, useReportsSuite } from './helpers/reports-suite.js';

useReportsSuite();

describe('saved reports', () => {
  it('saves, runs with parameter overrides, and lets only the owner or an admin change it', async () => {
    const body = {
      name: 'Events by source',
      description: 'per source',
      query: { entity: 'events', filters: [{ field: 'source', op: 'eq', value: 'ci' }], aggregate: 'count' },
    };
    sent.push(body.query);
    const created = await rest(s.url, aliceToken).post('/reports/saved', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Events by source',
      entity: 'events',
      can_edit: true,
      query: { entity: 'events', since_hours: 24, limit: 1000 },
    });
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
    const badQuery = await rest(s.url, aliceToken).patch(`/reports/saved/${id}`, {
      query: { entity: 'events', filters: [{ field: 'source', op: 'gt', value: 'a' }] },
    });
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
    const dash = await rest(s.url, aliceToken).post('/reports/dashboards', {
      name: 'D',
      panels: [{ title: 'p', saved_report_id: id, viz: 'table', position: { x: 0, y: 0, w: 4, h: 3 } }],
    });
    expect(dash.status).toBe(201);
    expect((await o.get(`/reports/dashboards/${dash.body.id}`)).status).toBe(404);
    expect((await o.get(`/reports/dashboards/${dash.body.id}/data`)).status).toBe(404);
    expect((await o.patch(`/reports/dashboards/${dash.body.id}`, { name: 'x' })).status).toBe(404);
    expect((await o.delete(`/reports/dashboards/${dash.body.id}`)).status).toBe(404);
    // A dashboard cannot point at another tenant's report.
    const foreignPanel = await o.post('/reports/dashboards', {
      name: 'D',
      panels: [{ title: 'p', saved_report_id: id, viz: 'table', position: { x: 0, y: 0, w: 4, h: 3 } }],
    });
    expect(foreignPanel.status).toBe(422);
    expect(foreignPanel.body.detail[0].loc).toEqual(['body', 'panels', '0', 'saved_report_id']);
  });
});

describe('dashboards', () => {
  it("returns every panel's data in one request, over REST and GraphQL", async () => {
    const a = await rest(s.url, aliceToken).post('/reports/saved', {
      name: 'Alerts per day',
      query: { entity: 'alerts', since_hours: 96, bucket: '1d', group_by: ['severity'] },
    });
    const b = await rest(s.url, aliceToken).post('/reports/saved', {
      name: 'Event count',
      query: { entity: 'events', aggregate: 'count' },
    });
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

    expect((await rest(s.url, bobToken).patch(`/reports/dashboards/${dash.body.id}`, { name: 'bob' })).status).toBe(
      403,
    );
    const g = await gql(
      s.url,
      bobToken,
      'query($id: ID!) { dashboard(id: $id) { name panels { title viz data { entity rowCount rows } } } }',
      { id: dash.body.id },
    );
    expect(g.errors).toBeUndefined();
    expect(
      g.data.dashboard.panels.map((p: { viz: string; data: { entity: string } }) => [p.viz, p.data.entity]),
    ).toEqual([
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

describe('dashboards over GraphQL', () => {
  it('resolves panels { data } with one saved-report read and one run per distinct report, however many panels', async () => {
    const a = await rest(s.url, aliceToken).post('/reports/saved', {
      name: 'A',
      query: { entity: 'alerts', aggregate: 'count' },
    });
    const b = await rest(s.url, aliceToken).post('/reports/saved', {
      name: 'B',
      query: { entity: 'events', aggregate: 'count' },
    });
    const panel = (id: string, i: number) => ({
      title: `p${i}`,
      saved_report_id: id,
      viz: 'stat',
      position: { x: i, y: 0, w: 1, h: 1 },
    });
    for (let d = 0; d < 3; d++) {
      const r = await rest(s.url, bobToken).post('/reports/dashboards', {
        name: `GQL ${d}`,
        panels: [0, 1, 2, 3].map((i) => panel(i % 2 ? a.body.id : b.body.id, i)),
      });
      expect(r.status).toBe(201);
    }
    const { result, statements } = await countStatements(() =>
      gql(s.url, bobToken, '{ dashboards(limit: 3) { name panels { title data { rowCount rows } } } }'),
    );
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
    expect(
      (
        await rest(s.url, aliceToken).post('/reports/schedules', {
          saved_report_id: rep.body.id,
          webhook_id: 'x',
          cron: '0 8 * * 1',
        })
      ).status,
    ).toBe(403);
    const g = await gql(s.url, aliceToken, '{ reportSchedules { id } }');
    expect(g.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('delivers a signed report.delivered to the webhook, registers its cron, and disables itself when the webhook or report is deleted', async () => {
    const hook = await gql(
      s.url,
      t.adminToken,
      'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id secret } }',
      {
        input: { name: 'reports', url: rcv.url, triggers: [{ on: 'ALERT_OPENED', severities: ['CRITICAL'] }] },
      },
    );
    expect(hook.errors).toBeUndefined();
    const { id: webhookId, secret } = hook.data.createOutboundWebhook;
    const rep = await rest(s.url, aliceToken).post('/reports/saved', {
      name: 'Critical by source',
      query: {
        entity: 'alerts',
        filters: [{ field: 'severity', op: 'eq', value: 'critical' }],
        group_by: ['source'],
        order_by: [{ field: 'source', dir: 'asc' }],
      },
    });
    const bad = await rest(s.url, t.adminToken).post('/reports/schedules', {
      saved_report_id: rep.body.id,
      webhook_id: webhookId,
      cron: '0 8 * * 1',
      timezone: 'Mars/Olympus',
      parameters: { nope: 1 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(['body.timezone']);
    const created = await rest(s.url, t.adminToken).post('/reports/schedules', {
      saved_report_id: rep.body.id,
      webhook_id: webhookId,
      cron: '0 8 * * 1',
      timezone: 'Europe/Berlin',
      format: 'json',
      parameters: { since_hours: 72 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      enabled: true,
      cron: '0 8 * * 1',
      timezone: 'Europe/Berlin',
      format: 'json',
      disabled_reason: null,
    });
    const sid = created.body.id;
    const scheduler = await s.app.rt.queues.get('reports').getJobScheduler(`report-schedule-${sid}`);
    expect(scheduler).toMatchObject({ pattern: '0 8 * * 1', tz: 'Europe/Berlin' });
    expect((await rest(s.url, other.adminToken).get(`/reports/schedules/${sid}`)).status).toBe(404);
    expect((await rest(s.url, other.adminToken).post(`/reports/schedules/${sid}/run`)).status).toBe(404);

    const run = await rest(s.url, t.adminToken).post(`/reports/schedules/${sid}/run`);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ status: 'delivered', row_count: 2 });
    const req = await eventually(
      async () => rcv.requests.find((r) => r.headers['x-service-event'] === 'report.delivered'),
      20_000,
    );
    expect(req.headers['x-service-signature']).toBe(crypto.createHmac('sha256', secret).update(req.body).digest('hex'));
    const delivered = JSON.parse(req.body);
    expect(delivered).toMatchObject({
      topic: 'report.delivered',
      kind: 'report.delivered',
      payload: {
        schedule_id: sid,
        saved_report: { id: rep.body.id, name: 'Critical by source' },
        format: 'json',
        row_count: 2,
      },
    });
    expect(delivered.payload.rows).toEqual([
      { source: 'db-1', count: 2 },
      { source: 'db-2', count: 1 },
    ]);
    expect(delivered).not.toHaveProperty('addressedTo');

    // The webhook is deleted: its schedule is disabled at once, with the reason, and its cron removed.
    expect(await s.app.rt.queues.get('reports').getJobScheduler(`report-schedule-${sid}`)).toBeTruthy();
    expect(
      (await gql(s.url, t.adminToken, 'mutation($id: ID!) { deleteOutboundWebhook(id: $id) }', { id: webhookId }))
        .errors,
    ).toBeUndefined();
    expect((await rest(s.url, t.adminToken).get(`/reports/schedules/${sid}`)).body).toMatchObject({
      enabled: false,
      disabled_reason: 'Its outbound webhook was deleted.',
    });
    expect(await s.app.rt.queues.get('reports').getJobScheduler(`report-schedule-${sid}`)).toBeUndefined();
    const gone = await rest(s.url, t.adminToken).post(`/reports/schedules/${sid}/run`);
    expect(gone.body).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/webhook was deleted/) });

    // The report is deleted: its schedules are disabled at once.
    const hook2 = await gql(
      s.url,
      t.adminToken,
      'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }',
      { input: { name: 'r2', url: rcv.url, triggers: [{ on: 'REPORT_DELIVERED' }] } },
    );
    expect(hook2.errors).toBeUndefined();
    const second = await rest(s.url, t.adminToken).post('/reports/schedules', {
      saved_report_id: rep.body.id,
      webhook_id: hook2.data.createOutboundWebhook.id,
      cron: '*/5 * * * *',
      format: 'csv',
    });
    expect(second.status).toBe(201);
    expect((await rest(s.url, aliceToken).delete(`/reports/saved/${rep.body.id}`)).status).toBe(204);
    expect((await rest(s.url, t.adminToken).get(`/reports/schedules/${second.body.id}`)).body).toMatchObject({
      enabled: false,
      saved_report_id: null,
      disabled_reason: expect.stringMatching(/saved report was deleted/),
    });
    expect((await rest(s.url, t.adminToken).delete(`/reports/schedules/${second.body.id}`)).status).toBe(204);
  });
  it('runs on its cron pattern through the BullMQ job scheduler and the reports worker', async () => {
    const hook = await gql(
      s.url,
      t.adminToken,
      'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }',
      { input: { name: 'cron', url: rcv.url, triggers: [{ on: 'ALERT_RESOLVED' }] } },
    );
    const rep = await rest(s.url, aliceToken).post('/reports/saved', {
      name: 'Every second',
      query: { entity: 'events', aggregate: 'count' },
    });
    const invalidCron = await rest(s.url, t.adminToken).post('/reports/schedules', {
      saved_report_id: rep.body.id,
      webhook_id: hook.data.createOutboundWebhook.id,
      cron: '99 99 99 99 99',
    });
    expect(invalidCron.status).toBe(422);
    expect(invalidCron.body.detail[0].loc).toEqual(['body', 'cron']);
    const created = await rest(s.url, t.adminToken).post('/reports/schedules', {
      saved_report_id: rep.body.id,
      webhook_id: hook.data.createOutboundWebhook.id,
      cron: '* * * * * *',
      format: 'csv',
    });
    expect(created.status).toBe(201);
    const req = await eventually(
      async () =>
        rcv.requests.find(
          (r) =>
            r.headers['x-service-event'] === 'report.delivered' &&
            JSON.parse(r.body).payload.schedule_id === created.body.id,
        ),
      20_000,
    );
    expect(JSON.parse(req.body).payload).toMatchObject({ format: 'csv', csv: 'count\n5\n' });
    expect((await rest(s.url, t.adminToken).delete(`/reports/schedules/${created.body.id}`)).status).toBe(204);
    expect(await s.app.rt.queues.get('reports').getJobScheduler(`report-schedule-${created.body.id}`)).toBeUndefined();
  });
});

describe('GET /reports/query/schema (documents of saved reports)', () => {
  it('validates every query document this file saved or ran', async () => {
    const r = await rest(s.url, aliceToken).get('/reports/query/schema');
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(r.body.schema);
    expect(sent.length).toBeGreaterThan(0);
    for (const q of sent) expect(validate(q), `${JSON.stringify(q)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  });
});
