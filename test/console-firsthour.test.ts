/**
 * The first hour in the console, second pass (issue 24), in a real browser (chromium via playwright-core)
 * against the real server: an event's own page (labels, payload, the alert it opened, its device) reached
 * from the timeline; the timeline's label filter and the alerts' search and filters kept in the URL (a
 * shared link opens the same view); a stat panel totals its rows; the dcgm targets as a list of URL
 * inputs; tables as cards at phone width; the keyboard shortcuts and the skip link; audit targets named
 * and linked. Screenshots: test-results/console/firsthour-*.png.
 */
import { describe, expect, it } from 'vitest';
import { eventually, gql, rest } from './helpers/http.js';
import { openPage, screenshot, signIn } from './helpers/browser.js';
import { useConsoleSuite, s, t, b, admin, ingest } from './helpers/console-suite.js';

let deviceId: string;
let eventId: string;
let alertId: string;

const api = async (query: string, variables?: Record<string, unknown>) =>
  (await gql(s.url, t.adminToken, query, variables)).data;

useConsoleSuite({
  env: { INGEST_RATE_PER_SECOND: '1000', WEBHOOK_URL_ALLOWLIST: '127.0.0.1' },
  setUp: async () => {
    deviceId = (
      await api(
        'mutation { createDevice(input: { name: "gpu-node-7", site: "fra1", role: "gpu", platform: "linux" }) { id } }',
      )
    ).createDevice.id;
    await api('mutation($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }', {
      input: {
        name: 'GPU XID',
        kind: 'MATCH',
        typeGlob: 'gpu.xid',
        alertSeverity: 'CRITICAL',
        summaryTemplate: 'XID on {{source}}',
      },
    });
    // Two events: one on gpu-node-7 (device label), labelled and with a nested payload; one other.
    expect(
      (
        await ingest({
          type: 'gpu.xid',
          source: 'gpu-node-7',
          severity: 'critical',
          summary: 'XID 79 on GPU 3',
          labels: { env: 'prod', device: 'gpu-node-7' },
          payload: { xid: 79, gpu: { index: 3, uuid: 'GPU-abc' } },
        })
      ).status,
    ).toBe(202);
    expect(
      (await ingest({ type: 'deploy.finished', source: 'ci', summary: 'deploy 42 done', labels: { env: 'staging' } }))
        .status,
    ).toBe(202);
    const alert = await eventually(
      async () => (await api('{ alerts(first: 5) { edges { node { id events { id } } } } }')).alerts.edges[0]?.node,
      30_000,
    );
    alertId = alert.id;
    eventId = alert.events[0].id;
    // The device link: the event is tied to the device the way the source of truth would tie it.
    await s.app.rt.prisma.event.update({ where: { id: eventId }, data: { deviceId } });
  },
});

describe('event detail', () => {
  it('opens from a timeline row and shows labels, the payload pretty-printed, the alert it opened and the device', async () => {
    await openPage(admin, 'Timeline'); // the console opens on Home
    await admin.getByRole('table', { name: 'Events' }).getByRole('link', { name: 'XID 79 on GPU 3' }).click();
    await admin.getByRole('heading', { level: 1, name: 'XID 79 on GPU 3' }).waitFor();
    expect(new URL(admin.url()).pathname).toBe(`/events/${eventId}`);
    const labels = admin.getByRole('list', { name: 'Event labels' });
    await labels.getByText('env=prod').waitFor();
    await labels.getByText('device=gpu-node-7').waitFor();
    const payload = await admin.getByLabel('Event payload').textContent();
    expect(JSON.parse(payload!)).toEqual({ xid: 79, gpu: { index: 3, uuid: 'GPU-abc' } });
    expect(payload).toContain('\n  "gpu": {'); // pretty-printed, not one line
    await admin.getByRole('link', { name: 'gpu-node-7', exact: true }).waitFor();
    const alerts = admin.getByRole('table', { name: 'Alerts of this event' });
    await alerts.getByRole('link', { name: 'XID on gpu-node-7' }).waitFor();
    await screenshot(admin, 'firsthour-event-detail');
    // Its own URL: a reload lands on the same event; the alert link leads to the alert, whose events link back.
    await admin.reload();
    await admin.getByRole('heading', { level: 1, name: 'XID 79 on GPU 3' }).waitFor();
    await admin
      .getByRole('table', { name: 'Alerts of this event' })
      .getByRole('link', { name: 'XID on gpu-node-7' })
      .click();
    await admin.getByRole('heading', { level: 1, name: 'XID on gpu-node-7' }).waitFor();
    expect(new URL(admin.url()).pathname).toBe(`/alerts/${alertId}`);
    await admin.getByRole('table', { name: 'Alert events' }).getByRole('link', { name: 'XID 79 on GPU 3' }).click();
    await admin.getByRole('heading', { level: 1, name: 'XID 79 on GPU 3' }).waitFor();
  });

  it('says so when an event opened no alert', async () => {
    await openPage(admin, 'Timeline');
    await admin.getByRole('table', { name: 'Events' }).getByRole('link', { name: 'deploy 42 done' }).click();
    await admin.getByRole('table', { name: 'Alerts of this event' }).getByText('This event opened no alert').waitFor();
  });
});

describe('search and filters', () => {
  it('filters the timeline by label, and keeps the filter in the URL', async () => {
    await openPage(admin, 'Timeline');
    const events = admin.getByRole('table', { name: 'Events' });
    await events.getByRole('link', { name: 'deploy 42 done' }).waitFor();
    await admin.getByLabel('Labels').fill('env=prod');
    await eventually(async () => (await events.getByRole('link', { name: 'deploy 42 done' }).count()) === 0, 15_000);
    await events.getByRole('link', { name: 'XID 79 on GPU 3' }).waitFor();
    expect(new URL(admin.url()).searchParams.get('label')).toBe('env=prod');
    // A pasted link opens the same filtered view.
    const shared = await b.newPage();
    await signIn(shared, s.url, t.admin.email, t.adminPassword);
    await shared.goto(`${s.url}/timeline?label=${encodeURIComponent('env=staging')}`);
    await shared.getByRole('table', { name: 'Events' }).getByRole('link', { name: 'deploy 42 done' }).waitFor();
    expect(
      await shared.getByRole('table', { name: 'Events' }).getByRole('link', { name: 'XID 79 on GPU 3' }).count(),
    ).toBe(0);
    expect(await shared.getByLabel('Labels').inputValue()).toBe('env=staging');
    await shared.context().close();
  });

  it('searches alerts by text, filters by severity, status "any" and source, all in the URL', async () => {
    await api('mutation($id: ID!) { resolveAlert(id: $id) { id } }', { id: alertId });
    await openPage(admin, 'Alerts');
    const table = admin.getByRole('table', { name: 'Alerts' });
    // Resolved: not among the live ones (the default), back with status "any".
    await table.getByText('No alerts match').waitFor();
    await admin.getByLabel('Status').selectOption('any');
    await table.getByRole('link', { name: 'XID on gpu-node-7' }).waitFor();
    await admin.getByLabel('Search').fill('no such words');
    await table.getByText('No alerts match').waitFor();
    await admin.getByLabel('Search').fill('xid');
    await table.getByRole('link', { name: 'XID on gpu-node-7' }).waitFor();
    await admin.getByLabel('Severity').selectOption('CRITICAL');
    await admin.getByLabel('Source').fill('gpu-node-7');
    await eventually(async () => new URL(admin.url()).searchParams.get('source') === 'gpu-node-7', 15_000);
    await table.getByRole('link', { name: 'XID on gpu-node-7' }).waitFor();
    const q = new URL(admin.url()).searchParams;
    expect(Object.fromEntries(q)).toEqual({ status: 'any', q: 'xid', severity: 'CRITICAL', source: 'gpu-node-7' });
    // The same view from the link, at phone width: cards, nothing clipped.
    const phone = await b.newPage({ narrow: true });
    await signIn(phone, s.url, t.admin.email, t.adminPassword);
    await phone.goto(`${s.url}/alerts?${q}`);
    const link = phone.getByRole('table', { name: 'Alerts' }).getByRole('link', { name: 'XID on gpu-node-7' });
    await link.waitFor();
    expect(await phone.getByLabel('Search').inputValue()).toBe('xid');
    expect(await phone.getByLabel('Status').inputValue()).toBe('any');
    const lastSeen = phone.locator('td[data-label="Last seen"]').first();
    await lastSeen.waitFor();
    const box = (await lastSeen.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'firsthour-alerts-filtered-phone');
    // The timeline at phone width shows the summary in the card.
    await phone.goto(`${s.url}/timeline`);
    const summary = phone.locator('td[data-label="Summary"]').getByRole('link', { name: 'XID 79 on GPU 3' });
    await summary.waitFor();
    const sb = (await summary.boundingBox())!;
    expect(sb.x + sb.width).toBeLessThanOrEqual(390);
    await screenshot(phone, 'firsthour-timeline-phone');
    await phone.context().close();
  });

  it('REST GET /alerts accepts status=any, as the console offers it', async () => {
    const all = await rest(s.url, t.adminToken).get('/alerts?status=any');
    expect(all.status).toBe(200);
    expect(all.body.items.map((a: { id: string }) => a.id)).toContain(alertId);
    expect((await rest(s.url, t.adminToken).get('/alerts?status=open')).body.items).toEqual([]);
    const bad = await rest(s.url, t.adminToken).get('/alerts?status=sometimes');
    expect(bad.status).toBe(422);
  });
});

describe('dashboards', () => {
  it('a stat panel shows the total over every row, not the first row', async () => {
    for (const summary of ['w1', 'w2'])
      expect((await ingest({ type: 'stat.t', source: 'stat-src', severity: 'warning', summary })).status).toBe(202);
    expect((await ingest({ type: 'stat.t', source: 'stat-src', severity: 'info', summary: 'i1' })).status).toBe(202);
    expect((await ingest({ type: 'stat.t', source: 'stat-src', severity: 'info', summary: 'i2' })).status).toBe(202);
    const report = (
      await api('mutation($input: SavedReportInput!) { createSavedReport(input: $input) { id } }', {
        input: {
          name: 'stat events',
          query: {
            entity: 'events',
            filters: [{ field: 'source', op: 'eq', value: 'stat-src' }],
            group_by: ['severity'],
            aggregate: [{ fn: 'count' }],
          },
        },
      })
    ).createSavedReport;
    await api('mutation($input: DashboardInput!) { createDashboard(input: $input) { id } }', {
      input: {
        name: 'Stats',
        panels: [{ title: 'Stat events', viz: 'STAT', savedReportId: report.id, position: { x: 0, y: 0, w: 4, h: 2 } }],
      },
    });
    // Two groups of two: the first row alone says 2.
    const rows = await eventually(async () => {
      const d = (await api('{ dashboards { panels { data { rows } } } }')).dashboards[0].panels[0].data.rows as {
        count: number;
      }[];
      return d.reduce((a, r) => a + Number(r.count), 0) === 4 ? d : null;
    }, 15_000);
    expect(rows).toHaveLength(2);
    await openPage(admin, 'Dashboards');
    await expect.poll(async () => admin.getByLabel('Stat events value').textContent(), { timeout: 15_000 }).toBe('4');
  });
});

describe('forms', () => {
  it('takes dcgm targets as a list of URL inputs', async () => {
    await openPage(admin, 'Integrations');
    await admin.getByLabel('Provider').selectOption({ label: 'NVIDIA DCGM exporter' });
    await admin.getByLabel('Integration name').fill('dcgm fleet');
    await admin.getByLabel('targets (required) 1').fill('http://127.0.0.1:9401/metrics');
    await admin.getByRole('button', { name: 'Add URL' }).click();
    await admin.getByLabel('targets (required) 2').fill('http://127.0.0.1:9402/metrics');
    await screenshot(admin, 'firsthour-dcgm-targets');
    await admin.getByRole('button', { name: 'Create integration' }).click();
    const config = await eventually(
      async () =>
        (await api('{ integrations { name config } }')).integrations.find(
          (i: { name: string }) => i.name === 'dcgm fleet',
        )?.config,
      15_000,
    );
    expect(config.targets).toEqual(['http://127.0.0.1:9401/metrics', 'http://127.0.0.1:9402/metrics']);
  });

  it('shows the hint of a pull that found no enabled integration of the provider', async () => {
    const row = admin.getByRole('row').filter({ hasText: 'dcgm fleet' });
    await row.getByRole('button', { name: 'Disable' }).click();
    await row.getByRole('button', { name: 'Enable' }).waitFor();
    await row.getByRole('button', { name: 'Pull now' }).click();
    const note = admin.getByRole('status').filter({ hasText: 'Nothing pulled from dcgm.' });
    await note.getByText(/No enabled NVIDIA DCGM exporter integration: 1 is disabled/).waitFor();
    await screenshot(admin, 'firsthour-pull-hint');
  });
});

describe('keyboard', () => {
  it('"?" lists the shortcuts, "g a" and "g t" navigate, "/" focuses search, and a skip link leads to the content', async () => {
    await openPage(admin, 'Timeline');
    await admin.locator('body').click({ position: { x: 5, y: 300 } });
    await admin.keyboard.press('?');
    const dialog = admin.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    await dialog.getByRole('cell', { name: 'Go to alerts' }).waitFor();
    await screenshot(admin, 'firsthour-shortcuts');
    await admin.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await admin.keyboard.press('g');
    await admin.keyboard.press('a');
    await admin.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    await admin.keyboard.press('/');
    await expect
      .poll(() =>
        admin.evaluate(() => (document.activeElement as HTMLInputElement | null)?.closest('label')?.textContent ?? ''),
      )
      .toContain('Search');
    // Typed into a field, "g t" is text, not navigation.
    await admin.keyboard.type('g t');
    expect(await admin.getByLabel('Search').inputValue()).toBe('g t');
    await admin.getByLabel('Search').fill('');
    await admin.locator('body').click({ position: { x: 5, y: 300 } });
    await admin.keyboard.press('g');
    await admin.keyboard.press('t');
    await admin.getByRole('heading', { level: 1, name: 'Timeline' }).waitFor();
    // The skip link is the first stop of the tab order and moves focus to the content.
    await admin.goto(`${s.url}/alerts`);
    await admin.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    await admin.keyboard.press('Tab');
    const skip = admin.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    await admin.keyboard.press('Enter');
    expect(await admin.evaluate(() => document.activeElement?.id)).toBe('content');
  });
});

describe('audit log', () => {
  it('names the object a mutation changed and links to it, not the payload type', async () => {
    await openPage(admin, 'Audit log');
    const table = admin.getByRole('table', { name: 'Audit log' });
    // createIntegration returns CreateIntegrationPayload; the row names the integration.
    const row = table.getByRole('row').filter({ hasText: 'createIntegration' });
    await row.getByRole('link', { name: /^integration / }).waitFor();
    expect(await table.getByText('CreateIntegrationPayload').count()).toBe(0);
    const created = (await api('{ integrations { id name } }')).integrations.find(
      (i: { name: string }) => i.name === 'dcgm fleet',
    );
    const audit = (
      await api('{ auditLog(first: 50, action: "createIntegration") { edges { node { targetType targetId } } } }')
    ).auditLog.edges[0].node;
    expect(audit).toEqual({ targetType: 'Integration', targetId: created.id });
    // An object with a page of its own links there.
    const device = table
      .getByRole('row')
      .filter({ hasText: 'createDevice' })
      .getByRole('link', { name: /^device / });
    expect(await device.getAttribute('href')).toBe(`/devices/${deviceId}`);
    await device.click();
    await admin.getByRole('heading', { level: 1, name: 'gpu-node-7' }).waitFor();
    expect(b.pageErrors).toEqual([]);
  });
});
