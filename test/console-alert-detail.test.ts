/**
 * An alert's labels, annotations and links in a real browser (chromium via playwright-core) against the
 * real server (issue 24, points 1 and 2): the labels and annotations of an alert with its runbook as a
 * link (from an annotation, or from a label when that is where the source put it); every id a triage
 * cites, and the ids in proposed actions' arguments and results, link to what they name; the event that
 * resolved an alert is a link in its timeline of actions; the alerts list filters by label, kept in the
 * URL, at phone width too. Screenshots: test-results/console/alert-*.png.
 */
import { describe, expect, it } from 'vitest';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { screenshot, signIn } from './helpers/browser.js';
import { useConsoleSuite, s, t, b, admin, api } from './helpers/console-suite.js';

let other: BuiltTenant;
let deviceId: string;
let prodAlert: { id: string; dedupKey: string };
let stagingAlert: { id: string };

const RUNBOOK = 'https://runbooks.example.test/link-down';
const WIKI = 'https://wiki.example.test/flapping';

const ingest = async (tenant: BuiltTenant, body: Record<string, unknown>): Promise<string> => {
  const r = await rest(s.url).post('/events', body, { headers: { 'x-service-key': tenant.ingestKey } });
  expect(r.status).toBe(202);
  return r.body.id;
};
const alertOf = (eventId: string) =>
  eventually(
    async () => (await s.app.rt.prisma.alertEvent.findFirst({ where: { eventId }, include: { alert: true } }))?.alert,
    30_000,
  );

useConsoleSuite({
  env: { INGEST_RATE_PER_SECOND: '1000' },
  setUp: async () => {
    other = await buildTenant(s.app.rt);
    // A device whose running configuration drifted from its intent: triage cites the device and the drift report.
    deviceId = (await api('mutation { createDevice(input: { name: "leaf-3", site: "fra1", role: "leaf" }) { id } }'))
      .createDevice.id;
    await api('mutation($input: SetDeviceIntentInput!) { setDeviceIntent(input: $input) { version } }', {
      input: { deviceId, config: 'hostname leaf-3\nmtu 9216\n' },
    });
    await api('mutation($input: ReportObservedConfigInput!) { reportObservedConfig(input: $input) { id } }', {
      input: { deviceId, config: 'hostname leaf-3\nmtu 1500\n' },
    });
    await api('mutation($id: ID!) { reconcileDevice(id: $id) { queuedAt } }', { id: deviceId });
    await eventually(
      async () =>
        (await api('query($id: ID!) { device(id: $id) { drift { status } } }', { id: deviceId })).device.drift
          ?.status === 'DRIFTED',
      30_000,
    );
    for (const tenant of [t, other])
      await api(
        'mutation { createAlertRule(input: { name: "Link faults", typeGlob: "link.*", alertSeverity: CRITICAL, summaryTemplate: "{{summary}}", resolveTypeGlob: "link.up" }) { id } }',
        undefined,
        tenant.adminToken,
      );
    // The runbook as an annotation (Alertmanager style), and one where the source put it in a label.
    prodAlert = await alertOf(
      await ingest(t, {
        type: 'link.down',
        source: 'leaf-3',
        severity: 'critical',
        summary: 'uplink 1 down on leaf-3',
        labels: { service: 'fabric', env: 'prod' },
        payload: { annotations: { runbook_url: RUNBOOK, description: 'Uplink 1 lost carrier' } },
      }),
    );
    stagingAlert = await alertOf(
      await ingest(t, {
        type: 'link.flap',
        source: 'leaf-9',
        severity: 'warning',
        summary: 'port 7 flapping on leaf-9',
        labels: { env: 'staging', runbook_url: WIKI },
      }),
    );
    // Another tenant's alert with the same labels: never listed here.
    await alertOf(
      await ingest(other, {
        type: 'link.down',
        source: 'leaf-3',
        summary: 'their uplink down',
        labels: { service: 'fabric', env: 'prod' },
      }),
    );
  },
});

describe('alert labels and annotations', () => {
  it('shows the labels and annotations, with the runbook annotation as a link', async () => {
    await admin.goto(`${s.url}/alerts/${prodAlert.id}`);
    await admin.getByRole('heading', { level: 1, name: 'uplink 1 down on leaf-3' }).waitFor();
    const labels = admin.getByRole('list', { name: 'Alert labels' });
    await labels.getByText('service=fabric', { exact: true }).waitFor();
    await labels.getByText('env=prod', { exact: true }).waitFor();
    const annotations = admin.getByRole('group', { name: 'Annotations' });
    await annotations.getByText('Uplink 1 lost carrier').waitFor();
    const runbook = annotations.getByRole('link', { name: 'Runbook' });
    expect(await runbook.getAttribute('href')).toBe(RUNBOOK);
    expect(await runbook.getAttribute('target')).toBe('_blank');
    expect(await runbook.getAttribute('rel')).toContain('noopener');
    // The URL is the link, not repeated as a plain annotation.
    expect(await annotations.getByRole('definition').filter({ hasText: RUNBOOK }).count()).toBe(0);
    await screenshot(admin, 'alert-labels-runbook');
  });

  it('keeps the actions apart from the last fact, and a label chip opens the alerts list filtered by it', async () => {
    await admin.goto(`${s.url}/alerts/${prodAlert.id}`);
    const dedup = admin.getByRole('definition').filter({ hasText: prodAlert.dedupKey });
    const actions = admin.getByRole('group', { name: 'Alert actions' });
    await actions.waitFor();
    const [above, below] = [(await dedup.boundingBox())!, (await actions.boundingBox())!];
    // .8rem at the page's 16 px, the distance form actions keep from their fields.
    expect(below.y - (above.y + above.height)).toBeGreaterThanOrEqual(12);
    await admin.getByRole('list', { name: 'Alert labels' }).getByRole('link', { name: 'env=prod' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    expect(new URL(admin.url()).searchParams.get('label')).toBe('env=prod');
    expect(await admin.getByLabel('Labels', { exact: true }).inputValue()).toBe('env=prod');
    const table = admin.getByRole('table', { name: 'Alerts' });
    await table.getByRole('link', { name: 'uplink 1 down on leaf-3' }).waitFor();
    await eventually(
      async () => (await table.getByRole('link', { name: 'port 7 flapping on leaf-9' }).count()) === 0,
      15_000,
    );
    await admin.getByRole('status', { name: 'Alerts found' }).getByText('1 alert', { exact: true }).waitFor();
  });

  it('takes the runbook from a label when the source put it there', async () => {
    await admin.goto(`${s.url}/alerts/${stagingAlert.id}`);
    await admin.getByRole('heading', { level: 1, name: 'port 7 flapping on leaf-9' }).waitFor();
    await admin.getByRole('list', { name: 'Alert labels' }).getByText(`runbook_url=${WIKI}`).waitFor();
    expect(
      await admin
        .getByRole('group', { name: 'Annotations' })
        .getByRole('link', { name: 'Runbook' })
        .getAttribute('href'),
    ).toBe(WIKI);
  });
});

describe('ids as links', () => {
  it('links every id a triage cites, and the ids of proposed actions and their results', async () => {
    await admin.goto(`${s.url}/alerts/${prodAlert.id}`);
    await admin.getByRole('button', { name: 'Triage', exact: true }).click();
    await admin.getByRole('heading', { name: 'Likely causes' }).waitFor();
    const checks = admin.getByRole('table', { name: 'Checks' });
    const drift = checks.getByRole('row').filter({ hasText: 'device_drift' });
    // The device and its drift report both open the device's page; the full ids are shown beside them.
    const deviceLink = drift.getByRole('link', { name: 'device leaf-3' });
    expect(await deviceLink.getAttribute('href')).toBe(`/devices/${deviceId}`);
    const driftId = (
      await s.app.rt.prisma.driftReport.findFirstOrThrow({ where: { deviceId }, orderBy: { createdAt: 'desc' } })
    ).id;
    await drift.getByText(driftId, { exact: true }).waitFor();
    expect(await drift.getByRole('link', { name: /^drift report of / }).getAttribute('href')).toBe(
      `/devices/${deviceId}`,
    );

    await screenshot(admin, 'alert-triage-links');
    // A proposed action's device_id argument links to the device.
    const reconcile = admin
      .getByRole('table', { name: 'Proposed actions' })
      .getByRole('row')
      .filter({ hasText: 'reconcile device' });
    const arg = reconcile
      .getByRole('list', { name: 'Arguments of reconcile device' })
      .getByRole('link', { name: deviceId });
    expect(await arg.getAttribute('href')).toBe(`/devices/${deviceId}`);
    // Approved, its result names the device it reconciled: a link too.
    await reconcile.getByRole('button', { name: 'Approve' }).click();
    const result = reconcile.getByRole('list', { name: 'Result of reconcile device' });
    await result.getByText('reconcile_queued_at:').waitFor();
    await result.getByRole('link', { name: deviceId }).click();
    await admin.getByRole('heading', { level: 1, name: 'leaf-3' }).waitFor();
    expect(new URL(admin.url()).pathname).toBe(`/devices/${deviceId}`);
  });

  it('links the event that resolved the alert in its timeline of actions', async () => {
    const resolver = await ingest(t, {
      type: 'link.up',
      source: 'leaf-3',
      summary: 'uplink 1 back on leaf-3',
      labels: { service: 'fabric', env: 'prod' },
    });
    await eventually(
      async () =>
        (await api('query($id: ID!) { alert(id: $id) { status } }', { id: prodAlert.id })).alert.status === 'RESOLVED',
      30_000,
    );
    await admin.goto(`${s.url}/alerts/${prodAlert.id}`);
    const row = admin.getByRole('table', { name: 'Alert timeline' }).getByRole('row').filter({ hasText: 'resolved' });
    const link = row.getByRole('link', { name: 'event uplink 1 back on leaf-3' });
    expect(await link.getAttribute('href')).toBe(`/events/${resolver}`);
    await link.click();
    await admin.getByRole('heading', { level: 1, name: 'uplink 1 back on leaf-3' }).waitFor();
  });
});

describe('alerts list filtered by label', () => {
  it('filters by label (with status "any"), keeps it in the URL, and counts the matches', async () => {
    await admin.goto(`${s.url}/alerts?status=any`);
    const table = admin.getByRole('table', { name: 'Alerts' });
    await table.getByRole('link', { name: 'port 7 flapping on leaf-9' }).waitFor();
    await admin.getByLabel('Labels', { exact: true }).fill('env=prod, service=fabric');
    await eventually(
      async () => (await table.getByRole('link', { name: 'port 7 flapping on leaf-9' }).count()) === 0,
      15_000,
    );
    await table.getByRole('link', { name: 'uplink 1 down on leaf-3' }).waitFor();
    await admin.getByRole('status', { name: 'Alerts found' }).getByText('1 alert', { exact: true }).waitFor();
    expect(new URL(admin.url()).searchParams.get('label')).toBe('env=prod, service=fabric');
    // Its labels are shown in the row.
    await table.getByRole('list', { name: 'Labels of uplink 1 down on leaf-3' }).getByText('service=fabric').waitFor();
    // A label without a value is named, not sent.
    await admin.getByLabel('Labels', { exact: true }).fill('env');
    await admin.getByText('"env": write a label as key=value.').waitFor();
  });

  it('opens a shared label filter at phone width as cards, nothing clipped', async () => {
    const phone = await b.newPage({ narrow: true });
    await signIn(phone, s.url, t.admin.email, t.adminPassword);
    await phone.goto(`${s.url}/alerts?status=any&label=${encodeURIComponent('env=staging')}&severity=CRITICAL`);
    const link = phone.getByRole('table', { name: 'Alerts' }).getByRole('link', { name: 'port 7 flapping on leaf-9' });
    await link.waitFor();
    expect(await phone.getByLabel('Labels', { exact: true }).inputValue()).toBe('env=staging');
    expect(await phone.getByLabel('Severity').inputValue()).toBe('CRITICAL');
    expect(
      await phone.getByRole('table', { name: 'Alerts' }).getByRole('link', { name: 'uplink 1 down on leaf-3' }).count(),
    ).toBe(0);
    const box = (await link.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'alert-list-label-filter-phone');
    await phone.context().close();
  });

  it('filters by label on the server, within the tenant only', async () => {
    const mine = await api('{ alerts(filter: { labels: { env: "prod" } }) { totalCount edges { node { id } } } }');
    expect(mine.alerts).toEqual({ totalCount: 1, edges: [{ node: { id: prodAlert.id } }] });
    const theirs = await api(
      '{ alerts(filter: { labels: { env: "prod" } }) { totalCount } }',
      undefined,
      other.adminToken,
    );
    expect(theirs.alerts.totalCount).toBe(1);
    const bad = await gql(s.url, t.adminToken, '{ alerts(filter: { labels: ["env"] }) { totalCount } }');
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(b.pageErrors.map(String)).toEqual([]);
  });
});
