/**
 * The alert page's triage card follows the alert live (issue 44, item 7), in Debian's chromium, with no
 * reload: acknowledged by another user over REST, the card says so and the proposed "acknowledge alert"
 * (stale now: approving it would be a 409) is no longer offered for approval, with the server's reason;
 * resolved by this user on the page, the card says resolved and no proposed action is offered.
 * `AssistantAction.staleReason` over GraphQL agrees. Screenshot: test-results/console/triage-live-*.png.
 */
import { describe, expect, it } from 'vitest';
import { buildUser } from './factories.js';
import { eventually, rest } from './helpers/http.js';
import { screenshot } from './helpers/browser.js';
import { useConsoleSuite, s, t, admin, ingest, api } from './helpers/console-suite.js';

let alertId: string;
let memberToken: string;

useConsoleSuite({
  setUp: async () => {
    const member = await buildUser(s.app.rt, t.tenantId, { role: 'member', kind: 'human' });
    memberToken = (await rest(s.url).post('/auth/login', { email: member.email, password: member.password })).body
      .access_token;
    await api(
      'mutation { createAlertRule(input: { name: "Disks", typeGlob: "disk.*", alertSeverity: CRITICAL, summaryTemplate: "{{summary}}" }) { id } }',
    );
    expect((await ingest({ type: 'disk.full', source: 'db-1', summary: 'disk full on db-1' })).status).toBe(202);
    alertId = await eventually(async () => (await rest(s.url, t.adminToken).get('/alerts')).body.items[0]?.id, 30_000);
    await api('mutation($id: ID!) { triageAlert(alertId: $id) { id } }', { id: alertId });
  },
});

const ACTIONS = 'query($id: ID!) { alert(id: $id) { assistantActions { tool status staleReason } } }';

describe('the triage card', () => {
  it('follows a change of the alert by someone else and by this user, without a reload', async () => {
    await admin.goto(`${s.url}/alerts/${alertId}`);
    const status = admin.getByLabel('Alert status now');
    await status.getByText('open', { exact: true }).waitFor();
    const actions = admin.getByRole('table', { name: 'Proposed actions' });
    const ack = actions.getByRole('row').filter({ hasText: 'acknowledge alert' });
    const approveAck = ack.getByRole('button', { name: 'Approve' });
    await approveAck.waitFor();
    expect(await approveAck.isDisabled()).toBe(false);

    // Another user acknowledges it over REST: the proposal to acknowledge is stale.
    expect((await rest(s.url, memberToken).post(`/alerts/${alertId}/acknowledge`)).status).toBe(200);
    await status.getByText('acknowledged', { exact: true }).waitFor();
    await expect.poll(() => approveAck.isDisabled(), { timeout: 15_000 }).toBe(true);
    await ack
      .getByText(/was open when this was proposed and is acknowledged now/)
      .first()
      .waitFor();
    const stale = (await api(ACTIONS, { id: alertId })).alert.assistantActions;
    expect(stale.find((a: { tool: string }) => a.tool === 'ACKNOWLEDGE_ALERT').staleReason).toMatch(/stale/);
    await screenshot(admin, 'triage-live-acknowledged');

    // This user resolves it on the page: no proposed action is offered any more.
    await admin.getByRole('button', { name: 'Resolve', exact: true }).first().click();
    await status.getByText('resolved', { exact: true }).waitFor();
    const approves = actions.getByRole('button', { name: 'Approve' });
    await expect
      .poll(async () => {
        const all = await approves.all();
        return (await Promise.all(all.map((b) => b.isDisabled()))).every(Boolean) && all.length > 0;
      })
      .toBe(true);
    const after = (await api(ACTIONS, { id: alertId })).alert.assistantActions;
    expect(after.every((a: { staleReason: string | null }) => a.staleReason !== null)).toBe(true);
    await screenshot(admin, 'triage-live-resolved');
  });
});
