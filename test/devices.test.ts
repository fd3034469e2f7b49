import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { untilSubscribed } from './helpers/pubsub.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest, subscribe, wsClient } from './helpers/http.js';
import { hmacHex } from '../src/signing.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let memberToken: string;
let agentToken: string;

const CREATE =
  'mutation($input: DeviceInput!) { createDevice(input: $input) { id name role site platform managementAddress labels } }';

async function createDevice(token: string, input: Record<string, unknown>) {
  return gql(s.url, token, CREATE, { input });
}

async function deviceId(name: string, token = t.adminToken): Promise<string> {
  const r = await createDevice(token, { name });
  expect(r.errors).toBeUndefined();
  return r.data.createDevice.id;
}

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
  agentToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId, { kind: 'service' }));
});
afterAll(async () => {
  await s?.stop();
});

describe('device inventory (GraphQL CRUD, REST reads)', () => {
  it('lets an admin create, update and delete a device, recording each on the timeline', async () => {
    const created = await createDevice(t.adminToken, {
      name: 'core-1',
      role: 'core',
      site: 'ams1',
      platform: 'eos',
      managementAddress: '10.0.0.1',
      labels: { rack: 'A3' },
    });
    expect(created.errors).toBeUndefined();
    const id = created.data.createDevice.id;
    const updated = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!, $input: UpdateDeviceInput!) { updateDevice(id: $id, input: $input) { site platform } }',
      { id, input: { site: 'fra1', platform: null } },
    );
    expect(updated.data.updateDevice).toEqual({ site: 'fra1', platform: null });

    const got = await rest(s.url, memberToken).get(`/sot/devices/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      id,
      name: 'core-1',
      role: 'core',
      site: 'fra1',
      platform: null,
      management_address: '10.0.0.1',
      labels: { rack: 'A3' },
      intent_version: null,
      drift_status: null,
    });

    const deleted = await gql(s.url, t.adminToken, 'mutation($id: ID!) { deleteDevice(id: $id) }', { id });
    expect(deleted.data.deleteDevice).toBe(id);
    expect((await rest(s.url, memberToken).get(`/sot/devices/${id}`)).status).toBe(404);
    const types = (
      await s.app.rt.prisma.event.findMany({
        where: { tenantId: t.tenantId, payload: { path: ['device_id'], equals: id } },
        orderBy: { receivedAt: 'asc' },
      })
    ).map((e) => e.type);
    expect(types).toEqual(['sot.device_created', 'sot.device_updated', 'sot.device_deleted']);
  });

  it('forbids members from inventory writes and rejects invalid or duplicate devices', async () => {
    const member = await createDevice(memberToken, { name: 'sneaky' });
    expect(member.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const bad = await createDevice(t.adminToken, {
      name: 'bad-1',
      managementAddress: 'not an address!',
      labels: { n: 1 },
    });
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(bad.errors?.[0].extensions?.fields)).toMatch(/managementAddress.*labels/);
    await deviceId('dup-1');
    const dup = await createDevice(t.adminToken, { name: 'dup-1' });
    expect(dup.errors?.[0].extensions?.code).toBe('CONFLICT');
    const anonymous = await createDevice('', { name: 'anon' });
    expect(anonymous.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('offers the same CRUD over REST: admins write, members get 403, another tenant 404', async () => {
    const created = await rest(s.url, t.adminToken).post('/sot/devices', {
      name: 'rest-1',
      management_address: 'rest-1.mgmt.example',
      labels: { env: 'lab' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'rest-1',
      management_address: 'rest-1.mgmt.example',
      labels: { env: 'lab' },
      role: null,
    });
    const id = created.body.id;
    expect((await rest(s.url, memberToken).post('/sot/devices', { name: 'rest-2' })).status).toBe(403);
    expect((await rest(s.url, t.adminToken).post('/sot/devices', { role: 'x' })).status).toBe(422);
    expect((await rest(s.url, t.adminToken).post('/sot/devices', { name: 'rest-1' })).status).toBe(409);
    const patched = await rest(s.url, t.adminToken).patch(`/sot/devices/${id}`, { role: 'lab', labels: null });
    expect(patched.body).toMatchObject({ role: 'lab', labels: {} });
    expect((await rest(s.url, t.adminToken).patch(`/sot/devices/${id}`, { name: null })).status).toBe(422);
    expect((await rest(s.url, other.adminToken).patch(`/sot/devices/${id}`, { role: 'x' })).status).toBe(404);
    expect((await rest(s.url, memberToken).delete(`/sot/devices/${id}`)).status).toBe(403);
    expect((await rest(s.url, other.adminToken).delete(`/sot/devices/${id}`)).status).toBe(404);
    expect((await rest(s.url, t.adminToken).delete(`/sot/devices/${id}`)).status).toBe(204);
  });

  it('lists the tenant\'s devices as {"items": [...]} with filters, never another tenant\'s', async () => {
    await createDevice(t.adminToken, { name: 'list-a', site: 'lon1' });
    await createDevice(t.adminToken, { name: 'list-b', site: 'par1' });
    await createDevice(other.adminToken, { name: 'list-c', site: 'lon1' });
    const r = await rest(s.url, memberToken).get('/sot/devices?site=lon1');
    expect(r.status).toBe(200);
    expect(r.body.items.map((d: { name: string }) => d.name)).toEqual(['list-a']);
    await createDevice(t.adminToken, { name: 'list-d', site: 'lon1', labels: { tier: 'gold' } });
    const byLabel = await gql(
      s.url,
      memberToken,
      '{ devices(filter: { labels: { tier: "gold" } }) { totalCount edges { node { name } } } }',
    );
    expect(byLabel.data.devices).toEqual({ totalCount: 1, edges: [{ node: { name: 'list-d' } }] });
    expect((await rest(s.url).get('/sot/devices')).status).toBe(401);
    expect((await rest(s.url, memberToken).get('/sot/devices?limit=0')).status).toBe(422);
    const foreign = await deviceId('foreign-1', other.adminToken);
    expect((await rest(s.url, memberToken).get(`/sot/devices/${foreign}`)).status).toBe(404);
    expect((await rest(s.url, memberToken).get(`/sot/devices/${foreign}/config`)).status).toBe(404);
    expect((await rest(s.url, memberToken).post(`/sot/devices/${foreign}/reconcile`)).status).toBe(404);
  });
});

describe('intent, observed configuration and reconcile', () => {
  it('versions intent with author and time; only admins may edit it directly', async () => {
    const id = await deviceId('intent-1');
    const none = await rest(s.url, memberToken).get(`/sot/devices/${id}/intent`);
    expect(none.body).toMatchObject({ device_id: id, version: null, config: null });
    const v1 = await rest(s.url, t.adminToken).put(`/sot/devices/${id}/intent`, {
      config: 'hostname intent-1\n',
      comment: 'initial',
    });
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({
      version: 1,
      config: 'hostname intent-1\n',
      comment: 'initial',
      author: { id: t.admin.id, email: t.admin.email },
      proposal_id: null,
    });
    const v2 = await rest(s.url, t.adminToken).put(`/sot/devices/${id}/intent`, {
      config: 'hostname intent-1\nntp 10.0.0.5\n',
    });
    expect(v2.body.version).toBe(2);
    expect((await rest(s.url, memberToken).get(`/sot/devices/${id}/intent`)).body.version).toBe(2);

    expect((await rest(s.url, memberToken).put(`/sot/devices/${id}/intent`, { config: 'x' })).status).toBe(403);
    expect((await rest(s.url, t.adminToken).put(`/sot/devices/${id}/intent`, {})).status).toBe(422);
    expect((await rest(s.url, other.adminToken).put(`/sot/devices/${id}/intent`, { config: 'x' })).status).toBe(404);

    const history = await gql(
      s.url,
      memberToken,
      'query($id: ID!) { device(id: $id) { intentHistory { edges { node { version author { email } } } } } }',
      { id },
    );
    expect(history.data.device.intentHistory.edges.map((e: { node: { version: number } }) => e.node.version)).toEqual([
      2, 1,
    ]);
  });

  it('takes observed config from an agent, and a reconcile records the drift as a diff and a timeline event', async () => {
    const id = await deviceId('drift-1');
    await rest(s.url, t.adminToken).put(`/sot/devices/${id}/intent`, { config: 'hostname drift-1\nmtu 9000\n' });
    const reported = await gql(
      s.url,
      agentToken,
      'mutation($input: ReportObservedConfigInput!) { reportObservedConfig(input: $input) { id } }',
      {
        input: { deviceId: id, config: 'hostname drift-1\r\nmtu 1500\n' },
      },
    );
    expect(reported.errors).toBeUndefined();
    expect(
      (
        await rest(s.url, agentToken).put(`/sot/devices/${id}/config`, {
          config: 'x',
          observed_at: new Date(Date.now() + 3600_000).toISOString(),
        })
      ).status,
    ).toBe(422);
    expect((await rest(s.url, other.adminToken).put(`/sot/devices/${id}/config`, { config: 'x' })).status).toBe(404);
    const config = await rest(s.url, memberToken).get(`/sot/devices/${id}/config`);
    expect(config.body).toMatchObject({ device_id: id, config: 'hostname drift-1\r\nmtu 1500\n' });
    expect(Date.parse(config.body.observed_at)).not.toBeNaN();

    const queued = await rest(s.url, memberToken).post(`/sot/devices/${id}/reconcile`);
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ device_id: id, status: 'queued' });
    const drift = await eventually(async () => {
      const r = await gql(
        s.url,
        memberToken,
        'query($id: ID!) { device(id: $id) { drift { status diff intentVersion } } }',
        { id },
      );
      return r.data?.device.drift?.status === 'DRIFTED' ? r.data.device.drift : null;
    });
    expect(drift.intentVersion).toBe(1);
    expect(drift.diff).toContain('-mtu 9000');
    expect(drift.diff).toContain('+mtu 1500');
    expect(drift.diff).not.toContain('hostname drift-1\r');
    const events = await gql(
      s.url,
      memberToken,
      'query($id: ID!) { device(id: $id) { events(first: 10) { edges { node { type severity } } } } }',
      { id },
    );
    expect(events.data.device.events.edges.map((e: { node: { type: string } }) => e.node.type)).toContain(
      'sot.drift_detected',
    );

    // The agent reports the intended config over REST: the reconcile it queues finds it in sync.
    const put = await rest(s.url, agentToken).put(`/sot/devices/${id}/config`, {
      config: 'hostname drift-1\nmtu 9000\n',
    });
    expect(put.body).toMatchObject({ device_id: id, config: 'hostname drift-1\nmtu 9000\n' });
    await eventually(
      async () => (await rest(s.url, memberToken).get(`/sot/devices/${id}`)).body.drift_status === 'in_sync',
    );
  });

  it('publishes deviceChanged to the tenant, filtered by device', async () => {
    const id = await deviceId('watched-1');
    const client = wsClient(s.url, memberToken);
    const sub = subscribe(
      client,
      'subscription($id: ID) { deviceChanged(id: $id) { id change device { name intent { version } } } }',
      { id },
    );
    await untilSubscribed(s, 'deviceChanged', t.tenantId);
    await deviceId('unwatched-1');
    await rest(s.url, t.adminToken).put(`/sot/devices/${id}/intent`, { config: 'hostname watched-1\n' });
    const first = await sub.next();
    expect(first.data.deviceChanged).toEqual({
      id,
      change: 'intent_changed',
      device: { name: 'watched-1', intent: { version: 1 } },
    });
    sub.dispose();
    await client.dispose();
  });
});

describe('source-of-truth webhook (NetBox-style)', () => {
  let slug: string;
  let secret: string;

  beforeAll(async () => {
    const r = await gql(
      s.url,
      t.adminToken,
      'mutation { createInboundWebhook(input: { name: "NetBox prod", kind: SOT }) { slug secret url } }',
    );
    expect(r.errors).toBeUndefined();
    ({ slug, secret } = r.data.createInboundWebhook);
    expect(r.data.createInboundWebhook.url).toContain(`/api/v1/sot/webhooks/${slug}`);
  });

  function netbox(event: string, data: Record<string, unknown>) {
    return {
      event,
      model: 'dcim.device',
      timestamp: new Date().toISOString(),
      username: 'netbox-admin',
      request_id: 'req-1',
      data,
      snapshots: { prechange: null, postchange: {} },
    };
  }

  async function post(body: unknown, sign: string | null = secret) {
    const raw = JSON.stringify(body);
    const headers: Record<string, string> = sign ? { 'x-service-signature': hmacHex(sign, raw) } : {};
    return rest(s.url).post(`/sot/webhooks/${slug}`, undefined, { raw, headers });
  }

  it('creates, updates and deletes a device from signed bodies, recording events', async () => {
    const data = {
      id: 4711,
      name: 'nb-edge-1',
      role: { name: 'Edge' },
      site: { slug: 'ams1' },
      platform: { name: 'EOS' },
      primary_ip: { address: '10.1.2.3/24' },
      status: { value: 'active' },
      tags: [{ name: 'pci' }, { name: 'core' }],
      custom_fields: { rack: 'B7', empty: null },
    };
    const created = await post(netbox('created', data));
    expect(created.status).toBe(201);
    expect(created.body.result).toBe('created');
    const id = created.body.device_id;
    const device = await rest(s.url, memberToken).get(`/sot/devices/${id}`);
    expect(device.body).toMatchObject({
      name: 'nb-edge-1',
      role: 'Edge',
      site: 'ams1',
      platform: 'EOS',
      management_address: '10.1.2.3',
      external_id: '4711',
      labels: { rack: 'B7', status: 'active', tags: 'core,pci' },
    });
    const event = await s.app.rt.prisma.event.findUniqueOrThrow({ where: { id: created.body.event_id } });
    expect(event).toMatchObject({
      type: 'sot.device_created',
      receivedVia: 'sot',
      source: `sot/${slug}`,
      deviceId: id,
      tenantId: t.tenantId,
    });

    const updated = await post(netbox('updated', { ...data, name: 'nb-edge-1b', site: { name: 'Amsterdam 1' } }));
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ result: 'updated', device_id: id });
    expect((await rest(s.url, memberToken).get(`/sot/devices/${id}`)).body).toMatchObject({
      name: 'nb-edge-1b',
      site: 'Amsterdam 1',
    });

    const deleted = await post(netbox('deleted', data));
    expect(deleted.body).toMatchObject({ result: 'deleted', device_id: id });
    expect((await rest(s.url, memberToken).get(`/sot/devices/${id}`)).status).toBe(404);
  });

  it('returns 401 for unsigned or wrongly signed calls whatever the body, and 404 for an unknown slug', async () => {
    expect((await post(netbox('created', { id: 1, name: 'x' }), null)).status).toBe(401);
    expect((await post(netbox('created', { id: 1, name: 'x' }), 'whsec_wrong')).status).toBe(401);
    expect((await post({ not: 'netbox' }, null)).status).toBe(401);
    const raw = JSON.stringify(netbox('created', { id: 1, name: 'x' }));
    const unknown = await rest(s.url).post('/sot/webhooks/no-such-hook', undefined, {
      raw,
      headers: { 'x-service-signature': hmacHex(secret, raw) },
    });
    expect(unknown.status).toBe(404);
    expect(await s.app.rt.prisma.device.count({ where: { name: 'x' } })).toBe(0);
  });

  it('returns 422 for a signed device body without a name, and ignores other models', async () => {
    const bad = await post(netbox('created', { id: 99 }));
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toMatch(/name/);
    const site = await post({ ...netbox('created', { id: 5, name: 'ams1' }), model: 'dcim.site' });
    expect(site.status).toBe(200);
    expect(site.body).toMatchObject({ result: 'ignored', device_id: null });
  });
});
