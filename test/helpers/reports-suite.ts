/**
 * Shared set-up of the reports tests (test/reports*.test.ts, but the export's): one server on the
 * injected clock, two tenants, two members, a receiver, ingested events and alerts seeded over three
 * days; `query` records every document sent (the schema endpoint must accept each one).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestServer, type TestServer } from './server.js';
import { testClock } from './clock.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from '../factories.js';
import { rest } from './http.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

export let s: TestServer;
export let t: BuiltTenant;
export let other: BuiltTenant;
export let aliceToken: string;
export let bobToken: string;
export let rcv: Receiver;
/** Every query document the tests send; the schema endpoint must accept each one. */
export const sent: unknown[] = [];

export async function query(token: string, body: Record<string, unknown>) {
  sent.push(body);
  return rest(s.url, token).post('/reports/query', body);
}

export async function ingest(body: Record<string, unknown>): Promise<void> {
  const r = await rest(s.url).post('/events', body, { headers: { 'x-service-key': t.ingestKey } });
  expect(r.status).toBe(202);
}

export const HOUR = 3600_000;
/** The service's clock: the time-of-day cases move it; everything else reads it as "now". */
export const clock = testClock();
/**
 * Alert times `daysAgo` whole days (and a minute) before the service's now: three such times always fall
 * on three consecutive UTC days, whatever the time of day, and only the newest is inside the last 24 hours.
 */
export const daysAgo = (n: number) => new Date(clock.now().getTime() - n * 24 * HOUR - 60_000);
export const dayOf = (d: Date) => d.toISOString().slice(0, 10) + 'T00:00:00.000Z';

export function alertRow(tenantId: string, severity: 'info' | 'warning' | 'critical', createdAt: Date, source: string) {
  const key = crypto.randomBytes(6).toString('hex');
  return {
    tenantId,
    severity,
    summary: `${severity} ${source}`,
    source,
    dedupKey: key,
    liveDedupKey: key,
    createdAt,
    firstSeenAt: createdAt,
    lastSeenAt: createdAt,
  };
}

/** Six alerts over three days for a tenant (written directly with their creation times). */
export async function seedAlerts(tenantId: string): Promise<void> {
  const mk = (severity: 'info' | 'warning' | 'critical', createdAt: Date, source: string) =>
    alertRow(tenantId, severity, createdAt, source);
  await s.app.rt.prisma.alert.createMany({
    data: [
      mk('critical', daysAgo(0), 'db-1'),
      mk('critical', daysAgo(0), 'db-2'),
      mk('warning', daysAgo(0), 'web-1'),
      mk('critical', daysAgo(1), 'db-1'),
      mk('info', daysAgo(2), 'web-1'),
      mk('info', daysAgo(2), 'web-2'),
    ],
  });
}

/** Registers the file's hooks: the server, tenants and seeded data before; the receiver and server after. */
export function useReportsSuite(): void {
  beforeAll(async () => {
    s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' }, start: { clock } });
    t = await buildTenant(s.app.rt);
    other = await buildTenant(s.app.rt);
    aliceToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
    bobToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
    rcv = await startReceiver();
    // Events through the ingest API: 3 from ci, 2 from db-1 (with labels and payload).
    for (let i = 0; i < 3; i++)
      await ingest({
        type: 'deploy.started',
        source: 'ci',
        summary: `deploy ${i}`,
        severity: 'info',
        labels: { env: 'prod' },
        payload: { sha: `abc${i}`, duration: 10 * (i + 1) },
      });
    for (let i = 0; i < 2; i++)
      await ingest({
        type: 'disk.full',
        source: 'db-1',
        summary: `disk ${i}`,
        severity: 'critical',
        labels: { env: 'staging' },
        payload: { pct: 97 + i },
      });
    const foreign = await rest(s.url).post(
      '/events',
      { type: 'deploy.started', source: 'ci' },
      { headers: { 'x-service-key': other.ingestKey } },
    );
    expect(foreign.status).toBe(202);
    await seedAlerts(t.tenantId);
    await s.app.rt.prisma.alert.create({ data: alertRow(other.tenantId, 'critical', daysAgo(0), 'db-9') });
  });
  afterAll(async () => {
    await rcv?.close();
    await s?.stop();
  });
}
