/**
 * Editing alert rules, maintenance windows and devices through the console in a real browser against the
 * real server, each effect checked through the API: a rule's new type glob opens an alert for an ingested
 * event; a maintenance window and a heartbeat window changed; a device's fields edited (a name clash
 * refused with the server's 409), its observed configuration reported, a device deleted; a member sees
 * these edits disabled with the reason. Proposals and outbound webhooks: console-edit-proposals.test.ts.
 * Screenshots: test-results/console/7x-*.png.
 */
import { describe, expect, it } from 'vitest';
import { buildUser } from './factories.js';
import { eventually } from './helpers/http.js';
import { openPage, screenshot, signIn } from './helpers/browser.js';
import { useConsoleSuite, s, t, b, admin, ingest, api } from './helpers/console-suite.js';

let member: { email: string; password?: string; id: string };
let deviceId: string;

useConsoleSuite({
  setUp: async () => {
    member = await buildUser(s.app.rt, t.tenantId, { role: 'member', kind: 'human' });
    deviceId = (
      await api('mutation { createDevice(input: { name: "core-switch-1", site: "fra1", role: "leaf" }) { id } }')
    ).createDevice.id;
    await api('mutation { createDevice(input: { name: "other-1" }) { id } }');
    await api(
      'mutation { createAlertRule(input: { name: "Disk rule", typeGlob: "disk.*", alertSeverity: WARNING }) { id } }',
    );
    await api(
      'mutation { createAlertRule(input: { name: "Backup heartbeat", kind: ABSENCE, typeGlob: "backup.*", windowSeconds: 3600 }) { id } }',
    );
    await api(
      'mutation { createMaintenanceWindow(input: { name: "Nightly", startsAt: "2030-01-01T02:00:00Z", endsAt: "2030-01-01T04:00:00Z", source: "db-9" }) { id } }',
    );
  },
});

describe('alert rules and maintenance windows', () => {
  it('edits a match rule; its new type glob then opens an alert for an ingested event', async () => {
    await openPage(admin, 'Alert rules');
    await admin.getByRole('button', { name: 'Edit Disk rule' }).click();
    const form = admin.getByRole('form', { name: 'Edit rule Disk rule' });
    // A type glob the server refuses: its 422 is shown under the form.
    await form.getByLabel('Event type').fill('bad glob!');
    await form.getByRole('button', { name: 'Save rule' }).click();
    await form
      .getByRole('alert')
      .getByText(/422 Invalid input/)
      .waitFor();

    await form.getByLabel('Rule name').fill('Filesystem rule');
    await form.getByLabel('Event type').fill('fs.*');
    await form.getByRole('checkbox', { name: 'critical' }).check();
    await form.getByLabel('Alert severity').selectOption('CRITICAL');
    await form.getByLabel('Summary template').fill('{{type}} from {{source}}');
    await form.getByLabel('Dedup key template').fill('{{source}}:{{labels.env}}');
    // Labels as key/value rows; conditions as rows, then checked in their JSON form (the option for those who paste).
    await form.getByRole('button', { name: 'Add event label' }).click();
    await form.getByLabel('Label 1 key').fill('env');
    await form.getByLabel('Label 1 value').fill('prod');
    await form.getByRole('button', { name: 'Add payload condition' }).click();
    await form.getByLabel('Condition 1 path').fill('used_pct');
    await form.getByLabel('Condition 1 operator').selectOption('GTE');
    await form.getByLabel('Condition 1 value').fill('90');
    await form.getByRole('button', { name: 'Edit payload conditions as JSON' }).click();
    expect(JSON.parse(await form.getByLabel('Payload conditions (JSON)').inputValue())).toEqual([
      { path: 'used_pct', op: 'GTE', value: 90 },
    ]);
    await form.getByRole('button', { name: 'Edit payload conditions as rows' }).click();
    expect(await form.getByLabel('Condition 1 value').inputValue()).toBe('90');
    await screenshot(admin, '70-rule-edit');
    await form.getByRole('button', { name: 'Save rule' }).click();
    await admin.getByRole('cell', { name: 'Filesystem rule', exact: true }).waitFor();
    expect(await form.count()).toBe(0);
    const rule = (
      await api(
        '{ alertRules { name typeGlob severities alertSeverity summaryTemplate dedupKeyTemplate labels payloadConditions { path op value } } }',
      )
    ).alertRules.find((r: { name: string }) => r.name === 'Filesystem rule');
    expect(rule).toEqual({
      name: 'Filesystem rule',
      typeGlob: 'fs.*',
      severities: ['CRITICAL'],
      alertSeverity: 'CRITICAL',
      summaryTemplate: '{{type}} from {{source}}',
      dedupKeyTemplate: '{{source}}:{{labels.env}}',
      labels: { env: 'prod' },
      payloadConditions: [{ path: 'used_pct', op: 'GTE', value: 90 }],
    });

    expect(
      (
        await ingest({
          type: 'fs.full',
          source: 'db-2',
          severity: 'critical',
          summary: '/srv at 99%',
          labels: { env: 'prod' },
          payload: { used_pct: 99 },
        })
      ).status,
    ).toBe(202);
    const alert = await eventually(
      async () =>
        (
          await api('{ alerts(first: 10) { edges { node { summary severity dedupKey rule { name } } } } }')
        ).alerts.edges.map((e: { node: unknown }) => e.node)[0],
      20_000,
    );
    expect(alert).toEqual({
      summary: 'fs.full from db-2',
      severity: 'CRITICAL',
      dedupKey: 'db-2:prod',
      rule: { name: 'Filesystem rule' },
    });
  });

  it("edits a heartbeat rule's window and a maintenance window", async () => {
    await admin.getByRole('button', { name: 'Edit Backup heartbeat' }).click();
    const form = admin.getByRole('form', { name: 'Edit rule Backup heartbeat' });
    await form.getByLabel('Silence window (seconds)').fill('7200');
    await form.getByRole('button', { name: 'Save rule' }).click();
    await admin.getByRole('cell', { name: 'heartbeat (7200 s)' }).waitFor();
    const hb = (await api('{ alertRules { name windowSeconds } }')).alertRules.find(
      (r: { name: string }) => r.name === 'Backup heartbeat',
    );
    expect(hb.windowSeconds).toBe(7200);

    await admin.getByRole('button', { name: 'Edit Nightly' }).click();
    const win = admin.getByRole('form', { name: 'Edit window Nightly' });
    await win.getByLabel('Window name').fill('Weekly patching');
    await win.getByLabel('Only source').fill('db-7');
    await win.getByLabel('Repeats').selectOption('604800');
    await win.getByLabel('Only device').selectOption({ label: 'core-switch-1' });
    await win.getByLabel('Only labels (JSON)').fill('{"team": "storage"}');
    await win.getByRole('button', { name: 'Save window' }).click();
    await admin.getByRole('cell', { name: 'Weekly patching', exact: true }).waitFor();
    await admin.getByRole('cell', { name: 'source db-7 · device core-switch-1 · {"team":"storage"}' }).waitFor();
    const windows = (
      await api('{ maintenanceWindows { name source repeatEverySeconds startsAt deviceId matchLabels } }')
    ).maintenanceWindows;
    expect(windows).toEqual([
      {
        name: 'Weekly patching',
        source: 'db-7',
        repeatEverySeconds: 604800,
        startsAt: '2030-01-01T02:00:00.000Z',
        deviceId,
        matchLabels: { team: 'storage' },
      },
    ]);
    await screenshot(admin, '71-rules-edited');
  });
});

describe('devices', () => {
  it("edits a device's fields; a name clash shows the server's 409", async () => {
    await openPage(admin, 'Devices');
    await admin.getByRole('link', { name: 'core-switch-1' }).click();
    await admin.getByRole('heading', { level: 1, name: 'core-switch-1' }).waitFor();
    await admin.getByRole('button', { name: 'Edit device' }).click();
    const form = admin.getByRole('form', { name: 'Edit device fields' });
    await form.getByLabel('Device name').fill('other-1');
    await form.getByRole('button', { name: 'Save device' }).click();
    await form
      .getByRole('alert')
      .getByText(/409 Conflict/)
      .waitFor();

    await form.getByLabel('Device name').fill('core-switch-2');
    await form.getByLabel('Device site').fill('ams2');
    await form.getByLabel('Device role').fill('spine');
    await form.getByLabel('Management address').fill('10.1.2.3');
    await form.getByLabel('Labels (JSON)').fill('{"env": "prod"}');
    await form.getByRole('button', { name: 'Save device' }).click();
    await admin.getByRole('heading', { level: 1, name: 'core-switch-2' }).waitFor();
    const d = (
      await api('query($id: ID!) { device(id: $id) { name site role managementAddress labels } }', { id: deviceId })
    ).device;
    expect(d).toEqual({
      name: 'core-switch-2',
      site: 'ams2',
      role: 'spine',
      managementAddress: '10.1.2.3',
      labels: { env: 'prod' },
    });
  });

  it('reports the configuration the device runs', async () => {
    await admin.getByLabel('Running config (read off the device)').fill('hostname core-switch-2\nmtu 9000\n');
    await admin.getByRole('button', { name: 'Report config' }).click();
    await admin.getByLabel('Observed configuration').getByText('mtu 9000').waitFor();
    const observed = (await api('query($id: ID!) { device(id: $id) { observedConfig { config } } }', { id: deviceId }))
      .device.observedConfig.config;
    expect(observed).toBe('hostname core-switch-2\nmtu 9000\n');
    await screenshot(admin, '72-device-edited');
  });

  it('deletes a device', async () => {
    const spare = (await api('mutation { createDevice(input: { name: "spare-1" }) { id } }')).createDevice.id;
    await admin.goto(`${s.url}/devices/${spare}`);
    await admin.getByRole('heading', { level: 1, name: 'spare-1' }).waitFor();
    admin.once('dialog', (dlg) => void dlg.accept());
    await admin.getByRole('button', { name: 'Delete device' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Devices', exact: true }).waitFor();
    const names = async () =>
      (await api('{ devices(first: 50) { edges { node { name } } } }')).devices.edges
        .map((e: { node: { name: string } }) => e.node.name)
        .sort();
    expect(await names()).toEqual(['core-switch-2', 'other-1']);
    // And from the list.
    admin.once('dialog', (dlg) => void dlg.accept());
    await admin.getByRole('button', { name: 'Delete other-1' }).click();
    await expect.poll(() => admin.getByRole('link', { name: 'other-1' }).count()).toBe(0);
    expect(await names()).toEqual(['core-switch-2']);
  });
});

describe("a member's view of these edits", () => {
  it('disables the admin-only edits with the reason', async () => {
    const page = await b.newPage();
    await signIn(page, s.url, member.email, member.password!);
    await openPage(page, 'Alert rules');
    await page.getByRole('button', { name: 'Edit Filesystem rule' }).click();
    const ruleForm = page.getByRole('form', { name: 'Edit rule Filesystem rule' });
    expect(await ruleForm.getByRole('button', { name: 'Save rule' }).isDisabled()).toBe(true);
    await ruleForm.getByText('Only admins can do this.').waitFor();
    await openPage(page, 'Devices');
    expect(await page.getByRole('button', { name: 'Delete core-switch-2' }).isDisabled()).toBe(true);
    await page.close();
  });

  it('had no uncaught errors in the pages', () => {
    expect(b.pageErrors.map(String)).toEqual([]);
  });
});
