import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let memberToken: string;

beforeAll(async () => {
  s = await startTestServer();
  [t, other] = await Promise.all([buildTenant(s.app.rt), buildTenant(s.app.rt)]);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
});
afterAll(async () => {
  await s?.stop();
});

const CREATE_USER =
  'mutation($input: CreateUserInput!) { createUser(input: $input) { id email role kind tenant { id } } }';
const AUDIT =
  '{ auditLog(first: 100) { edges { node { action credentialKind targetType targetId createdAt actor { id email } } } } }';

function email(): string {
  return `u-${crypto.randomBytes(4).toString('hex')}@example.test`;
}

type AuditRow = {
  action: string;
  credentialKind: string;
  targetType: string | null;
  targetId: string | null;
  createdAt: string;
  actor: { id: string; email: string } | null;
};

async function auditRows(token: string): Promise<AuditRow[]> {
  const r = await gql(s.url, token, AUDIT);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data.auditLog.edges.map((e: { node: AuditRow }) => e.node);
}

describe('users query', () => {
  it('lists the tenant’s users to an admin, and only that tenant’s', async () => {
    const r = await gql(s.url, t.adminToken, '{ users { id email role kind } }');
    expect(r.status).toBe(200);
    const emails = r.data.users.map((u: { email: string }) => u.email).sort();
    const tenantUsers = await s.app.rt.prisma.user.findMany({
      where: { tenantId: t.tenantId },
      select: { email: true },
    });
    expect(emails).toEqual(tenantUsers.map((u) => u.email).sort()); // every user of the tenant
    expect(emails).toContain(t.admin.email);
    expect(emails).not.toContain(other.admin.email); // and no one else's
  });

  it('answers FORBIDDEN to a member', async () => {
    const r = await gql(s.url, memberToken, '{ users { id } }');
    expect(r.data ?? null).toBeNull();
    expect(r.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('answers UNAUTHENTICATED without a credential', async () => {
    const r = await gql(s.url, undefined, '{ users { id } }');
    expect(r.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('createUser', () => {
  it('lets an admin create a member who can then log in', async () => {
    const e = email();
    const r = await gql(s.url, t.adminToken, CREATE_USER, { input: { email: e, password: 'member-pass-1' } });
    expect(r.data.createUser).toEqual({
      id: expect.any(String),
      email: e,
      role: 'MEMBER',
      kind: 'HUMAN',
      tenant: { id: t.tenantId },
    });
    expect((await rest(s.url).post('/auth/login', { email: e, password: 'member-pass-1' })).status).toBe(200);
  });

  it('lets an admin create a service user, which gets PATs rather than a password', async () => {
    const e = email();
    const r = await gql(s.url, t.adminToken, CREATE_USER, { input: { email: e, kind: 'SERVICE', role: 'MEMBER' } });
    expect(r.data.createUser).toMatchObject({ email: e, kind: 'SERVICE', role: 'MEMBER', tenant: { id: t.tenantId } });
    const id = r.data.createUser.id;
    // No password: nothing is stored, and logging in is refused whatever is tried.
    expect((await s.app.rt.prisma.user.findUniqueOrThrow({ where: { id } })).passwordHash).toBeNull();
    expect((await rest(s.url).post('/auth/login', { email: e, password: 'member-pass-1' })).status).toBe(401);
    // A PAT minted for it by an admin authenticates as the service user.
    const minted = await gql(
      s.url,
      t.adminToken,
      'mutation($input: CreateTokenInput!) { createToken(input: $input) { token } }',
      { input: { name: 'ci', userId: id } },
    );
    expect(minted.errors).toBeUndefined();
    const me = await rest(s.url, minted.data.createToken.token).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(e);
  });

  it('answers FORBIDDEN to a member and creates nothing', async () => {
    const e = email();
    const r = await gql(s.url, memberToken, CREATE_USER, {
      input: { email: e, password: 'member-pass-1', role: 'ADMIN' },
    });
    expect(r.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(await s.app.rt.prisma.user.findUnique({ where: { email: e } })).toBeNull();
  });

  it('answers BAD_USER_INPUT listing every offending field', async () => {
    const r = await gql(s.url, t.adminToken, CREATE_USER, { input: { email: 'nope', password: 'short' } });
    expect(r.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(r.errors?.[0].extensions?.fields).toEqual([
      { loc: ['input', 'email'], msg: 'must be an email address' },
      { loc: ['input', 'password'], msg: 'must be at least 8 characters' },
    ]);
  });

  it('answers an email already in use, in this tenant or another, with the same BAD_USER_INPUT naming no tenant', async () => {
    const sameTenant = await gql(s.url, t.adminToken, CREATE_USER, {
      input: { email: t.admin.email, kind: 'SERVICE' },
    });
    const r = await gql(s.url, t.adminToken, CREATE_USER, { input: { email: other.admin.email, kind: 'SERVICE' } });
    for (const answer of [sameTenant, r]) {
      expect(answer.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
      expect(answer.errors?.[0].extensions?.fields).toEqual([
        { loc: ['input', 'email'], msg: 'cannot be used for a new user; choose another address' },
      ]);
    }
    // Nothing was created: each address still belongs to exactly its first user.
    expect(await s.app.rt.prisma.user.count({ where: { email: { in: [t.admin.email, other.admin.email] } } })).toBe(2);
    expect((await s.app.rt.prisma.user.findUniqueOrThrow({ where: { email: other.admin.email } })).tenantId).toBe(
      other.tenantId,
    );
  });
});

describe('audit log', () => {
  it('records a mutation made with a PAT: actor, credential kind, action, target and time', async () => {
    const before = Date.now() - 1000;
    const created = await gql(s.url, t.adminToken, CREATE_USER, { input: { email: email(), kind: 'SERVICE' } });
    const id = created.data.createUser.id;
    const row = await eventually(async () => (await auditRows(t.adminToken)).find((x) => x.targetId === id));
    expect(row).toMatchObject({
      action: 'createUser',
      credentialKind: 'PAT',
      targetType: 'User',
      actor: { id: t.admin.id, email: t.admin.email },
    });
    expect(new Date(row.createdAt).getTime()).toBeGreaterThanOrEqual(before);
  });

  it('records a mutation made with a session as credential kind session', async () => {
    const jwt = (await rest(s.url).post('/auth/login', { email: t.admin.email, password: t.adminPassword })).body
      .access_token;
    const minted = await gql(
      s.url,
      jwt,
      'mutation { createToken(input: { name: "from-session" }) { accessToken { id } } }',
    );
    const id = minted.data.createToken.accessToken.id;
    const row = await eventually(async () => (await auditRows(t.adminToken)).find((x) => x.targetId === id));
    expect(row).toMatchObject({
      action: 'createToken',
      credentialKind: 'SESSION',
      targetType: 'AccessToken',
      actor: { id: t.admin.id },
    });
  });

  it('records REST calls, which run as GraphQL mutations (revoke, reactivate, rotate, logout)', async () => {
    const m = await buildUser(s.app.rt, t.tenantId);
    const tok = await buildToken(s.app.rt, m);
    const minted = (await rest(s.url, tok).post('/auth/tokens', { name: 'r' })).body;
    await rest(s.url, tok).delete(`/auth/tokens/${minted.id}`);
    await rest(s.url, tok).post(`/auth/tokens/${minted.id}/reactivate`);
    await rest(s.url, tok).post(`/auth/tokens/${minted.id}/rotate`);
    const jwt = (await rest(s.url).post('/auth/login', { email: m.email, password: m.password })).body.access_token;
    await rest(s.url, jwt).post('/auth/logout');
    const mine = await eventually(async () => {
      const rows = (await auditRows(t.adminToken)).filter((x) => x.actor?.id === m.id);
      return rows.length >= 5 ? rows : null;
    });
    const actions = mine.map((x) => `${x.action}:${x.credentialKind}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'createToken:PAT',
        'revokeToken:PAT',
        'reactivateToken:PAT',
        'rotateToken:PAT',
        'logout:SESSION',
      ]),
    );
    expect(mine.find((x) => x.action === 'revokeToken')).toMatchObject({
      targetType: 'AccessToken',
      targetId: minted.id,
    });
    expect(mine.find((x) => x.action === 'rotateToken')).toMatchObject({
      targetType: 'AccessToken',
      targetId: minted.id,
    });
    expect(mine.find((x) => x.action === 'createToken')).toMatchObject({
      targetType: 'AccessToken',
      targetId: minted.id,
    });
    expect(mine.find((x) => x.action === 'logout')).toMatchObject({
      targetType: 'Session',
      targetId: expect.any(String),
    });
  });

  it('does not record a mutation that failed', async () => {
    const before = (await auditRows(t.adminToken)).length;
    const failed = await gql(s.url, t.adminToken, CREATE_USER, { input: { email: 'invalid' } });
    expect(failed.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT'); // it did fail
    await gql(s.url, t.adminToken, '{ me { id } }'); // a later request: any audit write would have landed
    const rows = await auditRows(t.adminToken);
    expect(rows.length).toBe(before);
  });

  it('is readable by admins only', async () => {
    const r = await gql(s.url, memberToken, AUDIT);
    expect(r.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('shows only the caller’s tenant', async () => {
    await gql(s.url, other.adminToken, CREATE_USER, { input: { email: email(), kind: 'SERVICE' } });
    const otherRows = await eventually(async () => {
      const rows = await auditRows(other.adminToken);
      return rows.length ? rows : null;
    });
    const mine = await auditRows(t.adminToken);
    const mineIds = new Set(mine.map((x) => x.targetId));
    expect(otherRows.some((x) => mineIds.has(x.targetId))).toBe(false);
    expect(mine.every((x) => x.actor === null || x.actor.email !== other.admin.email)).toBe(true);
  });
});

describe('setUserRole and resetUserPassword', () => {
  const SET_ROLE = 'mutation($id: ID!, $role: Role!) { setUserRole(userId: $id, role: $role) { id role } }';
  const RESET = 'mutation($id: ID!) { resetUserPassword(userId: $id) { user { id email } password sessionsEnded } }';

  async function login(mail: string, password: string) {
    return rest(s.url).post('/auth/login', { email: mail, password });
  }

  it('lets an admin promote a member, who then passes admin checks, and demote them again', async () => {
    const u = (await gql(s.url, t.adminToken, CREATE_USER, { input: { email: email(), password: 'first-password-1' } }))
      .data.createUser;
    const token = await buildToken(s.app.rt, { id: u.id, tenantId: t.tenantId } as never);
    expect((await gql(s.url, token, '{ users { id } }')).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await gql(s.url, t.adminToken, SET_ROLE, { id: u.id, role: 'ADMIN' })).data.setUserRole).toEqual({
      id: u.id,
      role: 'ADMIN',
    });
    expect((await gql(s.url, token, '{ users { id } }')).data.users.length).toBeGreaterThan(1);
    expect((await gql(s.url, t.adminToken, SET_ROLE, { id: u.id, role: 'MEMBER' })).data.setUserRole.role).toBe(
      'MEMBER',
    );
    expect((await gql(s.url, token, '{ users { id } }')).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(
      (await auditRows(t.adminToken)).filter((a) => a.action === 'setUserRole' && a.targetId === u.id),
    ).toHaveLength(2);
  });

  it("refuses to demote the tenant's last human admin (409 LAST_ADMIN), even when two admins demote each other at once", async () => {
    const solo = await buildTenant(s.app.rt);
    const r = await gql(s.url, solo.adminToken, SET_ROLE, { id: solo.admin.id, role: 'MEMBER' });
    expect(r.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'LAST_ADMIN' });
    expect(r.errors?.[0].message).toMatch(/last admin/);

    const second = (
      await gql(s.url, solo.adminToken, CREATE_USER, {
        input: { email: email(), password: 'second-password', role: 'ADMIN' },
      })
    ).data.createUser;
    const secondToken = await buildToken(s.app.rt, { id: second.id, tenantId: solo.tenantId } as never);
    const both = await Promise.all([
      gql(s.url, solo.adminToken, SET_ROLE, { id: second.id, role: 'MEMBER' }),
      gql(s.url, secondToken, SET_ROLE, { id: solo.admin.id, role: 'MEMBER' }),
    ]);
    const admins = await s.app.rt.prisma.user.count({ where: { tenantId: solo.tenantId, role: 'admin' } });
    expect(admins).toBe(1);
    expect(both.filter((x) => x.errors).length).toBeGreaterThanOrEqual(1);
  });

  it("answers NOT_FOUND for another tenant's user, FORBIDDEN to a member, and changes nothing", async () => {
    expect(
      (await gql(s.url, t.adminToken, SET_ROLE, { id: other.admin.id, role: 'MEMBER' })).errors?.[0].extensions?.code,
    ).toBe('NOT_FOUND');
    expect((await gql(s.url, t.adminToken, RESET, { id: other.admin.id })).errors?.[0].extensions?.code).toBe(
      'NOT_FOUND',
    );
    expect(
      (await gql(s.url, memberToken, SET_ROLE, { id: t.admin.id, role: 'MEMBER' })).errors?.[0].extensions?.code,
    ).toBe('FORBIDDEN');
    expect((await s.app.rt.prisma.user.findUniqueOrThrow({ where: { id: other.admin.id } })).role).toBe('admin');
  });

  it('refuses a forced reset without email (SMTP_URL unset) with a 422 that says so, and changes nothing', async () => {
    // The reset itself (link mailed, sessions and PATs ended, no password shown) is test/accounts.test.ts.
    const mail = email();
    const u = (await gql(s.url, t.adminToken, CREATE_USER, { input: { email: mail, password: 'old-password-1' } })).data
      .createUser;
    const session = await login(mail, 'old-password-1');
    expect(session.status).toBe(200);
    const r = await gql(s.url, t.adminToken, RESET, { id: u.id });
    expect(r.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(r.errors?.[0].extensions?.fields)).toMatch(/SMTP_URL/);
    expect((await login(mail, 'old-password-1')).status).toBe(200);
    expect((await gql(s.url, session.body.access_token, '{ me { id } }')).errors).toBeUndefined();
  });

  it('refuses a password for a service user, naming the field', async () => {
    const svc = (await gql(s.url, t.adminToken, CREATE_USER, { input: { email: email(), kind: 'SERVICE' } })).data
      .createUser;
    const r = await gql(s.url, t.adminToken, RESET, { id: svc.id });
    expect(r.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(r.errors?.[0].extensions)).toContain('userId');
  });
});
