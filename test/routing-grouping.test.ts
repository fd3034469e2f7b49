/**
 * Grouping forms the alert groups: 50 alerts Prometheus-style (POST /api/v1/alertmanager/api/v2/alerts)
 * that share `alertname` and `cluster` join one group on the route, which pages once after group_wait,
 * as one email at a real SMTP server (smtp-server) listing them. The service clock is a test clock, so
 * "after group_wait" is the clock moving, not the test waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, eventually, gql, rest } from './helpers/http.js';
import { testClock } from './helpers/clock.js';
import { startSmtpPeer, type SmtpPeer } from './helpers/paging-receivers.js';

let server: TestServer;
let smtp: SmtpPeer;
let tenant: BuiltTenant;
const clock = testClock();

beforeAll(async () => {
  smtp = await startSmtpPeer();
  server = await startTestServer({
    env: {
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Pager <pager@ops.test>',
      ESCALATION_SWEEP_INTERVAL_MS: '200',
      NOTIFY_SWEEP_INTERVAL_MS: '200',
    },
    start: { clock },
  });
  tenant = await buildTenant(server.app.rt);
});

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

const POLICY = `mutation($input: CreateEscalationPolicyInput!) { createEscalationPolicy(input: $input) { id } }`;
const METHOD = `mutation($input: ContactMethodInput!) { createContactMethod(input: $input) { id } }`;
const RULE = `mutation($input: NotificationRuleInput!) { createNotificationRule(input: $input) { id } }`;

function firing(i: number, cluster: string) {
  return {
    labels: { alertname: 'PodCrashLooping', cluster, pod: `api-${i}`, severity: 'critical' },
    annotations: { summary: `Pod api-${i} is crash looping` },
    startsAt: clock.now().toISOString(),
    endsAt: new Date(clock.now().getTime() + 3600_000).toISOString(),
  };
}

describe('grouping by route', () => {
  it('pages once, after group_wait, for 50 alerts that share alertname and cluster', async () => {
    const rt = server.app.rt;
    const ana = await buildUser(rt, tenant.tenantId, { role: 'member' });
    const anaToken = await buildToken(rt, ana);
    const m = await gql(server.url, anaToken, METHOD, { input: { kind: 'EMAIL', name: 'work', address: ana.email } });
    expect(m.errors).toBeUndefined();
    const r = await gql(server.url, anaToken, RULE, {
      input: { urgency: 'HIGH', contactMethodId: m.data.createContactMethod.id },
    });
    expect(r.errors).toBeUndefined();
    const p = await gql(server.url, tenant.adminToken, POLICY, {
      input: { name: 'platform', steps: [{ delayMinutes: 0, targets: [{ type: 'USER', id: ana.id }] }] },
    });
    expect(p.errors).toBeUndefined();
    const admin = rest(server.url, tenant.adminToken);
    const receiver = await admin.post('/routing/receivers', {
      name: 'platform',
      escalation_policy_id: p.data.createEscalationPolicy.id,
    });
    expect(receiver.status).toBe(201);
    const tree = await admin.put('/routing/tree', {
      routes: [
        { id: 'root', parent_id: null, receiver: 'platform', group_by: ['alertname', 'cluster'], group_wait: '1h' },
      ],
    });
    expect(tree.status).toBe(200);

    // 50 alerts of one cluster arrive in five batches (as Prometheus sends them), and one of another cluster.
    const post = (alerts: unknown[]) =>
      call(server.url, 'POST', '/api/v1/alertmanager/api/v2/alerts', { token: tenant.ingestKey, body: alerts });
    for (let b = 0; b < 5; b++) {
      const res = await post(Array.from({ length: 10 }, (_, i) => firing(b * 10 + i, 'eu-1')));
      expect(res.status).toBe(200);
    }
    expect((await post([firing(99, 'us-2')])).status).toBe(200);

    const alerts = await eventually(async () => {
      const rows = await rt.prisma.alert.findMany({ where: { tenantId: tenant.tenantId, source: 'alertmanager-api' } });
      return rows.length === 51 ? rows : null;
    });
    const eu = alerts.filter((a) => (a.labels as Record<string, string>).cluster === 'eu-1');
    const groupIds = new Set(eu.map((a) => a.groupId));
    expect(groupIds.size).toBe(1);
    const groupId = [...groupIds][0]!;
    const us = alerts.find((a) => (a.labels as Record<string, string>).cluster === 'us-2')!;
    expect(us.groupId).not.toBe(groupId);

    const group = await rt.prisma.alertGroup.findUniqueOrThrow({ where: { id: groupId } });
    expect(group).toMatchObject({ routeId: 'root', receiver: 'platform', status: 'firing', step: -1 });
    expect(group.groupLabels).toEqual({ alertname: 'PodCrashLooping', cluster: 'eu-1' });
    // The first page waits for group_wait on the service clock (an hour: the test clock also runs with real
    // time, so a loaded machine cannot reach it before the test moves the clock).
    expect(group.nextStepAt!.getTime() - group.createdAt.getTime()).toBe(3_600_000);

    // GraphQL shows the route and group_by values on the group.
    const g = await gql(
      server.url,
      tenant.adminToken,
      'query($id: ID!) { alertGroup(id: $id) { routeId receiver groupLabels } }',
      { id: groupId },
    );
    expect(g.errors).toBeUndefined();
    expect(g.data.alertGroup).toEqual({
      routeId: 'root',
      receiver: 'platform',
      groupLabels: { alertname: 'PodCrashLooping', cluster: 'eu-1' },
    });

    clock.advance(3_601_000);
    const mails = await eventually(async () => {
      // Ana is the only person paged in this file: every message is hers.
      const got = smtp.messages.filter((x) => x.text?.includes('PodCrashLooping'));
      return got.length >= 2 ? got : null;
    });
    // Every page is sent once the steps ran (one per group); nothing more comes for this group.
    await eventually(async () => {
      const rows = await rt.prisma.notification.findMany({ where: { groupId, kind: 'email' } });
      return rows.length === 1 && rows[0]!.status === 'sent' ? rows : null;
    });
    const forGroup = mails.filter((x) => x.text?.includes('cluster=eu-1'));
    expect(forGroup).toHaveLength(1);
    const mail = forGroup[0]!;
    expect(mail.subject).toContain('(+49 more)');
    expect(mail.text).toContain('Alerts in this group (50):');
    for (let i = 0; i < 50; i++) expect(mail.text).toContain(`Pod api-${i} is crash looping`);
    expect(mails.filter((x) => x.text?.includes('cluster=us-2'))).toHaveLength(1);
    expect(await rt.prisma.notification.count({ where: { groupId, kind: 'email' } })).toBe(1);
  });
});
