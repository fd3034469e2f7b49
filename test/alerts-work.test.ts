/**
 * Working alerts with others (issue 44, item 7): assigning an alert to someone and notes on its timeline
 * (GraphQL and REST, announced on alertChanged and, for assignment, to outbound webhooks), sorting the list
 * (GraphQL `orderBy` with exact cursors, REST `?sort=`), and acknowledging or resolving many at once with one
 * result per id. Set-up: test/helpers/alerts-suite.ts.
 */
import { describe, expect, it } from 'vitest';
import { buildTenant, buildToken, buildUser } from './factories.js';
import { untilSubscribed, untilUnsubscribed } from './helpers/pubsub.js';
import { gql, rest, subscribe, wsClient } from './helpers/http.js';
import { member, memberToken, other, raise, s, t, useAlertsSuite } from './helpers/alerts-suite.js';

useAlertsSuite();

const ALERT_TIMELINE = 'query($id: ID!) { alert(id: $id) { assignee { id } timeline { action note actor { id } } } }';

describe('assigning an alert', () => {
  it('assigns over GraphQL and REST, records who did it, announces it, and unassigns', async () => {
    const alert = await raise(t, { source: 'assign-1' });
    const client = wsClient(s.url, memberToken);
    const sub = subscribe(
      client,
      'subscription($f: AlertChangedFilter) { alertChanged(filter: $f) { change alert { id assignee { id } } } }',
      { f: { alertId: alert.id } },
    );
    await untilSubscribed(s, 'alertChanged', t.tenantId);

    const g = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!, $u: ID) { assignAlert(id: $id, userId: $u) { id status assignee { id email } } }',
      { id: alert.id, u: member.id },
    );
    expect(g.errors).toBeUndefined();
    expect(g.data.assignAlert).toMatchObject({ status: 'OPEN', assignee: { id: member.id, email: member.email } });
    expect((await sub.next()).data.alertChanged).toEqual({
      change: 'ASSIGNED',
      alert: { id: alert.id, assignee: { id: member.id } },
    });

    // Unassign over REST (user_id null), then assign back to the admin.
    const api = rest(s.url, memberToken);
    const un = await api.post(`/alerts/${alert.id}/assign`, { user_id: null });
    expect(un.status).toBe(200);
    expect(un.body).toMatchObject({ assignee_id: null, assignee: null });
    const back = await api.post(`/alerts/${alert.id}/assign`, { user_id: t.admin.id });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ assignee_id: t.admin.id, assignee: { id: t.admin.id } });
    expect(
      back.body.timeline.map((e: { action: string; note: string; actor: { id: string } }) => [
        e.action,
        e.note,
        e.actor?.id,
      ]),
    ).toEqual([
      ['opened', null, undefined],
      ['assigned', `Assigned to ${member.email}.`, t.admin.id],
      ['unassigned', 'Unassigned.', member.id],
      ['assigned', `Assigned to ${t.admin.email}.`, member.id],
    ]);
    // The same again changes nothing and records nothing.
    expect((await api.post(`/alerts/${alert.id}/assign`, { user_id: t.admin.id })).body.timeline).toHaveLength(4);

    const outbox = await s.app.rt.prisma.outboxMessage.findMany({
      where: { subjectId: alert.id },
      orderBy: { id: 'asc' },
    });
    expect(outbox.map((m) => m.topic)).toEqual(['alert.opened', 'alert.assigned', 'alert.assigned', 'alert.assigned']);
    expect(outbox[3]!.body).toMatchObject({
      kind: 'alert.assigned',
      payload: { id: alert.id, assignee_id: t.admin.id },
    });
    sub.dispose();
    await client.dispose();
    await untilUnsubscribed(s, 'alertChanged', t.tenantId);
  });

  it("refuses another tenant's user or alert, a resolved alert, and callers without a user", async () => {
    const alert = await raise(t, { source: 'assign-2' });
    const api = rest(s.url, memberToken);
    const stranger = await api.post(`/alerts/${alert.id}/assign`, { user_id: other.admin.id });
    expect(stranger.status).toBe(422);
    expect(stranger.body.detail).toEqual([
      { loc: ['body', 'user_id'], msg: expect.stringMatching(/not a user of this tenant/) },
    ]);
    const g = await gql(s.url, memberToken, 'mutation($id: ID!, $u: ID) { assignAlert(id: $id, userId: $u) { id } }', {
      id: alert.id,
      u: 'no-such-user',
    });
    expect(g.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ loc: ['userId'] }] });

    const theirs = await raise(other, { source: 'assign-theirs' });
    expect((await api.post(`/alerts/${theirs.id}/assign`, { user_id: member.id })).status).toBe(404);
    expect((await rest(s.url).post(`/alerts/${alert.id}/assign`, { user_id: member.id })).status).toBe(401);
    expect((await api.post(`/alerts/${alert.id}/assign`, { user: member.id })).status).toBe(422);

    await api.post(`/alerts/${alert.id}/resolve`);
    const done = await api.post(`/alerts/${alert.id}/assign`, { user_id: member.id });
    expect(done.status).toBe(409);
    expect(done.body).toMatchObject({ code: 'ALERT_INVALID_TRANSITION', detail: expect.stringMatching(/resolved/) });
  });

  it("lists the tenant's users as assignees, to members too", async () => {
    const g = await gql(s.url, memberToken, '{ alertAssignees { id email } }');
    const ids = g.data.alertAssignees.map((u: { id: string }) => u.id);
    expect(ids).toEqual(expect.arrayContaining([member.id, t.admin.id]));
    expect(ids).not.toContain(other.admin.id);
  });
});

describe('notes on an alert', () => {
  it('adds notes to the timeline over GraphQL and REST, with the author, announced on alertChanged', async () => {
    const alert = await raise(t, { source: 'notes-1' });
    const client = wsClient(s.url, memberToken);
    const sub = subscribe(
      client,
      'subscription($f: AlertChangedFilter) { alertChanged(filter: $f) { change alert { id } } }',
      {
        f: { alertId: alert.id, changes: ['NOTE_ADDED'] },
      },
    );
    await untilSubscribed(s, 'alertChanged', t.tenantId);
    const g = await gql(
      s.url,
      memberToken,
      'mutation($id: ID!, $text: String!) { addAlertNote(id: $id, text: $text) { action note actor { id } alert { id } } }',
      { id: alert.id, text: '  Rotated the log; watching.  ' },
    );
    expect(g.data.addAlertNote).toEqual({
      action: 'note',
      note: 'Rotated the log; watching.',
      actor: { id: member.id },
      alert: { id: alert.id },
    });
    expect((await sub.next()).data.alertChanged).toEqual({ change: 'NOTE_ADDED', alert: { id: alert.id } });

    const r = await rest(s.url, t.adminToken).post(`/alerts/${alert.id}/notes`, { text: 'Root cause: cron at 02:00.' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ action: 'note', note: 'Root cause: cron at 02:00.', actor: { id: t.admin.id } });
    const detail = (await rest(s.url, memberToken).get(`/alerts/${alert.id}`)).body;
    expect(detail.timeline.slice(1).map((e: { action: string; note: string }) => [e.action, e.note])).toEqual([
      ['note', 'Rotated the log; watching.'],
      ['note', 'Root cause: cron at 02:00.'],
    ]);
    const timeline = (await gql(s.url, memberToken, ALERT_TIMELINE, { id: alert.id })).data.alert.timeline;
    expect(timeline[2]).toEqual({ action: 'note', note: 'Root cause: cron at 02:00.', actor: { id: t.admin.id } });
    sub.dispose();
    await client.dispose();
    await untilUnsubscribed(s, 'alertChanged', t.tenantId);
  });

  it('takes 1–4000 characters (422 naming text otherwise), on resolved alerts too; 404 for another tenant', async () => {
    const alert = await raise(t, { source: 'notes-2' });
    const api = rest(s.url, memberToken);
    for (const text of ['', '   ', 'x'.repeat(4001)]) {
      const r = await api.post(`/alerts/${alert.id}/notes`, { text });
      expect(r.status, `${text.length} characters`).toBe(422);
      expect(JSON.stringify(r.body.detail)).toContain('text');
    }
    expect((await api.post(`/alerts/${alert.id}/notes`, {})).status).toBe(422);
    expect((await api.post(`/alerts/${alert.id}/notes`, { text: 'x'.repeat(4000) })).status).toBe(201);
    await api.post(`/alerts/${alert.id}/resolve`);
    expect((await api.post(`/alerts/${alert.id}/notes`, { text: 'Post-mortem filed.' })).status).toBe(201);
    const theirs = await raise(other, { source: 'notes-theirs' });
    expect((await api.post(`/alerts/${theirs.id}/notes`, { text: 'hi' })).status).toBe(404);
    expect((await rest(s.url).post(`/alerts/${alert.id}/notes`, { text: 'hi' })).status).toBe(401);
    const g = await gql(s.url, memberToken, 'mutation($id: ID!) { addAlertNote(id: $id, text: "") { id } }', {
      id: alert.id,
    });
    expect(g.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ loc: ['text'] }] });
  });
});

describe('sorting the alert list', () => {
  it('orders by each field both ways, pages a sorted list with exact cursors, and keeps the default order', async () => {
    // A tenant of its own, so the list holds exactly these alerts.
    const mine = await buildTenant(s.app.rt);
    await gql(
      s.url,
      mine.adminToken,
      'mutation { createAlertRule(input: { name: "App", typeGlob: "app.*", alertSeverity: WARNING }) { id } }',
    );
    await gql(
      s.url,
      mine.adminToken,
      'mutation { createAlertRule(input: { name: "Crit", typeGlob: "crit.*", alertSeverity: CRITICAL }) { id } }',
    );
    const made: any[] = [];
    // Counts 3, 1, 2, 1, 3 (ties on count, so the id decides them); two critical.
    for (const [source, type, n] of [
      ['b-src', 'app.error', 3],
      ['d-src', 'crit.down', 1],
      ['a-src', 'app.error', 2],
      ['e-src', 'app.error', 1],
      ['c-src', 'crit.down', 3],
    ] as const) {
      let a;
      for (let i = 0; i < n; i++) a = await raise(mine, { source, type, summary: `${source} problem` });
      made.push(a);
    }
    const token = mine.adminToken;
    const ids = (r: any) => r.data.alerts.edges.map((e: any) => e.node.id);
    const q =
      'query($o: AlertOrder, $first: Int, $after: String) { alerts(first: $first, after: $after, orderBy: $o) { edges { node { id count severity summary } } pageInfo { hasNextPage endCursor } } }';
    const all = await s.app.rt.prisma.alert.findMany({ where: { tenantId: mine.tenantId } });
    expect(all).toHaveLength(5);
    const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
    const sevRank = { info: 0, warning: 1, critical: 2 } as const;
    const expected = (key: (a: (typeof all)[number]) => string | number, dir: 'ASC' | 'DESC') =>
      [...all].sort((x, y) => (dir === 'ASC' ? 1 : -1) * (cmp(key(x), key(y)) || cmp(x.id, y.id))).map((a) => a.id);

    for (const [field, key] of [
      ['COUNT', (a: (typeof all)[number]) => a.count],
      ['SEVERITY', (a: (typeof all)[number]) => sevRank[a.severity]],
      ['SUMMARY', (a: (typeof all)[number]) => a.summary],
      ['FIRST_SEEN_AT', (a: (typeof all)[number]) => a.firstSeenAt.getTime()],
      ['LAST_SEEN_AT', (a: (typeof all)[number]) => a.lastSeenAt.getTime()],
    ] as const) {
      for (const direction of ['ASC', 'DESC'] as const) {
        const want = expected(key, direction);
        const whole = await gql(s.url, token, q, { o: { field, direction }, first: 10 });
        expect(ids(whole), `${field} ${direction}`).toEqual(want);
        // Two at a time through the cursors: the same order, nothing lost or repeated.
        const paged: string[] = [];
        let after: string | null = null;
        for (;;) {
          const page: any = await gql(s.url, token, q, { o: { field, direction }, first: 2, after });
          paged.push(...ids(page));
          if (!page.data.alerts.pageInfo.hasNextPage) break;
          after = page.data.alerts.pageInfo.endCursor;
        }
        expect(paged, `${field} ${direction} paged`).toEqual(want);
      }
    }
    // Default: newest first, as before.
    expect(ids(await gql(s.url, token, q, { first: 10 }))).toEqual(
      [...all]
        .map((a) => a.id)
        .sort()
        .reverse(),
    );

    const api = rest(s.url, token);
    const bySort = async (sort: string) => (await api.get(`/alerts?sort=${sort}`)).body.items.map((a: any) => a.id);
    expect(await bySort('-count')).toEqual(expected((a) => a.count, 'DESC'));
    expect(await bySort('summary')).toEqual(expected((a) => a.summary, 'ASC'));
    expect(await bySort('-severity')).toEqual(expected((a) => sevRank[a.severity], 'DESC'));
    const bad = await api.get('/alerts?sort=color');
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain('sort');
    expect(made).toHaveLength(5);
  });
});

describe('acknowledging and resolving many alerts', () => {
  it('acts on each id alone over GraphQL: NOT_FOUND for another tenant, CONFLICT for a wrong state, the rest done', async () => {
    const a = await raise(t, { source: 'bulk-1' });
    const b = await raise(t, { source: 'bulk-2' });
    const theirs = await raise(other, { source: 'bulk-theirs' });
    await rest(s.url, memberToken).post(`/alerts/${b.id}/resolve`);
    const g = await gql(
      s.url,
      memberToken,
      'mutation($ids: [ID!]!) { acknowledgeAlerts(ids: $ids) { id ok code reason message alert { id status assignee { id } } } }',
      { ids: [a.id, theirs.id, b.id, a.id] },
    );
    expect(g.errors).toBeUndefined();
    expect(g.data.acknowledgeAlerts).toEqual([
      {
        id: a.id,
        ok: true,
        code: null,
        reason: null,
        message: null,
        alert: { id: a.id, status: 'ACKNOWLEDGED', assignee: { id: member.id } },
      },
      { id: theirs.id, ok: false, code: 'NOT_FOUND', reason: 'NOT_FOUND', message: 'Alert not found.', alert: null },
      {
        id: b.id,
        ok: false,
        code: 'CONFLICT',
        reason: 'ALERT_INVALID_TRANSITION',
        message: expect.stringMatching(/resolved/),
        alert: null,
      },
    ]);
    expect((await s.app.rt.prisma.alert.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe('open');
    const r = await gql(s.url, memberToken, 'mutation($ids: [ID!]!) { resolveAlerts(ids: $ids) { id ok } }', {
      ids: [a.id, b.id],
    });
    expect(r.data.resolveAlerts).toEqual([
      { id: a.id, ok: true },
      { id: b.id, ok: false },
    ]);
  });

  it('over REST: 200 with one result per id; none or more than 100 ids is a 422; 401 without a credential', async () => {
    const a = await raise(t, { source: 'bulk-rest-1' });
    const c = await raise(t, { source: 'bulk-rest-2' });
    const theirs = await raise(other, { source: 'bulk-rest-theirs' });
    const api = rest(s.url, memberToken);
    const ack = await api.post('/alerts/acknowledge', { ids: [a.id, theirs.id] });
    expect(ack.status).toBe(200);
    expect(ack.body.items).toEqual([
      {
        id: a.id,
        ok: true,
        alert: expect.objectContaining({ id: a.id, status: 'acknowledged', assignee_id: member.id }),
      },
      { id: theirs.id, ok: false, status: 404, code: 'NOT_FOUND', detail: 'Alert not found.' },
    ]);
    const res = await api.post('/alerts/resolve', { ids: [a.id, c.id, a.id] });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: any) => [i.id, i.ok, i.alert?.status])).toEqual([
      [a.id, true, 'resolved'],
      [c.id, true, 'resolved'],
    ]);
    const again = await api.post('/alerts/resolve', { ids: [a.id] });
    expect(again.body.items).toEqual([
      { id: a.id, ok: false, status: 409, code: 'ALERT_INVALID_TRANSITION', detail: expect.stringMatching(/resolved/) },
    ]);

    for (const body of [{ ids: [] }, { ids: Array.from({ length: 101 }, (_, i) => `id-${i}`) }, {}]) {
      const r = await api.post('/alerts/acknowledge', body);
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body.detail)).toContain('ids');
    }
    const g = await gql(s.url, memberToken, 'mutation($ids: [ID!]!) { resolveAlerts(ids: $ids) { id } }', {
      ids: Array.from({ length: 101 }, (_, i) => `id-${i}`),
    });
    expect(g.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ loc: ['ids'] }] });
    expect((await rest(s.url).post('/alerts/acknowledge', { ids: [a.id] })).status).toBe(401);
    // A service user (an on-call bot) may act on alerts too (src/alerts/policy.ts).
    const bot = await buildUser(s.app.rt, t.tenantId, { kind: 'service' });
    const botToken = await buildToken(s.app.rt, bot as never);
    const fresh = await raise(t, { source: 'bulk-rest-3' });
    expect((await rest(s.url, botToken).post('/alerts/acknowledge', { ids: [fresh.id] })).body.items[0].ok).toBe(true);
  });
});
