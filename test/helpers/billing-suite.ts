/**
 * Shared set-up of the billing tests (test/billing*.test.ts): one server with workers on; `meter` re-meters
 * the windows since the file started and waits until none is pending. Each describe makes its own tenant.
 */
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { startTestServer, type TestServer } from './server.js';
import { type BuiltTenant } from '../factories.js';
import { eventually, gql, rest } from './http.js';
import { type Receiver } from './webhook-receiver.js';

// Metering runs real jobs on a shared 2-core machine: generous limits (facts are awaited, never time).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

export let s: TestServer;
export const receivers: Receiver[] = [];

/** Registers the file's hooks: the server before; receivers and server after. */
export function useBillingSuite(): void {
  beforeAll(async () => {
    s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000', WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
    T0 = now();
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await s?.stop();
  });
}

export const HOUR = 3600_000;
export const hourStart = (t: number) => new Date(Math.floor(t / HOUR) * HOUR);
/** "Now" on the server's clock (TEST_TIME_OF_DAY may move it): the tests' data is stamped from it. */
export const now = (): number => s.app.rt.clock.now().getTime();
/** Every event of this file is received after this (server time): metering from its hour on covers them all. */
export let T0: number;

export async function ingest(t: BuiltTenant, body: Record<string, unknown>): Promise<string> {
  const r = await rest(s.url).post('/events', body, { headers: { 'x-service-key': t.ingestKey } });
  expect(r.status).toBe(202);
  return r.body.id;
}

/** Re-meters the windows from `from` (default: the hour this file started in) to now and waits until none is pending. */
export async function meter(t: BuiltTenant, from = hourStart(T0).toISOString()): Promise<void> {
  const r = await gql(s.url, t.adminToken, 'mutation($from: String) { recomputeUsage(from: $from) }', { from });
  expect(r.errors).toBeUndefined();
  expect(r.data.recomputeUsage).toBeGreaterThan(0);
  await eventually(
    async () => {
      const c = await gql(s.url, t.adminToken, '{ billing { current { metering { pendingWindows } } } }');
      return c.data.billing.current.metering.pendingWindows === 0;
    },
    90_000,
    200,
  );
}

export async function usageRows(t: BuiltTenant) {
  const rows = await s.app.rt.prisma.billingUsage.findMany({
    where: { tenantId: t.tenantId },
    orderBy: [{ meter: 'asc' }, { windowStart: 'asc' }, { dimension: 'asc' }],
  });
  return rows.map((r) => ({
    meter: r.meter,
    windowStart: r.windowStart.toISOString(),
    dimension: r.dimension,
    quantity: r.quantity.toString(),
  }));
}
