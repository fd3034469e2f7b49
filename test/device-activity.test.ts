/**
 * A device's recent alerts and events over GraphQL (issue 44, item 3: "the device page shows its recent
 * events and alerts"): the nested graph alert → device → events / alerts, live announcements a device
 * page can follow (alertChanged filtered by device; deviceChanged `events_linked` once evaluation has
 * linked new events), another tenant's device NOT_FOUND, and no N+1 for a list of devices (those two
 * guard what was there before the page).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, gql, rest, subscribe, wsClient } from './helpers/http.js';
import { countStatements } from './helpers/sql-statements.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000' } });
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

async function ingest(body: Record<string, unknown>, tenant = t): Promise<string> {
  const r = await rest(s.url).post('/events', body, { headers: { 'x-service-key': tenant.ingestKey } });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body.id;
}

async function evaluated(id: string): Promise<void> {
  await eventually(
    async () => (await s.app.rt.prisma.event.findFirst({ where: { id, evaluatedAt: { not: null } } })) ?? null,
  );
}

async function device(name: string, tenant = t): Promise<string> {
  const g = await gql(s.url, tenant.adminToken, 'mutation($i: DeviceInput!) { createDevice(input: $i) { id } }', {
    i: { name },
  });
  expect(g.errors).toBeUndefined();
  return g.data.createDevice.id;
}

async function rule(body: Record<string, unknown>, tenant = t): Promise<void> {
  const r = await rest(s.url, tenant.adminToken).post('/alert-rules', body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}

const NESTED = `query($id: ID!) { alert(id: $id) { id device { id name
  events(first: 5) { totalCount edges { node { id type } } }
  alerts(first: 5, open: true) { totalCount edges { node { id status } } } } } }`;

describe('a device’s recent alerts and events', () => {
  it('alert → device → events / alerts, and live: alertChanged for the device, deviceChanged events_linked', async () => {
    const deviceId = await device('edge-1');
    await device('edge-2');
    await rule({ name: 'Link down', type_glob: 'link.*' });
    const ws = wsClient(s.url, t.adminToken);
    const alertsOfDevice = subscribe(
      ws,
      'subscription($f: AlertChangedFilter) { alertChanged(filter: $f) { change alert { id device { name } } } }',
      { f: { deviceId } },
    );
    const linked = subscribe(
      ws,
      'subscription($id: ID) { deviceChanged(id: $id, change: "events_linked") { id name } }',
      {
        id: deviceId,
      },
    );
    try {
      // Another device's alert first: the filtered subscription skips it.
      await evaluated(await ingest({ type: 'link.down', source: 'edge-2' }));
      const ev = await ingest({ type: 'link.down', source: 'edge-1', summary: 'xe-0/0/1 down' });
      await evaluated(ev);
      const opened = await alertsOfDevice.next();
      expect(opened.data.alertChanged).toMatchObject({ change: 'OPENED', alert: { device: { name: 'edge-1' } } });
      expect((await linked.next()).data.deviceChanged).toEqual({ id: deviceId, name: 'edge-1' });

      const alertId = opened.data.alertChanged.alert.id;
      const g = await gql(s.url, t.adminToken, NESTED, { id: alertId });
      expect(g.errors).toBeUndefined();
      expect(g.data.alert.device).toMatchObject({
        id: deviceId,
        name: 'edge-1',
        // Newest first; the oldest is the inventory's own sot.device_created.
        events: {
          totalCount: 2,
          edges: [{ node: { id: ev, type: 'link.down' } }, { node: { type: 'sot.device_created' } }],
        },
        alerts: { totalCount: 1, edges: [{ node: { id: alertId, status: 'OPEN' } }] },
      });

      // A second event from the device: announced again, and first in its events.
      const next = await ingest({ type: 'link.flap', source: 'edge-1' });
      await evaluated(next);
      expect((await linked.next()).data.deviceChanged.id).toBe(deviceId);
      const again = await gql(s.url, t.adminToken, NESTED, { id: alertId });
      expect(again.data.alert.device.events.edges.map((e: any) => e.node.id).slice(0, 2)).toEqual([next, ev]);
    } finally {
      alertsOfDevice.dispose();
      linked.dispose();
      await ws.dispose();
    }
  });

  it("another tenant's device is NOT_FOUND, with its alerts and events", async () => {
    const deviceId = await device('edge-private');
    const g = await gql(
      s.url,
      other.adminToken,
      'query($id: ID!) { device(id: $id) { id alerts { totalCount } events { totalCount } } }',
      { id: deviceId },
    );
    expect(g.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(g.data?.device ?? null).toBeNull();
    const mine = await gql(s.url, t.adminToken, 'query($id: ID!) { device(id: $id) { alerts { totalCount } } }', {
      id: deviceId,
    });
    expect(mine.data.device.alerts.totalCount).toBe(0);
  });

  it('a list of devices with their alerts and events runs as many statements for 2 devices as for 6 (no N+1)', async () => {
    const a = await buildTenant(s.app.rt);
    const b = await buildTenant(s.app.rt);
    for (const [tenant, n] of [
      [a, 2],
      [b, 6],
    ] as const) {
      await rule({ name: 'Fan', type_glob: 'fan.*' }, tenant);
      for (let i = 0; i < n; i++) {
        await device(`rack-${i}`, tenant);
        await evaluated(await ingest({ type: 'fan.fail', source: `rack-${i}` }, tenant));
      }
    }
    const LIST = `{ devices(first: 50) { edges { node { name
      alerts(first: 3) { totalCount edges { node { id summary } } }
      events(first: 3) { totalCount edges { node { id type } } } } } } }`;
    const small = await countStatements(() => gql(s.url, a.adminToken, LIST));
    const large = await countStatements(() => gql(s.url, b.adminToken, LIST));
    expect(small.result.errors).toBeUndefined();
    expect(large.result.data.devices.edges).toHaveLength(6);
    for (const e of large.result.data.devices.edges) {
      expect(e.node.alerts.totalCount).toBe(1);
      expect(e.node.events.totalCount).toBe(2); // sot.device_created and fan.fail
    }
    expect(large.statements.length).toBe(small.statements.length);
  });
});
