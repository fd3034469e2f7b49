/**
 * Escalation end to end with real parts (issue 41's "done when"): a critical event POSTed to the ingest endpoint
 * opens an alert under the policy [on call of a schedule → after 5 min the team lead]; the on-call person gets an
 * email (a real SMTP server, `smtp-server`, messages parsed with `mailparser`) and a push (an HTTP server speaking
 * ntfy's publish API: no ntfy runs here) within 2 s, the lead is paged at 5 min on the test clock, and
 * acknowledging from the email's link (GET: a confirmation page that changes nothing; POST: acknowledges) stops
 * it. Also: the group's state, the step/round run, `paged` entries, `page` jobs; a worker SIGKILLed between steps
 * still pages the lead once. The escalation tests share one server (workers, one test clock), each on its own
 * tenant and groups; the durable test has its own server (no workers in it: worker processes).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { startTestServer, type TestServer } from './helpers/server.js';
import { testClock, type TestClock } from './helpers/clock.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { spawnWorker } from './helpers/worker-process.js';
import { startHttpPeer, startSmtpPeer, type HttpPeer, type SmtpPeer } from './helpers/paging-receivers.js';
import { pageJobId } from '../src/queues.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

let smtp: SmtpPeer;
let ntfy: HttpPeer;
/** The server (and its clock) of the tests whose world has workers in it: started by the first of them. */
let withWorkers: { s: TestServer; clock: TestClock } | undefined;
beforeAll(async () => {
  [smtp, ntfy] = await Promise.all([startSmtpPeer(), startHttpPeer()]);
});
afterAll(async () => {
  await withWorkers?.s.stop();
  await Promise.all([smtp?.close(), ntfy?.close()]);
});

const ENV = { ESCALATION_SWEEP_INTERVAL_MS: '200', SNOOZE_WAKE_INTERVAL_MS: '200', INGEST_RATE_PER_SECOND: '1000' };
/** What a node needs to send email and pushes to the test's peers (given to worker processes as well). */
const peerEnv = () => ({
  SMTP_URL: smtp.url,
  SMTP_FROM: 'Pager <pager@ops.test>',
  WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
  NOTIFY_SWEEP_INTERVAL_MS: '200',
});

interface World {
  s: TestServer;
  clock: TestClock;
  t: BuiltTenant;
  onCall: string;
  onCallEmail: string;
  topic: string; // the on-call person's ntfy topic (their push contact method)
  lead: string;
  leadEmail: string;
  leadToken: string;
}

/** A server with workers (shared: `withWorkers`) or without (the test's own), on a test clock. */
async function server(workers: boolean): Promise<{ s: TestServer; clock: TestClock }> {
  if (workers && withWorkers) return withWorkers;
  const clock = testClock();
  const s = await startTestServer({ env: { ...ENV, ...peerEnv() }, start: { clock, workers } });
  if (workers) withWorkers = { s, clock };
  else cleanups.push(() => s.stop());
  return { s, clock };
}

async function world(workers = true, repeat = 0): Promise<World> {
  const { s, clock } = await server(workers);
  const t = await buildTenant(s.app.rt);
  const onCall = await buildUser(s.app.rt, t.tenantId);
  const lead = await buildUser(s.app.rt, t.tenantId);
  // The on-call person's rules: email and push at once. The lead has none: the inbox and email at once.
  const topic = `oncall-${onCall.id.slice(-8)}`;
  const onCallToken = await buildToken(s.app.rt, onCall);
  for (const input of [
    { kind: 'EMAIL', name: 'work', address: onCall.email },
    { kind: 'NTFY', name: 'phone', address: ntfy.url, topic },
  ]) {
    const m = await gql(
      s.url,
      onCallToken,
      `mutation($i: ContactMethodInput!) { createContactMethod(input: $i) { id } }`,
      { i: input },
    );
    const r = await gql(
      s.url,
      onCallToken,
      `mutation($i: NotificationRuleInput!) { createNotificationRule(input: $i) { id } }`,
      { i: { urgency: 'HIGH', contactMethodId: m.data.createContactMethod.id } },
    );
    expect(r.errors).toBeUndefined();
  }
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
        repeat,
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
  return {
    s,
    clock,
    t,
    onCall: onCall.id,
    onCallEmail: onCall.email,
    topic,
    lead: lead.id,
    leadEmail: lead.email,
    leadToken: await buildToken(s.app.rt, lead),
  };
}

async function fire(w: World, source = 'db-1'): Promise<string> {
  const r = await rest(w.s.url).post(
    '/events',
    { type: 'db.down', source, severity: 'critical', payload: {} },
    { headers: { 'x-service-key': w.t.ingestKey } },
  );
  expect(r.status).toBe(202);
  const alert = await eventually(() =>
    w.s.app.rt.prisma.alert.findFirst({ where: { tenantId: w.t.tenantId, summary: { endsWith: ` on ${source}` } } }),
  );
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
  it('emails and pushes the on-call person within 2 s, pages the lead at 5 minutes, and the email link acknowledges on POST only, ending the escalation', async () => {
    // repeat 1: without the acknowledgement the steps would run again, the lead paged a second time.
    const w = await world(true, 1);
    const rt = w.s.app.rt;
    const accepted = Date.now();
    const groupId = await fire(w);
    const mailTo = (email: string) => smtp.messages.filter((m) => m.to && JSON.stringify(m.to).includes(email));
    const mail = await eventually(async () => mailTo(w.onCallEmail)[0]);
    const push = await eventually(async () => ntfy.received.find((r) => r.path === `/${w.topic}`));
    // Within 2 s of the event's acceptance, on this machine's clock and on the service's own record.
    const event = await rt.prisma.event.findFirstOrThrow({ where: { tenantId: w.t.tenantId, type: 'db.down' } });
    const sent = await eventually(async () => {
      const rows = await rt.prisma.notification.findMany({ where: { groupId, userId: w.onCall, status: 'sent' } });
      return rows.length === 3 ? rows : null; // email, push and the inbox
    });
    const recorded = Math.max(...sent.map((n) => n.sentAt!.getTime())) - event.receivedAt.getTime();
    const [mailMs, pushMs] = [mail.receivedAt - accepted, push.at - accepted];
    // 2 s of an idle machine: stretched by how many runnable processes share each core (the suite runs beside others;
    // `npm run bench:paging` measures the figure itself). With a load average at or under the cores: 2 s.
    const budget = 2000 * Math.max(1, os.loadavg()[0]! / os.cpus().length);
    console.log(
      `event → on-call: email ${mailMs} ms, push ${pushMs} ms (real), ${recorded} ms on the service's record; budget ${Math.round(budget)} ms`,
    );
    expect(recorded).toBeLessThanOrEqual(budget);
    expect(Math.max(mailMs, pushMs)).toBeLessThanOrEqual(budget);
    expect(mail.subject).toContain('db.down on db-1');
    expect(push.headers.title).toContain('db.down on db-1');
    expect(await pageJob(w, groupId, w.onCall, 0)).toMatchObject({ data: { urgency: 'high', reason: 'escalation' } });
    const entries = await pagedEntries(w, w.onCall);
    expect(entries.map((e) => e.note)).toEqual(['step 1, round 1, policy Database']);
    expect(await group(w, groupId)).toMatchObject({ status: 'firing', step: 0, round: 0 });
    expect(await rt.prisma.notification.count({ where: { userId: w.lead } })).toBe(0);

    // No acknowledgement: the lead at 5 minutes on the test clock (the inbox and an email: no rules of their own).
    w.clock.advance(5 * 60_000);
    const leadMail = await eventually(async () => mailTo(w.leadEmail)[0]);
    const leadSent = await eventually(() =>
      rt.prisma.notification.findFirst({ where: { userId: w.lead, kind: 'email', sentAt: { not: null } } }),
    );
    expect(leadSent.sentAt!.getTime() - event.receivedAt.getTime()).toBeGreaterThanOrEqual(5 * 60_000);
    expect(leadMail.subject).toContain('db.down on db-1');
    expect(await group(w, groupId)).toMatchObject({ status: 'firing', step: 1, round: 0 });
    expect(await pagedEntries(w, w.lead)).toHaveLength(1);

    // The on-call person's email link: GET shows the confirmation page and changes nothing.
    const path = new URL(/Acknowledge: (\S+)/.exec(mail.text ?? '')![1]!).pathname;
    const shown = await fetch(w.s.url + path);
    const html = await shown.text();
    expect(shown.status).toBe(200);
    expect(html).toContain('<form method="post">');
    expect(await group(w, groupId)).toMatchObject({ status: 'firing', step: 1 });
    expect(await rt.prisma.alert.findFirstOrThrow({ where: { groupId } })).toMatchObject({ status: 'open' });
    // Its button's POST acknowledges, as the on-call person.
    const formToken = /name="form_token" value="([0-9a-f]+)"/.exec(html)![1];
    const acted = await fetch(w.s.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `form_token=${formToken}`,
    });
    expect(acted.status).toBe(200);
    expect(await group(w, groupId)).toMatchObject({ status: 'acknowledged', nextStepAt: null });
    expect(await rt.prisma.alert.findFirstOrThrow({ where: { groupId } })).toMatchObject({
      status: 'acknowledged',
      assigneeId: w.onCall,
    });

    // Escalation stopped. A control group opened now, under the same policy, is paged through its steps while the
    // clock passes the acknowledged group's next round: nobody is paged again for the acknowledged one.
    const control = await fire(w, 'db-2');
    await eventually(() => pageJob(w, control, w.onCall, 0));
    const emailsBefore = smtp.messages.length;
    w.clock.advance(11 * 60_000);
    await eventually(() => pageJob(w, control, w.lead, 1));
    await eventually(async () => {
      const counts = await Promise.all(
        (['escalation', 'page', 'notify'] as const).map((q) => rt.queues.get(q).getJobCounts('waiting', 'active')),
      );
      return counts.every((c) => c.waiting === 0 && c.active === 0);
    });
    expect(smtp.messages.length).toBeGreaterThan(emailsBefore); // the control's pages went out meanwhile
    expect(await rt.prisma.notification.count({ where: { groupId, userId: w.lead } })).toBe(2); // inbox, email
    expect(await rt.prisma.notification.count({ where: { groupId, round: { gt: 0 } } })).toBe(0);
    expect(mailTo(w.leadEmail).filter((m) => m.subject?.includes('on db-1'))).toHaveLength(1);
    expect(await group(w, groupId)).toMatchObject({ status: 'acknowledged', step: 1, round: 0 });
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
    cleanups.push(async () => {
      for (const k of kills) await k();
    });
    const first: ChildProcess = await spawnWorker(w.s, (k) => kills.push(k), peerEnv());
    const groupId = await fire(w);
    // Step 1 ran in that process: the on-call person has their email.
    await eventually(async () => smtp.messages.find((m) => JSON.stringify(m.to).includes(w.onCallEmail)), 60_000);
    expect(await group(w, groupId)).toMatchObject({ step: 0 });
    first.kill('SIGKILL');
    await eventually(async () => first.exitCode !== null || first.signalCode !== null);

    w.clock.advance(5 * 60_000);
    await Promise.all([
      spawnWorker(w.s, (k) => kills.push(k), peerEnv()),
      spawnWorker(w.s, (k) => kills.push(k), peerEnv()),
    ]);
    await eventually(async () => smtp.messages.find((m) => JSON.stringify(m.to).includes(w.leadEmail)), 60_000);
    await eventually(async () => (await group(w, groupId)).step === 1, 30_000);
    // Everything due has run (nothing waiting or running), then: one page, one email, one inbox item for the lead.
    const rt = w.s.app.rt;
    await eventually(async () => {
      const counts = await Promise.all(
        (['escalation', 'page', 'notify'] as const).map((q) => rt.queues.get(q).getJobCounts('waiting', 'active')),
      );
      const pending = await rt.prisma.notification.count({ where: { groupId, status: 'pending' } });
      return pending === 0 && counts.every((c) => c.waiting === 0 && c.active === 0);
    }, 60_000);
    expect(smtp.messages.filter((m) => JSON.stringify(m.to).includes(w.leadEmail))).toHaveLength(1);
    const toLead = await rt.prisma.notification.findMany({ where: { groupId, userId: w.lead } });
    expect(toLead.map((n) => `${n.kind} ${n.status}`).sort()).toEqual(['email sent', 'inbox sent']);
    expect(await pagedEntries(w, w.lead)).toHaveLength(1);
    expect(await pagedEntries(w, w.onCall)).toHaveLength(1);
    const leadJobs = (await rt.queues.get('page').getJobs(['waiting', 'delayed', 'active', 'completed'])).filter(
      (j) => j.data.userId === w.lead,
    );
    expect(leadJobs).toHaveLength(1);
  });
});
