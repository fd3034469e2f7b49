/**
 * `continue`: an alert that matches several routes is grouped and paged on each, with that route's receiver
 * (src/routing/route-group.ts). Route `a` (continue: true) pages policy PA, route `b` pages policy PB; an alert
 * matching both pages Ana (PA) and Bob (PB) once each, as email at a real SMTP server (smtp-server); an alert
 * matching only `b` pages Bob alone. The alert's `group` stays its first route's; resolving the `b` group
 * resolves the alert, and so its `a` group too. The service clock is a test clock: "after group_wait" is the
 * clock moving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, eventually, gql, rest } from './helpers/http.js';
import { testClock } from './helpers/clock.js';
import { startSmtpPeer, type SmtpMessage, type SmtpPeer } from './helpers/paging-receivers.js';

let server: TestServer;
let smtp: SmtpPeer;
let tenant: BuiltTenant;
const clock = testClock();
const HOUR = 3_600_000;

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

/** A person reached by email at high urgency, alone in a one-step policy named `policy`; returns them and it. */
async function pagedPerson(policy: string) {
  const rt = server.app.rt;
  const user = await buildUser(rt, tenant.tenantId, { role: 'member' });
  const token = await buildToken(rt, user);
  const m = await gql(server.url, token, METHOD, { input: { kind: 'EMAIL', name: 'work', address: user.email } });
  expect(m.errors).toBeUndefined();
  const r = await gql(server.url, token, RULE, {
    input: { urgency: 'HIGH', contactMethodId: m.data.createContactMethod.id },
  });
  expect(r.errors).toBeUndefined();
  const p = await gql(server.url, tenant.adminToken, POLICY, {
    input: { name: policy, steps: [{ delayMinutes: 0, targets: [{ type: 'USER', id: user.id }] }] },
  });
  expect(p.errors).toBeUndefined();
  return { user, policyId: p.data.createEscalationPolicy.id as string };
}

function firing(alertname: string, team: string) {
  return {
    labels: { alertname, team, severity: 'critical' },
    annotations: { summary: `${alertname} for ${team}` },
    startsAt: clock.now().toISOString(),
    endsAt: new Date(clock.now().getTime() + 100 * HOUR).toISOString(),
  };
}

const sentTo = (m: SmtpMessage, email: string) =>
  (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.value.some((v) => v.address === email));

describe('continue: an alert grouped and paged on every route it matches', () => {
  it("pages route a's and route b's people once each, and only b's for an alert only b matches", async () => {
    const rt = server.app.rt;
    const ana = await pagedPerson('databases');
    const bob = await pagedPerson('criticals');
    const admin = rest(server.url, tenant.adminToken);
    for (const [name, policyId] of [
      ['pa', ana.policyId],
      ['pb', bob.policyId],
    ])
      expect((await admin.post('/routing/receivers', { name, escalation_policy_id: policyId })).status).toBe(201);
    // Hours, not seconds: the test clock also runs with real time, so a loaded machine cannot page early.
    const tree = await admin.put('/routing/tree', {
      routes: [
        { id: 'root', parent_id: null, group_by: ['alertname'], group_wait: '1h', repeat_interval: '48h' },
        {
          id: 'a',
          parent_id: 'root',
          matchers: [{ name: 'team', type: '=', value: 'db' }],
          continue: true,
          receiver: 'pa',
        },
        {
          id: 'b',
          parent_id: 'root',
          matchers: [{ name: 'severity', type: '=', value: 'critical' }],
          receiver: 'pb',
        },
      ],
    });
    expect(tree.status).toBe(200);

    const res = await call(server.url, 'POST', '/api/v1/alertmanager/api/v2/alerts', {
      token: tenant.ingestKey,
      body: [firing('DbDown', 'db'), firing('WebDown', 'web')],
    });
    expect(res.status).toBe(200);
    const alerts = await eventually(async () => {
      const rows = await rt.prisma.alert.findMany({ where: { tenantId: tenant.tenantId } });
      return rows.length === 2 && rows.every((a) => a.groupId) ? rows : null;
    });
    const db = alerts.find((a) => a.summary.startsWith('DbDown'))!;
    const web = alerts.find((a) => a.summary.startsWith('WebDown'))!;

    // The alert's group in the API is its first route's (a); it is in b's group too.
    const q = await gql(
      server.url,
      tenant.adminToken,
      'query($id: ID!) { alert(id: $id) { group { id routeId receiver } } }',
      { id: db.id },
    );
    expect(q.errors).toBeUndefined();
    expect(q.data.alert.group).toMatchObject({ routeId: 'a', receiver: 'pa' });
    const groups = await rt.prisma.alertGroup.findMany({ where: { tenantId: tenant.tenantId } });
    const groupOf = (route: string, alertname: string) =>
      groups.find((g) => g.routeId === route && (g.groupLabels as Record<string, string>).alertname === alertname);
    expect(groups).toHaveLength(3);
    const bDb = groupOf('b', 'DbDown')!;
    const bWeb = groupOf('b', 'WebDown')!;
    expect(groupOf('a', 'DbDown')!.id).toBe(db.groupId);
    expect(bWeb.id).toBe(web.groupId);
    const members = await gql(
      server.url,
      tenant.adminToken,
      'query($id: ID!) { alertGroup(id: $id) { alerts { id } } }',
      {
        id: bDb.id,
      },
    );
    expect(members.errors).toBeUndefined();
    expect(members.data.alertGroup.alerts).toEqual([{ id: db.id }]);

    clock.advance(HOUR + 1000);
    // Three groups, one page each: every email is sent (or failed) before the messages are counted.
    await eventually(async () => {
      const rows = await rt.prisma.notification.findMany({ where: { tenantId: tenant.tenantId, kind: 'email' } });
      return rows.length === 3 && rows.every((n) => n.status === 'sent') ? rows : null;
    });
    const toAna = smtp.messages.filter((m) => sentTo(m, ana.user.email));
    const toBob = smtp.messages.filter((m) => sentTo(m, bob.user.email));
    expect(toAna).toHaveLength(1);
    expect(toAna[0]!.text).toContain('alertname=DbDown');
    expect(toBob).toHaveLength(2);
    expect(toBob.filter((m) => m.text?.includes('alertname=DbDown'))).toHaveLength(1);
    expect(toBob.filter((m) => m.text?.includes('alertname=WebDown'))).toHaveLength(1);

    // Resolving b's group resolves its alert, and with it the alert's group on route a.
    const r = await gql(server.url, tenant.adminToken, 'mutation($id: ID!) { resolveAlertGroup(id: $id) { status } }', {
      id: bDb.id,
    });
    expect(r.errors).toBeUndefined();
    expect(r.data.resolveAlertGroup.status).toBe('RESOLVED');
    const after = await rt.prisma.alertGroup.findUniqueOrThrow({ where: { id: db.groupId! } });
    expect(after.status).toBe('resolved');
    expect((await rt.prisma.alert.findUniqueOrThrow({ where: { id: db.id } })).status).toBe('resolved');
  });
});
