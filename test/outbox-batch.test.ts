/**
 * Announcing several changes in one statement (writeOutboxBatch, used by the EVENT trigger after an
 * evaluation batch): the rows as given, UUIDv7 ids at their time, and a message whose dedupKey exists is
 * skipped, also inside the caller's transaction (real Postgres).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant } from './factories.js';
import { writeOutboxBatch } from '../src/outbox/outbox.js';
import { writeEventTriggerOutbox } from '../src/webhooks/event-triggers.js';
import { uuidv7Millis } from '../src/deliveries/ids.js';
import { gql } from './helpers/http.js';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
});
afterAll(async () => {
  await s?.stop();
});

describe('writeOutboxBatch', () => {
  it('writes the messages as given, one UUIDv7 each at its time, and skips those whose dedupKey exists', async () => {
    const t = await buildTenant(s.app.rt);
    const at = new Date(s.app.rt.clock.now().getTime() - 1234);
    const row = (n: number, dedupKey?: string) => ({
      tenantId: t.tenantId,
      topic: 'alert.opened' as const,
      subjectId: `s${n}`,
      body: { source: 'x', kind: 'alert.opened', labels: { n: String(n) }, payload: { n, nested: { quote: 'a"b' } } },
      createdAt: at,
      dedupKey,
    });
    const ids = await writeOutboxBatch(s.app.rt.prisma, [
      row(1, `k1-${t.tenantId}`),
      row(2),
      row(3, `k3-${t.tenantId}`),
    ]);
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(Math.abs(uuidv7Millis(id)! - Date.now())).toBeLessThan(60_000);
    const stored = await s.app.rt.prisma.outboxMessage.findMany({
      where: { id: { in: ids } },
      orderBy: { subjectId: 'asc' },
    });
    expect(stored.map((m) => [m.subjectId, m.topic, m.createdAt.getTime(), m.dispatchedAt, m.body])).toEqual(
      [1, 2, 3].map((n) => [`s${n}`, 'alert.opened', at.getTime(), null, row(n).body]),
    );
    expect(stored.map((m) => m.dedupKey)).toEqual([`k1-${t.tenantId}`, null, `k3-${t.tenantId}`]);
    // Again, in a transaction: the two with a known key are skipped; the new one and the keyless one are written.
    const again = await s.app.rt.prisma.$transaction((tx) =>
      writeOutboxBatch(tx, [
        row(1, `k1-${t.tenantId}`),
        row(4),
        row(3, `k3-${t.tenantId}`),
        row(5, `k5-${t.tenantId}`),
      ]),
    );
    expect(again).toHaveLength(2);
    const added = await s.app.rt.prisma.outboxMessage.findMany({
      where: { id: { in: again } },
      orderBy: { subjectId: 'asc' },
    });
    expect(added.map((m) => m.subjectId)).toEqual(['s4', 's5']);
    expect(await writeOutboxBatch(s.app.rt.prisma, [])).toEqual([]);
  });

  it('an EVENT trigger announces each event once, however often its batch is written', async () => {
    const t = await buildTenant(s.app.rt);
    const r = await gql(
      s.url,
      t.adminToken,
      'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }',
      {
        input: { name: 'e', url: 'http://127.0.0.1:9/hook', triggers: [{ on: 'EVENT', typeGlob: 'deploy.*' }] },
      },
    );
    expect(r.errors).toBeUndefined();
    const ev = (id: string, type: string) => ({
      id,
      tenantId: t.tenantId,
      type,
      source: 'ci',
      severity: 'info',
      labels: {},
      payload: {},
    });
    const now = s.app.rt.clock.now();
    const first = await writeEventTriggerOutbox(
      s.app.rt.prisma,
      [ev(`e1-${t.tenantId}`, 'deploy.done'), ev(`e2-${t.tenantId}`, 'backup.done')],
      now,
    );
    expect(first).toHaveLength(1);
    const second = await writeEventTriggerOutbox(
      s.app.rt.prisma,
      [ev(`e1-${t.tenantId}`, 'deploy.done'), ev(`e3-${t.tenantId}`, 'deploy.started')],
      now,
    );
    expect(second).toHaveLength(1);
    const msgs = await s.app.rt.prisma.outboxMessage.findMany({
      where: { tenantId: t.tenantId, topic: 'event.received' },
      orderBy: { subjectId: 'asc' },
    });
    expect(msgs.map((m) => m.subjectId)).toEqual([`e1-${t.tenantId}`, `e3-${t.tenantId}`]);
  });
});
