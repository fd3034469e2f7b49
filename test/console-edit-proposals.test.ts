/**
 * Proposals and outbound webhooks edited through the console in a real browser against the real server,
 * each effect checked through the API: a proposal opened from a device's current intent and revised by
 * its proposer (a new revision; others see the button disabled with the reason and the server refuses
 * them); an outbound webhook's URL and triggers edited (the next delivery reaches the new 127.0.0.1
 * receiver), its secret rotated (shown once, copyable), a refused URL shown, and the webhook deleted.
 * Rules, windows and devices: console-edit-rules.test.ts. Screenshots: test-results/console/7x-*.png.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildToken, buildUser } from './factories.js';
import { eventually, gql } from './helpers/http.js';
import { openPage, screenshot, signIn } from './helpers/browser.js';
import { useConsoleSuite, s, t, b, admin, ingest, api } from './helpers/console-suite.js';

let member: { email: string; password?: string; id: string };
let memberToken: string;
let deviceId: string;
let webhookId: string;

/** A 127.0.0.1 receiver that records the bodies it gets. */
async function receiver(): Promise<{ server: http.Server; url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies };
}
let first: Awaited<ReturnType<typeof receiver>>;
let second: Awaited<ReturnType<typeof receiver>>;

useConsoleSuite({
  env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' },
  setUp: async () => {
    [first, second] = await Promise.all([receiver(), receiver()]);
    member = await buildUser(s.app.rt, t.tenantId, { role: 'member', kind: 'human' });
    memberToken = await buildToken(s.app.rt, member as never);
    deviceId = (
      await api('mutation { createDevice(input: { name: "core-switch-2", site: "ams2", role: "spine" }) { id } }')
    ).createDevice.id;
    await api('mutation { createDevice(input: { name: "other-1" }) { id } }');
    await api('mutation($input: SetDeviceIntentInput!) { setDeviceIntent(input: $input) { version } }', {
      input: { deviceId, config: 'hostname core-switch-1\nmtu 1500\n', comment: 'first' },
    });
    webhookId = (
      await api(
        'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { webhook { id } } }',
        { input: { name: 'pager', url: first.url, triggers: [{ on: 'EVENT', typeGlob: 'backup.*' }] } },
      )
    ).createOutboundWebhook.webhook.id;
  },
});

afterAll(async () => {
  first?.server.close();
  second?.server.close();
});

describe('proposals', () => {
  let proposalId: string;

  it("opens a proposal from a device's current intent", async () => {
    await openPage(admin, 'Proposals');
    const form = admin.getByRole('form', { name: 'Open a proposal' });
    await form.getByLabel('Target device').selectOption({ label: 'core-switch-2' });
    const intent = form.getByLabel('Proposed intent');
    await expect.poll(() => intent.inputValue()).toBe('hostname core-switch-1\nmtu 1500\n');
    await intent.fill('hostname core-switch-1\nmtu 9000\n');
    await form.getByLabel('Proposal title').fill('Raise MTU');
    await form.getByRole('button', { name: 'Open proposal' }).click();
    await admin.getByRole('row').filter({ hasText: 'Raise MTU' }).waitFor();
    const p = (
      await api(
        '{ proposals(status: PROPOSED) { edges { node { id title kind proposedIntent revision device { id } } } } }',
      )
    ).proposals.edges[0].node;
    expect(p).toMatchObject({
      title: 'Raise MTU',
      kind: 'config_change',
      proposedIntent: 'hostname core-switch-1\nmtu 9000\n',
      revision: 1,
      device: { id: deviceId },
    });
    proposalId = p.id;
  });

  it('revises it as the proposer (a new revision); an invalid revision shows the server refusal', async () => {
    const row = admin.getByRole('row').filter({ hasText: 'Raise MTU' });
    await row.getByRole('button', { name: 'Revise Raise MTU' }).click();
    const form = admin.getByRole('form', { name: 'Revise Raise MTU (revision 1)' });
    await form.getByLabel('Revised title').fill('');
    await form.getByRole('button', { name: 'Save revision' }).click();
    await form
      .getByRole('alert')
      .getByText(/422 Invalid input/)
      .waitFor();

    await form.getByLabel('Revised title').fill('Raise MTU to 9216');
    await form.getByLabel('Revised intent').fill('hostname core-switch-1\nmtu 9216\n');
    await form.getByLabel('Revised reason').fill('jumbo frames for storage');
    await form.getByLabel('Revised kind').fill('mtu_change');
    await form.getByRole('button', { name: 'Save revision' }).click();
    const revised = admin.getByRole('row').filter({ hasText: 'Raise MTU to 9216' });
    await revised.getByRole('cell', { name: 'r2', exact: true }).waitFor();
    const p = (
      await api(
        'query($id: ID!) { proposal(id: $id) { title kind revision proposedIntent reason status device { id } } }',
        { id: proposalId },
      )
    ).proposal;
    expect(p).toEqual({
      title: 'Raise MTU to 9216',
      kind: 'mtu_change',
      revision: 2,
      proposedIntent: 'hostname core-switch-1\nmtu 9216\n',
      reason: 'jumbo frames for storage',
      status: 'PROPOSED',
      device: { id: deviceId },
    });
    await screenshot(admin, '73-proposal-revised');
  });

  it('disables Revise for anyone else with the reason; the server refuses them too', async () => {
    const page = await b.newPage();
    await signIn(page, s.url, member.email, member.password!);
    await openPage(page, 'Proposals');
    const row = page.getByRole('row').filter({ hasText: 'Raise MTU to 9216' });
    await row.waitFor();
    expect(await row.getByRole('button', { name: 'Revise Raise MTU to 9216' }).isDisabled()).toBe(true);
    await row.getByText('Only the proposer can revise a proposal; open a new one instead.').waitFor();
    await screenshot(page, '74-proposal-revise-denied');
    const refused = await gql(
      s.url,
      memberToken,
      'mutation($id: ID!) { updateProposal(id: $id, input: { title: "Mine now" }) { id } }',
      { id: proposalId },
    );
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'PROPOSAL_NOT_PROPOSER' });
    await page.close();
  });
});

describe('outbound webhooks', () => {
  it('edits the URL and triggers: the next delivery reaches the new receiver', async () => {
    expect((await ingest({ type: 'backup.finished', source: 'nas-1', summary: 'backup ok' })).status).toBe(202);
    await eventually(async () => first.bodies.length === 1, 20_000);

    await openPage(admin, 'Outbound webhooks');
    await admin.getByRole('link', { name: 'pager' }).click();
    await admin.getByRole('heading', { level: 1, name: 'pager' }).waitFor();
    await admin.getByRole('button', { name: 'Edit webhook' }).click();
    const form = admin.getByRole('form', { name: 'Edit webhook' });
    // A private address outside the allowlist: the server's refusal is shown.
    await form.getByLabel('Receiver URL').fill('http://10.0.0.1/hook');
    await form.getByRole('button', { name: 'Save webhook' }).click();
    await form
      .getByRole('alert')
      .getByText(/422 Invalid input/)
      .waitFor();
    await form
      .getByRole('alert')
      .getByText(/non-public address/)
      .waitFor();
    expect(
      (await api('query($id: ID!) { webhook: outboundWebhook(id: $id) { url } }', { id: webhookId })).webhook.url,
    ).toBe(first.url);

    await form.getByLabel('Webhook name').fill('pager-2');
    await form.getByLabel('Receiver URL').fill(second.url);
    await form.getByLabel('Event type glob').fill('deploy.*');
    await form.getByRole('checkbox', { name: 'alert opened' }).check();
    await form.getByRole('button', { name: 'Save webhook' }).click();
    await admin.getByRole('heading', { level: 1, name: 'pager-2' }).waitFor();
    const w = (
      await api('query($id: ID!) { webhook: outboundWebhook(id: $id) { name url triggers { on typeGlob } } }', {
        id: webhookId,
      })
    ).webhook;
    expect(w.name).toBe('pager-2');
    expect(w.url).toBe(second.url);
    expect(w.triggers).toEqual(
      expect.arrayContaining([
        { on: 'EVENT', typeGlob: 'deploy.*' },
        { on: 'ALERT_OPENED', typeGlob: null },
      ]),
    );
    expect(w.triggers).toHaveLength(2);

    expect((await ingest({ type: 'deploy.done', source: 'ci-1', summary: 'deployed' })).status).toBe(202);
    await eventually(async () => second.bodies.some((x) => x.includes('deploy.done')), 20_000);
    expect(first.bodies).toHaveLength(1);
    await admin
      .getByRole('table', { name: 'Deliveries' })
      .getByRole('row')
      .filter({ hasText: 'delivered' })
      .first()
      .waitFor();
    await screenshot(admin, '75-outbound-edited');
  });

  it('rotates the secret: shown once with a copy button, and it is the secret the API reveals', async () => {
    admin.once('dialog', (dlg) => void dlg.accept());
    await admin.getByRole('button', { name: 'Rotate secret' }).click();
    const shown = admin.getByLabel('Signing secret value');
    await shown.waitFor();
    const secret = (await shown.textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await admin.getByRole('button', { name: 'Copy' }).click();
    await admin.getByRole('button', { name: 'Copy' }).getByText('Copied').waitFor();
    const revealed = (
      await api('mutation($id: ID!) { revealOutboundWebhookSecret(id: $id) { secret previousSecretValidUntil } }', {
        id: webhookId,
      })
    ).revealOutboundWebhookSecret;
    expect(revealed.secret).toBe(secret);
    expect(revealed.previousSecretValidUntil).not.toBeNull();
  });

  it('deletes the webhook from its page', async () => {
    admin.once('dialog', (dlg) => void dlg.accept());
    await admin.getByRole('button', { name: 'Delete webhook' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Outbound webhooks', exact: true }).waitFor();
    expect((await api('{ outboundWebhooks { id } }')).outboundWebhooks).toEqual([]);
    await screenshot(admin, '76-outbound-deleted');
  });

  it('had no uncaught errors in the pages', () => {
    expect(b.pageErrors.map(String)).toEqual([]);
  });
});
