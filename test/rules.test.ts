import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { untilSubscribed } from './helpers/pubsub.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest, subscribe, wsClient } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let memberToken: string;

beforeAll(async () => {
  s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000' } });
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
});
afterAll(async () => {
  await s?.stop();
});

const RULE =
  'id name kind enabled typeGlob severities module source labels payloadConditions { path op value } windowSeconds alertSeverity summaryTemplate dedupKeyTemplate';
const CREATE = `mutation($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { ${RULE} } }`;

async function createRule(token: string, input: Record<string, unknown>) {
  return gql(s.url, token, CREATE, { input });
}

async function ingest(key: string, body: Record<string, unknown>): Promise<string> {
  const r = await rest(s.url).post('/events', body, { headers: { 'x-service-key': key } });
  expect(r.status).toBe(202);
  return r.body.id;
}

describe('alert rule CRUD', () => {
  it('lets an admin create, read, update and delete a rule', async () => {
    const created = await createRule(t.adminToken, {
      name: 'Deploys',
      typeGlob: 'deploy.*',
      severities: ['CRITICAL'],
      labels: { env: 'prod' },
      payloadConditions: [{ path: 'duration', op: 'GT', value: 5 }],
      alertSeverity: 'CRITICAL',
      summaryTemplate: '{{type}} on {{source}}',
    });
    expect(created.errors).toBeUndefined();
    const rule = created.data.createAlertRule;
    expect(rule).toMatchObject({
      name: 'Deploys',
      kind: 'MATCH',
      enabled: true,
      typeGlob: 'deploy.*',
      severities: ['CRITICAL'],
      labels: { env: 'prod' },
      payloadConditions: [{ path: 'duration', op: 'GT', value: 5 }],
    });

    const read = await gql(s.url, memberToken, `query($id: ID!) { alertRule(id: $id) { ${RULE} } alertRules { id } }`, {
      id: rule.id,
    });
    expect(read.data.alertRule.name).toBe('Deploys');
    expect(read.data.alertRules.map((r: { id: string }) => r.id)).toContain(rule.id);

    const updated = await gql(
      s.url,
      t.adminToken,
      `mutation($id: ID!, $input: UpdateAlertRuleInput!) { updateAlertRule(id: $id, input: $input) { ${RULE} } }`,
      {
        id: rule.id,
        input: { enabled: false, summaryTemplate: null, severities: ['WARNING', 'CRITICAL'] },
      },
    );
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updateAlertRule).toMatchObject({
      enabled: false,
      summaryTemplate: null,
      severities: ['WARNING', 'CRITICAL'],
      typeGlob: 'deploy.*',
    });

    const deleted = await gql(s.url, t.adminToken, 'mutation($id: ID!) { deleteAlertRule(id: $id) }', { id: rule.id });
    expect(deleted.data.deleteAlertRule).toBe(rule.id);
    const gone = await gql(s.url, t.adminToken, 'query($id: ID!) { alertRule(id: $id) { id } }', { id: rule.id });
    expect(gone.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('refuses writes by members (FORBIDDEN) and anonymous callers (UNAUTHENTICATED)', async () => {
    const byMember = await createRule(memberToken, { name: 'x', typeGlob: 'a.*' });
    expect(byMember.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    // Every write, not only create: a member can neither change nor delete an existing rule.
    const mine = (await createRule(t.adminToken, { name: 'Kept', typeGlob: 'kept.*' })).data.createAlertRule;
    const upd = await gql(
      s.url,
      memberToken,
      'mutation($id: ID!) { updateAlertRule(id: $id, input: { enabled: false }) { id } }',
      { id: mine.id },
    );
    expect(upd.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const del = await gql(s.url, memberToken, 'mutation($id: ID!) { deleteAlertRule(id: $id) }', { id: mine.id });
    expect(del.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const anonUpd = await gql(
      s.url,
      undefined,
      'mutation($id: ID!) { updateAlertRule(id: $id, input: { enabled: false }) { id } }',
      { id: mine.id },
    );
    expect(anonUpd.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const anonDel = await gql(s.url, undefined, 'mutation($id: ID!) { deleteAlertRule(id: $id) }', { id: mine.id });
    expect(anonDel.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await s.app.rt.prisma.alertRule.findUniqueOrThrow({ where: { id: mine.id } })).toMatchObject({
      name: 'Kept',
      enabled: true,
    });
    expect(await s.app.rt.prisma.alertRule.count({ where: { tenantId: t.tenantId, name: 'x' } })).toBe(0);
    const anon = await createRule(undefined as unknown as string, { name: 'x', typeGlob: 'a.*' });
    expect(anon.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const anonRead = await gql(s.url, undefined, '{ alertRules { id } }');
    expect(anonRead.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it("treats another tenant's rule as not found, for reads and writes", async () => {
    const theirs = (await createRule(other.adminToken, { name: 'Theirs', typeGlob: 'x.*' })).data.createAlertRule;
    const read = await gql(s.url, t.adminToken, 'query($id: ID!) { alertRule(id: $id) { id } }', { id: theirs.id });
    expect(read.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const upd = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!) { updateAlertRule(id: $id, input: { enabled: false }) { id } }',
      { id: theirs.id },
    );
    expect(upd.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const del = await gql(s.url, t.adminToken, 'mutation($id: ID!) { deleteAlertRule(id: $id) }', { id: theirs.id });
    expect(del.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const list = await gql(s.url, t.adminToken, '{ alertRules { id } }');
    expect(list.data.alertRules.map((r: { id: string }) => r.id)).not.toContain(theirs.id);
    // The writes changed nothing: their rule is still there, still enabled.
    expect(await s.app.rt.prisma.alertRule.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({
      tenantId: other.tenantId,
      name: 'Theirs',
      enabled: true,
    });
  });

  it('lists every offending field of an invalid rule (BAD_USER_INPUT with fields)', async () => {
    const r = await createRule(t.adminToken, {
      name: '',
      kind: 'ABSENCE',
      typeGlob: 'bad glob!',
      labels: { env: 3 },
      payloadConditions: [
        { path: '', op: 'EQ', value: 1 },
        { path: 'a', op: 'GT', value: 'ten' },
      ],
      summaryTemplate: '{{tenant.secret}}',
    });
    expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const locs = (r.errors![0]!.extensions!.fields as Array<{ loc: string[] }>).map((f) => f.loc.join('.'));
    // Every offending field, each once, and nothing else.
    expect([...locs].sort()).toEqual(
      [
        'input.name',
        'input.typeGlob',
        'input.labels',
        'input.payloadConditions.0.path',
        'input.payloadConditions.1.value',
        'input.windowSeconds',
        'input.summaryTemplate',
      ].sort(),
    );
  });

  it('refuses a window on a match rule and a kind change', async () => {
    const r = await createRule(t.adminToken, { name: 'm', typeGlob: 'a.*', windowSeconds: 10 });
    expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((r.errors![0]!.extensions!.fields as Array<{ loc: string[] }>)[0]!.loc).toEqual(['input', 'windowSeconds']);
    // A window added to an existing match rule is refused too.
    const match = (await createRule(t.adminToken, { name: 'match', typeGlob: 'a.*' })).data.createAlertRule;
    const UPDATE = `mutation($id: ID!, $input: UpdateAlertRuleInput!) { updateAlertRule(id: $id, input: $input) { ${RULE} } }`;
    const windowed = await gql(s.url, t.adminToken, UPDATE, { id: match.id, input: { windowSeconds: 10 } });
    expect(windowed.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((windowed.errors![0]!.extensions!.fields as Array<{ loc: string[] }>).map((f) => f.loc)).toContainEqual([
      'input',
      'windowSeconds',
    ]);
    // The kind cannot change: the update input has no kind, so asking is an error.
    const kindChange = await gql(s.url, t.adminToken, UPDATE, {
      id: match.id,
      input: { kind: 'absence', windowSeconds: 10 },
    });
    expect(kindChange.errors?.length).toBeGreaterThan(0);
    expect(kindChange.data?.updateAlertRule ?? null).toBeNull();
    expect(await s.app.rt.prisma.alertRule.findUniqueOrThrow({ where: { id: match.id } })).toMatchObject({
      kind: 'match',
      windowSeconds: null,
    });
  });
});

describe('match rules', () => {
  it('opens ONE alert for three matching deploy.* critical events of one type and source (count 3)', async () => {
    const tenant = await buildTenant(s.app.rt);
    const rule = (
      await createRule(tenant.adminToken, {
        name: 'Critical deploys',
        typeGlob: 'deploy.*',
        severities: ['CRITICAL'],
        alertSeverity: 'CRITICAL',
        summaryTemplate: '{{type}} on {{source}}',
      })
    ).data.createAlertRule;
    const matching: string[] = [];
    // One problem (type, source, labels): one alert. Another type is another alert (test/alert-identity.test.ts).
    for (const type of ['deploy.failed', 'deploy.failed', 'deploy.failed']) {
      matching.push(await ingest(tenant.ingestKey, { type, source: 'gha', severity: 'critical', summary: 'deploy' }));
    }
    // Not matching: wrong severity, wrong type, deeper type than `*` allows.
    const ignored = [
      await ingest(tenant.ingestKey, { type: 'deploy.started', source: 'gha', severity: 'info' }),
      await ingest(tenant.ingestKey, { type: 'build.failed', source: 'gha', severity: 'critical' }),
      await ingest(tenant.ingestKey, { type: 'deploy.step.failed', source: 'gha', severity: 'critical' }),
    ];
    const api = rest(s.url, tenant.adminToken);
    const alert = await eventually(async () => {
      const r = await api.get('/alerts');
      return r.body.items.length === 1 && r.body.items[0].count === 3 ? r.body.items[0] : null;
    });
    expect(alert).toMatchObject({ severity: 'critical', status: 'open', rule_id: rule.id, source: 'gha', count: 3 });
    expect(alert.summary).toBe('deploy.failed on gha');
    // Every event evaluated, and only the matching ones attached.
    await eventually(
      async () =>
        (await s.app.rt.prisma.event.count({ where: { id: { in: [...matching, ...ignored] }, evaluatedAt: null } })) ===
        0,
    );
    const detail = await gql(
      s.url,
      tenant.adminToken,
      'query($id: ID!) { alert(id: $id) { count events { id } rule { id name } } }',
      { id: alert.id },
    );
    expect(detail.data.alert.events.map((e: { id: string }) => e.id).sort()).toEqual([...matching].sort());
    expect(detail.data.alert.rule).toEqual({ id: rule.id, name: 'Critical deploys' });
    expect((await api.get('/alerts')).body.items).toHaveLength(1);
  });

  it('keys alerts by the dedup template and renders payload placeholders', async () => {
    const tenant = await buildTenant(s.app.rt);
    await createRule(tenant.adminToken, {
      name: 'Disk',
      typeGlob: 'disk.*',
      payloadConditions: [{ path: 'used_pct', op: 'GTE', value: 90 }],
      dedupKeyTemplate: 'disk:{{payload.host}}',
      summaryTemplate: 'Disk {{payload.used_pct}}% on {{payload.host}}',
    });
    await ingest(tenant.ingestKey, { type: 'disk.usage', source: 'agent', payload: { host: 'a', used_pct: 95 } });
    await ingest(tenant.ingestKey, { type: 'disk.usage', source: 'agent', payload: { host: 'b', used_pct: 91 } });
    await ingest(tenant.ingestKey, { type: 'disk.usage', source: 'agent', payload: { host: 'a', used_pct: 97 } });
    const low = await ingest(tenant.ingestKey, {
      type: 'disk.usage',
      source: 'agent',
      payload: { host: 'c', used_pct: 50 },
    });
    await eventually(
      async () => (await s.app.rt.prisma.event.count({ where: { id: low, evaluatedAt: { not: null } } })) === 1,
    );
    const items = await eventually(async () => {
      const r = await rest(s.url, tenant.adminToken).get('/alerts');
      const byKey = Object.fromEntries(
        r.body.items.map((a: { dedup_key: string; count: number; summary: string }) => [a.dedup_key, a]),
      );
      return r.body.items.length === 2 && byKey['disk:a']?.count === 2 ? byKey : null;
    });
    expect(items['disk:a'].summary).toBe('Disk 95% on a');
    expect(items['disk:b']).toMatchObject({ count: 1, summary: 'Disk 91% on b' });
  });

  it('opens a new alert for a match after the previous one was resolved', async () => {
    const tenant = await buildTenant(s.app.rt);
    await createRule(tenant.adminToken, { name: 'Errors', typeGlob: 'app.error' });
    await ingest(tenant.ingestKey, { type: 'app.error', source: 'api' });
    const api = rest(s.url, tenant.adminToken);
    const first = await eventually(async () => (await api.get('/alerts')).body.items[0]);
    expect((await api.post(`/alerts/${first.id}/resolve`)).status).toBe(200);
    await ingest(tenant.ingestKey, { type: 'app.error', source: 'api' });
    const items = await eventually(async () => {
      const r = await api.get('/alerts');
      return r.body.items.length === 2 ? r.body.items : null;
    });
    expect(items.map((a: { status: string; count: number }) => [a.status, a.count])).toEqual([
      ['open', 1],
      ['resolved', 1],
    ]);
  });
});

describe('absence (heartbeat) rules', () => {
  it('opens an alert when heartbeats stop for the window and resolves it when they return', async () => {
    const tenant = await buildTenant(s.app.rt);
    const rule = (
      await createRule(tenant.adminToken, {
        name: 'Heartbeat',
        kind: 'ABSENCE',
        typeGlob: 'heartbeat',
        windowSeconds: 5,
        alertSeverity: 'CRITICAL',
      })
    ).data.createAlertRule;
    expect(rule).toMatchObject({ kind: 'ABSENCE', windowSeconds: 5 });
    const client = wsClient(s.url, tenant.adminToken);
    const sub = subscribe(client, 'subscription { alertChanged { change alert { id status summary source } } }');
    await untilSubscribed(s, 'alertChanged', tenant.tenantId);
    const api = rest(s.url, tenant.adminToken);

    // host-1 sends heartbeats, then stops. host-2 is busy with other events but never sent a
    // heartbeat, so it must never be "missing".
    for (let i = 0; i < 3; i++) {
      await ingest(tenant.ingestKey, { type: 'heartbeat', source: 'host-1' });
      await ingest(tenant.ingestKey, { type: 'metrics.sample', source: 'host-2' });
    }
    const lastBeat = await s.app.rt.prisma.event.findFirstOrThrow({
      where: { tenantId: tenant.tenantId, source: 'host-1' },
      orderBy: { receivedAt: 'desc' },
    });

    const opened = await sub.next(20_000);
    expect(opened.data.alertChanged).toMatchObject({
      change: 'OPENED',
      alert: { status: 'OPEN', source: 'host-1', summary: 'Heartbeat: no heartbeat from host-1 for 5s' },
    });
    const alertId = opened.data.alertChanged.alert.id;
    const alert = (await api.get(`/alerts/${alertId}`)).body;
    expect(alert).toMatchObject({ status: 'open', severity: 'critical', rule_id: rule.id, count: 1 });
    expect(new Date(alert.first_seen_at).getTime()).toBeGreaterThanOrEqual(lastBeat.receivedAt.getTime() + 5000);

    await ingest(tenant.ingestKey, { type: 'heartbeat', source: 'host-1' });
    const resolved = await sub.next(10_000);
    expect(resolved.data.alertChanged).toMatchObject({
      change: 'RESOLVED',
      alert: { id: alertId, status: 'RESOLVED' },
    });
    const after = (await api.get(`/alerts/${alertId}`)).body;
    expect(after.timeline.map((e: { action: string }) => e.action)).toEqual(['opened', 'resolved']);
    expect(after.timeline[1].note).toMatch(/Heartbeat from host-1 returned/);
    expect(
      (await api.get('/alerts', { headers: {} })).body.items.filter((a: { source: string }) => a.source === 'host-2'),
    ).toHaveLength(0);
    const outbox = await s.app.rt.prisma.outboxMessage.findMany({
      where: { subjectId: alertId },
      orderBy: { createdAt: 'asc' },
    });
    expect(outbox.map((m) => m.topic)).toEqual(['alert.opened', 'alert.resolved']);
    sub.dispose();
    await client.dispose();
  });
});
