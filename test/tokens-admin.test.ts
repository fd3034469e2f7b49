import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { maintenanceTasks } from '../workers/index.js';

const DAY = 86400_000;
let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  [t, other] = await Promise.all([buildTenant(s.app.rt), buildTenant(s.app.rt)]);
});
afterAll(async () => {
  await s?.stop();
});

describe('PATs for service users', () => {
  it('lets an admin mint one that authenticates as the service user', async () => {
    const svc = await buildUser(s.app.rt, t.tenantId, { kind: 'service' });
    const res = await rest(s.url, t.adminToken).post('/auth/tokens', {
      name: 'bot',
      user_id: svc.id,
      expires_in_days: 90,
    });
    expect(res.status).toBe(201);
    const me = await rest(s.url, res.body.token).get('/auth/me');
    expect(me.body).toMatchObject({ id: svc.id, kind: 'service', credential_kind: 'pat' });
    const row = await s.app.rt.prisma.accessToken.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ userId: svc.id, createdById: t.admin.id });
  });

  it('lets an admin mint one over GraphQL, list the service user’s tokens and revoke them', async () => {
    const svc = await buildUser(s.app.rt, t.tenantId, { kind: 'service' });
    const g = await gql(
      s.url,
      t.adminToken,
      'mutation($u: ID!) { createToken(input: { name: "gql-bot", userId: $u }) { token accessToken { id user { id kind } } } }',
      { u: svc.id },
    );
    expect(g.data.createToken.accessToken.user).toEqual({ id: svc.id, kind: 'SERVICE' });
    const list = await gql(s.url, t.adminToken, 'query($u: ID!) { tokens(userId: $u) { id name } }', { u: svc.id });
    expect(list.data.tokens).toEqual([{ id: g.data.createToken.accessToken.id, name: 'gql-bot' }]);
    const del = await rest(s.url, t.adminToken).delete(`/auth/tokens/${g.data.createToken.accessToken.id}`);
    expect(del.status).toBe(204);
    expect((await rest(s.url, g.data.createToken.token).get('/auth/me')).status).toBe(401);
  });

  it('answers 403 to a member minting for a service user', async () => {
    const svc = await buildUser(s.app.rt, t.tenantId, { kind: 'service' });
    const m = await buildUser(s.app.rt, t.tenantId);
    const res = await rest(s.url, await buildToken(s.app.rt, m)).post('/auth/tokens', {
      name: 'nope',
      user_id: svc.id,
    });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/admin/);
  });

  it('answers 403 to an admin minting for another person', async () => {
    const human = await buildUser(s.app.rt, t.tenantId);
    const res = await rest(s.url, t.adminToken).post('/auth/tokens', { name: 'impersonate', user_id: human.id });
    expect(res.status).toBe(403);
    const g = await gql(
      s.url,
      t.adminToken,
      'mutation($u: ID!) { createToken(input: { name: "x", userId: $u }) { token } }',
      { u: human.id },
    );
    expect(g.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('answers 404 to an admin minting for another tenant’s service user', async () => {
    const theirs = await buildUser(s.app.rt, other.tenantId, { kind: 'service' });
    const res = await rest(s.url, t.adminToken).post('/auth/tokens', { name: 'cross', user_id: theirs.id });
    expect(res.status).toBe(404);
    expect(await s.app.rt.prisma.accessToken.count({ where: { userId: theirs.id } })).toBe(0);
  });

  it('answers 404 to a member listing a service user’s tokens', async () => {
    const svc = await buildUser(s.app.rt, t.tenantId, { kind: 'service' });
    const m = await buildUser(s.app.rt, t.tenantId);
    const g = await gql(s.url, await buildToken(s.app.rt, m), 'query($u: ID!) { tokens(userId: $u) { id } }', {
      u: svc.id,
    });
    expect(g.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});

describe('removal of revoked tokens', () => {
  it('is scheduled as a BullMQ repeatable job every hour', async () => {
    const schedulers = await s.app.rt.queues.get('maintenance').getJobSchedulers();
    const purge = schedulers.find((j) => j.key === 'purge-revoked-tokens' || j.id === 'purge-revoked-tokens');
    expect(purge).toBeDefined();
    expect(Number(purge!.every)).toBe(3600_000);
  });

  it('removes tokens revoked more than 7 days ago and keeps the rest', async () => {
    const mint = async (name: string) =>
      (await rest(s.url, t.adminToken).post('/auth/tokens', { name })).body.id as string;
    const [old, recent, active] = [await mint('old'), await mint('recent'), await mint('active')];
    const prisma = s.app.rt.prisma;
    await prisma.accessToken.update({
      where: { id: old },
      data: { revokedAt: new Date(s.app.rt.clock.now().getTime() - 7 * DAY - 60_000) },
    });
    await prisma.accessToken.update({
      where: { id: recent },
      data: { revokedAt: new Date(s.app.rt.clock.now().getTime() - 6 * DAY) },
    });
    const task = maintenanceTasks.find((x) => x.name === 'purge-revoked-tokens')!;
    await task.run(s.app.rt);
    const left = (await prisma.accessToken.findMany({ where: { id: { in: [old, recent, active] } } })).map((r) => r.id);
    expect(left.sort()).toEqual([recent, active].sort());
    const list = await rest(s.url, t.adminToken).get('/auth/tokens');
    expect(list.body.map((x: { id: string }) => x.id)).not.toContain(old);
  });

  it('runs through the maintenance worker when the job fires', async () => {
    const id = (await rest(s.url, t.adminToken).post('/auth/tokens', { name: 'via-worker' })).body.id as string;
    await s.app.rt.prisma.accessToken.update({
      where: { id },
      data: { revokedAt: new Date(s.app.rt.clock.now().getTime() - 8 * DAY) },
    });
    const queue = s.app.rt.queues.get('maintenance');
    const job = await queue.add('purge-revoked-tokens', { task: 'purge-revoked-tokens' });
    await eventually(() => job.isCompleted(), 15_000);
    expect(await s.app.rt.prisma.accessToken.findUnique({ where: { id } })).toBeNull();
  });
});
