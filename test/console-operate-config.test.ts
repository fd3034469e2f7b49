/**
 * Operating devices and configuration through the console in a real browser against the real server: a
 * proposal refused to its proposer (four-eyes, with the reason) and approved by a second person; the
 * intent history with a diff, and Reconcile; an outbound webhook with its deliveries live and a
 * redelivery to a 127.0.0.1 receiver; an inbound webhook and its replay protection; users and the audit log.
 * Alerts: console-operate-alerts.test.ts. Screenshots: test-results/console/.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildUser } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { untilSubscribed } from './helpers/pubsub.js';
import { openPage, screenshot, signIn } from './helpers/browser.js';
import { startSmtpPeer } from './helpers/paging-receivers.js';
import { useConsoleSuite, s, t, b, admin, ingest } from './helpers/console-suite.js';

let member: { email: string; password?: string; id: string };
let deviceId: string;
let receiver: http.Server;
let receiverUrl: string;
const received: string[] = [];
// Invitations and resets mail a link: a real SMTP server on 127.0.0.1.
const smtp = await startSmtpPeer();

/** The set-password token of the newest mail to `to`. */
async function mailedToken(to: string, after: number): Promise<string> {
  const mail = await eventually(async () =>
    smtp.messages.slice(after).find((m) => (m.to as { text: string } | undefined)?.text === to),
  );
  return decodeURIComponent(/[?&]token=([^\s&]+)/.exec(mail.text ?? '')![1]!);
}

useConsoleSuite({
  env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1', SMTP_URL: smtp.url },
  setUp: async () => {
    // A real receiver for outbound deliveries, on 127.0.0.1 (allowed for this server only).
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(body);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks from the receiver');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    member = await buildUser(s.app.rt, t.tenantId, { role: 'member', kind: 'human' });
    deviceId = (
      await gql(
        s.url,
        t.adminToken,
        'mutation { createDevice(input: { name: "edge-router-1", site: "fra1", role: "router", platform: "eos" }) { id } }',
      )
    ).data.createDevice.id;
    await gql(
      s.url,
      t.adminToken,
      'mutation($input: SetDeviceIntentInput!) { setDeviceIntent(input: $input) { version } }',
      { input: { deviceId, config: 'hostname edge-router-1\nntp server 10.0.0.1\n', comment: 'first' } },
    );
  },
});

afterAll(async () => {
  receiver?.close();
  await smtp.close();
});

describe('proposals and devices', () => {
  it('proposes an intent change from the device page', async () => {
    await openPage(admin, 'Devices');
    await admin.getByRole('link', { name: 'edge-router-1' }).click();
    await admin.getByRole('heading', { name: 'edge-router-1' }).waitFor();
    await admin.getByLabel('New intended configuration').fill('hostname edge-router-1\nntp server 10.0.0.2\n');
    await admin.getByLabel('Proposal title').fill('Move NTP to 10.0.0.2');
    await admin.getByRole('button', { name: 'Propose change' }).click();
    await admin
      .getByRole('table', { name: 'Device proposals' })
      .getByRole('cell', { name: 'Move NTP to 10.0.0.2' })
      .waitFor();
  });

  it('refuses the proposer with the four-eyes reason, then a second person approves', async () => {
    await openPage(admin, 'Proposals');
    const row = admin.getByRole('row').filter({ hasText: 'Move NTP to 10.0.0.2' });
    await row.waitFor();
    expect(await row.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    await row.getByText(/Four-eyes rule/).waitFor();
    await screenshot(admin, '20-proposals-four-eyes');
    // The server holds the same line: the proposer's own approval is refused.
    const proposalId = (await gql(s.url, t.adminToken, '{ proposals(status: PROPOSED) { edges { node { id } } } }'))
      .data.proposals.edges[0].node.id;
    const refused = await gql(s.url, t.adminToken, 'mutation($id: ID!) { approveProposal(id: $id) { id } }', {
      id: proposalId,
    });
    expect(refused.errors?.[0].extensions?.code).toBe('FORBIDDEN');

    const second = await b.newPage();
    await signIn(second, s.url, member.email, member.password!);
    await openPage(second, 'Proposals');
    const theirRow = second.getByRole('row').filter({ hasText: 'Move NTP to 10.0.0.2' });
    await theirRow.getByRole('button', { name: 'Approve' }).click();
    await eventually(async () => {
      const st = (
        await gql(s.url, t.adminToken, 'query($id: ID!) { proposal(id: $id) { status approver { email } } }', {
          id: proposalId,
        })
      ).data.proposal;
      return st.status === 'APPLIED' && st.approver.email === member.email;
    }, 20_000);
    // Live: the admin's list (status "proposed") drops the row once it is approved.
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
    await admin.getByLabel('Status').selectOption('APPLIED');
    await admin
      .getByRole('row')
      .filter({ hasText: 'Move NTP to 10.0.0.2' })
      .filter({ hasText: member.email })
      .waitFor();
    await screenshot(admin, '21-proposals-applied');
    await second.close();
  });

  it('shows the intent history with a diff, and reconciles', async () => {
    await openPage(admin, 'Devices');
    await screenshot(admin, '22-devices');
    await admin.getByRole('link', { name: 'edge-router-1' }).click();
    await admin.getByRole('cell', { name: 'v2', exact: true }).waitFor();
    const diff = await admin.getByLabel('Version diff').textContent();
    expect(diff).toContain('-ntp server 10.0.0.1');
    expect(diff).toContain('+ntp server 10.0.0.2');
    await gql(
      s.url,
      t.adminToken,
      'mutation($input: ReportObservedConfigInput!) { reportObservedConfig(input: $input) { id } }',
      { input: { deviceId, config: 'hostname edge-router-1\nntp server 10.9.9.9\n' } },
    );
    await admin.getByLabel('Observed configuration').getByText('10.9.9.9').waitFor();
    await admin.getByRole('button', { name: 'Reconcile' }).click();
    await admin.getByText(/Reconcile queued/).waitFor();
    await admin.getByLabel('Drift diff').getByText('+ntp server 10.9.9.9').waitFor();
    await screenshot(admin, '23-device');
  });
});

describe('configuration pages', () => {
  it('creates an outbound webhook (secret shown once), shows its deliveries live with request and response, and redelivers', async () => {
    await openPage(admin, 'Outbound webhooks');
    await admin.getByLabel('Webhook name').fill('pager');
    await admin.getByLabel('Receiver URL').fill(receiverUrl);
    await admin.getByRole('checkbox', { name: 'alert opened' }).uncheck();
    await admin.getByRole('checkbox', { name: 'event', exact: true }).check();
    await admin.getByLabel('Event type glob').fill('backup.*');
    await admin.getByRole('button', { name: 'Create webhook' }).click();
    expect(await admin.getByLabel('Signing secret value').textContent()).toMatch(/^whsec_/);
    await screenshot(admin, '29-outbound-webhooks');
    await admin.getByRole('link', { name: 'pager' }).click();
    const deliveries = admin.getByRole('table', { name: 'Deliveries' });
    await deliveries.waitFor();
    const webhookId = new URL(admin.url()).pathname.split('/').pop()!;
    await untilSubscribed(s.app.rt, 'deliveryChanged', t.tenantId);

    expect((await ingest({ type: 'backup.finished', source: 'nas-1', summary: 'backup ok' })).status).toBe(202);
    const row = deliveries.getByRole('row').filter({ hasText: 'delivered' });
    await row.waitFor();
    expect(received).toHaveLength(1);
    await row.getByRole('button', { name: 'Details' }).click();
    const attempt1 = admin.getByRole('region', { name: 'Attempt 1' });
    await attempt1.getByText('thanks from the receiver').waitFor();
    await attempt1.getByText(/webhook-signature/).waitFor();
    await attempt1.getByText(/\d+ ms · 200/).waitFor();

    await row.getByRole('button', { name: 'Redeliver' }).click();
    await eventually(async () => received.length === 2, 15_000);
    await admin.getByRole('region', { name: 'Attempt 2' }).getByText('thanks from the receiver').waitFor();
    const attempts = (
      await gql(
        s.url,
        t.adminToken,
        'query($id: ID!) { webhook: outboundWebhook(id: $id) { deliveries { attemptCount } } }',
        { id: webhookId },
      )
    ).data.webhook.deliveries;
    expect(attempts).toEqual([{ attemptCount: 2 }]);
    await screenshot(admin, '30-outbound-webhook');
  });

  it('creates an inbound webhook with its URL and secret, and lists the ingest key', async () => {
    await openPage(admin, 'Inbound webhooks');
    await admin.getByLabel('Webhook name').fill('ci');
    await admin.getByRole('button', { name: 'Create webhook' }).click();
    await admin.getByRole('cell', { name: 'ci', exact: true }).waitFor();
    expect((await admin.getByLabel('Secret of ci value').textContent())!.length).toBeGreaterThan(20);
    await admin.getByRole('table', { name: 'Ingest keys' }).getByRole('row').nth(1).waitFor();
    // Replay protection (issue 40): a toggle is saved at once, as GraphQL reads it back.
    const repeated = admin.getByLabel('Reject repeated signatures for ci');
    expect(await repeated.isChecked()).toBe(false);
    await repeated.check();
    const saved = async () =>
      (await gql(s.url, t.adminToken, '{ inboundWebhooks { name rejectRepeatedSignature requireStandardWebhooks } }'))
        .data.inboundWebhooks;
    await expect.poll(saved).toEqual([{ name: 'ci', rejectRepeatedSignature: true, requireStandardWebhooks: false }]);
    await expect.poll(() => repeated.isChecked()).toBe(true);
    await screenshot(admin, '31-inbound-webhooks');
  });

  it('shows users and the audit log to an admin', async () => {
    await openPage(admin, 'Users');
    await admin.getByRole('cell', { name: member.email, exact: true }).waitFor();
    await admin.getByLabel('User email').fill('collector@example.test');
    await admin.getByLabel('User kind').selectOption('SERVICE');
    await admin.getByRole('button', { name: 'Create user' }).click();
    const row = admin.getByRole('row').filter({ hasText: 'collector@example.test' });
    await row.getByRole('button', { name: 'Mint 90-day token' }).click();
    const token = (await admin.getByLabel('New token value').textContent())!.trim();
    const me = await rest(s.url, token).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('collector@example.test');
    await screenshot(admin, '40-users');

    // A person invited (she chooses her password through the mailed link), made admin, then back; a forced
    // reset ends her password and mails a new link; no password is ever shown to the admin.
    let mails = smtp.messages.length;
    await admin.getByLabel('User email').fill('dana@example.test');
    await admin.getByLabel('User kind').selectOption('HUMAN');
    await admin.getByRole('button', { name: 'Create user' }).click();
    const dana = admin.getByRole('row').filter({ hasText: 'dana@example.test' });
    await dana.getByRole('cell', { name: 'invited password' }).waitFor();
    const invite = await mailedToken('dana@example.test', mails);
    expect(
      (await rest(s.url).post('/auth/password/reset', { token: invite, password: 'dana-first-pass' })).status,
    ).toBe(204);
    admin.once('dialog', (d) => void d.accept());
    await dana.getByRole('button', { name: 'Make dana@example.test admin' }).click();
    await dana.getByRole('button', { name: 'Make dana@example.test member' }).waitFor();
    expect((await s.app.rt.prisma.user.findUniqueOrThrow({ where: { email: 'dana@example.test' } })).role).toBe(
      'admin',
    );
    mails = smtp.messages.length;
    admin.once('dialog', (d) => void d.accept());
    await dana.getByRole('button', { name: 'Reset password of dana@example.test' }).click();
    await admin.getByRole('status').filter({ hasText: 'Reset link sent to dana@example.test' }).waitFor();
    expect(
      (await rest(s.url).post('/auth/login', { email: 'dana@example.test', password: 'dana-first-pass' })).status,
    ).toBe(401);
    const resetToken = await mailedToken('dana@example.test', mails);
    expect(
      (await rest(s.url).post('/auth/password/reset', { token: resetToken, password: 'dana-new-pass' })).status,
    ).toBe(204);
    expect(
      (await rest(s.url).post('/auth/login', { email: 'dana@example.test', password: 'dana-new-pass' })).status,
    ).toBe(200);
    // Demoting the only other admin works; the server keeps the tenant's last human admin (shown, not swallowed).
    admin.once('dialog', (d) => void d.accept());
    await dana.getByRole('button', { name: 'Make dana@example.test member' }).click();
    await dana.getByRole('button', { name: 'Make dana@example.test admin' }).waitFor();
    const self = admin.getByRole('row').filter({ hasText: t.admin.email });
    admin.once('dialog', (d) => void d.accept());
    await self.getByRole('button', { name: `Make ${t.admin.email} member` }).click();
    await self
      .getByRole('alert')
      .getByText(/last admin/)
      .waitFor();
    await screenshot(admin, '40-users-last-admin');

    await openPage(admin, 'Audit log');
    await admin.getByRole('cell', { name: 'approveProposal', exact: true }).first().waitFor();
    await screenshot(admin, '41-audit');
  });
});

describe('getting back in', () => {
  it('"Forgot password?" mails a link whose page sets the password once; then signing in works', async () => {
    const person = await buildUser(s.app.rt, t.tenantId);
    const page = await b.newPage();
    await page.goto(s.url + '/');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(person.email);
    const mails = smtp.messages.length;
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').filter({ hasText: 'If an account uses this email' }).waitFor();
    const token = await mailedToken(person.email, mails);

    await page.goto(`${s.url}/account/password?token=${encodeURIComponent(token)}`);
    await page.getByLabel('New password').fill('from-the-mail-1');
    await page.getByLabel('Repeat the password').fill('from-the-mail-1');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { name: 'Password set' }).waitFor();
    await screenshot(page, '42-password-set');
    await page.goto(`${s.url}/account/password?token=${encodeURIComponent(token)}`);
    await page.getByRole('heading', { name: 'Link not usable' }).waitFor();

    await signIn(page, s.url, person.email, 'from-the-mail-1');
  });
});

describe('no errors', () => {
  it('had no uncaught errors in the pages', () => {
    expect(b.pageErrors.map(String)).toEqual([]);
  });
});
