/**
 * The Rules page in a real browser against the real server: suggested rules are listed and an admin
 * enables one in one click (the rule then exists, checked through the API); a member sees the button
 * disabled; the new rule form's resolve fields reach the server. Screenshot: test-results/console/78-*.png.
 */
import { describe, expect, it } from 'vitest';
import { buildUser } from './factories.js';
import { eventually, gql } from './helpers/http.js';
import { openPage, screenshot, signIn } from './helpers/browser.js';
import { useConsoleSuite, s, t, b, admin } from './helpers/console-suite.js';

let member: { email: string; password?: string };

const rules = async () =>
  (
    await gql(
      s.url,
      t.adminToken,
      '{ alertRules { name typeGlob suggestionKey resolveTypeGlob autoResolveAfterSeconds } }',
    )
  ).data.alertRules as Array<Record<string, unknown>>;

useConsoleSuite({
  setUp: async () => {
    member = await buildUser(s.app.rt, t.tenantId, { role: 'member', kind: 'human' });
  },
  timeoutMs: 120_000,
});

describe('suggested rules on the Rules page', () => {
  it('an admin enables the GPU XID suggestion in one click', async () => {
    await openPage(admin, 'Alert rules');
    const table = admin.getByRole('table', { name: 'Suggested rules' });
    await table.getByRole('cell', { name: 'Critical GPU XID', exact: true }).waitFor();
    await screenshot(admin, '78-rule-suggestions');
    await table.getByRole('button', { name: 'Enable Critical GPU XID' }).click();
    await eventually(async () => (await rules()).some((r) => r.suggestionKey === 'gpu.xid'));
    expect((await rules()).find((r) => r.suggestionKey === 'gpu.xid')).toMatchObject({
      name: 'Critical GPU XID',
      typeGlob: 'gpu.xid',
    });
    await admin
      .getByRole('table', { name: 'Alert rules' })
      .getByRole('cell', { name: 'Critical GPU XID', exact: true })
      .waitFor();
    await table.getByRole('button', { name: 'Enable Critical GPU XID' }).waitFor({ state: 'detached' });
  });

  it('the new rule form sends the resolve settings', async () => {
    const form = admin.getByRole('form', { name: 'New alert rule' });
    await form.getByLabel('Rule name').fill('Link down');
    await form.getByLabel('Event type').fill('link.down');
    await form.getByLabel('Resolved by type').fill('link.up');
    await form.getByLabel('Auto-resolve after (seconds)').fill('3600');
    await form.getByRole('button', { name: 'Create rule' }).click();
    await eventually(async () => (await rules()).some((r) => r.name === 'Link down'));
    expect((await rules()).find((r) => r.name === 'Link down')).toMatchObject({
      typeGlob: 'link.down',
      resolveTypeGlob: 'link.up',
      autoResolveAfterSeconds: 3600,
    });
  });

  it('a member sees the enable buttons disabled', async () => {
    const page = await b.newPage();
    await signIn(page, s.url, member.email, member.password!);
    await openPage(page, 'Alert rules');
    const button = page
      .getByRole('table', { name: 'Suggested rules' })
      .getByRole('button', { name: 'Enable GPU overheating' });
    await button.waitFor();
    expect(await button.isDisabled()).toBe(true);
    await page.close();
  });
});
