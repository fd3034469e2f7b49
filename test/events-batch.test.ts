/**
 * Batch ingest and refused ingests (issue 44, point 5): POST /events takes an array of up to 100
 * envelopes and answers one result per item; each item counts against the key's rate; every refused
 * ingest (401, 422, 429) is logged at warn with the tenant or key prefix, status and reason, and
 * counted in /metrics.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, rest } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000' } });
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const post = (body: unknown, key: string | null = t.ingestKey, server = s) =>
  rest(server.url).post('/events', body, { headers: key ? { 'x-service-key': key } : {} });

function warnings(server: TestServer) {
  const spy = vi.spyOn(server.app.rt.logger, 'warn');
  return () =>
    spy.mock.calls.filter((c) => c[1] === 'ingest rejected').map((c) => c[0] as unknown as Record<string, unknown>);
}

async function metric(server: TestServer, status: string, reason: string): Promise<number> {
  const r = await call(server.url, 'GET', '/metrics');
  const line = String(r.body)
    .split('\n')
    .find((l) => l.startsWith(`events_ingest_rejected_total{status="${status}",reason="${reason}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('batch ingest', () => {
  it('stores 97 of a 100-item batch with 3 bad items and answers one result per item', async () => {
    const bad = new Set([5, 50, 99]);
    const tag = `batch-${Date.now()}`;
    const items = Array.from({ length: 100 }, (_, i) =>
      i === 5
        ? { type: 'x.y' } // no source
        : i === 50
          ? { type: 'x.y', source: tag, severity: 'fatal' }
          : i === 99
            ? 'not an object'
            : { type: 'batch.item', source: tag, payload: { i } },
    );
    const logged = warnings(s);
    const before = await metric(s, '422', 'VALIDATION_FAILED');
    const r = await post(items);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body).toMatchObject({ accepted: 97, rejected: 3 });
    expect(r.body.items).toHaveLength(100);
    r.body.items.forEach((it: Record<string, any>, i: number) => {
      expect(it.index).toBe(i);
      expect(it.status).toBe(bad.has(i) ? 'rejected' : 'accepted');
    });
    expect(r.body.items[5]).toMatchObject({ code: 'VALIDATION_FAILED', detail: [{ loc: ['body', '5', 'source'] }] });
    expect(r.body.items[50].detail[0].loc).toEqual(['body', '50', 'severity']);
    expect(r.body.items[99].detail[0].loc).toEqual(['body', '99']);
    const stored = await s.app.rt.prisma.event.findMany({ where: { tenantId: t.tenantId, source: tag } });
    expect(stored).toHaveLength(97);
    const ids = r.body.items.filter((x: any) => x.status === 'accepted').map((x: any) => x.id);
    expect(new Set(stored.map((e) => e.id))).toEqual(new Set(ids));
    expect(
      logged()
        .filter((l) => l.tenantId === t.tenantId && l.status === 422)
        .map((l) => l.item),
    ).toEqual(expect.arrayContaining([5, 50, 99]));
    expect(await metric(s, '422', 'VALIDATION_FAILED')).toBe(before + 3);
  });

  it('keeps the single-object form, and refuses an empty or 101-item array with a 422 storing nothing', async () => {
    const one = await post({ type: 'single.one', source: 'single' });
    expect(one.status).toBe(202);
    expect(one.body).toEqual({ id: expect.any(String), status: 'accepted' });
    expect((await post([])).status).toBe(422);
    const tag = `too-many-${Date.now()}`;
    const many = await post(Array.from({ length: 101 }, () => ({ type: 'x.y', source: tag })));
    expect(many.status).toBe(422);
    expect(JSON.stringify(many.body.detail)).toContain('1 to 100');
    expect(await s.app.rt.prisma.event.count({ where: { source: tag } })).toBe(0);
  });

  it('counts each item against the rate: items past the budget are rejected RATE_LIMITED with Retry-After', async () => {
    const limited = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '10' } });
    try {
      const lt = await buildTenant(limited.app.rt);
      const tag = `rate-${Date.now()}`;
      const r = await post(
        Array.from({ length: 15 }, (_, i) => ({ type: 'rate.item', source: tag, payload: { i } })),
        lt.ingestKey,
        limited,
      );
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({ accepted: 10, rejected: 5 });
      expect(r.body.items.slice(10).every((x: any) => x.code === 'RATE_LIMITED')).toBe(true);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await limited.app.rt.prisma.event.count({ where: { source: tag } })).toBe(10);
    } finally {
      await limited.stop();
    }
  });
});

describe('refused ingests are logged and counted', () => {
  it('a wrong key (401) is logged with the key prefix, never the key, and counted', async () => {
    const logged = warnings(s);
    const before = await metric(s, '401', 'INGEST_KEY_INVALID');
    const key = 'sik_wrongwrongwrongwrongwrongwrong';
    expect((await post({ type: 'a.b', source: 'x' }, key)).status).toBe(401);
    const line = logged().find((l) => l.status === 401)!;
    expect(line).toMatchObject({ keyPrefix: key.slice(0, 10), reason: 'INGEST_KEY_INVALID' });
    expect(JSON.stringify(line)).not.toContain(key);
    expect(await metric(s, '401', 'INGEST_KEY_INVALID')).toBe(before + 1);
    expect((await post({ type: 'a.b', source: 'x' }, null)).status).toBe(401);
  });

  it('a bad single envelope (422) is logged with the tenant and the reason', async () => {
    const logged = warnings(s);
    expect((await post({ type: 'a.b' })).status).toBe(422);
    expect(logged().find((l) => l.status === 422)).toMatchObject({ tenantId: t.tenantId, reason: 'VALIDATION_FAILED' });
  });

  it('a rate-limited request (429) is logged with the tenant and counted', async () => {
    const limited = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1' } });
    try {
      const lt = await buildTenant(limited.app.rt);
      const logged = warnings(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 5 && !statuses.includes(429); i++)
        statuses.push((await post({ type: 'r.l', source: 'x' }, lt.ingestKey, limited)).status);
      expect(statuses).toContain(429);
      expect(logged().find((l) => l.status === 429)).toMatchObject({ reason: 'RATE_LIMITED' });
      expect(await metric(limited, '429', 'RATE_LIMITED')).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.stop();
    }
  });
});
