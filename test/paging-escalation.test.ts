/**
 * Escalation end to end with real parts: a critical event opens an alert under the policy [on call of a schedule →
 * after 5 min the team lead]; the on-call person is paged at once, the lead at 5 min on the test clock, and
 * acknowledging stops it. What this area owns is asserted: the group's state, the step/round that ran, the `paged`
 * timeline entries and the `page` jobs enqueued (part 2's processor turns them into notifications).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { startTestServer, type TestServer } from './helpers/server.js';
import { testClock, type TestClock } from './helpers/clock.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { spawnWorker } from './helpers/worker-process.js';
import { pageJobId } from '../src/queues.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const ENV = { ESCALATION_SWEEP_INTERVAL_MS: '200', SNOOZE_WAKE_INTERVAL_MS: '200', INGEST_RATE_PER_SECOND: '1000' };

interface World {
  s: TestServer;
  clock: TestClock;
  t: BuiltTenant;
  onCall: string;
  lead: string;
  leadToken: string;
}

async function world(workers = true): Promise<World> {
  const clock = testClock();
  const s = await startTestServer({ env: ENV, start: { clock, workers } });
  cleanups.push(() => s.stop());
  const t = await buildTenant(s.app.rt);
  const onCall = await buildUser(s.app.rt, t.tenantId);
  const lead = await buildUser(s.app.rt, t.tenantId);
  const sched = await gql(
    s.url,
    t.adminToken,
    `mutation($i: CreateScheduleInput!) { createSchedule(input: $i) { id } }`,
    {
      i: {
        name: 'Database',
        timeZone: 'Europe/Amsterdam',
        layers: [
          {
            startsAt: new Date(clock.now().getTime() - 86400_000).toISOString(),
            rotation: 'WEEKLY',
            handoffTime: '09:00',
            handoffWeekday: 1,
            userIds: [onCall.id],
          },
        ],
      },
    },
  );
  const scheduleId = sched.data.createSchedule.id;
  const pol = await gql(
    s.url,
    t.adminToken,
    `mutation($i: CreateEscalationPolicyInput!) { createEscalationPolicy(input: $i) { id } }`,
    {
      i: {
        name: 'Database',
        steps: [
          { delayMinutes: 0, targets: [{ type: 'SCHEDULE', id: scheduleId }] },
          { delayMinutes: 5, targets: [{ type: 'USER', id: lead.id }] },
        ],
      },
    },
  );
  await gql(s.url, t.adminToken, `mutation($id: ID!) { setDefaultEscalationPolicy(id: $id) { id } }`, {
    id: pol.data.createEscalationPolicy.id,
  });
  await gql(
    s.url,
    t.adminToken,
    'mutation { createAlertRule(input: { name: "DB down", typeGlob: "db.*", alertSeverity: CRITICAL }) { id } }',
  );
  return { s, clock, t, onCall: onCall.id, lead: lead.id, leadToken: await buildToken(s.app.rt, lead) };
}

async function fire(w: World): Promise<string> {
  const r = await rest(w.s.url).post(
    '/events',
    { type: 'db.down', source: 'db-1', severity: 'critical', payload: {} },
    { headers: { 'x-service-key': w.t.ingestKey } },
  );
  expect(r.status).toBe(202);
  const alert = await eventually(() => w.s.app.rt.prisma.alert.findFirst({ where: { tenantId: w.t.tenantId } }));
  const groupId = await eventually(
    async () => (await w.s.app.rt.prisma.alert.findUnique({ where: { id: alert.id } }))?.groupId,
  );
  return groupId;
}

const group = (w: World, id: string) => w.s.app.rt.prisma.alertGroup.findUniqueOrThrow({ where: { id } });
const pagedEntries = (w: World, userId: string) =>
  w.s.app.rt.prisma.alertTimelineEntry.findMany({
    where: { tenantId: w.t.tenantId, action: 'paged', actorId: userId },
  });
const pageJob = (
  w: World,
  groupId: string,
  userId: string,
  step: number,
  round = 0,
  reason: 'escalation' = 'escalation',
) => w.s.app.rt.queues.get('page').getJob(pageJobId({ groupId, userId, step, round, reason }));

describe('escalation', () => {
  it('pages the on-call person at once, the lead after 5 minutes on the test clock, and acknowledging ends it', async () => {
    const w = await world();
    const groupId = await fire(w);
    const job = await eventually(() => pageJob(w, groupId, w.onCall, 0));
    expect(job.data).toMatchObject({
      tenantId: w.t.tenantId,
      groupId,
      userId: w.onCall,
      step: 0,
      round: 0,
      urgency: 'high',
      reason: 'escalation',
    });
    const entries = await pagedEntries(w, w.onCall);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.note).toBe('step 1, round 1, policy Database');
    expect(await group(w, groupId)).toMatchObject({ status: 'firing', step: 0, round: 0 });
    expect(await pageJob(w, groupId, w.lead, 1)).toBeUndefined();

    w.clock.advance(5 * 60_000);
    await eventually(() => pageJob(w, groupId, w.lead, 1));
    expect(await group(w, groupId)).toMatchObject({ status: 'firing', step: 1, round: 0, nextStepAt: null });
    expect(await pagedEntries(w, w.lead)).toHaveLength(1);

    const ack = await gql(
      w.s.url,
      w.leadToken,
      `mutation($id: ID!) { acknowledgeAlertGroup(id: $id) { status alerts { status assigneeId } } }`,
      { id: groupId },
    );
    expect(ack.data.acknowledgeAlertGroup).toEqual({
      status: 'ACKNOWLEDGED',
      alerts: [{ status: 'ACKNOWLEDGED', assigneeId: w.lead }],
    });
  });

  it('stops paging when the group is acknowledged before the next step is due', async () => {
    const w = await world();
    const groupId = await fire(w);
    await eventually(() => pageJob(w, groupId, w.onCall, 0));
    const g = await group(w, groupId);
    const ack = await gql(
      w.s.url,
      w.leadToken,
      `mutation($id: ID!) { acknowledgeAlertGroup(id: $id) { status nextStepAt } }`,
      { id: groupId },
    );
    expect(ack.data.acknowledgeAlertGroup).toEqual({ status: 'ACKNOWLEDGED', nextStepAt: null });
    // The lead's timer still waits in Redis: run it now, and it finds the group acknowledged.
    w.clock.advance(5 * 60_000);
    const timer = await w.s.app.rt.queues.get('escalation').getJob(`esc-${groupId}-${g.escalationEpoch}-0-1`);
    expect(timer).toBeDefined();
    await timer!.promote().catch(() => undefined);
    await eventually(async () => (await timer!.getState()) === 'completed');
    expect((await w.s.app.rt.queues.get('escalation').getJob(timer!.id!))?.returnvalue).toBe('stale');
    expect(await pageJob(w, groupId, w.lead, 1)).toBeUndefined();
    expect(await pagedEntries(w, w.lead)).toHaveLength(0);
    // The alert resolving ends the group.
    const alert = await w.s.app.rt.prisma.alert.findFirstOrThrow({ where: { groupId } });
    await gql(w.s.url, w.leadToken, `mutation($id: ID!) { resolveAlert(id: $id) { id } }`, { id: alert.id });
    expect(await group(w, groupId)).toMatchObject({ status: 'resolved', liveGroupKey: null });
  });

  it('restarts from the first step when a snooze ends (a new page id), and escalates now on request', async () => {
    const w = await world();
    const groupId = await fire(w);
    await eventually(() => pageJob(w, groupId, w.onCall, 0));
    const snoozed = await gql(
      w.s.url,
      w.leadToken,
      `mutation($id: ID!) { snoozeAlertGroup(id: $id, input: { duration: "10m" }) { status alerts { status } } }`,
      { id: groupId },
    );
    expect(snoozed.data.snoozeAlertGroup).toEqual({ status: 'SNOOZED', alerts: [{ status: 'SNOOZED' }] });
    w.clock.advance(11 * 60_000);
    await eventually(async () => (await group(w, groupId)).step === 0 && (await group(w, groupId)).round === 1);
    const again = await eventually(() => pageJob(w, groupId, w.onCall, 0, 1));
    expect(again.data.reason).toBe('escalation');
    expect(await pagedEntries(w, w.onCall)).toHaveLength(2);
    expect(await pageJob(w, groupId, w.lead, 1, 1)).toBeUndefined();

    const esc = await gql(
      w.s.url,
      w.leadToken,
      `mutation($id: ID!) { escalateAlertGroup(id: $id) { status step round } }`,
      { id: groupId },
    );
    expect(esc.data.escalateAlertGroup).toEqual({ status: 'FIRING', step: 1, round: 1 });
    const now = await w.s.app.rt.queues
      .get('page')
      .getJob(pageJobId({ groupId, userId: w.lead, step: 1, round: 1, reason: 'escalate_now' }));
    expect(now?.data.reason).toBe('escalate_now');
    const again2 = await gql(w.s.url, w.leadToken, `mutation($id: ID!) { escalateAlertGroup(id: $id) { id } }`, {
      id: groupId,
    });
    expect(again2.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  });

  it('reassigns a group: the person is paged and assigned; another tenant gets 404', async () => {
    const w = await world();
    const groupId = await fire(w);
    await eventually(() => pageJob(w, groupId, w.onCall, 0));
    const r = await gql(
      w.s.url,
      w.leadToken,
      `mutation($id: ID!, $u: ID!) { reassignAlertGroup(id: $id, userId: $u) { alerts { assigneeId } } }`,
      { id: groupId, u: w.lead },
    );
    expect(r.data.reassignAlertGroup.alerts).toEqual([{ assigneeId: w.lead }]);
    await eventually(() =>
      w.s.app.rt.queues
        .get('page')
        .getJob(pageJobId({ groupId, userId: w.lead, step: 0, round: 0, reason: 'reassign' })),
    );
    const other = await buildTenant(w.s.app.rt);
    const denied = await gql(
      w.s.url,
      other.adminToken,
      `mutation($id: ID!) { acknowledgeAlertGroup(id: $id) { id } }`,
      { id: groupId },
    );
    expect(denied.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('durable escalation', () => {
  it('pages the lead exactly once when the worker process is killed between steps and two workers take over', async () => {
    const w = await world(false);
    const kills: Array<() => Promise<void>> = [];
    const first: ChildProcess = await spawnWorker(w.s, (k) => kills.push(k));
    cleanups.push(async () => {
      for (const k of kills) await k();
    });
    const groupId = await fire(w);
    await eventually(() => pageJob(w, groupId, w.onCall, 0), 30_000);
    expect(await group(w, groupId)).toMatchObject({ step: 0 });
    first.kill('SIGKILL');
    await eventually(async () => first.exitCode !== null || first.signalCode !== null);

    w.clock.advance(5 * 60_000);
    await spawnWorker(w.s, (k) => kills.push(k));
    await spawnWorker(w.s, (k) => kills.push(k));
    await eventually(() => pageJob(w, groupId, w.lead, 1), 30_000);
    await eventually(async () => (await group(w, groupId)).step === 1, 30_000);
    expect(await pagedEntries(w, w.lead)).toHaveLength(1);
    expect(await pagedEntries(w, w.onCall)).toHaveLength(1);
    const leadJobs = (
      await w.s.app.rt.queues.get('page').getJobs(['waiting', 'delayed', 'active', 'completed'])
    ).filter((j) => j.data.userId === w.lead);
    expect(leadJobs).toHaveLength(1);
  });
});
