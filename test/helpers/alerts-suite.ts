/**
 * Shared set-up of the alert tests (test/alerts.test.ts, test/alerts-changes.test.ts): one server, the
 * caller's tenant with a member and two rules (`app.*` WARNING, `crit.*` CRITICAL), another tenant with a
 * rule of its own; `raise` ingests an event and waits for the alert it opens or bumps.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestServer, type TestServer } from './server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from '../factories.js';
import { eventually, gql, rest } from './http.js';

export let s: TestServer;
export let t: BuiltTenant;
export let other: BuiltTenant;
export let member: { id: string; email: string };
export let memberToken: string;
export let ruleId: string;

/** Registers the file's hooks: the server, tenants and rules before; the server stopped after. */
export function useAlertsSuite(): void {
  beforeAll(async () => {
    s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000' } });
    t = await buildTenant(s.app.rt);
    other = await buildTenant(s.app.rt);
    member = await buildUser(s.app.rt, t.tenantId);
    memberToken = await buildToken(s.app.rt, member as never);
    const r = await gql(
      s.url,
      t.adminToken,
      'mutation { createAlertRule(input: { name: "App", typeGlob: "app.*", alertSeverity: WARNING }) { id } }',
    );
    ruleId = r.data.createAlertRule.id;
    await gql(
      s.url,
      t.adminToken,
      'mutation { createAlertRule(input: { name: "Crit", typeGlob: "crit.*", alertSeverity: CRITICAL, dedupKeyTemplate: "crit:{{source}}" }) { id } }',
    );
    await gql(
      s.url,
      other.adminToken,
      'mutation { createAlertRule(input: { name: "Theirs", typeGlob: "app.*" }) { id } }',
    );
  });
  afterAll(async () => {
    await s?.stop();
  });
}

/** "Now" on the server's clock (TEST_TIME_OF_DAY may move it): times the tests send are built from it. */
export const now = (): number => s.app.rt.clock.now().getTime();

export let n = 0;
/** Ingests an event through POST /events and waits for the alert it opens or bumps. */
export async function raise(tenant: BuiltTenant, body: Record<string, unknown>): Promise<any> {
  const source = (body.source as string) ?? `src-${++n}`;
  const r = await rest(s.url).post(
    '/events',
    { type: 'app.error', ...body, source },
    { headers: { 'x-service-key': tenant.ingestKey } },
  );
  expect(r.status).toBe(202);
  return eventually(async () => {
    const ev = await s.app.rt.prisma.alertEvent.findFirst({ where: { eventId: r.body.id }, include: { alert: true } });
    return ev?.alert;
  });
}
