/**
 * Federation between two real instances of the service (two startTestServer calls, two databases): a
 * member joins the hub with a single-use invite through the join logic of `ops cluster join`, shows
 * `connected`, sends heartbeats, forwards a critical alert to the hub's timeline; a reused or expired
 * invite gets 401; a revoked cluster's next call gets 401.
 */
import { serviceVersion } from '../src/version.js';

const SERVICE_VERSION = serviceVersion();
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { joinCluster } from '../src/clusters/member.js';
import { Unauthenticated } from '../src/errors.js';

let hub: TestServer;
let member: TestServer;
let ht: BuiltTenant;
let mt: BuiltTenant;
let hubMemberToken: string;

beforeAll(async () => {
  [hub, member] = await Promise.all([
    startTestServer({ env: { CLUSTER_HEARTBEAT_MS: '500', CLUSTER_STALE_AFTER_MS: '4000' } }),
    // The member calls the hub on 127.0.0.1: allowlisted like an outbound webhook receiver would be.
    startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1', CLUSTER_HEARTBEAT_MS: '500' } }),
  ]);
  ht = await buildTenant(hub.app.rt, { name: 'hub-tenant' });
  mt = await buildTenant(member.app.rt, { name: 'edge-tenant' });
  hubMemberToken = await buildToken(hub.app.rt, await buildUser(hub.app.rt, ht.tenantId));
});
afterAll(async () => {
  await member?.stop();
  await hub?.stop();
});

async function mintInvite(): Promise<{ id: string; token: string; expires_at: string; command: string }> {
  const r = await rest(hub.url, ht.adminToken).post('/clusters/invite', { hub_url: hub.url });
  expect(r.status).toBe(201);
  return r.body;
}

describe('clusters', () => {
  let clusterId: string;
  let invite: string;

  it('only an admin mints an invite; it is single-use, hashed at rest, expires in 24 h and comes with the join command', async () => {
    expect((await rest(hub.url, hubMemberToken).post('/clusters/invite', {})).status).toBe(403);
    expect((await rest(hub.url).post('/clusters/invite', {})).status).toBe(401);
    const minted = await mintInvite();
    invite = minted.token;
    expect(invite).toMatch(/^sci_/);
    expect(minted.command).toBe(
      `npm run --silent ops -- cluster join --hub '${hub.url}' --invite '${invite}' --name <name>`,
    );
    const hours = (Date.parse(minted.expires_at) - hub.app.rt.clock.now().getTime()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const row = await hub.app.rt.prisma.clusterInvite.findUniqueOrThrow({ where: { id: minted.id } });
    expect(row.tokenHash).not.toContain(invite);
    expect(JSON.stringify(row)).not.toContain(invite);
  });

  it('a second instance joins with the invite and shows connected with its heartbeat', async () => {
    const joined = await joinCluster(member.app.rt, { hub: hub.url, invite, name: 'edge-1', tenant: mt.name });
    clusterId = joined.clusterId;
    const link = await member.app.rt.prisma.clusterLink.findFirstOrThrow({ where: { tenantId: mt.tenantId } });
    expect(link.credentialCiphertext).toMatch(/^v1\./);
    const cluster = await eventually(
      async () => {
        const r = await rest(hub.url, hubMemberToken).get('/clusters');
        expect(r.status).toBe(200);
        const c = r.body.items.find((x: { id: string }) => x.id === clusterId);
        return c?.status === 'connected' && c.version ? c : null;
      },
      15_000,
      100,
    );
    expect(cluster).toMatchObject({
      name: 'edge-1',
      status: 'connected',
      version: SERVICE_VERSION,
      summary: { open_alerts: { info: 0, warning: 0, critical: 0 }, device_count: 0 },
    });
    expect(cluster.last_seen_at).not.toBeNull();
    const viaGraphql = await gql(hub.url, ht.adminToken, '{ clusters { id name status } }');
    expect(viaGraphql.data.clusters).toContainEqual({ id: clusterId, name: 'edge-1', status: 'CONNECTED' });
  });

  it('a reused invite gets 401, through the join logic and on the REST route', async () => {
    await expect(
      joinCluster(member.app.rt, { hub: hub.url, invite, name: 'edge-again', tenant: mt.name }),
    ).rejects.toBeInstanceOf(Unauthenticated);
    const raw = await rest(hub.url).post('/clusters/join', { invite, name: 'edge-again' });
    expect(raw.status).toBe(401);
    expect(raw.body.detail).toMatch(/already used/);
    expect((await rest(hub.url).post('/clusters/join', { invite: 'sci_not-a-real-invite', name: 'x' })).status).toBe(
      401,
    );
    expect((await rest(hub.url).post('/clusters/join', { name: 'x' })).status).toBe(422);
  });

  it('an expired invite gets 401', async () => {
    const minted = await mintInvite();
    // Moves the expiry into the past rather than waiting 24 hours.
    await hub.app.rt.prisma.clusterInvite.update({
      where: { id: minted.id },
      data: { expiresAt: new Date(hub.app.rt.clock.now().getTime() - 1000) },
    });
    const r = await rest(hub.url).post('/clusters/join', { invite: minted.token, name: 'late' });
    expect(r.status).toBe(401);
    expect(r.body.detail).toMatch(/expired/);
  });

  it("forwards the member's critical alert to the hub's timeline and reports open alerts in heartbeats", async () => {
    const created = await rest(member.url, mt.adminToken).post('/integrations', {
      provider: 'webhook',
      name: 'edge-monitor',
      config: { paths: { summary: 'title', severity: 'level', alert_key: 'id' } },
    });
    expect(created.status).toBe(201);
    const push = await rest(member.url).post(
      `/integrations/${created.body.id}/push`,
      { id: 'gpu-7', title: 'GPU 7 fell off the bus', level: 'critical' },
      { token: created.body.push_token },
    );
    expect(push.status).toBe(200);
    expect(push.body).toEqual({ events: 1, alerts_opened: 1, alerts_resolved: 0 });

    const forwarded = await eventually(
      async () => {
        const r = await rest(hub.url, ht.adminToken).get('/events?module=clusters');
        return r.body.find((e: { type: string }) => e.type === 'cluster.alert');
      },
      15_000,
      100,
    );
    expect(forwarded).toMatchObject({
      severity: 'critical',
      source: 'cluster/edge-1',
      summary: '[edge-1] GPU 7 fell off the bus',
      labels: { cluster_id: clusterId, cluster: 'edge-1' },
    });
    const memberAlert = (await rest(member.url, mt.adminToken).get('/alerts?severity=critical')).body.items[0];
    expect(forwarded.labels.remote_alert_id).toBe(memberAlert.id);

    const summary = await eventually(
      async () => {
        const r = await rest(hub.url, ht.adminToken).get(`/clusters/${clusterId}`);
        return r.body.summary.open_alerts?.critical === 1 ? r.body.summary : null;
      },
      15_000,
      100,
    );
    expect(summary).toEqual({ open_alerts: { info: 0, warning: 0, critical: 1 }, device_count: 0 });
    // Forwarded once: later heartbeats do not repeat it.
    await eventually(
      async () =>
        ((
          await member.app.rt.prisma.clusterLink.findFirstOrThrow({ where: { tenantId: mt.tenantId } })
        ).lastHeartbeatAt?.getTime() ?? 0) >
        member.app.rt.clock.now().getTime() - 200,
      10_000,
      100,
    );
    const again = await rest(hub.url, ht.adminToken).get('/events?module=clusters');
    expect(again.body.filter((e: { type: string }) => e.type === 'cluster.alert')).toHaveLength(1);
  });

  it("another tenant's cluster is a 404; a member cannot revoke", async () => {
    const other = await buildTenant(hub.app.rt);
    expect((await rest(hub.url, other.adminToken).get(`/clusters/${clusterId}`)).status).toBe(404);
    expect((await rest(hub.url, other.adminToken).post(`/clusters/${clusterId}/revoke`)).status).toBe(404);
    expect((await rest(hub.url, other.adminToken).get('/clusters')).body.items).toEqual([]);
    expect((await rest(hub.url, hubMemberToken).post(`/clusters/${clusterId}/revoke`)).status).toBe(403);
  });

  it('a cluster that stops sending heartbeats turns stale', async () => {
    const minted = await mintInvite();
    const joined = await rest(hub.url).post('/clusters/join', {
      invite: minted.token,
      name: 'silent',
      version: '9.9.9',
    });
    expect(joined.status).toBe(201);
    expect(joined.body.credential).toMatch(/^scc_/);
    const stale = await eventually(
      async () => {
        const r = await rest(hub.url, ht.adminToken).get(`/clusters/${joined.body.cluster_id}`);
        return r.body.status === 'stale' ? r.body : null;
      },
      20_000,
      250,
    );
    expect(stale).toMatchObject({ name: 'silent', version: '9.9.9' });
  });

  it('an admin revokes a cluster: its next call gets 401 and it shows revoked', async () => {
    const revoked = await rest(hub.url, ht.adminToken).post(`/clusters/${clusterId}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');
    const link = await member.app.rt.prisma.clusterLink.findFirstOrThrow({ where: { tenantId: mt.tenantId } });
    const credential = member.app.rt.secretBox.open(link.credentialCiphertext);
    const hb = await rest(hub.url).post('/clusters/heartbeat', { version: '0.1.0' }, { token: credential });
    expect(hb.status).toBe(401);
    const noted = await eventually(
      async () => {
        const l = await member.app.rt.prisma.clusterLink.findFirstOrThrow({ where: { tenantId: mt.tenantId } });
        return l.lastError?.includes('401') ? l : null;
      },
      15_000,
      100,
    );
    expect(noted.lastError).toMatch(/revoked/);
    const listed = await rest(hub.url, ht.adminToken).get('/clusters');
    expect(listed.body.items.find((c: { id: string }) => c.id === clusterId).status).toBe('revoked');
  });
});
