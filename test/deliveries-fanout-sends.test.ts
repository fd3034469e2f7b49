/**
 * The fan-out makes the first attempts of the deliveries it creates (no queue hop, no second read):
 * what the receiver's limits hold back goes on in a delayed first-attempts job, and while the fan-out's
 * own job is running the sweeper leaves its deliveries alone (a real receiver on 127.0.0.1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, gql } from './helpers/http.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { dispatchOutbox, outboxJobId, writeOutbox } from '../src/outbox/outbox.js';
import { firstAttemptsJobId } from '../src/deliveries/jobs.js';
import { redriveDeliveries } from '../src/deliveries/redrive.js';
import { attempt } from '../src/deliveries/engine.js';
import { fanOutOutboxMessage } from '../src/deliveries/fanout.js';
import { writeFanOutRows } from '../src/deliveries/first-write.js';
import { deliveryIdOf } from '../src/deliveries/ids.js';
import { deliveryEngine } from '../src/deliveries/deps.js';
import type { Runtime } from '../src/runtime.js';

let s: TestServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
  s = await startTestServer({
    env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1', WEBHOOK_RATE_PER_SECOND: '2', WEBHOOK_TIMEOUT_MS: '60000' },
  });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await s?.stop();
});

async function receiverWithWebhook(
  t: BuiltTenant,
  hold = false,
  server = s,
): Promise<{ rcv: Receiver; hookId: string }> {
  const rcv = await startReceiver(() => ({ status: 200, hold }));
  receivers.push(rcv);
  const r = await gql<{ createOutboundWebhook: { id: string } }>(
    server.url,
    t.adminToken,
    'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }',
    {
      input: { name: 'r', url: rcv.url, triggers: [{ on: 'ALERT_OPENED' }] },
    },
  );
  expect(r.errors).toBeUndefined();
  return { rcv, hookId: r.data!.createOutboundWebhook.id };
}

async function announce(t: BuiltTenant, n: number, rt: Runtime = s.app.rt): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(
      await writeOutbox(rt.prisma, {
        createdAt: rt.clock.now(),
        tenantId: t.tenantId,
        topic: 'alert.opened',
        subjectId: String(i),
        body: { source: 'x', kind: 'alert.opened', severity: 'critical', labels: {}, payload: { i } },
      }),
    );
  }
  await dispatchOutbox(rt, ids);
  return ids;
}

describe('first attempts from the fan-out', () => {
  it('sends what the cap admits from the fan-out; the rest waits in a delayed first-attempts job and goes out once', async () => {
    const t = await buildTenant(s.app.rt);
    const { rcv, hookId } = await receiverWithWebhook(t);
    const ids = await announce(t, 3);
    await eventually(
      async () => (await s.app.rt.prisma.delivery.count({ where: { webhookId: hookId, status: 'delivered' } })) === 3,
      20_000,
    );
    expect(rcv.requests).toHaveLength(3);
    expect(rcv.uniqueIds().size).toBe(3);
    // Two went out from their fan-out (no job of their own); the cap of 2 a second held the third.
    const queue = s.app.rt.queues.get('deliveries');
    const jobs = await Promise.all(ids.map((id) => queue.getJob(firstAttemptsJobId(id))));
    expect(jobs.filter((j) => j === undefined || j === null)).toHaveLength(2);
    const held = jobs.find((j) => j);
    expect(held?.data).toMatchObject({ deliveryIds: [expect.any(String)], webhookIds: [hookId] });
    expect(held?.opts.delay).toBeGreaterThan(0);
  });

  it('the sweeper leaves a first attempt alone while the fan-out that sends it is still running', async () => {
    const t = await buildTenant(s.app.rt);
    const { rcv, hookId } = await receiverWithWebhook(t, true);
    const [id] = await announce(t, 1);
    await eventually(async () => rcv.requests.length === 1, 20_000);
    // The request hangs; the fan-out writes its delivery `pending` once it has waited a second for it.
    const d = await eventually(
      () => s.app.rt.prisma.delivery.findFirst({ where: { webhookId: hookId, status: 'pending' } }),
      20_000,
    );
    // The fan-out's job is still active. Even long overdue, the delivery is not re-driven.
    const outboxJob = await s.app.rt.queues.get('outbox').getJob(outboxJobId(id));
    expect(await outboxJob?.getState()).toBe('active');
    const later = new Date(s.app.rt.clock.now().getTime() + 3_600_000);
    expect(await redriveDeliveries(s.app.rt, later)).toBe(0);
    expect(await s.app.rt.queues.get('deliveries').getJob(`${d.id}_1`)).toBeFalsy();
  });

  it('a fan-out whose sends cannot start gives its place in the gate up, so later messages are still fanned out', async () => {
    // One send slot, held by a request the receiver never answers (within the test): every later send waits.
    const one = await startTestServer({
      env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1', WEBHOOK_DELIVERY_CONCURRENCY: '1', WEBHOOK_TIMEOUT_MS: '600000' },
    });
    let rcv: Receiver | undefined;
    try {
      const t = await buildTenant(one.app.rt);
      const held = (await receiverWithWebhook(t, true, one)).rcv;
      rcv = held;
      receivers.splice(receivers.indexOf(held), 1);
      const ids = await announce(t, 12, one.app.rt);
      await eventually(async () => held.requests.length === 1, 20_000);
      // Messages 2–9 fill the gate's 8 places with sends that cannot start; 10–12 are fanned out anyway.
      await eventually(
        async () =>
          (await one.app.rt.prisma.outboxMessage.count({ where: { id: { in: ids }, dispatchedAt: { not: null } } })) ===
          12,
        20_000,
      );
      expect(await one.app.rt.prisma.delivery.count({ where: { outboxId: { in: ids } } })).toBe(12);
      expect(held.requests).toHaveLength(1);
    } finally {
      await rcv?.close(); // the held request fails, so the worker's jobs can end
      await one.stop();
    }
  });

  it('a first-attempts job may wait in the worker for a receiver that frees soon, its row in hand, instead of in Redis', async () => {
    const t = await buildTenant(s.app.rt);
    const { rcv, hookId } = await receiverWithWebhook(t);
    // The cap of 2 a second: both go, and a third request is refused (so this process knows the receiver
    // is full, and until when).
    await announce(t, 2);
    await eventually(
      async () => (await s.app.rt.prisma.delivery.count({ where: { webhookId: hookId, status: 'delivered' } })) === 2,
      20_000,
    );
    expect(await deliveryEngine(s.app.rt).limits.admit(rcv.url, hookId)).toMatchObject({ ok: false, reason: 'rate' });
    // A third delivery, written pending as a fan-out writes it, with no job: this test makes its attempt.
    const createdAt = s.app.rt.clock.now();
    const third = await writeOutbox(s.app.rt.prisma, {
      createdAt,
      tenantId: t.tenantId,
      topic: 'alert.opened',
      subjectId: 'third',
      body: { source: 'x', kind: 'alert.opened', severity: 'critical', labels: {}, payload: {} },
    });
    const id = deliveryIdOf(third, hookId, createdAt);
    await writeFanOutRows(
      s.app.rt,
      { id: third, createdAt },
      [
        {
          id,
          tenantId: t.tenantId,
          webhookId: hookId,
          outboxId: third,
          topic: 'alert.opened',
          body: JSON.stringify({ id }),
        },
      ],
      new Map(),
      createdAt,
    );
    const d = await s.app.rt.prisma.delivery.findFirstOrThrow({ where: { outboxId: third } });
    const deps = deliveryEngine(s.app.rt);
    expect(deps.limits.heldFor(hookId)).toBeGreaterThan(0);
    // Without leave to wait here it is handed back, to wait in Redis…
    const handedBack = await attempt(s.app.rt, deps, { deliveryIds: [d.id], webhookIds: [hookId] });
    expect(handedBack.held).toEqual([{ deliveryId: d.id, webhookId: hookId, retryInMs: expect.any(Number) }]);
    // …with leave, it waits for the receiver's room and goes out within the same call.
    const now = s.app.rt.clock.now().getTime();
    const waited = await attempt(s.app.rt, deps, {
      deliveryIds: [d.id],
      webhookIds: [hookId],
      waitHere: { eachMs: 2_000, untilMs: now + 5_000 },
    });
    expect(waited).toEqual({ settled: 1, skipped: 0, held: [] });
    expect(rcv.uniqueIds().size).toBe(3);
    expect(rcv.requests).toHaveLength(3);
  });

  it('a fan-out whose receiver frees within moments waits for it and writes the delivery once, sent, with no first-attempts job', async () => {
    const t = await buildTenant(s.app.rt);
    const { rcv, hookId } = await receiverWithWebhook(t);
    // The cap of 2 a second: both go, and a third request is refused (so this process knows the receiver
    // is full, and until when).
    await announce(t, 2);
    await eventually(
      async () => (await s.app.rt.prisma.delivery.count({ where: { webhookId: hookId, status: 'delivered' } })) === 2,
      20_000,
    );
    const engine = deliveryEngine(s.app.rt);
    expect(await engine.limits.admit(rcv.url, hookId)).toMatchObject({ ok: false, reason: 'rate' });
    await eventually(
      async () => {
        const held = engine.limits.heldFor(hookId);
        return held > 0 && held <= 200;
      },
      20_000,
      5,
    );
    // Fanned out here, not through the queue, while the receiver is still full for at most 200 ms.
    const id = await writeOutbox(s.app.rt.prisma, {
      createdAt: s.app.rt.clock.now(),
      tenantId: t.tenantId,
      topic: 'alert.opened',
      subjectId: 'soon',
      body: { source: 'x', kind: 'alert.opened', severity: 'critical', labels: {}, payload: {} },
    });
    expect(engine.limits.heldFor(hookId)).toBeGreaterThan(0);
    expect(await fanOutOutboxMessage(s.app.rt, id, engine)).toBe(1);
    const d = await s.app.rt.prisma.delivery.findFirstOrThrow({ where: { outboxId: id } });
    expect(d).toMatchObject({ status: 'delivered', attemptCount: 1 });
    expect(await s.app.rt.queues.get('deliveries').getJob(firstAttemptsJobId(id))).toBeFalsy();
    expect(rcv.requests).toHaveLength(3);
    expect(rcv.uniqueIds().has(d.id)).toBe(true);
  });
});
