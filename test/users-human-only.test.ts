/**
 * Creating users and changing a user's role or password are for people (src/users/policy.ts): a service
 * user holding the admin role gets 403 USER_MANAGEMENT_HUMAN_ONLY and changes nothing; a human admin
 * still can (REST /users runs the same mutations); the operator CLI acts as a person. Resets mail a link, to a
 * real SMTP server here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { gql } from './helpers/http.js';
import { startSmtpPeer, type SmtpPeer } from './helpers/paging-receivers.js';

let s: TestServer;
let smtp: SmtpPeer;
let t: BuiltTenant;
let serviceAdminToken: string;
let person: { id: string };

beforeAll(async () => {
  smtp = await startSmtpPeer();
  s = await startTestServer({ env: { SMTP_URL: smtp.url } });
  t = await buildTenant(s.app.rt);
  serviceAdminToken = await buildToken(
    s.app.rt,
    await buildUser(s.app.rt, t.tenantId, { kind: 'service', role: 'admin' }),
  );
  person = await buildUser(s.app.rt, t.tenantId, { role: 'member' });
});

afterAll(async () => {
  await s?.stop();
  await smtp?.close();
});

const refused = (res: { data?: unknown; errors?: Array<{ extensions?: Record<string, unknown> }> }) => {
  expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'USER_MANAGEMENT_HUMAN_ONLY' });
};

describe('a service user with the admin role', () => {
  it('cannot demote the human admin, nor promote anyone', async () => {
    refused(
      await gql(
        s.url,
        serviceAdminToken,
        `mutation { setUserRole(userId: "${t.admin.id}", role: MEMBER) { id role } }`,
      ),
    );
    refused(
      await gql(s.url, serviceAdminToken, `mutation { setUserRole(userId: "${person.id}", role: ADMIN) { id role } }`),
    );
    const rows = await s.app.rt.prisma.user.findMany({
      where: { id: { in: [t.admin.id, person.id] } },
      select: { id: true, role: true },
    });
    expect(Object.fromEntries(rows.map((r) => [r.id, r.role]))).toEqual({
      [t.admin.id]: 'admin',
      [person.id]: 'member',
    });
  });

  it("cannot reset a person's password", async () => {
    const before = await s.app.rt.prisma.user.findUniqueOrThrow({
      where: { id: person.id },
      select: { passwordHash: true },
    });
    refused(await gql(s.url, serviceAdminToken, `mutation { resetUserPassword(userId: "${person.id}") { password } }`));
    expect(
      await s.app.rt.prisma.user.findUniqueOrThrow({ where: { id: person.id }, select: { passwordHash: true } }),
    ).toEqual(before);
  });

  it('cannot create users', async () => {
    refused(
      await gql(
        s.url,
        serviceAdminToken,
        'mutation { createUser(input: { email: "made-by-a-bot@example.test", password: "longenough1", role: ADMIN }) { id } }',
      ),
    );
    expect(await s.app.rt.prisma.user.count({ where: { email: 'made-by-a-bot@example.test' } })).toBe(0);
  });
});

describe('a human admin', () => {
  it('still creates users, changes roles and resets passwords', async () => {
    const created = await gql(
      s.url,
      t.adminToken,
      'mutation { createUser(input: { email: "made-by-a-person@example.test", password: "longenough1" }) { id } }',
    );
    expect(created.errors).toBeUndefined();
    const promoted = await gql(
      s.url,
      t.adminToken,
      `mutation { setUserRole(userId: "${person.id}", role: ADMIN) { role } }`,
    );
    expect(promoted.data.setUserRole.role).toBe('ADMIN');
    const reset = await gql(
      s.url,
      t.adminToken,
      `mutation { resetUserPassword(userId: "${person.id}") { password linkSentTo } }`,
    );
    expect(reset.errors).toBeUndefined();
    // Admins never see a password any more: the person gets a link by email.
    expect(reset.data.resetUserPassword).toMatchObject({ password: '', linkSentTo: expect.stringContaining('@') });
  });
});
