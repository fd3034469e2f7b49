/**
 * The operator's day in the console (issue 44, points 2, 7 and 8) in Debian's chromium: the sign-in form's
 * fields as tall as their content; the home page (where the console opens) with live alerts by severity
 * and age and MTTA/MTTR for a tenant with acknowledged and resolved alerts; a reviewer who reads the reason
 * and the diff before approving; the direct intent edit saying it bypasses review, and refused while the
 * tenant requires proposals; at 1280 px every column of the alerts table inside the viewport.
 * Screenshots at 390, 1280 and 1440 px under test-results/console/ (gitignored).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildUser } from './factories.js';
import { eventually, rest } from './helpers/http.js';
import { openPage, screenshot } from './helpers/browser.js';
import { useConsoleSuite, s, t, b, admin, ingest, api } from './helpers/console-suite.js';

const WIDTHS = [390, 1280, 1440];
let member: { email: string; password?: string; id: string };
let deviceId: string;

async function shots(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `operator-day-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

useConsoleSuite({
  setUp: async () => {
    member = await buildUser(s.app.rt, t.tenantId, { role: 'member', kind: 'human' });
    // The admin reviews: an approver holds a credential of their own (the tenant's first admin was made by the
    // operator, so its password is not; four-eyes refuses that).
    await s.app.rt.prisma.user.update({ where: { id: t.admin.id }, data: { credentialOrigin: 'self_password' } });
    const rule = await rest(s.url, t.adminToken).post('/alert-rules', {
      name: 'Everything',
      type_glob: 'ops.*',
      alert_severity: 'critical',
      summary_template: '{{summary}}',
    });
    expect(rule.status).toBe(201);
    for (const [type, source] of [
      ['ops.disk_full', 'db-1'],
      ['ops.link_down', 'edge-1'],
      ['ops.cpu_hot', 'web-1'],
    ]) {
      const r = await ingest({
        type,
        source,
        summary: `${type} on ${source}`,
        severity: 'critical',
        labels: { integration_id: '0193b1f2-7c4e-7d3a-9f1e-2b3c4d5e6f70', service: 'checkout' },
      });
      expect(r.status).toBe(202);
    }
    const alerts = await eventually(async () => {
      const items = (await rest(s.url, t.adminToken).get('/alerts')).body.items;
      return items.length === 3 ? items : null;
    }, 30_000);
    await rest(s.url, t.adminToken).post(`/alerts/${alerts[0].id}/acknowledge`);
    await rest(s.url, t.adminToken).post(`/alerts/${alerts[0].id}/resolve`);
    await rest(s.url, t.adminToken).post(`/alerts/${alerts[1].id}/acknowledge`);
    deviceId = (await api('mutation { createDevice(input: { name: "core-1" }) { id } }')).createDevice.id;
    await api('mutation($i: SetDeviceIntentInput!) { setDeviceIntent(input: $i) { version } }', {
      i: { deviceId, config: 'hostname core-1\ninterface eth0\n  mtu 1500\n' },
    });
  },
});

describe('the operator console', () => {
  it('signs in on a form whose fields are as tall as their content', async () => {
    const page = await b.newPage();
    await page.goto(s.url + '/');
    const email = page.getByLabel('Email');
    await email.waitFor();
    const label = page.locator('label.field').first();
    expect((await label.boundingBox())!.height).toBeLessThan(90);
    await shots(page, 'signin');
    await page.close();
  });

  it('opens on the home page: live alerts by severity and age, MTTA and MTTR', async () => {
    await admin.goto(s.url + '/');
    await admin.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    const live = admin.getByRole('table', { name: 'Live alerts by severity and age' });
    await live.getByRole('row').filter({ hasText: 'critical' }).getByText('2 (1 unack.)').waitFor();
    const weeks = admin.getByRole('table', { name: 'Response times per week' });
    const thisWeek = weeks.getByRole('row').last();
    await expect.poll(async () => (await thisWeek.getByRole('cell').nth(1).textContent())?.trim()).toBe('3');
    // MTTA and MTTR of this week are numbers, not "—".
    expect(await thisWeek.getByRole('cell').nth(2).textContent()).toMatch(/^\d/);
    expect(await thisWeek.getByRole('cell').nth(3).textContent()).toMatch(/^\d/);
    await admin.getByRole('img', { name: 'Mean time to acknowledge and to resolve per week, minutes' }).waitFor();
    await admin.getByRole('img', { name: 'Alerts opened per source, last 7 days' }).waitFor();
    await admin.getByRole('region', { name: 'On call now' }).waitFor();
    await shots(admin, 'home');
  });

  it('shows the reviewer the reason and the diff, and approves the revision read', async () => {
    await api(
      'mutation($i: OpenProposalInput!) { openProposal(input: $i) { id } }',
      {
        i: {
          deviceId,
          title: 'Jumbo frames',
          kind: 'config_change',
          reason: 'Storage traffic needs 9216',
          proposedIntent: 'hostname core-1\ninterface eth0\n  mtu 9216\n',
        },
      },
      await (async () => {
        const r = await rest(s.url).post('/auth/login', { email: member.email, password: member.password });
        return r.body.access_token as string;
      })(),
    );
    await openPage(admin, 'Proposals');
    const row = admin.getByRole('row').filter({ hasText: 'Jumbo frames' });
    await row.getByText('Storage traffic needs 9216').waitFor();
    await row.getByRole('button', { name: 'Review Jumbo frames' }).click();
    const review = admin.getByRole('region', { name: 'Review: Jumbo frames' });
    await review.getByLabel('Proposal reason').getByText('Storage traffic needs 9216').waitFor();
    const diff = review.getByLabel('Proposed change: current intent (−) against proposed (+)');
    expect(await diff.textContent()).toContain('-  mtu 1500');
    expect(await diff.textContent()).toContain('+  mtu 9216');
    await review.getByText(member.email).waitFor();
    await review.getByText('r1').waitFor();
    await shots(admin, 'proposal-review');
    await review.getByRole('button', { name: 'Approve revision 1' }).click();
    await eventually(async () => {
      const p = await api('{ proposals(first: 5) { edges { node { title status } } } }');
      return p.proposals.edges.some((e: any) => e.node.title === 'Jumbo frames' && e.node.status !== 'PROPOSED');
    }, 30_000);
  });

  it('says the direct intent edit bypasses review, and disables it while proposals are required', async () => {
    await admin.goto(`${s.url}/devices/${deviceId}`);
    const direct = admin.getByRole('form', { name: 'Edit directly (admins; bypasses review)' });
    await direct.getByText(/Bypasses review/).waitFor();
    expect(await direct.getByRole('button', { name: 'Save new version' }).isDisabled()).toBe(false);
    await openPage(admin, 'Proposals');
    const rule = admin.getByRole('form', { name: 'Review rule' });
    await rule.getByLabel('Require a reviewed proposal for every intent change').check();
    await rule.getByRole('button', { name: 'Save review rule' }).click();
    await eventually(
      async () => (await api('{ reviewSettings { requireProposals } }')).reviewSettings.requireProposals,
    );
    await admin.goto(`${s.url}/devices/${deviceId}`);
    await direct.getByText(/requires a reviewed proposal/).waitFor();
    expect(await direct.getByRole('button', { name: 'Save new version' }).isDisabled()).toBe(true);
    await shots(admin, 'device-direct-edit');
  });

  it('at 1280 px shows every column of the alerts table inside the viewport', async () => {
    await admin.setViewportSize({ width: 1280, height: 900 });
    await openPage(admin, 'Alerts');
    const table = admin.getByRole('table', { name: 'Alerts' });
    await table.getByRole('row').nth(1).waitFor();
    const headers = table.getByRole('columnheader');
    const n = await headers.count();
    expect(n).toBeGreaterThan(5);
    for (let i = 0; i < n; i++) {
      const box = await headers.nth(i).boundingBox();
      expect(box, `column ${i}`).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `column ${await headers.nth(i).textContent()}`).toBeLessThanOrEqual(1280);
    }
    await shots(admin, 'alerts');
  });
});
