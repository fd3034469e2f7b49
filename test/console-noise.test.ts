/**
 * Noise control in the console, in a real browser (chromium via playwright-core) against the real server:
 * an inhibited alert's page says why it pages no one and links the alert inhibiting it; "Silence…" opens
 * the silence form with the alert's labels, the silence is listed as active and expired from the list;
 * "Silence for 2 hours" silences in one click; inhibition rules and time intervals are created and deleted
 * from their pages. Alerts arrive as Prometheus sends them (the Alertmanager API v2 path).
 * Screenshots: test-results/console/noise-*.png.
 */
import { describe, expect, it } from 'vitest';
import { call, eventually } from './helpers/http.js';
import { openPage, screenshot } from './helpers/browser.js';
import { useConsoleSuite, s, t, admin, api } from './helpers/console-suite.js';

let nodeDownId: string;
let inhibitedId: string;
let loneId: string;

const post = (labels: Record<string, string>) =>
  call(`${s.url}/api/v1/alertmanager`, 'POST', '/api/v2/alerts', { token: t.ingestKey, body: [{ labels }] });
const alertWith = (alertname: string) =>
  eventually(async () => {
    const rows = await s.app.rt.prisma.alert.findMany({ where: { tenantId: t.tenantId } });
    return rows.find((a) => (a.labels as Record<string, string>).alertname === alertname)?.id;
  });

useConsoleSuite({
  setUp: async () => {
    await api('mutation($i: CreateInhibitRuleInput!) { createInhibitRule(input: $i) { id } }', {
      i: {
        name: 'node down',
        sourceMatchers: [{ name: 'alertname', type: 'EQUAL', value: 'NodeDown' }],
        equal: ['instance'],
      },
    });
    expect((await post({ alertname: 'NodeDown', instance: 'node-1' })).status).toBe(200);
    nodeDownId = await alertWith('NodeDown');
    expect((await post({ alertname: 'DiskFull', instance: 'node-1' })).status).toBe(200);
    inhibitedId = await alertWith('DiskFull');
    expect((await post({ alertname: 'CpuHot', instance: 'node-7' })).status).toBe(200);
    loneId = await alertWith('CpuHot');
  },
});

describe('why an alert did or did not page', () => {
  it('says an inhibited alert pages no one, and links the alert inhibiting it', async () => {
    await admin.goto(`${s.url}/alerts/${inhibitedId}`);
    const summary = admin.getByLabel('Paging summary');
    await summary.getByText(/pages no one: Inhibited by alert/).waitFor();
    const reasons = admin.getByRole('list', { name: 'Paging reasons' });
    await reasons
      .getByText(/inhibition/)
      .first()
      .waitFor();
    expect(await reasons.getByRole('link', { name: 'inhibiting alert' }).getAttribute('href')).toBe(
      `/alerts/${nodeDownId}`,
    );
    await screenshot(admin, 'noise-why-inhibited');
  });
});

describe('silences', () => {
  it('opens the form with the alert labels, creates the silence, lists it as active, and expires it', async () => {
    await admin.goto(`${s.url}/alerts/${inhibitedId}`);
    await admin.getByRole('group', { name: 'Silence this alert' }).getByRole('link', { name: 'Silence…' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Silences' }).waitFor();
    const matchers = admin.getByLabel('Matchers');
    expect(await matchers.inputValue()).toContain('alertname="DiskFull"');
    expect(await matchers.inputValue()).toContain('instance="node-1"');
    await admin.getByLabel('Comment').fill('disk swap on node-1');
    await admin.getByRole('button', { name: 'Create silence' }).click();
    const table = admin.getByRole('table', { name: 'Silences' });
    await table.getByText('disk swap on node-1').waitFor();
    await screenshot(admin, 'noise-silences');
    const stored = await eventually(async () =>
      (await s.app.rt.prisma.silence.findMany({ where: { tenantId: t.tenantId } })).find(
        (x) => x.comment === 'disk swap on node-1',
      ),
    );
    expect(stored.matchers).toContainEqual({ name: 'alertname', type: '=', value: 'DiskFull' });
    await table.getByRole('button', { name: 'Expire silence disk swap on node-1' }).click();
    await eventually(async () => {
      const row = await s.app.rt.prisma.silence.findUniqueOrThrow({ where: { id: stored.id } });
      return row.endsAt.getTime() <= s.app.rt.clock.now().getTime() || undefined;
    });
    await admin.getByLabel('State').selectOption('EXPIRED');
    await table.getByText('disk swap on node-1').waitFor();
  });

  it('silences an alert in one click', async () => {
    await admin.goto(`${s.url}/alerts/${loneId}`);
    await admin.getByRole('button', { name: 'Silence for 2 hours' }).click();
    const silence = await eventually(async () =>
      (await s.app.rt.prisma.silence.findMany({ where: { tenantId: t.tenantId } })).find((x) =>
        x.comment.startsWith('Silenced from the alert'),
      ),
    );
    expect(silence.matchers).toContainEqual({ name: 'instance', type: '=', value: 'node-7' });
  });
});

describe('inhibition rules and time intervals', () => {
  it('creates and deletes an inhibition rule', async () => {
    await openPage(admin, 'Inhibition rules');
    const table = admin.getByRole('table', { name: 'Inhibition rules' });
    await table.getByText('node down').waitFor();
    await admin.getByLabel('Name', { exact: true }).fill('db down');
    await admin.getByLabel('Source matchers').fill('alertname="DatabaseDown"');
    await admin.getByLabel('Target matchers').fill('team="db", severity!="critical"');
    await admin.getByLabel('Equal labels').fill('cluster');
    await admin.getByRole('button', { name: 'Create rule' }).click();
    await table.getByText('db down').waitFor();
    const stored = await eventually(() => s.app.rt.prisma.inhibitRule.findFirst({ where: { name: 'db down' } }));
    expect(stored).toMatchObject({ equal: ['cluster'] });
    expect(stored.targetMatchers).toEqual([
      { name: 'team', type: '=', value: 'db' },
      { name: 'severity', type: '!=', value: 'critical' },
    ]);
    await screenshot(admin, 'noise-inhibit-rules');
    await table.getByRole('button', { name: 'Delete inhibition rule db down' }).click();
    await eventually(async () => (await table.getByText('db down').count()) === 0 || undefined);
  });

  it('creates a weekly time interval in a time zone', async () => {
    await openPage(admin, 'Time intervals');
    await admin.getByLabel('Name', { exact: true }).fill('sunday-night');
    await admin.getByLabel('Weekdays', { exact: true }).fill('sunday');
    await admin.getByLabel('From', { exact: true }).fill('02:00');
    await admin.getByLabel('Until', { exact: true }).fill('04:00');
    await admin.getByLabel('Time zone', { exact: true }).fill('Europe/Berlin');
    await admin.getByRole('button', { name: 'Create time interval' }).click();
    const table = admin.getByRole('table', { name: 'Time intervals' });
    await table.getByText('sunday 02:00–04:00 Europe/Berlin').waitFor();
    const stored = await eventually(() => s.app.rt.prisma.timeInterval.findFirst({ where: { name: 'sunday-night' } }));
    expect(stored.intervals).toEqual([
      { times: [{ start_time: '02:00', end_time: '04:00' }], weekdays: ['sunday'], location: 'Europe/Berlin' },
    ]);
    await screenshot(admin, 'noise-time-intervals');
  });
});
