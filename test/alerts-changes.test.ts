/**
 * The alertChanged subscription (only the caller's tenant, filtered, no anonymous subscribers) and
 * maintenance windows (suppression, recurrence, who may change them). Set-up: test/helpers/alerts-suite.ts.
 */
import { describe, expect, it } from 'vitest';
import { untilSubscribed } from './helpers/pubsub.js';
import { gql, rest, subscribe, wsClient } from './helpers/http.js';
import { memberToken, now as serverNow, other, raise, s, t, useAlertsSuite } from './helpers/alerts-suite.js';

useAlertsSuite();

describe('alertChanged', () => {
  it("delivers only the caller's tenant's changes that pass the filter", async () => {
    const client = wsClient(s.url, memberToken);
    const sub = subscribe(
      client,
      'subscription { alertChanged(filter: { severity: CRITICAL, changes: [OPENED] }) { change alert { id severity source } } }',
    );
    const otherClient = wsClient(s.url, other.adminToken);
    const otherSub = subscribe(otherClient, 'subscription { alertChanged { change alert { id } } }');
    await untilSubscribed(s, 'alertChanged', t.tenantId);
    await untilSubscribed(s, 'alertChanged', other.tenantId);
    await raise(t, { source: 'sub-warning' }); // warning: filtered out
    const crit = await raise(t, { type: 'crit.down', source: 'sub-crit' });
    const got = await sub.next();
    expect(got.data.alertChanged).toEqual({
      change: 'OPENED',
      alert: { id: crit.id, severity: 'CRITICAL', source: 'sub-crit' },
    });
    const theirs = await raise(other, { source: 'sub-other' });
    expect((await otherSub.next()).data.alertChanged.alert.id).toBe(theirs.id);
    sub.dispose();
    otherSub.dispose();
    await client.dispose();
    await otherClient.dispose();
  });

  it('refuses anonymous subscribers', async () => {
    const client = wsClient(s.url);
    const sub = subscribe(client, 'subscription { alertChanged { change } }');
    // Closed at connection_init (4401), before the subscription could run.
    await expect(sub.next()).rejects.toThrow(/socket closed 4401/);
    sub.dispose();
    await client.dispose();
  });
});

describe('maintenance windows', () => {
  const W = 'id name startsAt endsAt repeatEverySeconds matchLabels source deviceId activeNow';
  const CREATE = `mutation($input: CreateMaintenanceWindowInput!) { createMaintenanceWindow(input: $input) { ${W} } }`;

  it('suppresses alerts that open inside a covering window: no outbound trigger, window visible on the alert', async () => {
    const now = serverNow();
    const created = await gql(s.url, t.adminToken, CREATE, {
      input: {
        name: 'DB upgrade',
        startsAt: new Date(now - 60_000).toISOString(),
        endsAt: new Date(now + 3600_000).toISOString(),
        source: 'db-1',
        matchLabels: { env: 'prod' },
      },
    });
    expect(created.errors).toBeUndefined();
    const win = created.data.createMaintenanceWindow;
    expect(win).toMatchObject({ name: 'DB upgrade', source: 'db-1', activeNow: true, repeatEverySeconds: null });

    const inside = await raise(t, { source: 'db-1', labels: { env: 'prod' } });
    const outsideScope = await raise(t, { source: 'db-2', labels: { env: 'prod' } });
    expect(inside.suppressed).toBe(true);
    expect(outsideScope.suppressed).toBe(false);
    const detail = (await rest(s.url, memberToken).get(`/alerts/${inside.id}`)).body;
    expect(detail).toMatchObject({
      suppressed: true,
      maintenance_window_id: win.id,
      maintenance_window: { id: win.id, name: 'DB upgrade' },
    });
    expect(detail.timeline[0].note).toMatch(/Suppressed by maintenance window "DB upgrade"/);

    expect(await s.app.rt.prisma.outboxMessage.count({ where: { subjectId: inside.id } })).toBe(0);
    expect(
      await s.app.rt.prisma.outboxMessage.count({ where: { subjectId: outsideScope.id, topic: 'alert.opened' } }),
    ).toBe(1);
    // Actions on a suppressed alert stay quiet outbound too.
    expect((await rest(s.url, memberToken).post(`/alerts/${inside.id}/acknowledge`)).status).toBe(200);
    expect(await s.app.rt.prisma.outboxMessage.count({ where: { subjectId: inside.id } })).toBe(0);
    expect(
      (await rest(s.url, memberToken).get('/alerts?source=db-1')).body.items.map(
        (a: { suppressed: boolean }) => a.suppressed,
      ),
    ).toEqual([true]);
    expect(
      (await rest(s.url, memberToken).get('/alerts?source=db-2')).body.items.map(
        (a: { suppressed: boolean }) => a.suppressed,
      ),
    ).toEqual([false]);
  });

  it('supports recurring windows, updates and deletes (admins), reads (members)', async () => {
    const start = new Date(serverNow() - 7 * 86400_000 - 60_000);
    const created = await gql(s.url, t.adminToken, CREATE, {
      input: {
        name: 'Weekly',
        startsAt: start.toISOString(),
        endsAt: new Date(start.getTime() + 3600_000).toISOString(),
        repeatEverySeconds: 7 * 86400,
      },
    });
    const win = created.data.createMaintenanceWindow;
    expect(win.activeNow).toBe(true);
    const upd = await gql(
      s.url,
      t.adminToken,
      `mutation($id: ID!) { updateMaintenanceWindow(id: $id, input: { name: "Weekly (renamed)" }) { ${W} } }`,
      { id: win.id },
    );
    expect(upd.data.updateMaintenanceWindow.name).toBe('Weekly (renamed)');
    const list = await gql(s.url, memberToken, '{ maintenanceWindows { id } }');
    expect(list.data.maintenanceWindows.map((w: { id: string }) => w.id)).toContain(win.id);
    const del = await gql(s.url, t.adminToken, 'mutation($id: ID!) { deleteMaintenanceWindow(id: $id) }', {
      id: win.id,
    });
    expect(del.data.deleteMaintenanceWindow).toBe(win.id);
  });

  it('refuses members (FORBIDDEN), invalid windows (BAD_USER_INPUT) and other tenants (NOT_FOUND)', async () => {
    const input = {
      name: 'x',
      startsAt: new Date(serverNow()).toISOString(),
      endsAt: new Date(serverNow() + 60_000).toISOString(),
    };
    expect((await gql(s.url, memberToken, CREATE, { input })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const bad = await gql(s.url, t.adminToken, CREATE, {
      input: { ...input, endsAt: input.startsAt, repeatEverySeconds: 5, matchLabels: { a: 1 } },
    });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((bad.errors![0]!.extensions!.fields as Array<{ loc: string[] }>).map((f) => f.loc[1])).toEqual([
      'endsAt',
      'repeatEverySeconds',
      'matchLabels',
    ]);
    const theirs = (await gql(s.url, other.adminToken, CREATE, { input })).data.createMaintenanceWindow;
    const upd = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!) { updateMaintenanceWindow(id: $id, input: { name: "mine" }) { id } }',
      { id: theirs.id },
    );
    expect(upd.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const del = await gql(s.url, t.adminToken, 'mutation($id: ID!) { deleteMaintenanceWindow(id: $id) }', {
      id: theirs.id,
    });
    expect(del.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
