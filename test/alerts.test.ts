/**
 * Alerts over REST and GraphQL: lists with filters, one alert with its events, rule and timeline, and the
 * actions (acknowledge, snooze, reopen, resolve) with their conflicts. Subscriptions and maintenance
 * windows: test/alerts-changes.test.ts. Set-up: test/helpers/alerts-suite.ts.
 */
import { describe, expect, it } from 'vitest';
import { untilSubscribed, untilUnsubscribed } from './helpers/pubsub.js';
import { eventually, gql, rest, subscribe, wsClient } from './helpers/http.js';
import { member, memberToken, now, other, raise, ruleId, s, t, useAlertsSuite } from './helpers/alerts-suite.js';

useAlertsSuite();

describe('reading alerts', () => {
  it('lists alerts as {items} with the severity, status, source, rule, since_hours and limit filters', async () => {
    const a = await raise(t, { source: 'list-a' });
    const c = await raise(t, { type: 'crit.down', source: 'list-c' });
    const api = rest(s.url, memberToken);
    const all = await api.get('/alerts');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(['items']);
    expect(all.body.items.map((x: { id: string }) => x.id)).toEqual(expect.arrayContaining([a.id, c.id]));
    expect(all.body.items.findIndex((x: { id: string }) => x.id === c.id)).toBeLessThan(
      all.body.items.findIndex((x: { id: string }) => x.id === a.id),
    );

    const crit = (await api.get('/alerts?severity=critical')).body.items;
    expect(crit.every((x: { severity: string }) => x.severity === 'critical')).toBe(true);
    expect(crit.map((x: { id: string }) => x.id)).toContain(c.id);
    expect((await api.get('/alerts?source=list-a')).body.items.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const byRule = (await api.get(`/alerts?rule=${ruleId}`)).body.items;
    expect(byRule.map((x: { id: string }) => x.id)).toContain(a.id);
    expect(byRule.map((x: { id: string }) => x.id)).not.toContain(c.id);
    expect((await api.get('/alerts?status=resolved&source=list-a')).body.items).toEqual([]);
    expect((await api.get('/alerts?status=open&source=list-a&since_hours=1')).body.items).toHaveLength(1);
    expect((await api.get('/alerts?limit=1')).body.items).toHaveLength(1);
  });

  it('answers 422 for out-of-range or unknown filter values and 401 without a credential', async () => {
    const api = rest(s.url, memberToken);
    for (const q of ['limit=0', 'limit=501', 'since_hours=0', 'status=firing', 'severity=fatal', 'color=red']) {
      const r = await api.get(`/alerts?${q}`);
      expect(r.status, q).toBe(422);
      expect(Array.isArray(r.body.detail)).toBe(true);
    }
    expect((await rest(s.url).get('/alerts')).status).toBe(401);
  });

  it('shows one alert with its latest events, rule and timeline; 404 for another tenant', async () => {
    const first = await raise(t, { source: 'detail', payload: { n: 1 } });
    await raise(t, { source: 'detail', payload: { n: 2 } });
    await raise(t, { source: 'detail', payload: { n: 3 } });
    const r = await rest(s.url, memberToken).get(`/alerts/${first.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: first.id,
      count: 3,
      status: 'open',
      rule: { id: ruleId, name: 'App', kind: 'match' },
      assignee: null,
      allowed_actions: ['acknowledge', 'snooze', 'resolve'],
    });
    expect(r.body.events.map((e: { payload: { n: number } }) => e.payload.n)).toEqual([3, 2, 1]);
    expect(r.body.timeline.map((e: { action: string }) => e.action)).toEqual(['opened']);

    const g = await gql(s.url, memberToken, 'query($id: ID!) { alert(id: $id) { events(limit: 2) { payload } } }', {
      id: first.id,
    });
    expect(g.data.alert.events.map((e: { payload: { n: number } }) => e.payload.n)).toEqual([3, 2]);

    const theirs = await raise(other, { source: 'theirs' });
    expect((await rest(s.url, memberToken).get(`/alerts/${theirs.id}`)).status).toBe(404);
    const gq = await gql(s.url, memberToken, 'query($id: ID!) { alert(id: $id) { id } }', { id: theirs.id });
    expect(gq.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await rest(s.url, memberToken).get('/alerts')).body.items.map((x: { id: string }) => x.id)).not.toContain(
      theirs.id,
    );
    expect((await rest(s.url).get(`/alerts/${first.id}`)).status).toBe(401);
  });

  it('pages the GraphQL alerts connection with filters', async () => {
    await raise(t, { source: 'page', type: 'crit.x' });
    await raise(t, { source: 'page-2', type: 'crit.y' });
    const q =
      'query($after: String) { alerts(first: 1, after: $after, filter: { severity: CRITICAL, status: [OPEN] }) { edges { node { id severity } } pageInfo { hasNextPage endCursor } } }';
    const p1 = await gql(s.url, memberToken, q);
    expect(p1.data.alerts.edges).toHaveLength(1);
    expect(p1.data.alerts.pageInfo.hasNextPage).toBe(true);
    const p2 = await gql(s.url, memberToken, q, { after: p1.data.alerts.pageInfo.endCursor });
    expect(p2.data.alerts.edges[0].node.id).not.toBe(p1.data.alerts.edges[0].node.id);
    expect(p2.data.alerts.edges[0].node.severity).toBe('CRITICAL');
  });
});

describe('alert actions', () => {
  it('over REST with PATs: acknowledge, snooze 2 s and reopen by itself, resolve; invalid transitions get 409', async () => {
    const alert = await raise(t, { source: 'flow' });
    const client = wsClient(s.url, memberToken);
    const sub = subscribe(
      client,
      'subscription($f: AlertChangedFilter) { alertChanged(filter: $f) { change alert { id status assignee { id } } } }',
      { f: { alertId: alert.id } },
    );
    await untilSubscribed(s, 'alertChanged', t.tenantId);
    const api = rest(s.url, memberToken);

    const ack = await api.post(`/alerts/${alert.id}/acknowledge`);
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({
      status: 'acknowledged',
      assignee_id: member.id,
      assignee: { id: member.id, email: member.email },
      allowed_actions: ['snooze', 'resolve'],
    });
    expect(ack.body.acknowledged_at).toBeTruthy();

    const again = await api.post(`/alerts/${alert.id}/acknowledge`);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(
      'Cannot acknowledge an alert that is acknowledged; allowed actions: snooze, resolve.',
    );

    const snoozed = await api.post(`/alerts/${alert.id}/snooze`, { duration: '2s' });
    expect(snoozed.status).toBe(200);
    expect(snoozed.body.status).toBe('snoozed');
    expect(new Date(snoozed.body.snoozed_until).getTime()).toBeGreaterThan(now());

    const reopened = await eventually(async () => {
      const r = await api.get(`/alerts/${alert.id}`);
      return r.body.status === 'open' ? r.body : null;
    }, 15_000);
    expect(reopened.snoozed_until).toBeNull();

    const resolved = await api.post(`/alerts/${alert.id}/resolve`);
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'resolved', allowed_actions: [] });
    const twice = await api.post(`/alerts/${alert.id}/resolve`);
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toMatch(/resolved/);
    expect((await api.post(`/alerts/${alert.id}/snooze`, { duration: 60 })).status).toBe(409);

    const detail = (await api.get(`/alerts/${alert.id}`)).body;
    expect(
      detail.timeline.map((e: { action: string; from_status: string | null; to_status: string }) => [
        e.action,
        e.from_status,
        e.to_status,
      ]),
    ).toEqual([
      ['opened', null, 'open'],
      ['acknowledged', 'open', 'acknowledged'],
      ['snoozed', 'acknowledged', 'snoozed'],
      ['reopened', 'snoozed', 'open'],
      ['resolved', 'open', 'resolved'],
    ]);
    expect(detail.timeline[1].actor.id).toBe(member.id);
    expect(detail.timeline[3].actor).toBeNull();

    const seen: string[] = [];
    while (seen.length < 4) seen.push((await sub.next()).data.alertChanged.change);
    expect(seen).toEqual(['ACKNOWLEDGED', 'SNOOZED', 'REOPENED', 'RESOLVED']);

    const outbox = await s.app.rt.prisma.outboxMessage.findMany({
      where: { subjectId: alert.id },
      orderBy: { id: 'asc' },
    });
    expect(outbox.map((m) => m.topic)).toEqual([
      'alert.opened',
      'alert.acknowledged',
      'alert.snoozed',
      'alert.reopened',
      'alert.resolved',
    ]);
    expect(outbox[0]!.body).toMatchObject({
      source: 'flow',
      kind: 'alert.opened',
      severity: 'warning',
      payload: { id: alert.id, status: 'open' },
    });
    sub.dispose();
    await client.dispose();
    await untilUnsubscribed(s, 'alertChanged', t.tenantId);
  });

  it('snoozes until a time or for a number of seconds, and validates the body (422)', async () => {
    const alert = await raise(t, { source: 'snooze-body' });
    const api = rest(s.url, memberToken);
    const until = new Date(now() + 3600_000).toISOString();
    const r1 = await api.post(`/alerts/${alert.id}/snooze`, { until });
    expect(r1.status).toBe(200);
    expect(r1.body.snoozed_until).toBe(until);
    const r2 = await api.post(`/alerts/${alert.id}/snooze`, { duration: 86400 * 400 });
    expect(r2.status).toBe(200);
    expect(new Date(r2.body.snoozed_until).getTime()).toBeGreaterThan(now() + 86400_000 * 399);
    const bad: Array<[unknown, string]> = [
      [{}, 'duration'],
      [{ duration: 'soon' }, 'duration'],
      [{ duration: '15m', until }, 'until'],
      [{ until: '2001-01-01T00:00:00Z' }, 'until'],
      [{ duration: -5 }, 'duration'],
      [{ until: 'tomorrow' }, 'until'],
      [{ for: '1h' }, 'for'],
    ];
    for (const [body, field] of bad) {
      const r = await api.post(`/alerts/${alert.id}/snooze`, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(r.body.detail), JSON.stringify(body)).toContain(field);
    }
  });

  it("answers 404 for another tenant's alert and 401 without a credential", async () => {
    const theirs = await raise(other, { source: 'theirs-actions' });
    const api = rest(s.url, memberToken);
    for (const a of ['acknowledge', 'resolve']) expect((await api.post(`/alerts/${theirs.id}/${a}`)).status).toBe(404);
    expect((await api.post(`/alerts/${theirs.id}/snooze`, { duration: '1m' })).status).toBe(404);
    expect((await rest(s.url).post(`/alerts/${theirs.id}/acknowledge`)).status).toBe(401);
    const g = await gql(s.url, memberToken, 'mutation($id: ID!) { resolveAlert(id: $id) { id } }', { id: theirs.id });
    expect(g.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await s.app.rt.prisma.alert.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe('open');
  });

  it('gives the same rules over GraphQL: CONFLICT on an invalid transition', async () => {
    const alert = await raise(t, { source: 'gql-actions' });
    const res = await gql(s.url, memberToken, 'mutation($id: ID!) { resolveAlert(id: $id) { status resolvedAt } }', {
      id: alert.id,
    });
    expect(res.data.resolveAlert.status).toBe('RESOLVED');
    const ack = await gql(s.url, memberToken, 'mutation($id: ID!) { acknowledgeAlert(id: $id) { status } }', {
      id: alert.id,
    });
    expect(ack.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(ack.errors?.[0]?.message).toMatch(/resolved/);
  });
});
