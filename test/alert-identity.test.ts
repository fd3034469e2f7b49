/**
 * Alert identity and devices (issue 44, points 1 and 3): the default dedup key keeps distinct problems
 * apart (event type, source, identifying labels), resolve criteria still find the alert, alerts opened
 * under the older key keep it, a template still merges, the summary may follow the latest event; and
 * ingested events find their device (name or alias; source, host, instance without the port), so the
 * nested graph alert → device → open proposals answers for ingested alerts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;

beforeAll(async () => {
  // The rate limit is not under test here, and a loaded machine may send this file's events within one second.
  s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000' } });
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

async function ingest(body: Record<string, unknown>, key = t.ingestKey): Promise<string> {
  const r = await rest(s.url).post('/events', body, { headers: { 'x-service-key': key } });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body.id;
}

async function evaluated(id: string): Promise<void> {
  await eventually(
    async () => (await s.app.rt.prisma.event.findFirst({ where: { id, evaluatedAt: { not: null } } })) ?? null,
  );
}

async function rule(body: Record<string, unknown>, tenant = t): Promise<string> {
  const r = await rest(s.url, tenant.adminToken).post('/alert-rules', body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

async function alertsOf(ruleId: string, tenant = t) {
  const r = await rest(s.url, tenant.adminToken).get(`/alerts?rule=${ruleId}`);
  expect(r.status).toBe(200);
  return r.body.items as Array<Record<string, any>>;
}

describe('the default dedup key', () => {
  it('two event types from one source under one rule open two alerts, each titled by its own problem', async () => {
    const ruleId = await rule({
      name: 'Payments',
      type_glob: 'payments.*',
      summary_template: '{{type}} on {{source}}',
    });
    await ingest({ type: 'payments.gateway_errors', source: 'payments-api' });
    await ingest({ type: 'payments.gateway_errors', source: 'payments-api' });
    const last = await ingest({ type: 'payments.refund_errors', source: 'payments-api' });
    await evaluated(last);
    const alerts = await alertsOf(ruleId);
    expect(alerts).toHaveLength(2);
    const bySummary = Object.fromEntries(alerts.map((a) => [a.summary, a]));
    expect(bySummary['payments.gateway_errors on payments-api']).toMatchObject({ count: 2, status: 'open' });
    expect(bySummary['payments.refund_errors on payments-api']).toMatchObject({ count: 1, status: 'open' });
    expect(new Set(alerts.map((a) => a.dedup_key)).size).toBe(2);
  });

  it('identifying labels split alerts; volatile labels (value, timestamp) do not', async () => {
    const ruleId = await rule({ name: 'Disk full', type_glob: 'disk.full' });
    await ingest({ type: 'disk.full', source: 'db-1', labels: { mount: '/var', value: '91' } });
    await ingest({ type: 'disk.full', source: 'db-1', labels: { mount: '/var', value: '95', timestamp: '2' } });
    const last = await ingest({ type: 'disk.full', source: 'db-1', labels: { mount: '/data', value: '97' } });
    await evaluated(last);
    const alerts = await alertsOf(ruleId);
    expect(alerts.map((a) => [a.labels.mount, a.count]).sort()).toEqual([
      ['/data', 1],
      ['/var', 2],
    ]);
  });

  it('resolve_type_glob (another type) still resolves the alert of the same source and labels, only that one', async () => {
    const ruleId = await rule({ name: 'Link', type_glob: 'link.down', resolve_type_glob: 'link.up' });
    await ingest({ type: 'link.down', source: 'sw9', labels: { port: '1' } });
    const second = await ingest({ type: 'link.down', source: 'sw9', labels: { port: '2' } });
    await evaluated(second);
    const up = await ingest({ type: 'link.up', source: 'sw9', labels: { port: '1' } });
    await evaluated(up);
    const alerts = await alertsOf(ruleId);
    expect(alerts.find((a) => a.labels.port === '1')).toMatchObject({ status: 'resolved' });
    expect(alerts.find((a) => a.labels.port === '2')).toMatchObject({ status: 'open' });
  });

  it('an explicit dedup_key_template still merges distinct problems into one alert', async () => {
    const ruleId = await rule({ name: 'Merged', type_glob: 'shop.*', dedup_key_template: '{{rule.id}}:{{source}}' });
    await ingest({ type: 'shop.cart_errors', source: 'shop' });
    const last = await ingest({ type: 'shop.checkout_errors', source: 'shop' });
    await evaluated(last);
    const alerts = await alertsOf(ruleId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ count: 2, dedup_key: `${ruleId}:shop` });
  });

  it('summary_follows_latest re-renders the summary from the latest event (REST and GraphQL show the flag)', async () => {
    const ruleId = await rule({
      name: 'Queue depth',
      type_glob: 'queue.depth',
      summary_template: 'depth {{payload.depth}}',
      summary_follows_latest: true,
    });
    expect((await rest(s.url, t.adminToken).get(`/alert-rules/${ruleId}`)).body.summary_follows_latest).toBe(true);
    await ingest({ type: 'queue.depth', source: 'mq', payload: { depth: 10 } });
    const last = await ingest({ type: 'queue.depth', source: 'mq', payload: { depth: 900 } });
    await evaluated(last);
    const [a] = await alertsOf(ruleId);
    expect(a).toMatchObject({ summary: 'depth 900', count: 2 });
    const g = await gql(s.url, t.adminToken, `query($id: ID!) { alertRule(id: $id) { summaryFollowsLatest } }`, {
      id: ruleId,
    });
    expect(g.data.alertRule.summaryFollowsLatest).toBe(true);
    const plain = await rule({ name: 'Queue plain', type_glob: 'queue.lag', summary_template: 'lag {{payload.lag}}' });
    await ingest({ type: 'queue.lag', source: 'mq', payload: { lag: 1 } });
    await evaluated(await ingest({ type: 'queue.lag', source: 'mq', payload: { lag: 2 } }));
    expect((await alertsOf(plain))[0]).toMatchObject({ summary: 'lag 1', count: 2 });
  });

  it('an alert opened under the older default key <rule>:<source> keeps it and its events until it resolves', async () => {
    const ruleId = await rule({ name: 'Legacy', type_glob: 'legacy.*', resolve_type_glob: 'legacy_ok' });
    const legacyKey = `${ruleId}:old-host`;
    const old = await s.app.rt.prisma.alert.create({
      data: {
        tenantId: t.tenantId,
        ruleId,
        severity: 'warning',
        summary: 'opened before the upgrade',
        source: 'old-host',
        dedupKey: legacyKey,
        liveDedupKey: legacyKey,
      },
    });
    await evaluated(await ingest({ type: 'legacy.a', source: 'old-host' }));
    await evaluated(await ingest({ type: 'legacy.b', source: 'old-host' }));
    let alerts = await alertsOf(ruleId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ id: old.id, dedup_key: legacyKey, count: 3 });
    await evaluated(await ingest({ type: 'legacy_ok', source: 'old-host' }));
    expect((await alertsOf(ruleId))[0]).toMatchObject({ id: old.id, status: 'resolved' });
    await evaluated(await ingest({ type: 'legacy.a', source: 'old-host' }));
    alerts = await alertsOf(ruleId);
    expect(alerts).toHaveLength(2);
    expect(alerts.find((a) => a.id !== old.id)!.dedup_key).not.toBe(legacyKey);
  });
});

describe('events find their device', () => {
  const NESTED = `query($id: ID!) { alert(id: $id) { id device { name proposals(open: true) { edges { node { id title } } } } } }`;

  async function device(input: Record<string, unknown>, tenant = t): Promise<string> {
    const g = await gql(
      s.url,
      tenant.adminToken,
      'mutation($i: DeviceInput!) { createDevice(input: $i) { id aliases } }',
      {
        i: input,
      },
    );
    return g.data.createDevice.id;
  }

  it('an event from source edge-1 opens an alert whose device { name } is edge-1, with its open proposals', async () => {
    const deviceId = await device({ name: 'edge-1' });
    const p = await gql(s.url, t.adminToken, 'mutation($i: OpenProposalInput!) { openProposal(input: $i) { id } }', {
      i: { title: 'Raise MTU', kind: 'config_change', deviceId, proposedIntent: 'mtu 9000', reason: 'jumbo frames' },
    });
    const ruleId = await rule({ name: 'BGP', type_glob: 'bgp.*' });
    const ev = await ingest({ type: 'bgp.session_down', source: 'edge-1' });
    await evaluated(ev);
    expect((await s.app.rt.prisma.event.findUniqueOrThrow({ where: { id: ev } })).deviceId).toBe(deviceId);
    const [a] = await alertsOf(ruleId);
    const g = await gql(s.url, t.adminToken, NESTED, { id: a!.id });
    expect(g.data.alert.device.name).toBe('edge-1');
    expect(g.data.alert.device.proposals.edges.map((e: any) => e.node.id)).toEqual([p.data.openProposal.id]);
    const onDevice = await gql(
      s.url,
      t.adminToken,
      `query($id: ID!) { device(id: $id) { events(first: 5) { edges { node { id } } } alerts(first: 5) { edges { node { id } } } } }`,
      { id: deviceId },
    );
    expect(onDevice.data.device.events.edges.map((e: any) => e.node.id)).toContain(ev);
    expect(onDevice.data.device.alerts.edges.map((e: any) => e.node.id)).toEqual([a!.id]);
  });

  it('links by the instance label without its port, by host, and by a declared alias; REST shows the aliases', async () => {
    const core = await device({ name: 'core-router-2', aliases: ['10.0.0.2', 'cr2'] });
    const got = await rest(s.url, t.adminToken).get(`/sot/devices/${core}`);
    expect(got.body.aliases).toEqual(['10.0.0.2', 'cr2']);
    const hostDev = await device({ name: 'db-7' });
    const byInstance = await ingest({ type: 'probe.fail', source: 'blackbox', labels: { instance: '10.0.0.2:9100' } });
    const byAlias = await ingest({ type: 'probe.fail', source: 'cr2' });
    const byHost = await ingest({ type: 'probe.fail', source: 'node-exporter', labels: { host: 'db-7' } });
    const none = await ingest({ type: 'probe.fail', source: 'nowhere', labels: { node: 'unknown' } });
    for (const id of [byInstance, byAlias, byHost, none]) await evaluated(id);
    const rows = await s.app.rt.prisma.event.findMany({ where: { id: { in: [byInstance, byAlias, byHost, none] } } });
    const dev = Object.fromEntries(rows.map((r) => [r.id, r.deviceId]));
    expect(dev).toEqual({ [byInstance]: core, [byAlias]: core, [byHost]: hostDev, [none]: null });
  });

  it("never links to another tenant's device of the same name", async () => {
    await device({ name: 'shared-name' }, other);
    const ruleId = await rule({ name: 'Shared', type_glob: 'shared.*' });
    await evaluated(await ingest({ type: 'shared.x', source: 'shared-name' }));
    const [a] = await alertsOf(ruleId);
    const g = await gql(s.url, t.adminToken, NESTED, { id: a!.id });
    expect(g.data.alert.device).toBeNull();
  });

  it('rejects a blank alias with a 422 naming it', async () => {
    const r = await rest(s.url, t.adminToken).post('/sot/devices', { name: 'bad-alias', aliases: ['ok', ' '] });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toContain('aliases');
  });
});

describe('members', () => {
  it('a member reads the aliases but cannot set them', async () => {
    const member = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
    const r = await rest(s.url, member).post('/sot/devices', { name: 'member-dev', aliases: ['m'] });
    expect(r.status).toBe(403);
  });
});
