/**
 * Paging in the console, in a real browser against the real server: a schedule made on the Schedules page with
 * its 14-day timeline and an override added from it (who is on call changes), an escalation policy made and its
 * steps edited, "On call now" on the home page, My profile (a webhook contact method whose Test reaches a real
 * receiver on 127.0.0.1, a notification rule, my next shifts), and the alert page's paging state with
 * "Escalate now" and "Reassign". Screenshots: test-results/console/.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildUser } from './factories.js';
import { eventually } from './helpers/http.js';
import { openPage, screenshot } from './helpers/browser.js';
import { useConsoleSuite, s, t, admin, ingest, api } from './helpers/console-suite.js';

let receiver: http.Server;
let receiverUrl: string;
const received: string[] = [];

useConsoleSuite({
  env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1', ESCALATION_SWEEP_INTERVAL_MS: '200' },
  setUp: async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(body);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/page`;
    await buildUser(s.app.rt, t.tenantId, { name: 'Ann Oncall' });
    await buildUser(s.app.rt, t.tenantId, { name: 'Lee Lead' });
    await api(
      'mutation { createAlertRule(input: { name: "Disk full", typeGlob: "disk.full", alertSeverity: CRITICAL }) { id } }',
    );
    await api(`mutation($i: CreateScheduleInput!) { createSchedule(input: $i) { id } }`, {
      i: {
        name: 'Support',
        timeZone: 'UTC',
        layers: [{ startsAt: new Date(Date.now() - 3600_000).toISOString(), rotation: 'DAILY', userIds: [t.admin.id] }],
      },
    });
  },
});
afterAll(() => receiver?.close());

const card = (title: string) =>
  admin.locator('.card').filter({ has: admin.getByRole('heading', { name: title, exact: true }) });

describe('paging in the console', () => {
  it('creates a schedule, shows its timeline and who is on call, and takes an override from it', async () => {
    await openPage(admin, 'Schedules');
    const form = admin.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Schedule name').fill('Database');
    await form.getByLabel('Time zone').fill('Europe/Amsterdam');
    await form.getByLabel('In rotation: Ann Oncall').check();
    await form.getByRole('button', { name: 'Create schedule' }).click();
    const db = card('Database');
    await db.getByText('On call now: Ann Oncall').waitFor();
    await db.getByRole('list', { name: 'Final shifts' }).getByRole('listitem').first().waitFor();
    expect(await db.getByRole('list', { name: 'Layer 1 shifts' }).getByRole('listitem').first().textContent()).toBe(
      'Ann Oncall',
    );
    const override = db.getByRole('form', { name: 'Add an override' });
    await override.getByLabel('Who').selectOption({ label: 'Lee Lead' });
    await override.getByLabel('Hours').fill('2');
    await override.getByRole('button', { name: 'Add override' }).click();
    await db.getByText('On call now: Lee Lead').waitFor();
    await db
      .getByRole('list', { name: 'Final shifts' })
      .getByRole('listitem', { name: /Lee Lead .*\(override\)/ })
      .waitFor();
    await screenshot(admin, '60-schedules');
  });

  it('creates an escalation policy, makes it the default and edits its steps', async () => {
    await openPage(admin, 'Escalation policies');
    const form = admin.getByRole('form', { name: 'New escalation policy' });
    await form.getByLabel('Policy name').fill('Primary');
    await form.getByLabel('Step 1 target').selectOption({ label: 'On call: Database' });
    await form.getByRole('button', { name: 'Add step' }).click();
    await form.getByLabel('Step 2 target').selectOption({ label: 'Lee Lead' });
    await form.getByRole('button', { name: 'Create policy' }).click();
    const steps = admin.getByRole('list', { name: 'Primary steps' });
    await steps.getByText('after 5 min: Lee Lead').waitFor();
    await steps.getByText('after 0 min: On call: Database').waitFor();
    await admin.getByRole('button', { name: 'Make Primary the default' }).click();
    await card('Primary').getByText('default').waitFor();
    await admin.getByRole('button', { name: 'Edit Primary' }).click();
    const edit = admin.getByRole('form', { name: 'Edit Primary' });
    await edit.getByLabel('Step 2 delay (minutes)').fill('10');
    await edit.getByRole('button', { name: 'Save policy' }).click();
    await steps.getByText('after 10 min: Lee Lead').waitFor();
    const p = await api('{ pagingSettings { defaultEscalationPolicy { name steps { delayMinutes } } } }');
    expect(p.pagingSettings.defaultEscalationPolicy).toEqual({
      name: 'Primary',
      steps: [{ delayMinutes: 0 }, { delayMinutes: 10 }],
    });
    await screenshot(admin, '61-escalation-policies');
  });

  it('shows who is on call now on the home page', async () => {
    await openPage(admin, 'Timeline');
    const onCall = admin.getByRole('region', { name: 'On call now' });
    await onCall.getByText(/Database: Lee Lead/).waitFor();
    await onCall.getByText(/Support: /).waitFor();
  });

  it('adds a contact method and tests it against a real receiver, adds a rule, and lists my next shifts', async () => {
    await openPage(admin, 'My profile');
    const form = admin.getByRole('form', { name: 'Add a contact method' });
    await form.getByLabel('Kind').selectOption('WEBHOOK');
    await form.getByLabel('Method name').fill('pager hook');
    await form.getByLabel('Address').fill(receiverUrl);
    await form.getByRole('button', { name: 'Add contact method' }).click();
    await admin
      .getByRole('table', { name: 'Contact methods' })
      .getByRole('cell', { name: 'pager hook', exact: true })
      .waitFor();
    await admin.getByRole('button', { name: 'Test pager hook' }).click();
    await admin.getByRole('status', { name: 'Test result of pager hook' }).waitFor();
    await eventually(async () => received.some((b) => b.includes('test')) || null);
    const rule = admin.getByRole('form', { name: 'Add a notification rule' });
    await rule.getByLabel('Method').selectOption({ label: 'pager hook' });
    await rule.getByRole('button', { name: 'Add rule' }).click();
    await admin
      .getByRole('table', { name: 'Notification rules' })
      .getByRole('cell', { name: 'pager hook', exact: true })
      .waitFor();
    await admin.getByRole('table', { name: 'My next shifts' }).getByRole('cell', { name: 'Support' }).first().waitFor();
    await screenshot(admin, '62-profile');
  });

  it("shows an alert's paging state and escalates and reassigns it from the alert page", async () => {
    expect((await ingest({ type: 'disk.full', source: 'db-1', severity: 'critical', payload: {} })).status).toBe(202);
    const alertId = await eventually(async () => {
      const d = await api('{ alerts(first: 5) { edges { node { id group { step } } } } }');
      const a = d.alerts.edges[0]?.node;
      return a?.group?.step === 0 ? (a.id as string) : null;
    });
    await admin.goto(`${s.url}/alerts/${alertId}`);
    const paging = card('Paging');
    await paging.getByText('Primary').waitFor();
    await paging.getByText(/step 1 of 2/).waitFor();
    await paging
      .getByRole('table', { name: 'Notifications' })
      .getByRole('cell', { name: 'Lee Lead' })
      .first()
      .waitFor();
    await paging.getByRole('button', { name: 'Escalate now' }).click();
    await paging.getByText(/step 2 of 2/).waitFor();
    await paging.getByLabel('Reassign to').selectOption({ label: 'Ann Oncall' });
    await paging.getByRole('button', { name: 'Reassign' }).click();
    await paging
      .getByRole('table', { name: 'Notifications' })
      .getByRole('cell', { name: /reassign/ })
      .first()
      .waitFor();
    await screenshot(admin, '63-alert-paging');
  });
});
