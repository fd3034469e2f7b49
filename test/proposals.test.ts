import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { untilSubscribed } from './helpers/pubsub.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest, subscribe, wsClient } from './helpers/http.js';
import { redriveApprovedProposals } from '../src/proposals/apply.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let aliceToken: string;
let aliceSecondToken: string;
let aliceId: string;
let bobToken: string;
let botToken: string;
let deviceId: string;

async function newDevice(token: string, name: string): Promise<string> {
  const r = await gql(s.url, token, 'mutation($input: DeviceInput!) { createDevice(input: $input) { id } }', {
    input: { name, role: 'edge' },
  });
  expect(r.errors).toBeUndefined();
  return r.data.createDevice.id;
}

function openBody(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Raise MTU',
    kind: 'config_change',
    device_id: deviceId,
    proposed_intent: 'hostname edge-1\nmtu 9000\n',
    reason: 'jumbo frames',
    ...overrides,
  };
}

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  const alice = await buildUser(s.app.rt, t.tenantId);
  aliceId = alice.id;
  aliceToken = await buildToken(s.app.rt, alice);
  aliceSecondToken = await buildToken(s.app.rt, alice, { name: 'laptop' });
  bobToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
  botToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId, { kind: 'service' }));
  deviceId = await newDevice(t.adminToken, 'edge-1');
});
afterAll(async () => {
  await s?.stop();
});

describe('four-eyes approval over REST with PATs', () => {
  it('refuses the proposer (any PAT) and service users, then applies an approval by a second human', async () => {
    const opened = await rest(s.url, aliceToken).post('/sot/proposals', openBody());
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      status: 'proposed',
      revision: 1,
      proposer_id: aliceId,
      device_id: deviceId,
      kind: 'config_change',
    });
    const id = opened.body.id;

    const samePat = await rest(s.url, aliceToken).post(`/proposals/${id}/approve`);
    expect(samePat.status).toBe(403);
    const secondPat = await rest(s.url, aliceSecondToken).post(`/proposals/${id}/approve`);
    expect(secondPat.status).toBe(403);
    expect(secondPat.body.detail).toMatch(/another of your personal access tokens/);
    const bot = await rest(s.url, botToken).post(`/proposals/${id}/approve`);
    expect(bot.status).toBe(403);
    expect(bot.body.detail).toMatch(/Service users cannot approve/);

    const approved = await rest(s.url, bobToken).post(`/proposals/${id}/approve`, { revision: 1 });
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('approved');

    const applied = await eventually(async () => {
      const r = await rest(s.url, aliceToken).get(`/proposals/${id}`);
      return r.body.status === 'applied' ? r.body : null;
    });
    expect(applied.applied_at).toBeTruthy();
    const intent = await rest(s.url, bobToken).get(`/sot/devices/${deviceId}/intent`);
    expect(intent.status).toBe(200);
    expect(intent.body).toMatchObject({
      version: 1,
      config: 'hostname edge-1\nmtu 9000\n',
      proposal_id: id,
      author: { id: aliceId },
    });

    // The apply queued a reconcile: a drift report follows (nothing observed yet → unknown).
    await eventually(
      async () => (await rest(s.url, bobToken).get(`/sot/devices/${deviceId}`)).body.drift_status === 'unknown',
    );

    const topics = (
      await s.app.rt.prisma.outboxMessage.findMany({ where: { subjectId: id }, orderBy: { createdAt: 'asc' } })
    ).map((m) => m.topic);
    expect(topics).toEqual(['proposal.opened', 'proposal.approved', 'proposal.applied']);
    const again = await rest(s.url, bobToken).post(`/proposals/${id}/approve`);
    expect(again.status).toBe(409);
    const denyApplied = await rest(s.url, bobToken).post(`/proposals/${id}/deny`);
    expect(denyApplied.status).toBe(409);
  });

  it('lets a service user open a proposal that a human then approves', async () => {
    const opened = await rest(s.url, botToken).post(
      '/sot/proposals',
      openBody({ title: 'bot suggestion', proposed_intent: null, action: 'reconcile' }),
    );
    expect(opened.status).toBe(201);
    const approved = await rest(s.url, aliceToken).post(`/proposals/${opened.body.id}/approve`);
    expect(approved.status).toBe(200);
    await eventually(
      async () => (await rest(s.url, aliceToken).get(`/proposals/${opened.body.id}`)).body.status === 'applied',
    );
  });

  it('returns 401 without a credential and 404 for another tenant', async () => {
    const opened = await rest(s.url, aliceToken).post('/sot/proposals', openBody({ title: 'tenant check' }));
    expect((await rest(s.url).post(`/proposals/${opened.body.id}/approve`)).status).toBe(401);
    expect((await rest(s.url).post('/sot/proposals', openBody())).status).toBe(401);
    expect((await rest(s.url, other.adminToken).post(`/proposals/${opened.body.id}/approve`)).status).toBe(404);
    expect((await rest(s.url, other.adminToken).get(`/proposals/${opened.body.id}`)).status).toBe(404);
    const list = await rest(s.url, other.adminToken).get('/proposals');
    expect(list.body.items).toEqual([]);
  });

  it("rejects proposals without a target, with both an intent and an action, or for another tenant's device", async () => {
    const missing = await rest(s.url, aliceToken).post('/sot/proposals', { title: 'x', kind: 'config_change' });
    expect(missing.status).toBe(422);
    const both = await rest(s.url, aliceToken).post('/sot/proposals', openBody({ action: 'reconcile' }));
    expect(both.status).toBe(422);
    const neither = await rest(s.url, aliceToken).post('/sot/proposals', openBody({ proposed_intent: null }));
    expect(neither.status).toBe(422);
    const foreignDevice = await newDevice(other.adminToken, 'foreign-1');
    const foreign = await rest(s.url, aliceToken).post('/sot/proposals', openBody({ device_id: foreignDevice }));
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail).toEqual([{ loc: ['body', 'device_id'], msg: 'names no device of your tenant' }]);
  });
});

describe('listing proposals', () => {
  it('filters by status and older_than and answers {"items": [...]}', async () => {
    const old = await rest(s.url, aliceToken).post('/sot/proposals', openBody({ title: 'old one', kind: 'firmware' }));
    const fresh = await rest(s.url, aliceToken).post(
      '/sot/proposals',
      openBody({ title: 'fresh one', kind: 'firmware' }),
    );
    await s.app.rt.prisma.proposal.update({
      where: { id: old.body.id },
      data: { createdAt: new Date(s.app.rt.clock.now().getTime() - 2 * 3600_000) },
    });

    const r = await rest(s.url, bobToken).get('/proposals?status=proposed&older_than=1h');
    expect(r.status).toBe(200);
    const ids = r.body.items.map((p: { id: string }) => p.id);
    expect(ids).toContain(old.body.id);
    expect(ids).not.toContain(fresh.body.id);
    expect(r.body.items.every((p: { status: string }) => p.status === 'proposed')).toBe(true);

    const byKind = await rest(s.url, bobToken).get('/proposals?kind=firmware&limit=1');
    expect(byKind.body.items).toHaveLength(1);
    expect(byKind.body.items[0].id).toBe(fresh.body.id);
  });

  it('returns 422 for an older_than that is not a duration, and GraphQL says the same', async () => {
    for (const bad of ['yesterday', '24', '1y', '-5m']) {
      const r = await rest(s.url, bobToken).get(`/proposals?older_than=${bad}`);
      expect(r.status).toBe(422);
    }
    const g = await gql(s.url, bobToken, '{ proposals(olderThan: "soon") { edges { node { id } } } }');
    expect(g.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('proposal lifecycle', () => {
  it('voids an approval when the proposal is changed before it is applied', async () => {
    const opened = await rest(s.url, aliceToken).post('/sot/proposals', openBody({ title: 'to be revised' }));
    const id = opened.body.id;
    const queue = s.app.rt.queues.get('sot');
    await queue.pause();
    try {
      const approved = await rest(s.url, bobToken).post(`/proposals/${id}/approve`);
      expect(approved.body.status).toBe('approved');
      const revised = await rest(s.url, aliceToken).patch(`/proposals/${id}`, {
        proposed_intent: 'hostname edge-1\nmtu 1500\n',
      });
      expect(revised.status).toBe(200);
      expect(revised.body).toMatchObject({
        status: 'proposed',
        revision: 2,
        approver_id: null,
        approved_revision: null,
      });
      const staleApproval = await rest(s.url, bobToken).post(`/proposals/${id}/approve`, { revision: 1 });
      expect(staleApproval.status).toBe(409);
    } finally {
      await queue.resume();
    }
    // The apply job of the voided approval (queued at approval, revision 1) runs to its end and skips.
    // Read the job again once it is completed: a copy fetched while it was still running has no return value.
    const job = await eventually(async () => {
      const j = await queue.getJob(`apply-${id}-r1`);
      return j && (await j.getState()) === 'completed' ? queue.getJob(`apply-${id}-r1`) : null;
    }, 20_000);
    expect(job.returnvalue).toEqual({ outcome: 'skipped' });
    const after = await rest(s.url, aliceToken).get(`/proposals/${id}`);
    expect(after.body.status).toBe('proposed');
    const versions = await s.app.rt.prisma.intentVersion.count({ where: { proposalId: id } });
    expect(versions).toBe(0);
  });

  it('re-drives an approval whose apply job was lost', async () => {
    const opened = await rest(s.url, aliceToken).post(
      '/sot/proposals',
      openBody({ title: 'lost job', proposed_intent: 'hostname edge-1\nmtu 4000\n' }),
    );
    // An approval committed whose enqueue never reached Redis.
    await s.app.rt.prisma.proposal.update({
      where: { id: opened.body.id },
      data: {
        status: 'approved',
        approverId: (
          await s.app.rt.prisma.user.findFirstOrThrow({
            where: { tenantId: t.tenantId, id: { not: aliceId }, kind: 'human', role: 'member' },
          })
        ).id,
        approvedAt: new Date(s.app.rt.clock.now().getTime() - 120_000),
        approvedRevision: 1,
      },
    });
    expect(await redriveApprovedProposals(s.app.rt)).toBeGreaterThanOrEqual(1);
    await eventually(
      async () => (await rest(s.url, aliceToken).get(`/proposals/${opened.body.id}`)).body.status === 'applied',
    );
    expect((await rest(s.url, aliceToken).get(`/sot/devices/${deviceId}/intent`)).body.config).toBe(
      'hostname edge-1\nmtu 4000\n',
    );
  });

  it('re-drives an approval whose apply job finished without applying it (the job id is freed first)', async () => {
    const opened = await rest(s.url, aliceToken).post(
      '/sot/proposals',
      openBody({ title: 'finished job', proposed_intent: 'hostname edge-1\nmtu 4100\n' }),
    );
    const id = opened.body.id as string;
    const queue = s.app.rt.queues.get('sot');
    // An apply job under the approval's id runs while the proposal is not approved: it completes as a no-op
    // and BullMQ keeps it, so adding the same id again would be silently ignored.
    await s.app.rt.queues.add('sot', { task: 'applyProposal', proposalId: id }, { jobId: `apply-${id}-r1` });
    await eventually(async () => (await queue.getJob(`apply-${id}-r1`))?.isCompleted());
    const approver = await s.app.rt.prisma.user.findFirstOrThrow({
      where: { tenantId: t.tenantId, id: { not: aliceId }, kind: 'human', role: 'member' },
    });
    await s.app.rt.prisma.proposal.update({
      where: { id },
      data: {
        status: 'approved',
        approverId: approver.id,
        approvedAt: new Date(s.app.rt.clock.now().getTime() - 120_000),
        approvedRevision: 1,
      },
    });
    expect(await redriveApprovedProposals(s.app.rt)).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await rest(s.url, aliceToken).get(`/proposals/${id}`)).body.status === 'applied');
  });

  it('lets only the proposer change a proposal', async () => {
    const opened = await rest(s.url, aliceToken).post('/sot/proposals', openBody({ title: 'mine' }));
    const r = await rest(s.url, bobToken).patch(`/proposals/${opened.body.id}`, { title: 'theirs' });
    expect(r.status).toBe(403);
  });

  it('denies a proposal, after which approving it is a conflict', async () => {
    const opened = await rest(s.url, aliceToken).post('/sot/proposals', openBody({ title: 'deny me' }));
    const denied = await rest(s.url, bobToken).post(`/proposals/${opened.body.id}/deny`, { reason: 'not now' });
    expect(denied.status).toBe(200);
    expect(denied.body).toMatchObject({ status: 'denied', denial_reason: 'not now' });
    expect((await rest(s.url, bobToken).post(`/proposals/${opened.body.id}/approve`)).status).toBe(409);
    const topics = (await s.app.rt.prisma.outboxMessage.findMany({ where: { subjectId: opened.body.id } }))
      .map((m) => m.topic)
      .sort();
    expect(topics).toEqual(['proposal.denied', 'proposal.opened']);
  });

  it('ends failed with a reason when the target device is gone', async () => {
    const doomed = await newDevice(t.adminToken, 'doomed-1');
    const opened = await rest(s.url, aliceToken).post(
      '/sot/proposals',
      openBody({ title: 'too late', device_id: doomed }),
    );
    const del = await gql(s.url, t.adminToken, 'mutation($id: ID!) { deleteDevice(id: $id) }', { id: doomed });
    expect(del.errors).toBeUndefined();
    expect((await rest(s.url, bobToken).post(`/proposals/${opened.body.id}/approve`)).status).toBe(200);
    const failed = await eventually(async () => {
      const r = await rest(s.url, aliceToken).get(`/proposals/${opened.body.id}`);
      return r.body.status === 'failed' ? r.body : null;
    });
    expect(failed.failure_reason).toMatch(/no longer exists/);
  });

  it('publishes proposalChanged to subscribers of the tenant, filtered by proposal', async () => {
    const opened = await rest(s.url, aliceToken).post('/sot/proposals', openBody({ title: 'watched' }));
    const client = wsClient(s.url, bobToken);
    const foreign = wsClient(s.url, other.adminToken);
    const sub = subscribe(
      client,
      'subscription($id: ID) { proposalChanged(id: $id) { id change status proposal { title approver { id } } } }',
      { id: opened.body.id },
    );
    const foreignSub = subscribe(foreign, 'subscription { proposalChanged { id change } }');
    await untilSubscribed(s, 'proposalChanged', t.tenantId);
    await untilSubscribed(s, 'proposalChanged', other.tenantId);
    await rest(s.url, aliceToken).post('/sot/proposals', openBody({ title: 'not watched' }));
    await rest(s.url, bobToken).post(`/proposals/${opened.body.id}/approve`);
    const first = await sub.next();
    expect(first.data.proposalChanged).toMatchObject({
      id: opened.body.id,
      change: 'approved',
      status: 'APPROVED',
      proposal: { title: 'watched' },
    });
    const second = await sub.next();
    expect(second.data.proposalChanged).toMatchObject({ id: opened.body.id, change: 'applied', status: 'APPLIED' });
    // The other tenant's subscriber sees its own tenant's change first, none of ours.
    const foreignDevice = await newDevice(other.adminToken, 'foreign-watch');
    const theirs = await rest(s.url, other.adminToken).post(
      '/sot/proposals',
      openBody({ title: 'theirs', device_id: foreignDevice }),
    );
    expect((await foreignSub.next()).data.proposalChanged).toEqual({ id: theirs.body.id, change: 'opened' });
    sub.dispose();
    foreignSub.dispose();
    await client.dispose();
    await foreign.dispose();
  });
});
