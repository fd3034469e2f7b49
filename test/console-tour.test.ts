/**
 * A tour of the pages issue 44 names (item 9), in Debian's chromium: sign-in form, home, alerts list, an
 * alert page, the proposals review (reason and diff), a device page (with its recent alerts and events), the rules
 * list (a rule with label conditions), outbound webhooks (trigger filters). Each is saved at 390, 1280 and
 * 1440 px (test-results/console/tour-<page>-<width>.png), and the layout facts are asserted at 1280 px: the
 * page body does not scroll sideways, no table is wider than its frame (columns collapse), every column of
 * the alerts table is inside the viewport, and the sign-in labels are at most three lines tall; at 700 px
 * the proposals table says it scrolls sideways.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildUser } from './factories.js';
import { eventually, rest } from './helpers/http.js';
import { screenshot } from './helpers/browser.js';
import { useConsoleSuite, s, t, b, admin, ingest, api } from './helpers/console-suite.js';

const WIDTHS = [390, 1280, 1440];
let alertId: string;
let deviceId: string;

useConsoleSuite({
  env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' },
  setUp: async () => {
    const member = await buildUser(s.app.rt, t.tenantId, { role: 'member', kind: 'human' });
    const rule = await rest(s.url, t.adminToken).post('/alert-rules', {
      name: 'Edge links in prod',
      type_glob: 'link.*',
      alert_severity: 'critical',
      summary_template: '{{summary}}',
      labels: { env: 'prod' },
    });
    expect(rule.status).toBe(201);
    deviceId = (await api('mutation { createDevice(input: { name: "edge-1" }) { id } }')).createDevice.id;
    await api('mutation($i: SetDeviceIntentInput!) { setDeviceIntent(input: $i) { version } }', {
      i: { deviceId, config: 'hostname edge-1\ninterface eth0\n  mtu 1500\n' },
    });
    const r = await ingest({
      type: 'link.down',
      source: 'edge-1',
      summary: 'uplink 1 down on edge-1',
      labels: { env: 'prod', integration_id: '0193b1f2-7c4e-7d3a-9f1e-2b3c4d5e6f70', service: 'edge-network' },
    });
    expect(r.status).toBe(202);
    alertId = await eventually(async () => (await rest(s.url, t.adminToken).get('/alerts')).body.items[0]?.id, 30_000);
    const memberToken = (await rest(s.url).post('/auth/login', { email: member.email, password: member.password })).body
      .access_token;
    await api(
      'mutation($i: OpenProposalInput!) { openProposal(input: $i) { id } }',
      {
        i: {
          deviceId,
          title: 'Jumbo frames on edge-1',
          kind: 'config_change',
          reason: 'Storage replication needs 9216',
          proposedIntent: 'hostname edge-1\ninterface eth0\n  mtu 9216\n',
        },
      },
      memberToken,
    );
    await api('mutation($i: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $i) { id } }', {
      i: {
        name: 'prod-pager',
        url: 'http://127.0.0.1:9/hook',
        triggers: [{ on: 'ALERT_OPENED', severities: ['CRITICAL'], labels: { env: 'prod' } }],
      },
    });
  },
});

/** Screenshots at each width; at 1280 px the page body must not scroll sideways. */
async function visit(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 1280) {
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${name}: the body scrolls sideways at 1280 px`).toBeLessThanOrEqual(0);
      // Every table fits its frame: columns collapse rather than scroll at 1280 px.
      const wider = await page.evaluate(() =>
        [...document.querySelectorAll('.table-wrap')]
          .filter((w) => w.scrollWidth > w.clientWidth + 1)
          .map((w) => w.querySelector('table')?.getAttribute('aria-label')),
      );
      expect(wider, `${name}: tables wider than their frame at 1280 px`).toEqual([]);
    }
    await screenshot(page, `tour-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();

describe('the console tour', () => {
  it('sign-in form: labels at most three lines tall', async () => {
    const page = await b.newPage();
    await page.goto(s.url + '/');
    await page.getByLabel('Email').waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const label of await page.locator('label.field .field-label').all()) {
        const { height, line } = await label.evaluate((el) => ({
          height: el.getBoundingClientRect().height,
          line: parseFloat(getComputedStyle(el).lineHeight) || 1.4 * parseFloat(getComputedStyle(el).fontSize),
        }));
        expect(height, `a sign-in label at ${width} px`).toBeLessThanOrEqual(3 * line + 1);
      }
    }
    await visit(page, 'signin');
    await page.close();
  });

  it('home, alerts, an alert, proposals review, a device, rules and webhooks', async () => {
    await admin.goto(s.url + '/');
    await heading(admin, 'Home');
    await visit(admin, 'home');

    await admin.goto(s.url + '/alerts');
    const table = admin.getByRole('table', { name: 'Alerts' });
    await table.getByRole('row').filter({ hasText: 'uplink 1 down on edge-1' }).waitFor();
    const headers = table.getByRole('columnheader');
    for (let i = 0; i < (await headers.count()); i++) {
      const box = await headers.nth(i).boundingBox();
      const name = await headers.nth(i).textContent();
      expect(box, `column ${name}`).not.toBeNull();
      expect(box!.x, `column ${name}`).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `column ${name}`).toBeLessThanOrEqual(1280);
    }
    await visit(admin, 'alerts');

    await admin.goto(`${s.url}/alerts/${alertId}`);
    await heading(admin, 'uplink 1 down on edge-1');
    await visit(admin, 'alert');

    await admin.goto(s.url + '/proposals');
    const row = admin.getByRole('row').filter({ hasText: 'Jumbo frames on edge-1' });
    await row.getByRole('button', { name: 'Review Jumbo frames on edge-1' }).click();
    const review = admin.getByRole('region', { name: 'Review: Jumbo frames on edge-1' });
    await review.getByText('Storage replication needs 9216').first().waitFor();
    await review.getByText('+  mtu 9216').waitFor();
    // Narrower than the table: it says it scrolls sideways.
    await admin.setViewportSize({ width: 700, height: 900 });
    await admin.getByLabel('Proposals: more columns, scroll sideways').waitFor();
    await visit(admin, 'proposal-review');

    await admin.goto(`${s.url}/devices/${deviceId}`);
    // Its recent events and alerts are issue 44's item 3, not on this page yet: the tour shows it as it is.
    await heading(admin, 'edge-1');
    await visit(admin, 'device');

    await admin.goto(s.url + '/rules');
    await admin.getByRole('row').filter({ hasText: 'Edge links in prod' }).waitFor();
    await visit(admin, 'rules');

    await admin.goto(s.url + '/webhooks');
    await admin.getByText('alert opened (critical; env=prod)').waitFor();
    await visit(admin, 'webhooks');
  });
});
