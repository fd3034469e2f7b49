/**
 * The console's Reports, Dashboards and Copilot pages in a real browser (chromium via playwright-core)
 * against the real server: a report built, run, charted and exported as CSV (the downloaded file has the
 * rows), saved, put on a dashboard and scheduled to a webhook; a copilot turn answered by the builtin
 * provider (offline). Integrations, GPUs, billing and a member's view: console-insight-fleet.test.ts.
 * Screenshots: test-results/console/insight-*.png.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parse as parseCsv } from 'csv-parse/sync';
import { gql } from './helpers/http.js';
import { screenshot } from './helpers/browser.js';
import { SOURCE, SUMMARIES, ingestBuilds } from './helpers/insight-builds.js';
import { useConsoleSuite, s, t, admin as page } from './helpers/console-suite.js';

useConsoleSuite({
  env: { INGEST_RATE_PER_SECOND: '1000', WEBHOOK_URL_ALLOWLIST: '127.0.0.1' },
  setUp: async () => {
    await ingestBuilds(s.url, t.ingestKey);
  },
});

async function openPage(p: Page, link: string, heading = link) {
  if (await p.getByRole('button', { name: 'Menu' }).isVisible()) await p.getByRole('button', { name: 'Menu' }).click();
  await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await p.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

describe('reports', () => {
  it('builds a query from the schema, shows it as a table and a chart, and exports the rows as CSV', async () => {
    await openPage(page, 'Reports');
    // The entity list comes from reportSchema's catalogue (polled: the form is drawn before that query answers).
    await expect
      .poll(() => page.getByLabel('Entity').locator('option').allTextContents())
      .toEqual(expect.arrayContaining(['events', 'alerts', 'devices', 'proposals']));
    await page.getByLabel('Entity').selectOption('events');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByLabel('Filter 1 field').selectOption('source');
    // The ops offered are the field's ops from the schema.
    expect(await page.getByLabel('Filter 1 op').locator('option').allTextContents()).toEqual(
      expect.arrayContaining(['eq', 'prefix', 'contains']),
    );
    await page.getByLabel('Filter 1 op').selectOption('eq');
    await page.getByLabel('Filter 1 value').fill(SOURCE);
    await page.getByRole('button', { name: 'Run report' }).click();
    const table = page.getByRole('table', { name: 'Report result' });
    for (const summary of SUMMARIES) await table.getByRole('cell', { name: summary }).waitFor();
    expect(await table.getByRole('cell', { name: 'not in the report' }).count()).toBe(0);
    await screenshot(page, 'insight-reports-table');

    // Exported: the file the browser downloads has a header and exactly the matching rows.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^events.*\.csv$/);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    const rows = parseCsv(csv, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.summary).sort()).toEqual([...SUMMARIES].sort());
    expect(rows.every((r) => r.source === SOURCE)).toBe(true);
    await page.getByRole('status').filter({ hasText: 'Exported' }).waitFor();

    // Counted per severity: the chart shows the aggregate.
    await page.getByLabel('Group by').selectOption('severity');
    await page.getByLabel('Aggregate').selectOption('count');
    await page.getByRole('button', { name: 'Run report' }).click();
    await table.getByRole('cell', { name: 'warning' }).waitFor();
    await page.getByRole('button', { name: 'Chart' }).click();
    await page.getByRole('img', { name: 'Chart of the events report' }).waitFor();
    expect(await page.locator('figure.chart rect').count()).toBe(2);
    await screenshot(page, 'insight-reports-chart');

    await page.getByLabel('Report name').fill('CI builds by severity');
    await page.getByRole('button', { name: 'Save report' }).click();
    await page
      .getByRole('table', { name: 'Saved reports' })
      .getByRole('cell', { name: 'CI builds by severity', exact: true })
      .waitFor();
    const saved = await gql(s.url, t.adminToken, '{ savedReports { name query } }');
    expect(saved.data.savedReports).toEqual([
      {
        name: 'CI builds by severity',
        query: expect.objectContaining({
          entity: 'events',
          group_by: ['severity'],
          filters: [{ field: 'source', op: 'eq', value: SOURCE }],
        }),
      },
    ]);
  });

  it("shows a refused export with the server's reason", async () => {
    // More rows than an export may have: the server's 422 names the field.
    await page.getByLabel('Limit').fill('99999999');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByRole('alert').filter({ hasText: '422' }).filter({ hasText: 'body.limit' }).waitFor();
    await page.getByLabel('Limit').fill('');
    await page.getByRole('button', { name: 'Remove filter 1' }).click();
  });

  it('puts the saved report on a dashboard as a panel', async () => {
    await openPage(page, 'Dashboards');
    await page.getByLabel('Dashboard name').fill('CI');
    await page.getByRole('button', { name: 'Create dashboard' }).click();
    await page.getByRole('heading', { name: 'CI', level: 2 }).waitFor();
    await page.getByLabel('Panel title').fill('Builds');
    await page.getByLabel('Panel report').selectOption({ label: 'CI builds by severity' });
    await page.getByLabel('Show as').selectOption('TABLE');
    await page.getByRole('button', { name: 'Add panel' }).click();
    const panel = page.getByRole('region', { name: 'Panel Builds' });
    await panel.getByRole('cell', { name: 'warning' }).waitFor();
    await screenshot(page, 'insight-dashboards');
  });
});

describe('report schedules', () => {
  it('schedules the saved report to an outbound webhook, runs it now and disables it', async () => {
    const hook = await gql(
      s.url,
      t.adminToken,
      'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { webhook { id } } }',
      {
        input: {
          name: 'reports-sink',
          url: 'http://127.0.0.1:9/reports',
          triggers: [{ on: 'EVENT', typeGlob: 'report.*' }],
        },
      },
    );
    expect(hook.errors).toBeUndefined();
    await openPage(page, 'Reports');
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Saved report').selectOption({ label: 'CI builds by severity' });
    await form.getByLabel('Deliver to webhook').selectOption({ label: 'reports-sink' });
    await form.getByLabel('Cron').fill('0 8 * * 1');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    const row = page
      .getByRole('table', { name: 'Report schedules' })
      .getByRole('row')
      .filter({ hasText: 'CI builds by severity' });
    await row.getByText('0 8 * * 1 (UTC)').waitFor();
    await row.getByRole('button', { name: 'Run now' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Run: delivered, 2 rows/ })
      .waitFor();
    await row.getByRole('button', { name: 'Disable' }).click();
    await expect
      .poll(async () => (await gql(s.url, t.adminToken, '{ reportSchedules { enabled } }')).data.reportSchedules)
      .toEqual([{ enabled: false }]);
    await screenshot(page, 'insight-reports-schedules');
  });
});

describe('copilot', () => {
  it('answers a turn with the builtin provider, streamed, and keeps the conversation', async () => {
    await openPage(page, 'Copilot');
    await page.getByRole('textbox', { name: 'Message' }).fill('What happened with the CI builds?');
    await page.getByRole('button', { name: 'Send' }).click();
    const messages = page.getByRole('list', { name: 'Chat messages' });
    await messages.locator('li.chat-assistant:not([aria-busy])').first().waitFor();
    const reply = (await messages.locator('li.chat-assistant p').first().textContent())!;
    expect(reply.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'What happened with the CI builds?' }).waitFor();
    const history = await gql(s.url, t.adminToken, '{ copilotConversations { messages { role content } } }');
    expect(history.data.copilotConversations[0].messages.map((m: { role: string }) => m.role)).toEqual([
      'USER',
      'ASSISTANT',
    ]);
    expect(history.data.copilotConversations[0].messages[1].content).toBe(reply);

    // A second turn continues the same conversation (conversationId is sent with it).
    await page.getByRole('textbox', { name: 'Message' }).fill('which alerts are critical right now?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => messages.locator('li.chat-assistant:not([aria-busy])').count()).toBe(2);
    const after = await gql(s.url, t.adminToken, '{ copilotConversations { messages { role } } }');
    expect(after.data.copilotConversations).toHaveLength(1);
    expect(after.data.copilotConversations[0].messages).toHaveLength(4);
    await screenshot(page, 'insight-copilot');
  });
});
