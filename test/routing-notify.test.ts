/**
 * A routed group's notifications after the first (src/routing/group-notify.ts), with real peers: email at a real
 * SMTP server (smtp-server) and the receiver's outbound webhook at a real HTTP server on 127.0.0.1 that checks
 * the signature. Alerts that join after the first notification are announced once, group_interval after it,
 * listing only them, to the person already paged; while the group fires it repeats every repeat_interval; an
 * acknowledged group stops repeating while another goes on. Each notification is one signed
 * `alert_group.notified` delivery. The service clock is a test clock: "after group_interval" is the clock moving.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, eventually, gql, rest } from './helpers/http.js';
import { testClock } from './helpers/clock.js';
import { startSmtpPeer, type SmtpPeer } from './helpers/paging-receivers.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

let server: TestServer;
let smtp: SmtpPeer;
let hooks: Receiver;
let tenant: BuiltTenant;
const clock = testClock();
const HOUR = 3_600_000;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  hooks = await startReceiver();
  server = await startTestServer({
    env: {
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Pager <pager@ops.test>',
      ESCALATION_SWEEP_INTERVAL_MS: '200',
      NOTIFY_SWEEP_INTERVAL_MS: '200',
      WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
    },
    start: { clock },
  });
  tenant = await buildTenant(server.app.rt);
});

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  await hooks?.close();
});

function firing(pod: string, cluster: string) {
  return {
    labels: { alertname: 'DiskFull', cluster, pod, severity: 'critical' },
    annotations: { summary: `Disk full on ${pod}` },
    startsAt: clock.now().toISOString(),
    endsAt: new Date(clock.now().getTime() + 100 * HOUR).toISOString(),
  };
}

interface Delivered {
  topic: string;
  payload: {
    notification: string;
    sequence: number;
    group: { id: string; receiver: string; group_labels: Record<string, string> };
    alert_count: number;
    new_alert_ids: string[];
    alerts: Array<{ id: string; summary: string }>;
  };
}

describe('group_interval, repeat_interval and webhook receivers', () => {
  it('announces later alerts once after group_interval, repeats while firing, and delivers each notification signed', async () => {
    const rt = server.app.rt;
    const ana = await buildUser(rt, tenant.tenantId, { role: 'member' });
    const anaToken = await buildToken(rt, ana);
    const m = await gql(
      server.url,
      anaToken,
      `mutation($input: ContactMethodInput!) { createContactMethod(input: $input) { id } }`,
      { input: { kind: 'EMAIL', name: 'work', address: ana.email } },
    );
    expect(m.errors).toBeUndefined();
    const r = await gql(
      server.url,
      anaToken,
      `mutation($input: NotificationRuleInput!) { createNotificationRule(input: $input) { id } }`,
      { input: { urgency: 'HIGH', contactMethodId: m.data.createContactMethod.id } },
    );
    expect(r.errors).toBeUndefined();
    const p = await gql(
      server.url,
      tenant.adminToken,
      `mutation($input: CreateEscalationPolicyInput!) { createEscalationPolicy(input: $input) { id } }`,
      { input: { name: 'storage', steps: [{ delayMinutes: 0, targets: [{ type: 'USER', id: ana.id }] }] } },
    );
    expect(p.errors).toBeUndefined();
    const hook = await gql(
      server.url,
      tenant.adminToken,
      'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id secret } }',
      { input: { name: 'storage-bot', url: `${hooks.url}/storage`, triggers: [{ on: 'PROPOSAL_FAILED' }] } },
    );
    expect(hook.errors).toBeUndefined();
    const { id: webhookId, secret } = hook.data.createOutboundWebhook;
    const admin = rest(server.url, tenant.adminToken);
    const receiver = await admin.post('/routing/receivers', {
      name: 'storage',
      escalation_policy_id: p.data.createEscalationPolicy.id,
      outbound_webhook_ids: [webhookId],
    });
    expect(receiver.status).toBe(201);
    // Hours, not seconds: the test clock also runs with real time, so a loaded machine cannot reach a step early.
    const tree = await admin.put('/routing/tree', {
      routes: [
        {
          id: 'root',
          parent_id: null,
          group_by: ['alertname', 'cluster'],
          group_wait: '1h',
          group_interval: '2h',
          repeat_interval: '6h',
        },
        {
          id: 'disks',
          parent_id: 'root',
          matchers: [{ name: 'alertname', type: '=', value: 'DiskFull' }],
          receiver: 'storage',
        },
      ],
    });
    expect(tree.status).toBe(200);

    const post = async (alerts: unknown[]) =>
      expect(
        (
          await call(server.url, 'POST', '/api/v1/alertmanager/api/v2/alerts', {
            token: tenant.ingestKey,
            body: alerts,
          })
        ).status,
      ).toBe(200);
    const alertsOf = (n: number) =>
      eventually(async () => {
        const rows = await rt.prisma.alert.findMany({
          where: { tenantId: tenant.tenantId },
          orderBy: { createdAt: 'asc' },
        });
        return rows.length === n ? rows : null;
      });
    const mailsFor = (cluster: string) => smtp.messages.filter((x) => x.text?.includes(`cluster=${cluster}`));
    const deliveries = (): Delivered[] =>
      hooks.requests
        .filter((q) => q.path.endsWith('/storage'))
        .map((q) => {
          // Every delivery is signed with the webhook's secret over the exact body.
          expect(q.headers['x-service-signature']).toBe(
            crypto.createHmac('sha256', secret).update(q.body).digest('hex'),
          );
          expect(q.headers['x-service-event']).toBe('alert_group.notified');
          return JSON.parse(q.body) as Delivered;
        });
    const deliveriesFor = (cluster: string) =>
      deliveries().filter((d) => d.payload.group.group_labels.cluster === cluster);

    await post([firing('db-1', 'eu-1'), firing('db-2', 'eu-1'), firing('db-3', 'eu-1'), firing('db-9', 'us-2')]);
    const first = await alertsOf(4);
    const eu = first.find((a) => a.summary.includes('db-1'))!.groupId!;
    const us = first.find((a) => a.summary.includes('db-9'))!.groupId!;

    // group_wait: the first notification of each group, one page and one delivery listing its alerts.
    clock.advance(HOUR + 1000);
    await eventually(async () => (mailsFor('eu-1').length === 1 && mailsFor('us-2').length === 1 ? true : null));
    await eventually(async () =>
      deliveriesFor('eu-1').length === 1 && deliveriesFor('us-2').length === 1 ? true : null,
    );
    const d1 = deliveriesFor('eu-1')[0]!;
    expect(d1.topic).toBe('alert_group.notified');
    expect(d1.payload).toMatchObject({ notification: 'first', sequence: 1, alert_count: 3 });
    expect(d1.payload.group).toMatchObject({ id: eu, receiver: 'storage', route_id: 'disks' });
    expect(d1.payload.alerts.map((a) => a.summary).sort()).toEqual([
      'Disk full on db-1',
      'Disk full on db-2',
      'Disk full on db-3',
    ]);

    // Two alerts join after the first notification: the next one is due group_interval after it, not at once.
    await post([firing('db-4', 'eu-1'), firing('db-5', 'eu-1')]);
    const all = await alertsOf(6);
    const joined = all.filter((a) => /db-[45]/.test(a.summary));
    expect(new Set(joined.map((a) => a.groupId))).toEqual(new Set([eu]));
    const g = await eventually(async () => {
      const row = await rt.prisma.alertGroup.findUniqueOrThrow({ where: { id: eu } });
      return row.notifiedAt && row.nextNotifyAt!.getTime() - row.notifiedAt.getTime() === 2 * HOUR ? row : null;
    });
    expect(g.notifySeq).toBe(1);
    expect(mailsFor('eu-1')).toHaveLength(1);

    // group_interval: ONE further notification listing only the new alerts, to the person already paged.
    clock.advance(2 * HOUR);
    const update = await eventually(async () => (mailsFor('eu-1').length === 2 ? mailsFor('eu-1')[1]! : null));
    expect(update.subject).toContain('New in group:');
    expect(update.text).toContain('New alerts in this group (2):');
    expect(update.text).toContain('Disk full on db-4');
    expect(update.text).toContain('Disk full on db-5');
    expect(update.text).not.toContain('Disk full on db-1');
    const d2 = await eventually(async () => deliveriesFor('eu-1')[1] ?? null);
    expect(d2.payload).toMatchObject({ notification: 'update', sequence: 2, alert_count: 5 });
    expect(d2.payload.new_alert_ids.sort()).toEqual(joined.map((a) => a.id).sort());
    const timeline = await rt.prisma.alertTimelineEntry.count({
      where: { alertId: joined[0]!.id, action: 'paged', actorId: ana.id },
    });
    expect(timeline).toBe(1);

    // repeat_interval: while firing, each group repeats 6h after its last notification (us-2 at +7h, eu-1 at +9h).
    clock.advance(6 * HOUR);
    const repeat = await eventually(async () => (mailsFor('eu-1').length === 3 ? mailsFor('eu-1')[2]! : null));
    expect(repeat.subject).toContain('Still firing:');
    expect(repeat.text).toContain('Alerts in this group (5):');
    await eventually(async () => (mailsFor('us-2').length === 2 ? true : null));
    await eventually(async () =>
      deliveriesFor('eu-1').length === 3 && deliveriesFor('us-2').length === 2 ? true : null,
    );
    expect(deliveriesFor('eu-1')[2]!.payload).toMatchObject({ notification: 'repeat', sequence: 3, new_alert_ids: [] });

    // An acknowledged group stops repeating; the other, still firing, repeats again.
    const ack = await gql(server.url, anaToken, 'mutation($id: ID!) { acknowledgeAlertGroup(id: $id) { status } }', {
      id: eu,
    });
    expect(ack.errors).toBeUndefined();
    clock.advance(6 * HOUR + 1000);
    await eventually(async () => (mailsFor('us-2').length === 3 && deliveriesFor('us-2').length === 3 ? true : null));
    const euNow = await rt.prisma.alertGroup.findUniqueOrThrow({ where: { id: eu } });
    expect(euNow.notifySeq).toBe(3);
    expect(mailsFor('eu-1')).toHaveLength(3);
    expect(deliveriesFor('eu-1')).toHaveLength(3);
    // Exactly one delivery per notification: no duplicate ids.
    expect(hooks.uniqueIds().size).toBe(hooks.requests.length);
    expect(us).not.toBe(eu);
  });

  it('names the route path and receiver among the reasons an alert paged', async () => {
    const alert = await server.app.rt.prisma.alert.findFirstOrThrow({
      where: { tenantId: tenant.tenantId, summary: 'Disk full on db-9' },
    });
    const res = await gql(
      server.url,
      tenant.adminToken,
      `query($id: ID!) { alert(id: $id) { pagingExplanation { pages reasons { kind message blocks routeId routePath receiver groupId } } } }`,
      { id: alert.id },
    );
    expect(res.errors).toBeUndefined();
    const e = res.data.alert.pagingExplanation;
    expect(e.pages).toBe(true);
    const route = e.reasons.find((r: { kind: string }) => r.kind === 'ROUTE');
    expect(route).toEqual({
      kind: 'ROUTE',
      message: 'It took route root › disks to receiver "storage", grouped by alertname=DiskFull, cluster=us-2.',
      blocks: false,
      routeId: 'disks',
      routePath: ['root', 'disks'],
      receiver: 'storage',
      groupId: alert.groupId,
    });
    const restWhy = await rest(server.url, tenant.adminToken).get(`/alerts/${alert.id}/paging`);
    expect(restWhy.status).toBe(200);
    expect(restWhy.body.reasons).toContainEqual(
      expect.objectContaining({ kind: 'route', route_id: 'disks', route_path: ['root', 'disks'], receiver: 'storage' }),
    );
  });
});
