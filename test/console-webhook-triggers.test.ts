/**
 * Outbound webhook trigger filters in the console (issue 44, item 7), in Debian's chromium: a webhook
 * created whose "alert opened" trigger fires only for critical alerts labelled env=prod, shown back in the
 * list and on its page, stored so over GraphQL, and delivered for such an alert to a 127.0.0.1 receiver;
 * then edited on its page (warning added, a second label) and read back. Screenshots at 1280 px:
 * test-results/console/webhook-triggers-*.png.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, rest } from './helpers/http.js';
import { openPage, screenshot } from './helpers/browser.js';
import { useConsoleSuite, s, t, admin, ingest, api } from './helpers/console-suite.js';

const bodies: string[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    bodies.push(body);
    res.writeHead(200).end('ok');
  });
});
let receiverUrl: string;
beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

useConsoleSuite({
  env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' },
  setUp: async () => {
    for (const [name, glob, severity] of [
      ['Disks', 'disk.*', 'critical'],
      ['Slow', 'slow.*', 'warning'],
    ]) {
      const rule = await rest(s.url, t.adminToken).post('/alert-rules', {
        name,
        type_glob: glob,
        alert_severity: severity,
        summary_template: '{{summary}}',
      });
      expect(rule.status).toBe(201);
    }
  },
});

const TRIGGERS_QUERY = '{ outboundWebhooks { id name triggers { on severities labels } } }';

describe('outbound webhook trigger filters', () => {
  it('creates a webhook whose "alert opened" fires only for critical alerts with env=prod', async () => {
    await openPage(admin, 'Outbound webhooks');
    const form = admin.getByRole('form', { name: 'New outbound webhook' });
    await form.getByLabel('Webhook name').fill('prod-pager');
    await form.getByLabel('Receiver URL').fill(receiverUrl);
    const filters = form.getByRole('group', { name: 'Filters of alert opened' });
    await filters.getByRole('checkbox', { name: 'critical' }).check();
    await filters.getByLabel('Labels').fill('env=prod');
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await admin.getByLabel('Signing secret value').waitFor();

    const hooks = (await api(TRIGGERS_QUERY)).outboundWebhooks;
    expect(hooks).toEqual([
      {
        id: expect.any(String),
        name: 'prod-pager',
        triggers: [{ on: 'ALERT_OPENED', severities: ['CRITICAL'], labels: { env: 'prod' } }],
      },
    ]);
    const row = admin
      .getByRole('table', { name: 'Outbound webhooks' })
      .getByRole('row')
      .filter({ hasText: 'prod-pager' });
    await row.getByText('alert opened (critical; env=prod)').waitFor();
    await screenshot(admin, 'webhook-triggers-list');

    // Delivered for a critical alert in prod (the API's filter; a warning one or staging is left out).
    for (const [type, env] of [
      ['slow.disk', 'prod'],
      ['disk.gone', 'staging'],
      ['disk.full', 'prod'],
    ])
      expect((await ingest({ type, source: 'db-1', summary: type, labels: { env } })).status).toBe(202);
    await eventually(async () => bodies.some((b) => b.includes('disk.full')), 30_000);
    await eventually(async () => (await rest(s.url, t.adminToken).get('/alerts')).body.items.length === 3, 30_000);
    expect(bodies.filter((b) => b.includes('slow.disk') || b.includes('disk.gone'))).toEqual([]);
  });

  it('edits the filters on the webhook page and shows them back', async () => {
    await admin.getByRole('link', { name: 'prod-pager' }).click();
    await admin.getByRole('heading', { level: 1, name: 'prod-pager' }).waitFor();
    const shown = admin.getByRole('list', { name: 'Triggers of this webhook' });
    await shown.getByText('alert opened (critical; env=prod)').waitFor();
    await admin.getByRole('button', { name: 'Edit webhook' }).click();
    const form = admin.getByRole('form', { name: 'Edit webhook' });
    const filters = form.getByRole('group', { name: 'Filters of alert opened' });
    // The edit form starts from the stored filters.
    expect(await filters.getByRole('checkbox', { name: 'critical' }).isChecked()).toBe(true);
    expect(await filters.getByLabel('Labels').inputValue()).toBe('env=prod');
    await filters.getByRole('checkbox', { name: 'warning' }).check();
    await filters.getByLabel('Labels').fill('env=prod, team=db');
    // A label without a value is refused in the form, naming the trigger.
    await filters.getByLabel('Labels').fill('env=prod, team');
    await form.getByRole('button', { name: 'Save webhook' }).click();
    await form
      .getByRole('alert')
      .getByText(/Labels of alert opened/)
      .waitFor();
    await filters.getByLabel('Labels').fill('env=prod, team=db');
    await form.getByRole('button', { name: 'Save webhook' }).click();
    await shown.getByText('alert opened (critical or warning; env=prod, team=db)').waitFor();
    expect((await api(TRIGGERS_QUERY)).outboundWebhooks[0].triggers).toEqual([
      { on: 'ALERT_OPENED', severities: ['CRITICAL', 'WARNING'], labels: { env: 'prod', team: 'db' } },
    ]);
    await screenshot(admin, 'webhook-triggers-detail');
  });
});
