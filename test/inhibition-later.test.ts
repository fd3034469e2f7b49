/**
 * Inhibition decided later (src/routing/inhibit-later.ts): alerts arrive as Prometheus sends them (real POSTs to
 * the Alertmanager API v2 path); DiskFull on two nodes page, then NodeDown opens on one of them. The live DiskFull
 * on that node becomes inhibited, marked with NodeDown, and its group stops paging: its second step never runs
 * while the other node's does. When NodeDown resolves, the still-live DiskFull pages as new (release.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, eventually, gql, rest } from './helpers/http.js';
import { testClock } from './helpers/clock.js';

let s: TestServer;
let t: BuiltTenant;
const clock = testClock();

beforeAll(async () => {
  s = await startTestServer({
    env: { ESCALATION_SWEEP_INTERVAL_MS: '200', NOTIFY_SWEEP_INTERVAL_MS: '200', SNOOZE_WAKE_INTERVAL_MS: '200' },
    start: { clock },
  });
  t = await buildTenant(s.app.rt);
});
afterAll(async () => s?.stop());

const post = (alerts: Array<{ labels: Record<string, string>; endsAt?: string }>) =>
  call(`${s.url}/api/v1/alertmanager`, 'POST', '/api/v2/alerts', { token: t.ingestKey, body: alerts });
const liveAlert = (alertname: string, instance: string) =>
  eventually(async () => {
    const rows = await s.app.rt.prisma.alert.findMany({ where: { tenantId: t.tenantId, liveDedupKey: { not: null } } });
    return rows.find((a) => {
      const l = a.labels as Record<string, string>;
      return l.alertname === alertname && l.instance === instance;
    });
  });
/** The steps (step, round) that paged for a group, from its notification rows. */
const pagedSteps = async (groupId: string) =>
  (await s.app.rt.prisma.notification.findMany({ where: { groupId }, orderBy: { createdAt: 'asc' } })).map(
    (n) => `${n.step}/${n.round}`,
  );

describe('a source alert that opens after its targets', () => {
  it('inhibits the live targets, stops their groups paging, and pages them as new when it resolves', async () => {
    const rt = s.app.rt;
    const pol = await gql(
      s.url,
      t.adminToken,
      'mutation($i: CreateEscalationPolicyInput!) { createEscalationPolicy(input: $i) { id } }',
      {
        i: {
          name: 'Ops',
          steps: [
            { delayMinutes: 0, targets: [{ type: 'USER', id: t.admin.id }] },
            { delayMinutes: 60, targets: [{ type: 'USER', id: t.admin.id }] },
          ],
        },
      },
    );
    expect(pol.errors).toBeUndefined();
    await gql(s.url, t.adminToken, 'mutation($id: ID!) { setDefaultEscalationPolicy(id: $id) { id } }', {
      id: pol.data.createEscalationPolicy.id,
    });
    const rule = await rest(s.url, t.adminToken).post('/inhibit-rules', {
      name: 'node down inhibits its instance',
      source_matchers: [{ name: 'alertname', type: '=', value: 'NodeDown' }],
      target_matchers: [],
      equal: ['instance'],
    });
    expect(rule.status).toBe(201);

    expect(
      (
        await post([
          { labels: { alertname: 'DiskFull', instance: 'node-1' } },
          { labels: { alertname: 'DiskFull', instance: 'node-2' } },
        ])
      ).status,
    ).toBe(200);
    const target = await liveAlert('DiskFull', 'node-1');
    const control = await liveAlert('DiskFull', 'node-2');
    await eventually(async () => ((await pagedSteps(target.groupId!)).length ? true : null));
    await eventually(async () => ((await pagedSteps(control.groupId!)).length ? true : null));
    expect(await pagedSteps(target.groupId!)).toEqual(['0/0']);

    // NodeDown opens after DiskFull: the live DiskFull on its instance becomes inhibited, its group stops paging.
    expect((await post([{ labels: { alertname: 'NodeDown', instance: 'node-1' } }])).status).toBe(200);
    const source = await liveAlert('NodeDown', 'node-1');
    const marked = await rt.prisma.alert.findUniqueOrThrow({ where: { id: target.id } });
    expect(marked).toMatchObject({ inhibitedById: source.id, suppressed: true, status: 'open' });
    expect(await rt.prisma.alert.findUniqueOrThrow({ where: { id: control.id } })).toMatchObject({
      inhibitedById: null,
      suppressed: false,
    });
    const stopped = await rt.prisma.alertGroup.findUniqueOrThrow({ where: { id: target.groupId! } });
    expect(stopped).toMatchObject({ status: 'firing', policyId: null, nextStepAt: null });
    const entry = await rt.prisma.alertTimelineEntry.findFirstOrThrow({
      where: { alertId: target.id, action: 'inhibited' },
    });
    expect(entry.note).toContain(`Inhibited by alert ${source.id}`);
    const why = await rest(s.url, t.adminToken).get(`/alerts/${target.id}/paging`);
    expect(why.body.pages).toBe(false);
    expect(why.body.reasons).toContainEqual(
      expect.objectContaining({ kind: 'inhibition', blocks: true, inhibiting_alert_id: source.id }),
    );

    // An hour on: the other node's second step pages; the inhibited one's does not.
    clock.advance(61 * 60_000);
    await eventually(async () => ((await pagedSteps(control.groupId!)).includes('1/0') ? true : null));
    expect(await pagedSteps(target.groupId!)).toEqual(['0/0']);

    // NodeDown resolves: the still-live DiskFull pages as new, from the first step.
    const past = new Date(clock.now().getTime() - 1000).toISOString();
    expect((await post([{ labels: { alertname: 'NodeDown', instance: 'node-1' }, endsAt: past }])).status).toBe(200);
    await eventually(async () => ((await pagedSteps(target.groupId!)).length === 2 ? true : null));
    const released = await rt.prisma.alert.findUniqueOrThrow({ where: { id: target.id } });
    expect(released).toMatchObject({ inhibitedById: null, suppressed: false });
    const again = await rt.prisma.alertGroup.findUniqueOrThrow({ where: { id: target.groupId! } });
    expect(again.policyId).toBe(pol.data.createEscalationPolicy.id);
  });
});
