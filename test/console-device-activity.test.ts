/**
 * The device page shows its recent alerts and events (issue 44, item 3), in Debian's chromium: an event
 * from source `edge-1` for device `edge-1` opens an alert; the page lists the alert (status, severity,
 * summary linking to the alert, age) and the event (type linking to the event, time); a new event from
 * the device appears without a reload, and so does a new alert. Screenshots at 390, 1280 and 1440 px
 * (test-results/console/device-activity-<width>.png); at 1280 px neither table is wider than its frame.
 */
import { describe, expect, it } from 'vitest';
import { eventually, rest } from './helpers/http.js';
import { screenshot } from './helpers/browser.js';
import { useConsoleSuite, s, t, admin, b, ingest, api } from './helpers/console-suite.js';

let deviceId: string;
let alertId: string;
let firstEvent: string;

useConsoleSuite({
  setUp: async () => {
    deviceId = (await api('mutation { createDevice(input: { name: "edge-1" }) { id } }')).createDevice.id;
    await api(
      'mutation { createAlertRule(input: { name: "Links", typeGlob: "link.*", alertSeverity: CRITICAL, summaryTemplate: "{{summary}}" }) { id } }',
    );
    const r = await ingest({ type: 'link.down', source: 'edge-1', summary: 'uplink 1 down on edge-1' });
    expect(r.status).toBe(202);
    firstEvent = r.body.id;
    alertId = await eventually(async () => (await rest(s.url, t.adminToken).get('/alerts')).body.items[0]?.id, 30_000);
  },
});

describe('the device page', () => {
  it('lists the recent alerts and events, and a new event and a new alert appear without a reload', async () => {
    await admin.goto(`${s.url}/devices/${deviceId}`);
    await admin.getByRole('heading', { level: 1, name: 'edge-1' }).waitFor();

    const alerts = admin.getByRole('table', { name: 'Device alerts' });
    const alertRow = alerts.getByRole('row').filter({ hasText: 'uplink 1 down on edge-1' });
    await alertRow.waitFor();
    await alertRow.getByText('open', { exact: true }).waitFor();
    await alertRow.getByText('critical', { exact: true }).waitFor();
    expect(await alertRow.getByRole('link', { name: 'uplink 1 down on edge-1' }).getAttribute('href')).toBe(
      `/alerts/${alertId}`,
    );
    expect(await alertRow.locator('time').count()).toBe(1);

    const events = admin.getByRole('table', { name: 'Device events' });
    const eventLink = events.getByRole('link', { name: 'link.down' });
    await eventLink.waitFor();
    expect(await eventLink.getAttribute('href')).toBe(`/events/${firstEvent}`);

    // Live: a new event from the device (no rule matches it), then one that opens a second alert.
    const quiet = await ingest({ type: 'config.saved', source: 'edge-1', summary: 'config saved by ops' });
    expect(quiet.status).toBe(202);
    const quietLink = events.getByRole('link', { name: 'config.saved' });
    await quietLink.waitFor();
    expect(await quietLink.getAttribute('href')).toBe(`/events/${quiet.body.id}`);
    expect((await ingest({ type: 'link.flap', source: 'edge-1', summary: 'uplink 2 flapping' })).status).toBe(202);
    await alerts.getByRole('row').filter({ hasText: 'uplink 2 flapping' }).waitFor();
    await events.getByRole('link', { name: 'link.flap' }).waitFor();

    for (const width of [390, 1280, 1440]) {
      await admin.setViewportSize({ width, height: 900 });
      if (width === 1280) {
        const wider = await admin.evaluate(() =>
          [...document.querySelectorAll('.table-wrap')]
            .filter((w) => w.scrollWidth > w.clientWidth + 1)
            .map((w) => w.querySelector('table')?.getAttribute('aria-label')),
        );
        expect(wider).not.toContain('Device alerts');
        expect(wider).not.toContain('Device events');
      }
      await screenshot(admin, `device-activity-${width}`);
    }
    await admin.setViewportSize({ width: 1280, height: 800 });
    // The summary opens the alert page.
    await alertRow.getByRole('link', { name: 'uplink 1 down on edge-1' }).click();
    await admin.getByRole('heading', { level: 1, name: 'uplink 1 down on edge-1' }).waitFor();
    expect(b.pageErrors).toEqual([]);
  });
});
