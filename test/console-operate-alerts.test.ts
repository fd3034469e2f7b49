/**
 * Operating alerts through the console in a real browser against the real server: a rule made in the
 * console opens an alert that appears live; Acknowledge, Snooze, Resolve; triage and chat; a member's
 * view (admin actions disabled with the reason, the server's 403 shown); the alert at phone width.
 * Proposals, devices and configuration pages: console-operate-config.test.ts. Screenshots: test-results/console/.
 */
import { describe, expect, it } from 'vitest';
import { buildUser } from './factories.js';
import { gql } from './helpers/http.js';
import { untilSubscribed } from './helpers/pubsub.js';
import { openPage, screenshot, signIn } from './helpers/browser.js';
import { useConsoleSuite, s, t, b, admin, ingest } from './helpers/console-suite.js';

let member: { email: string; password?: string; id: string };
let alertId: string;

let changeId = '';
const alertStatus = async (id: string) =>
  (await gql(s.url, t.adminToken, 'query($id: ID!) { alert(id: $id) { status } }', { id })).data.alert.status as string;

useConsoleSuite({
  setUp: async () => {
    member = await buildUser(s.app.rt, t.tenantId, { role: 'member', kind: 'human' });
  },
});

describe('alerts', () => {
  it('creates a match rule in the console', async () => {
    await openPage(admin, 'Alert rules');
    await admin.getByLabel('Rule name').fill('Disk full');
    await admin.getByLabel('Event type').fill('disk.*');
    await admin.getByLabel('Alert severity').selectOption('CRITICAL');
    await admin.getByLabel('Summary template').fill('{{type}} on {{source}}');
    await admin.getByRole('button', { name: 'Create rule' }).click();
    await admin.getByRole('cell', { name: 'Disk full', exact: true }).waitFor();
    const rules = (await gql(s.url, t.adminToken, '{ alertRules { name typeGlob alertSeverity } }')).data.alertRules;
    expect(rules).toEqual([{ name: 'Disk full', typeGlob: 'disk.*', alertSeverity: 'CRITICAL' }]);
  });

  it('creates a heartbeat rule and a maintenance window', async () => {
    await admin.getByLabel('Kind').selectOption('ABSENCE');
    await admin.getByLabel('Rule name').fill('Backup heartbeat');
    await admin.getByLabel('Event type').fill('backup.*');
    await admin.getByLabel('Silence window (seconds)').fill('3600');
    await admin.getByRole('button', { name: 'Create rule' }).click();
    await admin.getByRole('cell', { name: 'heartbeat (3600 s)' }).waitFor();

    await admin.getByLabel('Window name').fill('Nightly patching');
    await admin.getByLabel('Starts').fill('2030-01-01T02:00');
    await admin.getByLabel('Ends').fill('2030-01-01T04:00');
    await admin.getByLabel('Only source').fill('db-9');
    await admin.getByLabel('Repeats').selectOption('86400');
    await admin.getByRole('button', { name: 'Create window' }).click();
    await admin.getByRole('cell', { name: 'Nightly patching', exact: true }).waitFor();
    const windows = (await gql(s.url, t.adminToken, '{ maintenanceWindows { name source repeatEverySeconds } }')).data
      .maintenanceWindows;
    expect(windows).toEqual([{ name: 'Nightly patching', source: 'db-9', repeatEverySeconds: 86400 }]);
    await screenshot(admin, '10-rules');
  });

  it('shows an alert opened after the page loaded, live', async () => {
    await openPage(admin, 'Alerts');
    await untilSubscribed(s.app.rt, 'alertChanged', t.tenantId);
    // A change on the same host before the alert, which triage then names with a link to it.
    const change = await ingest({
      type: 'config.changed',
      source: 'puppet',
      labels: { host: 'db-1' },
      payload: { file: '/etc/fstab' },
    });
    expect(change.status).toBe(202);
    changeId = change.body.id;
    expect(
      (
        await ingest({
          type: 'disk.full',
          source: 'db-1',
          severity: 'critical',
          summary: '/var at 99%',
          labels: { host: 'db-1' },
        })
      ).status,
    ).toBe(202);
    const link = admin.getByRole('link', { name: 'disk.full on db-1' });
    await link.waitFor();
    await screenshot(admin, '11-alerts');
    alertId = (await link.getAttribute('href'))!.split('/').pop()!;
  });

  it('acknowledges, snoozes and resolves the alert from its page; impossible actions are disabled with the reason', async () => {
    await admin.getByRole('link', { name: 'disk.full on db-1' }).click();
    await admin.getByRole('heading', { name: 'disk.full on db-1' }).waitFor();
    await admin.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(() => alertStatus(alertId)).toBe('ACKNOWLEDGED');
    await expect.poll(() => admin.getByRole('button', { name: 'Acknowledge' }).isDisabled()).toBe(true);
    await admin.getByText('Not possible while the alert is acknowledged.').waitFor();
    await admin
      .getByRole('row')
      .filter({ hasText: 'acknowledged' })
      .filter({ hasText: t.admin.email })
      .first()
      .waitFor();

    await admin.getByLabel('Snooze for').selectOption('4h');
    await admin.getByRole('button', { name: 'Snooze' }).click();
    await expect.poll(() => alertStatus(alertId)).toBe('SNOOZED');
    const until = (
      await gql(s.url, t.adminToken, 'query($id: ID!) { alert(id: $id) { snoozedUntil } }', { id: alertId })
    ).data.alert.snoozedUntil;
    expect(new Date(until).getTime() - s.app.rt.clock.now().getTime()).toBeGreaterThan(3.5 * 3600_000);

    await admin.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => alertStatus(alertId)).toBe('RESOLVED');
    for (const name of ['Acknowledge', 'Snooze', 'Resolve'])
      await expect.poll(() => admin.getByRole('button', { name, exact: true }).isDisabled()).toBe(true);
    await screenshot(admin, '12-alert-resolved');
  });

  it('runs a triage and chats about the alert', async () => {
    await admin.getByRole('button', { name: 'Triage', exact: true }).click();
    await admin.getByRole('heading', { name: 'Likely causes' }).waitFor();
    await admin.getByRole('table', { name: 'Checks' }).getByRole('row').nth(1).waitFor();
    // Evidence is a link named by what it is, with the full id; it opens the event with its payload.
    const evidence = admin.getByRole('list', { name: 'Evidence' }).first();
    await evidence.getByText(changeId, { exact: true }).waitFor();
    await evidence.getByRole('link', { name: /^config\.changed from puppet at / }).click();
    await admin.getByRole('heading', { name: 'config.changed from puppet' }).waitFor();
    expect(await admin.getByLabel('Event payload', { exact: true }).textContent()).toContain('/etc/fstab');
    await admin.goBack();
    await admin.getByRole('heading', { name: 'Likely causes' }).waitFor();
    await admin.getByLabel('Message').fill('What happened on db-1?');
    await admin.getByRole('button', { name: 'Send' }).click();
    const chat = admin.getByRole('list', { name: 'Alert chat' });
    await chat.getByText('What happened on db-1?').waitFor();
    await expect.poll(() => chat.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
    await screenshot(admin, '13-alert-triage-chat');
  });
});

describe("a member's view", () => {
  it('disables admin-only actions with the reason and shows the server 403', async () => {
    const page = await b.newPage();
    await signIn(page, s.url, member.email, member.password!);
    expect(await page.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await openPage(page, 'Alert rules');
    expect(await page.getByRole('button', { name: 'Create rule' }).isDisabled()).toBe(true);
    await page.getByRole('form', { name: 'New alert rule' }).getByText('Only admins can do this.').waitFor();
    await page.goto(s.url + '/admin/users');
    await page
      .getByRole('alert')
      .getByText(/403 Forbidden/)
      .waitFor();
    await screenshot(page, '50-member-forbidden');
  });
});

describe('narrow screens', () => {
  it('works at phone width: the menu opens the navigation', async () => {
    const page = await b.newPage({ narrow: true });
    await signIn(page, s.url, t.admin.email, t.adminPassword);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await openPage(page, 'Alerts');
    await page.getByRole('heading', { name: 'Alerts' }).waitFor();
    await page.getByLabel('Status').selectOption('RESOLVED');
    await page.getByRole('link', { name: 'disk.full on db-1' }).click();
    await page.getByRole('button', { name: 'Acknowledge' }).waitFor();
    await screenshot(page, '60-narrow-alert');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });

  it('had no uncaught errors in the pages', () => {
    expect(b.pageErrors.map(String)).toEqual([]);
  });
});
