import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, eventually, gql, rest } from './helpers/http.js';
import { burstUntilLimited } from './helpers/rate.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

function ingest(key: string | undefined, body: unknown, raw?: string) {
  return call(s.url + '/api/v1', 'POST', '/events', { body, raw, headers: key ? { 'x-service-key': key } : {} });
}

describe('POST /events', () => {
  it('accepts shape A, drops tenant_id and answers 202 with the stored id', async () => {
    const r = await ingest(t.ingestKey, {
      type: 'deploy.started',
      module: 'ci',
      source: 'github-actions',
      summary: 'Deploy of api v42 started',
      severity: 'warning',
      payload: { version: 'v42', nested: { a: [1, 2] } },
      tenant_id: other.tenantId,
    });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ id: expect.any(String), status: 'accepted' });
    const list = await rest(s.url, t.adminToken).get('/events');
    const ev = list.body.find((e: { id: string }) => e.id === r.body.id);
    expect(ev).toMatchObject({
      type: 'deploy.started',
      module: 'ci',
      source: 'github-actions',
      summary: 'Deploy of api v42 started',
      severity: 'warning',
      labels: {},
      payload: { version: 'v42', nested: { a: [1, 2] } },
      received_via: 'ingest',
    });
    const theirs = await rest(s.url, other.adminToken).get('/events');
    expect(theirs.body.map((e: { id: string }) => e.id)).not.toContain(r.body.id);
  });

  it('accepts shape B: kind becomes type, labels kept, severity defaults and summary derived', async () => {
    const r = await ingest(t.ingestKey, {
      source: 'ci-runner-7',
      kind: 'build.finished',
      labels: { env: 'prod', team: 'core' },
      payload: { summary: 'Build 7 finished' },
    });
    expect(r.status).toBe(202);
    // Rule evaluation sets evaluatedAt asynchronously: wait until it has, then check it like the rest.
    const ev = await eventually(async () => {
      const got = await gql(
        s.url,
        t.adminToken,
        'query($id: ID!) { event(id: $id) { type source severity labels summary module receivedVia evaluatedAt } }',
        { id: r.body.id },
      );
      return got.data?.event?.evaluatedAt ? got : null;
    }, 20_000);
    const row = await s.app.rt.prisma.event.findUniqueOrThrow({ where: { id: r.body.id } });
    expect(new Date(ev.data.event.evaluatedAt).getTime()).toBe(row.evaluatedAt!.getTime());
    expect(row.evaluatedAt!.getTime()).toBeGreaterThanOrEqual(row.receivedAt.getTime());
    expect(ev.data.event).toEqual({
      type: 'build.finished',
      source: 'ci-runner-7',
      severity: 'INFO',
      labels: { env: 'prod', team: 'core' },
      summary: 'Build 7 finished',
      module: null,
      receivedVia: 'INGEST',
      evaluatedAt: row.evaluatedAt!.toISOString(),
    });
  });

  it('has committed the row, unevaluated, by the time it answers 202, and enqueued its evaluation', async () => {
    const r = await ingest(t.ingestKey, { type: 'durable.check', source: 'test' });
    expect(r.status).toBe(202);
    const row = await s.app.rt.prisma.event.findUnique({ where: { id: r.body.id } });
    expect(row).toMatchObject({ tenantId: t.tenantId, type: 'durable.check', receivedVia: 'ingest' });
    // Evaluation is enqueued right after commit, coalesced with other events for up to 50 ms, so the
    // event may ride in a job named after an earlier event of the same batch.
    const queue = s.app.rt.queues.get('evaluate');
    const job = await eventually(
      async () => {
        const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'delayed', 'prioritized']);
        return jobs.find((j) => j?.data.eventIds.includes(r.body.id));
      },
      2000,
      10,
    );
    expect(job.data.eventIds).toContain(r.body.id);
  });

  it('stores each of many concurrent events exactly once with its own id', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => ingest(other.ingestKey, { type: 'batch.check', source: `s${i}` })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(202));
    const ids = results.map((r) => r.body.id as string);
    expect(new Set(ids).size).toBe(8);
    const rows = await s.app.rt.prisma.event.findMany({ where: { id: { in: ids } } });
    expect(rows.map((r) => r.source).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `s${i}`).sort());
    expect(rows.every((r) => r.tenantId === other.tenantId)).toBe(true);
  });

  it('returns 401 for a missing or wrong key, whatever the body', async () => {
    expect((await ingest(undefined, { type: 'x.y', source: 's' })).status).toBe(401);
    expect((await ingest('sik_not-a-key', { type: 'x.y', source: 's' })).status).toBe(401);
    const bad = await ingest('sik_not-a-key', { nonsense: true });
    expect(bad.status).toBe(401);
    expect(bad.body.detail).toMatch(/X-Service-Key/);
  });

  it('returns 422 listing every offending field', async () => {
    const r = await ingest(t.ingestKey, { severity: 'fatal', labels: { a: { b: 1 } }, sevrity: 'critical' });
    expect(r.status).toBe(422);
    const locs = (r.body.detail as Array<{ loc: string[] }>).map((d) => d.loc.join('.'));
    expect(locs.some((l) => l.includes('source'))).toBe(true);
    expect(locs.some((l) => l.includes('severity'))).toBe(true);
    expect(locs.some((l) => l.includes('sevrity'))).toBe(true);
    expect(locs.some((l) => l.includes('labels'))).toBe(true);
  });

  it('returns 422 when type and kind disagree, and for a body that is not JSON', async () => {
    const both = await ingest(t.ingestKey, { type: 'a.b', kind: 'c.d', source: 's' });
    expect(both.status).toBe(422);
    expect(JSON.stringify(both.body.detail)).toMatch(/kind/);
    const broken = await ingest(t.ingestKey, undefined, '{"type": ');
    expect(broken.status).toBe(422);
  });

  it('returns 413 for a body over 1 MiB', async () => {
    const r = await ingest(t.ingestKey, { type: 'big.one', source: 's', payload: { blob: 'x'.repeat(1024 * 1024) } });
    expect(r.status).toBe(413);
  });

  it('returns 429 with Retry-After past 10 POSTs per second per key, without affecting other keys', async () => {
    const tenant = await buildTenant(s.app.rt);
    const perSecond = s.config.ingestRatePerSecond;
    const burst = await burstUntilLimited(() => ingest(tenant.ingestKey, { type: 'rate.test', source: 's' }), {
      perSecond,
      acceptedStatus: 202,
    });
    expect(burst.limited.length).toBeGreaterThan(0);
    for (const r of burst.limited) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(burst.accepted.length).toBeGreaterThanOrEqual(perSecond); // the first window's budget is honoured
    expect(burst.accepted.length).toBeLessThanOrEqual(burst.maxAccepted);
    // The server's own records: exactly the accepted requests were stored, none of the refused ones.
    const stored = await s.app.rt.prisma.event.findMany({
      where: { tenantId: tenant.tenantId, type: 'rate.test' },
      select: { id: true },
    });
    expect(stored.map((e) => e.id).sort()).toEqual(burst.accepted.map((r) => r.body.id).sort());
    expect((await ingest(other.ingestKey, { type: 'rate.test', source: 's' })).status).toBe(202);
  });

  it('keeps the old ingest key working after a rotation, next to the new one', async () => {
    const tenant = await buildTenant(s.app.rt);
    const r = await gql(
      s.url,
      tenant.adminToken,
      'mutation { rotateIngestKey { key previousValidUntil ingestKey { keyPrefix validUntil } } }',
    );
    const rotated = r.data.rotateIngestKey;
    expect(rotated.key).toMatch(/^sik_/);
    expect(rotated.ingestKey.validUntil).toBeNull();
    expect(new Date(rotated.previousValidUntil).getTime() - s.app.rt.clock.now().getTime()).toBeGreaterThan(
      23 * 3600_000,
    );
    expect((await ingest(tenant.ingestKey, { type: 'k.old', source: 's' })).status).toBe(202);
    expect((await ingest(rotated.key, { type: 'k.new', source: 's' })).status).toBe(202);
    const keys = await gql(s.url, tenant.adminToken, '{ ingestKeys { keyPrefix validUntil } }');
    expect(keys.data.ingestKeys).toHaveLength(2);
  });

  it('lets only admins rotate ingest keys', async () => {
    const member = await buildUser(s.app.rt, t.tenantId);
    const token = await buildToken(s.app.rt, member);
    const r = await gql(s.url, token, 'mutation { rotateIngestKey { key } }');
    expect(r.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});

describe('GET /events', () => {
  let tenant: BuiltTenant;
  beforeAll(async () => {
    tenant = await buildTenant(s.app.rt);
    const bodies = [
      { type: 'deploy.started', module: 'ci', source: 'gha', severity: 'info', labels: { env: 'prod' } },
      {
        type: 'deploy.failed',
        module: 'ci',
        source: 'gha',
        severity: 'critical',
        labels: { env: 'prod' },
        summary: 'Deploy FAILED on api',
      },
      { kind: 'heartbeat', source: 'host-1', severity: 'info', labels: { env: 'staging' } },
      {
        type: 'disk.full',
        module: 'infra',
        source: 'host-1',
        severity: 'warning',
        labels: { env: 'prod', disk: 'sda' },
      },
    ];
    for (const b of bodies) expect((await ingest(tenant.ingestKey, b)).status).toBe(202);
    // One event from three days ago, outside the default window.
    await s.app.rt.prisma.event.create({
      data: {
        tenantId: tenant.tenantId,
        type: 'old.event',
        source: 'past',
        module: 'ci',
        receivedVia: 'ingest',
        receivedAt: new Date(s.app.rt.clock.now().getTime() - 72 * 3600_000),
      },
    });
  });

  it('lists the last 24 hours newest first as a bare array', async () => {
    const r = await rest(s.url, tenant.adminToken).get('/events');
    expect(r.status).toBe(200);
    expect(r.body.map((e: { type: string }) => e.type)).toEqual([
      'disk.full',
      'heartbeat',
      'deploy.failed',
      'deploy.started',
    ]);
  });

  it('filters by module, severity, since_hours and limit', async () => {
    const api = rest(s.url, tenant.adminToken);
    expect((await api.get('/events?module=ci')).body.map((e: { type: string }) => e.type)).toEqual([
      'deploy.failed',
      'deploy.started',
    ]);
    expect((await api.get('/events?severity=critical')).body.map((e: { type: string }) => e.type)).toEqual([
      'deploy.failed',
    ]);
    expect((await api.get('/events?module=ci&since_hours=96')).body.map((e: { type: string }) => e.type)).toEqual([
      'deploy.failed',
      'deploy.started',
      'old.event',
    ]);
    expect((await api.get('/events?limit=2')).body.map((e: { type: string }) => e.type)).toEqual([
      'disk.full',
      'heartbeat',
    ]);
  });

  it('rejects out-of-range since_hours and limit with 422 instead of clamping', async () => {
    const api = rest(s.url, tenant.adminToken);
    for (const q of ['since_hours=337', 'since_hours=0', 'limit=501', 'limit=0', 'severity=fatal']) {
      const r = await api.get(`/events?${q}`);
      expect(r.status, q).toBe(422);
      expect(JSON.stringify(r.body.detail), q).toMatch(/since_hours|limit|severity/);
    }
    expect((await api.get('/events?since_hours=336&limit=500')).status).toBe(200);
  });

  it('returns 401 without a user credential (an ingest key is not one)', async () => {
    expect((await rest(s.url).get('/events')).status).toBe(401);
    expect((await rest(s.url).get('/events', { headers: { 'x-service-key': tenant.ingestKey } })).status).toBe(401);
  });

  it('offers type globs, source, labels and text search in the GraphQL connection, with cursors', async () => {
    const q = `query($filter: EventFilter, $first: Int, $after: String) {
      events(filter: $filter, first: $first, after: $after) { edges { cursor node { type } } pageInfo { hasNextPage endCursor } }
    }`;
    const types = async (filter: Record<string, unknown>) => {
      const r = await gql(s.url, tenant.adminToken, q, { filter });
      expect(r.errors).toBeUndefined();
      return r.data.events.edges.map((e: { node: { type: string } }) => e.node.type);
    };
    expect(await types({ type: 'deploy.*' })).toEqual(['deploy.failed', 'deploy.started']);
    expect(await types({ type: '*.full' })).toEqual(['disk.full']);
    expect(await types({ source: 'host-1' })).toEqual(['disk.full', 'heartbeat']);
    expect(await types({ labels: { env: 'prod' } })).toEqual(['disk.full', 'deploy.failed', 'deploy.started']);
    expect(await types({ labels: { env: 'prod', disk: 'sda' } })).toEqual(['disk.full']);
    expect(await types({ search: 'failed on' })).toEqual(['deploy.failed']);
    expect(await types({ severities: ['WARNING', 'CRITICAL'], sinceHours: 24 })).toEqual([
      'disk.full',
      'deploy.failed',
    ]);

    const page1 = await gql(s.url, tenant.adminToken, q, { first: 2 });
    expect(page1.data.events.pageInfo.hasNextPage).toBe(true);
    const page2 = await gql(s.url, tenant.adminToken, q, { first: 10, after: page1.data.events.pageInfo.endCursor });
    // No window given: the last 24 hours, like REST (issue 19); the 72-hour-old event needs sinceHours.
    expect(page2.data.events.edges.map((e: { node: { type: string } }) => e.node.type)).toEqual([
      'deploy.failed',
      'deploy.started',
    ]);
    expect(await types({ module: 'ci', sinceHours: 96 })).toEqual(['deploy.failed', 'deploy.started', 'old.event']);
  });

  it('rejects a sinceHours outside 1..336 and a non-object labels filter in GraphQL', async () => {
    const r = await gql(
      s.url,
      tenant.adminToken,
      'query($f: EventFilter) { events(filter: $f) { edges { node { id } } } }',
      { f: { sinceHours: 400 } },
    );
    expect(r.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const l = await gql(
      s.url,
      tenant.adminToken,
      'query($f: EventFilter) { events(filter: $f) { edges { node { id } } } }',
      { f: { labels: ['x'] } },
    );
    expect(l.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it("does not show another tenant's event", async () => {
    const mine = await ingest(tenant.ingestKey, { type: 'secret.thing', source: 's' });
    const r = await gql(s.url, other.adminToken, 'query($id: ID!) { event(id: $id) { id } }', { id: mine.body.id });
    expect(r.data).toBeNull();
    expect(r.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
