/**
 * Working alerts in the console (issue 44, items 7 and 9) in Debian's chromium against the real server: sortable
 * alert columns (aria-sort, kept in the URL), the Age column with the exact time on hover, multi-select
 * "Acknowledge selected" / "Resolve selected" showing the alert that failed, and on the alert page "Assign to…"
 * and a note box that adds to the timeline (a note added elsewhere shows up live). At 1280 px every alert column
 * is inside the viewport. Screenshots at 390, 1280 and 1440 px under test-results/console/ (gitignored).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildToken, buildUser } from './factories.js';
import { eventually, rest } from './helpers/http.js';
import { untilSubscribed } from './helpers/pubsub.js';
import { screenshot } from './helpers/browser.js';
import { useConsoleSuite, s, t, admin, ingest, api } from './helpers/console-suite.js';

const WIDTHS = [390, 1280, 1440];
let member: { email: string; id: string };
let memberToken: string;
/** The alerts by summary. */
const ids: Record<string, string> = {};

async function shots(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `alert-work-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The summaries of the alerts table's rows, top to bottom. */
async function rowSummaries(page: Page): Promise<string[]> {
  const links = page.getByRole('table', { name: 'Alerts' }).getByRole('row').getByRole('link');
  const texts = await links.allTextContents();
  return texts.filter((x) => x.startsWith('ops '));
}

const statusOf = async (id: string) =>
  (await api('query($id: ID!) { alert(id: $id) { status } }', { id })).alert.status;

useConsoleSuite({
  setUp: async () => {
    member = await buildUser(s.app.rt, t.tenantId, { role: 'member', kind: 'human', name: 'Mia Member' });
    memberToken = await buildToken(s.app.rt, member as never);
    for (const [glob, severity] of [
      ['ops.*', 'warning'],
      ['crit.*', 'critical'],
    ]) {
      const rule = await rest(s.url, t.adminToken).post('/alert-rules', {
        name: glob,
        type_glob: glob,
        alert_severity: severity,
        summary_template: '{{summary}}',
      });
      expect(rule.status).toBe(201);
    }
    // Counts 3, 1, 2, 1 (the last one resolved before the test starts).
    for (const [type, source, n] of [
      ['ops.disk_full', 'db-1', 3],
      ['crit.link_down', 'edge-1', 1],
      ['ops.cpu_hot', 'web-1', 2],
      ['crit.power', 'pdu-1', 1],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const r = await ingest({
          type,
          source,
          summary: `ops ${type} on ${source}`,
          // A long label (an integration's id) must not push a column out of view at 1280 px.
          labels: { service: 'checkout', integration_id: '0193b1f2-7c4e-7d3a-9f1e-2b3c4d5e6f70' },
        });
        expect(r.status).toBe(202);
      }
    }
    const alerts = await eventually(async () => {
      const items = (await rest(s.url, t.adminToken).get('/alerts')).body.items;
      return items.length === 4 && items.reduce((n: number, a: { count: number }) => n + a.count, 0) === 7
        ? items
        : null;
    }, 30_000);
    for (const a of alerts) ids[a.summary] = a.id;
    expect((await rest(s.url, t.adminToken).post(`/alerts/${ids['ops crit.power on pdu-1']}/resolve`)).status).toBe(
      200,
    );
  },
});

describe('the alerts list', () => {
  it('sorts by a column header (aria-sort, kept in the URL) and shows the age with the exact time on hover', async () => {
    await admin.setViewportSize({ width: 1280, height: 900 });
    await admin.goto(`${s.url}/alerts`);
    const table = admin.getByRole('table', { name: 'Alerts' });
    await table.getByRole('link', { name: 'ops ops.disk_full on db-1' }).waitFor();
    const count = table.getByRole('columnheader', { name: 'Count' });
    expect(await count.getAttribute('aria-sort')).toBe('none');

    await count.getByRole('button', { name: 'Count' }).click();
    await expect.poll(() => count.getAttribute('aria-sort')).toBe('descending');
    expect(new URL(admin.url()).searchParams.get('sort')).toBe('-count');
    await expect
      .poll(() => rowSummaries(admin))
      .toEqual(['ops ops.disk_full on db-1', 'ops ops.cpu_hot on web-1', 'ops crit.link_down on edge-1']);

    await count.getByRole('button', { name: 'Count' }).click();
    await expect.poll(() => count.getAttribute('aria-sort')).toBe('ascending');
    await expect
      .poll(() => rowSummaries(admin))
      .toEqual(['ops crit.link_down on edge-1', 'ops ops.cpu_hot on web-1', 'ops ops.disk_full on db-1']);

    // Severity, most severe first; a reload keeps the order (it is in the URL).
    const severity = table.getByRole('columnheader', { name: 'Severity' });
    await severity.getByRole('button', { name: 'Severity' }).click();
    await expect.poll(() => severity.getAttribute('aria-sort')).toBe('descending');
    await admin.reload();
    await expect.poll(() => severity.getAttribute('aria-sort')).toBe('descending');
    expect(await count.getAttribute('aria-sort')).toBe('none');
    await expect.poll(async () => (await rowSummaries(admin))[0]).toBe('ops crit.link_down on edge-1');

    // Age: relative, with the exact time in title and dateTime.
    const row = table.getByRole('row').filter({ hasText: 'ops ops.disk_full on db-1' });
    const age = row.getByRole('cell').nth(4).locator('time');
    const alert = (
      await api('query($id: ID!) { alert(id: $id) { firstSeenAt } }', { id: ids['ops ops.disk_full on db-1'] })
    ).alert;
    expect(await age.getAttribute('dateTime')).toBe(alert.firstSeenAt);
    // The exact time (the browser's locale), down to the second.
    expect(await age.getAttribute('title')).toMatch(/\d{1,2}:\d{2}:\d{2}/);
    expect(await age.textContent()).toMatch(/^(in )?\d+ (s|min|h|d)( ago)?$/);
  });

  it('at 1280 px shows every alert column inside the viewport', async () => {
    const table = admin.getByRole('table', { name: 'Alerts' });
    const headers = table.getByRole('columnheader');
    const n = await headers.count();
    expect(n).toBe(13);
    for (let i = 0; i < n; i++) {
      const box = await headers.nth(i).boundingBox();
      expect(box, `column ${i}`).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `column ${await headers.nth(i).textContent()}`).toBeLessThanOrEqual(1280);
    }
    await shots(admin, 'alerts-sorted');
  });

  it("at 390 px sorts through the Sort by field and shows each row's checkbox", async () => {
    await admin.setViewportSize({ width: 390, height: 900 });
    await admin.getByLabel('Sort by').selectOption({ label: 'count, ascending' });
    await expect.poll(() => new URL(admin.url()).searchParams.get('sort')).toBe('count');
    await expect
      .poll(() => rowSummaries(admin))
      .toEqual(['ops crit.link_down on edge-1', 'ops ops.cpu_hot on web-1', 'ops ops.disk_full on db-1']);
    const box = admin.getByRole('checkbox', { name: 'Select ops ops.cpu_hot on web-1' });
    expect(await box.isVisible()).toBe(true);
    const rect = (await box.boundingBox())!;
    expect(rect.width).toBeGreaterThan(5);
    expect(rect.x + rect.width).toBeLessThanOrEqual(390);
    await admin.setViewportSize({ width: 1280, height: 900 });
  });

  it('acknowledges the selected alerts and names the one that failed; resolves a selection', async () => {
    await admin.getByLabel('Status').selectOption('any');
    const table = admin.getByRole('table', { name: 'Alerts' });
    await table.getByRole('link', { name: 'ops crit.power on pdu-1' }).waitFor();
    const bulk = admin.getByRole('group', { name: 'Selected alerts' });
    expect(await bulk.getByRole('button', { name: 'Acknowledge selected' }).isDisabled()).toBe(true);
    await bulk.getByText('Select alerts first.').first().waitFor();

    await table.getByRole('checkbox', { name: 'Select all' }).check();
    await bulk.getByText('4 selected').waitFor();
    await bulk.getByRole('button', { name: 'Acknowledge selected' }).click();
    const outcome = bulk.getByRole('status', { name: 'Bulk result' });
    await outcome.getByText('3 acknowledged, 1 failed:').waitFor();
    const failure = outcome.getByRole('list', { name: 'Failures' }).getByRole('listitem');
    expect(await failure.count()).toBe(1);
    expect(await failure.textContent()).toMatch(
      /^ops crit\.power on pdu-1: Cannot acknowledge an alert that is resolved/,
    );
    for (const summary of ['ops ops.disk_full on db-1', 'ops crit.link_down on edge-1', 'ops ops.cpu_hot on web-1'])
      expect(await statusOf(ids[summary]!)).toBe('ACKNOWLEDGED');
    // The failed one stays selected; the rest leave the selection.
    await bulk.getByText('1 selected').waitFor();
    await shots(admin, 'alerts-bulk');

    await table.getByRole('checkbox', { name: 'Select ops crit.power on pdu-1' }).uncheck();
    await table.getByRole('checkbox', { name: 'Select ops ops.cpu_hot on web-1' }).check();
    await bulk.getByRole('button', { name: 'Resolve selected' }).click();
    await outcome.getByText('1 resolved.').waitFor();
    expect(await statusOf(ids['ops ops.cpu_hot on web-1']!)).toBe('RESOLVED');
    expect(await statusOf(ids['ops ops.disk_full on db-1']!)).toBe('ACKNOWLEDGED');
  });
});

describe('the alert page', () => {
  it('assigns the alert to someone and adds notes to its timeline; a note added elsewhere shows up live', async () => {
    const id = ids['ops ops.disk_full on db-1']!;
    await admin.goto(`${s.url}/alerts/${id}`);
    await admin.getByRole('heading', { level: 1, name: 'ops ops.disk_full on db-1' }).waitFor();
    const timeline = admin.getByRole('table', { name: 'Alert timeline' });

    await admin.getByLabel('Assign to…').selectOption({ label: `Mia Member (${member.email})` });
    await admin.getByRole('button', { name: 'Assign', exact: true }).click();
    await timeline
      .getByRole('row')
      .filter({ hasText: `Assigned to ${member.email}.` })
      .filter({ hasText: t.admin.email })
      .waitFor();
    await admin.getByRole('definition').filter({ hasText: member.email }).waitFor();
    expect((await api('query($id: ID!) { alert(id: $id) { assignee { id } } }', { id })).alert.assignee.id).toBe(
      member.id,
    );

    const noteBox = admin.getByRole('form', { name: 'Add a note' }).getByRole('textbox');
    await noteBox.fill('Log rotation was off on db-1; turned it on.');
    await admin.getByRole('button', { name: 'Add note' }).click();
    const noteRow = timeline.getByRole('row').filter({ hasText: 'Log rotation was off on db-1; turned it on.' });
    await noteRow.waitFor();
    expect(await noteRow.getByRole('cell').nth(1).textContent()).toBe('note');
    expect(await noteBox.inputValue()).toBe('');

    // Someone else's note, over REST, appears on the open page without a reload.
    await untilSubscribed(s.app.rt, 'alertChanged', t.tenantId);
    const r = await rest(s.url, memberToken).post(`/alerts/${id}/notes`, { text: 'Disk at 61% now.' });
    expect(r.status).toBe(201);
    await timeline.getByRole('row').filter({ hasText: 'Disk at 61% now.' }).filter({ hasText: member.email }).waitFor();
    const timelineRead = (
      await api('query($id: ID!) { alert(id: $id) { timeline { action note actor { email } } } }', { id })
    ).alert.timeline;
    expect(timelineRead.filter((e: { action: string }) => e.action === 'note')).toEqual([
      { action: 'note', note: 'Log rotation was off on db-1; turned it on.', actor: { email: t.admin.email } },
      { action: 'note', note: 'Disk at 61% now.', actor: { email: member.email } },
    ]);
    await shots(admin, 'alert-assign-notes');
  });
});
