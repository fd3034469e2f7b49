/**
 * One wire shape per alert: what REST answers for an alert and what the service sends elsewhere
 * (`alertChanged`, outbound webhook bodies, the assistant's tools, cluster forwarding: src/alerts/wire.ts)
 * agree field for field, so a change to one cannot drift from the other.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { rest } from './helpers/http.js';
import { alertWire } from '../src/alerts/wire.js';

let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

describe('the alert wire shape', () => {
  it('is what REST shows for the alert, in the list and the detail', async () => {
    const key = crypto.randomBytes(6).toString('hex');
    const now = new Date();
    const row = await s.app.rt.prisma.alert.create({
      data: {
        tenantId: t.tenantId,
        severity: 'critical',
        summary: 'disk full',
        source: 'db-1',
        dedupKey: key,
        liveDedupKey: key,
        status: 'acknowledged',
        acknowledgedAt: now,
        count: 3,
      },
    });
    const wire = alertWire(row) as unknown as Record<string, unknown>;
    const list = await rest(s.url, t.adminToken).get('/alerts');
    const item = (list.body.items as Array<Record<string, unknown>>).find((a) => a.id === row.id)!;
    const detail = (await rest(s.url, t.adminToken).get(`/alerts/${row.id}`)).body as Record<string, unknown>;
    for (const shown of [item, detail]) {
      const shared = Object.keys(shown).filter((k) => k in wire);
      // Every REST field of the alert row itself is in the wire shape, with the same value.
      expect(shared.length).toBeGreaterThanOrEqual(15);
      for (const k of shared) expect(shown[k], k).toEqual(wire[k]);
      const onlyRest = Object.keys(shown).filter((k) => !(k in wire));
      expect(
        onlyRest.every((k) =>
          ['allowed_actions', 'rule', 'assignee', 'maintenance_window', 'events', 'timeline'].includes(k),
        ),
        onlyRest.join(','),
      ).toBe(true);
    }
  });
});
