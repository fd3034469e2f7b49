/**
 * Accounts: invitations, forced and self-service password resets, and the four-eyes rule that an admin
 * cannot fake with a user they made (issue 40 item 7, issue 45 item 4). Mail goes to a real SMTP server
 * (smtp-server + mailparser) on 127.0.0.1; links are opened and posted over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startSmtpPeer, type SmtpPeer } from './helpers/paging-receivers.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, eventually, gql, rest } from './helpers/http.js';

let s: TestServer;
let smtp: SmtpPeer;
let t: BuiltTenant;
let other: BuiltTenant;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  s = await startTestServer({ env: { SMTP_URL: smtp.url, SMTP_FROM: 'Ops <ops@ops.test>' } });
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
  await smtp?.close();
});

/** The token of the newest mail to `to` (after `after` mails had arrived), waiting for it to arrive. */
async function linkTokenFor(to: string, after = 0): Promise<{ token: string; subject: string }> {
  const mail = await eventually(async () =>
    smtp.messages.slice(after).find((m) => (m.to as { text: string } | undefined)?.text === to),
  );
  const m = /\/account\/password\?token=([A-Za-z0-9_%-]+)/.exec(mail.text ?? '');
  expect(m, mail.text).not.toBeNull();
  return { token: decodeURIComponent(m![1]!), subject: mail.subject ?? '' };
}

function mailsTo(to: string): number {
  return smtp.messages.filter((m) => (m.to as { text: string } | undefined)?.text === to).length;
}

async function postForm(path: string, fields: Record<string, string>) {
  const res = await fetch(s.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, text: await res.text() };
}

async function login(email: string, password: string) {
  return rest(s.url).post('/auth/login', { email, password });
}

async function openProposal(token: string): Promise<string> {
  const dev = await gql(s.url, t.adminToken, 'mutation($i: DeviceInput!) { createDevice(input: $i) { id } }', {
    i: { name: `edge-${Math.random().toString(16).slice(2, 8)}`, role: 'edge' },
  });
  expect(dev.errors).toBeUndefined();
  const opened = await rest(s.url, token).post('/sot/proposals', {
    title: 'Raise MTU',
    kind: 'config_change',
    device_id: dev.data.createDevice.id,
    proposed_intent: 'hostname edge-1\nmtu 9000\n',
    reason: 'jumbo frames',
  });
  expect(opened.status).toBe(201);
  return opened.body.id as string;
}

describe('invitations', () => {
  it('invites a person by email; GET shows a form and changes nothing; POST sets the password once', async () => {
    const email = `invitee-${Date.now()}@example.test`;
    const created = await rest(s.url, t.adminToken).post('/users', { email, name: 'Ivy' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email, kind: 'human', role: 'member', credential_origin: 'invited_password' });
    expect(JSON.stringify(created.body)).not.toMatch(/"password"/);
    const { token, subject } = await linkTokenFor(email);
    expect(subject).toMatch(/invited/);

    const page = await fetch(`${s.url}/account/password?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post"');
    // Opening the link set nothing: the person cannot log in yet, and the link still works.
    expect((await login(email, 'chosen-by-ivy-1')).status).toBe(401);

    const mismatch = await postForm('/account/password', { token, password: 'chosen-by-ivy-1', password_confirm: 'x' });
    expect(mismatch.status).toBe(422);
    const set = await postForm('/account/password', {
      token,
      password: 'chosen-by-ivy-1',
      password_confirm: 'chosen-by-ivy-1',
    });
    expect(set.status).toBe(200);
    expect(set.text).toContain('Password set');
    expect((await login(email, 'chosen-by-ivy-1')).status).toBe(200);

    const again = await postForm('/account/password', {
      token,
      password: 'taken-over-22',
      password_confirm: 'taken-over-22',
    });
    expect(again.status).toBe(410);
    expect((await fetch(`${s.url}/account/password?token=${encodeURIComponent(token)}`)).status).toBe(410);
    expect((await login(email, 'taken-over-22')).status).toBe(401);
  });

  it('keeps service users as they were: created without mail, no password', async () => {
    const before = smtp.messages.length;
    const bot = await rest(s.url, t.adminToken).post('/users', {
      email: `bot-${Date.now()}@example.test`,
      kind: 'service',
    });
    expect(bot.status).toBe(201);
    expect(bot.body.kind).toBe('service');
    expect(smtp.messages.length).toBe(before);
  });

  it('answers a taken email (another tenant or this one) with the same 422 naming no tenant', async () => {
    const inA = await rest(s.url, other.adminToken).post('/users', { email: t.admin.email });
    const inB = await rest(s.url, t.adminToken).post('/users', { email: t.admin.email });
    for (const r of [inA, inB]) {
      expect(r.status).toBe(422);
      const detail = JSON.stringify(r.body.detail);
      expect(detail).toMatch(/cannot be used for a new user/);
      expect(detail).not.toContain(t.name);
      expect(detail).not.toMatch(/tenant|exists/i);
    }
    expect(inA.body).toEqual(inB.body);
  });

  it('refuses emails over 254 characters with a 422 that says so, wherever an email comes in', async () => {
    const long = `${'a'.repeat(250)}@example.test`;
    const answers = [
      await rest(s.url, t.adminToken).post('/users', { email: long }),
      await login(long, 'whatever-pw'),
      await rest(s.url).post('/auth/password/forgot', { email: long }),
      await rest(s.url, t.adminToken).post('/users/me/contact-methods', { name: 'mail', kind: 'email', address: long }),
    ];
    for (const r of answers) {
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(JSON.stringify(r.body.detail)).toMatch(/at most 254 characters/);
    }
  });
});

describe('four-eyes with a user an admin made', () => {
  it("refuses the sock puppet's approval (403 with the reason); an invited person approves; the audit shows both", async () => {
    const proposalId = await openProposal(t.adminToken);
    // The admin makes a person with a password of the admin's choosing (deprecated), and signs in as them.
    const puppetEmail = `puppet-${Date.now()}@example.test`;
    const made = await gql(
      s.url,
      t.adminToken,
      'mutation($i: CreateUserInput!) { createUser(input: $i) { id credentialOrigin createdBy { id } } }',
      { i: { email: puppetEmail, password: 'admin-knows-this' } },
    );
    expect(made.data.createUser).toMatchObject({ credentialOrigin: 'ADMIN_SET', createdBy: { id: t.admin.id } });
    const puppetLogin = await login(puppetEmail, 'admin-knows-this');
    expect(puppetLogin.status).toBe(200);
    const refused = await rest(s.url, puppetLogin.body.access_token).post(`/proposals/${proposalId}/approve`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('APPROVER_CREDENTIAL_NOT_OWN');
    expect(refused.body.detail).toMatch(/set by an administrator/);
    // The admin's own first password came from the operator's CLI: admin-set too.
    const member = await buildUser(s.app.rt, t.tenantId, { credentialOrigin: 'admin_set' });
    const memberProposal = await openProposal(await buildToken(s.app.rt, member));
    expect((await rest(s.url, t.adminToken).post(`/proposals/${memberProposal}/approve`)).status).toBe(403);

    // A person who chose their own password through an invitation approves.
    const invitedEmail = `approver-${Date.now()}@example.test`;
    const before = smtp.messages.length;
    expect((await rest(s.url, t.adminToken).post('/users', { email: invitedEmail })).status).toBe(201);
    const { token } = await linkTokenFor(invitedEmail, before);
    expect((await rest(s.url).post('/auth/password/reset', { token, password: 'approver-own-pw' })).status).toBe(204);
    const approver = await login(invitedEmail, 'approver-own-pw');
    const approved = await rest(s.url, approver.body.access_token).post(`/proposals/${proposalId}/approve`);
    expect(approved.status).toBe(200);

    const audit = await gql(
      s.url,
      t.adminToken,
      '{ auditLog(first: 100) { edges { node { action targetId actor { email } } } } }',
    );
    const rows = audit.data.auditLog.edges.map(
      (e: { node: { action: string; actor: { email: string } | null } }) => e.node,
    );
    expect(rows).toContainEqual(expect.objectContaining({ action: 'approveProposal', actor: { email: invitedEmail } }));
    expect(rows).toContainEqual(expect.objectContaining({ action: 'createUser', actor: { email: t.admin.email } }));
    expect(rows).toContainEqual(
      expect.objectContaining({ action: 'acceptInvitation', actor: { email: invitedEmail } }),
    );
  });
});

describe('password resets', () => {
  it("an admin's forced reset shows no password, ends sessions and PATs now, and mails a link that works once", async () => {
    const person = await buildUser(s.app.rt, t.tenantId);
    const pat = await buildToken(s.app.rt, person);
    const session = await login(person.email, person.password!);
    expect(session.status).toBe(200);
    const before = smtp.messages.length;
    const r = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!) { resetUserPassword(userId: $id) { password sessionsEnded tokensRevoked linkSentTo } }',
      { id: person.id },
    );
    expect(r.data.resetUserPassword).toEqual({
      password: '',
      sessionsEnded: 1,
      tokensRevoked: 1,
      linkSentTo: person.email,
    });
    expect((await rest(s.url, pat).get('/auth/me')).status).toBe(401);
    expect((await rest(s.url, session.body.access_token).get('/auth/me')).status).toBe(401);
    expect((await login(person.email, person.password!)).status).toBe(401);

    const { token } = await linkTokenFor(person.email, before);
    expect((await rest(s.url).post('/auth/password/reset', { token, password: 'mine-again-1' })).status).toBe(204);
    const second = await rest(s.url).post('/auth/password/reset', { token, password: 'mine-again-2' });
    expect(second.status).toBe(422);
    expect(second.body.code).toBe('PASSWORD_LINK_UNUSABLE');
    expect((await login(person.email, 'mine-again-1')).status).toBe(200);

    // Over REST, for a user of another tenant: 404; for a service user: 422.
    expect((await rest(s.url, other.adminToken).post(`/users/${person.id}/password-reset`)).status).toBe(404);
    const bot = await buildUser(s.app.rt, t.tenantId, { kind: 'service' });
    expect((await rest(s.url, t.adminToken).post(`/users/${bot.id}/password-reset`)).status).toBe(422);
    const member = await buildUser(s.app.rt, t.tenantId);
    expect(
      (await rest(s.url, await buildToken(s.app.rt, member)).post(`/users/${person.id}/password-reset`)).status,
    ).toBe(403);
  });

  it('"forgot password" answers the same for unknown emails, mails a working single-use link, keeps PATs', async () => {
    const person = await buildUser(s.app.rt, t.tenantId);
    const pat = await buildToken(s.app.rt, person);
    const session = await login(person.email, person.password!);
    const before = smtp.messages.length;
    const known = await rest(s.url).post('/auth/password/forgot', { email: person.email.toUpperCase() });
    const unknown = await rest(s.url).post('/auth/password/forgot', { email: `nobody-${Date.now()}@example.test` });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);

    const { token, subject } = await linkTokenFor(person.email, before);
    expect(subject).toMatch(/Reset/);
    expect((await rest(s.url).post('/auth/password/reset', { token, password: 'short' })).status).toBe(422);
    expect((await rest(s.url).post('/auth/password/reset', { token, password: 'a-new-one-77' })).status).toBe(204);
    expect((await rest(s.url).post('/auth/password/reset', { token, password: 'a-new-one-88' })).status).toBe(422);
    expect((await login(person.email, 'a-new-one-77')).status).toBe(200);
    expect((await rest(s.url, session.body.access_token).get('/auth/me')).status).toBe(401);
    expect((await rest(s.url, pat).get('/auth/me')).status).toBe(200);
    const me = await gql(s.url, pat, '{ me { credentialOrigin } }');
    expect(me.data.me.credentialOrigin).toBe('SELF_PASSWORD');
    // Only the known email got mail.
    expect(smtp.messages.slice(before).length).toBe(1);
  });

  it('limits requests per email (3 an hour) in Redis, the same for unknown emails', async () => {
    const person = await buildUser(s.app.rt, t.tenantId);
    const unknown = `ghost-${Date.now()}@example.test`;
    for (const email of [person.email, unknown]) {
      for (let i = 0; i < 3; i++) expect((await rest(s.url).post('/auth/password/forgot', { email })).status).toBe(202);
      const limited = await rest(s.url).post('/auth/password/forgot', { email });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    await eventually(async () => mailsTo(person.email) === 3);
  });

  it('limits requests per client address (20 an hour) across emails', async () => {
    let status = 0;
    for (let i = 0; i < 25 && status !== 429; i++) {
      status = (await rest(s.url).post('/auth/password/forgot', { email: `many-${i}-${Date.now()}@example.test` }))
        .status;
    }
    expect(status).toBe(429);
    const r = await call(s.url, 'POST', '/api/v1/auth/password/forgot', { body: { email: 'another@example.test' } });
    expect(r.status).toBe(429);
    expect(r.body.detail).toMatch(/from this address/);
  });
});
