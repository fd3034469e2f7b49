/**
 * A new dashboard panel shows its report at once (issue 44, item 7), in Debian's chromium. The tenant may
 * run one report at a time (REPORTS_TENANT_CONCURRENCY=1), so a second dashboard request overlapping the
 * first (the console used to refetch the dashboards twice after each change: urql's own invalidation and
 * an explicit reload) is refused, and its panels say so: the race the issue saw at the default cap of 2.
 * Screenshot: test-results/console/dashboard-new-panels.png.
 */
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from './helpers/browser.js';
import { ingestBuilds } from './helpers/insight-builds.js';
import { useConsoleSuite, s, t, admin, api } from './helpers/console-suite.js';

useConsoleSuite({
  env: { INGEST_RATE_PER_SECOND: '1000', REPORTS_TENANT_CONCURRENCY: '1' },
  setUp: async () => {
    await ingestBuilds(s.url, t.ingestKey);
    const save = 'mutation($i: SavedReportInput!) { createSavedReport(input: $i) { id } }';
    await api(save, {
      i: { name: 'Builds', query: { entity: 'events', filters: [{ field: 'source', op: 'eq', value: 'insight-ci' }] } },
    });
    await api(save, {
      i: { name: 'Builds by severity', query: { entity: 'events', group_by: ['severity'], aggregate: 'count' } },
    });
  },
});

const PANELS = [
  ['Builds', 'TABLE'],
  ['Builds by severity', 'BAR'],
  ['Builds by severity', 'STAT'],
  ['Builds by severity', 'LINE'],
] as const;

describe('a new dashboard panel', () => {
  it('shows its report without a reload, panel after panel', async () => {
    await openPage(admin, 'Dashboards');
    for (const board of ['Board 1', 'Board 2', 'Board 3']) {
      await admin.getByLabel('Dashboard name').fill(board);
      await admin.getByRole('button', { name: 'Create dashboard' }).click();
      await admin.getByRole('heading', { name: board, exact: true }).waitFor();
      for (const [report, viz] of PANELS) {
        const title = `${board}: ${viz.toLowerCase()}`;
        await admin.getByLabel('Panel title').fill(title);
        await admin.getByLabel('Panel report').selectOption({ label: report });
        await admin.getByLabel('Show as').selectOption(viz);
        await admin.getByRole('button', { name: 'Add panel' }).click();
        const panel = admin.getByRole('region', { name: `Panel ${title}` });
        // The panel's body: its result (table, chart or figure), or the error it was answered with.
        await panel.locator('table, figure, .stat, .error').first().waitFor();
        const error = panel.locator('.error');
        expect((await error.count()) ? await error.textContent() : null, title).toBeNull();
      }
    }
    await screenshot(admin, 'dashboard-new-panels');
  });
});
