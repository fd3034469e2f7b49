/**
 * Rows a fan-out held back, kept for their first-attempts job (src/deliveries/held-rows.ts): the job
 * sends them without reading the deliveries again, but with their webhook as it is now, against Postgres,
 * Redis and real receivers on 127.0.0.1. The fan-out and the job's attempts are called directly (no
 * workers), so what the cap holds back and when the job runs are the test's to decide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant } from './factories.js';
import { countStatements } from './helpers/sql-statements.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { deliveryEngine, type DeliveryEngine } from '../src/deliveries/deps.js';
import { fanOutOutboxMessage } from '../src/deliveries/fanout.js';
import { attemptFirstDeliveries } from '../src/deliveries/first-attempts.js';
import { HeldRows } from '../src/deliveries/held-rows.js';
import { receiverKey } from '../src/deliveries/receiver-limits.js';
import { deliveryIdOf } from '../src/deliveries/ids.js';
import type { DeliveryWithWebhook } from '../src/deliveries/store.js';
import { writeOutbox } from '../src/outbox/outbox.js';

let s: TestServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
  // One request a second per receiver: a receiver's second message in a row is held back.
  s = await startTestServer({ start: { http: false, workers: false }, env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1', WEBHOOK_RATE_PER_SECOND: '1' } });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await s?.stop();
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

/** A tenant of its own with one webhook to `url`: the tenant's messages go to it alone. */
async function tenantWithWebhook(url: string): Promise<{ tenantId: string; hookId: string }> {
  const own = await buildTenant(s.app.rt);
  const hook = await s.app.rt.prisma.outboundWebhook.create({
    data: { tenantId: own.tenantId, name: 'held', url, secretCiphertext: s.app.rt.secretBox.seal('whsec_held_rows'), triggers: [{ on: 'ALERT_OPENED' }] },
  });
  return { tenantId: own.tenantId, hookId: hook.id };
}

async function message(tenantId: string): Promise<{ id: string; createdAt: Date }> {
  const createdAt = s.app.rt.clock.now();
  const id = await writeOutbox(s.app.rt.prisma, { createdAt, tenantId, topic: 'alert.opened', subjectId: 'held', body: { source: 'x', kind: 'alert.opened', severity: 'critical', labels: {}, payload: {} } });
  return { id, createdAt };
}

/** This test's engine: the process's, with held rows kept for ten minutes (the test decides when the job runs). */
function engine(): DeliveryEngine {
  return { ...deliveryEngine(s.app.rt), heldRows: new HeldRows(() => s.app.rt.clock.now().getTime(), 600_000) };
}

/** Two messages to the webhook: the first is sent from its fan-out, the second held back by the cap. Returns the held delivery's id. */
async function oneSentOneHeld(e: DeliveryEngine, tenantId: string, hookId: string, first: Receiver): Promise<string> {
  await fanOutOutboxMessage(s.app.rt, (await message(tenantId)).id, e);
  const second = await message(tenantId);
  await fanOutOutboxMessage(s.app.rt, second.id, e);
  expect(first.requests).toHaveLength(1);
  const held = deliveryIdOf(second.id, hookId, second.createdAt);
  expect(await s.app.rt.prisma.delivery.findFirstOrThrow({ where: { id: held } })).toMatchObject({ status: 'pending', attemptCount: 0 });
  expect(e.heldRows.take(held)).toMatchObject({ id: held, webhookId: hookId, attemptCount: 0 });
  return held;
}

/**
 * Runs the held delivery's first-attempts job (its attempts) until the cap no longer holds it back: this
 * process knows its receiver was full and holds it, unread, for up to a second (src/deliveries/receiver-limits.ts).
 */
async function runJob(e: DeliveryEngine, held: string, hookId: string): Promise<{ result: Awaited<ReturnType<typeof attemptFirstDeliveries>>; statements: string[] }> {
  for (;;) {
    const run = await countStatements(() => attemptFirstDeliveries(s.app.rt, e, [held], [hookId], e.heldRows));
    if (run.result.held.length === 0) return run;
    await new Promise((r) => setTimeout(r, run.result.held[0].retryInMs));
  }
}

const LOAD = /FROM "Delivery" d JOIN "OutboundWebhook"/;
const WEBHOOKS = /FROM "OutboundWebhook" WHERE "id" = ANY/;

describe("a held delivery's first attempt", () => {
  it('goes out from the row its fan-out kept, without reading the delivery, to its webhook as it is now', async () => {
    const [a, b] = [await receiver(), await receiver()];
    const { tenantId, hookId } = await tenantWithWebhook(a.url);
    const e = engine();
    const held = await oneSentOneHeld(e, tenantId, hookId, a);
    // Re-pointed after the fan-out read it: the held delivery goes to the new receiver (free, so at once).
    await s.app.rt.prisma.outboundWebhook.update({ where: { id: hookId }, data: { url: b.url } });
    const { result, statements } = await runJob(e, held, hookId);
    expect(result).toMatchObject({ settled: 1, held: [] });
    expect(b.requests.map((r) => r.headers['webhook-id'])).toEqual([held]);
    expect(a.requests).toHaveLength(1);
    expect(statements.some((q) => LOAD.test(q))).toBe(false);
    expect(statements.filter((q) => WEBHOOKS.test(q))).toHaveLength(1);
    expect(await s.app.rt.prisma.delivery.findFirstOrThrow({ where: { id: held } })).toMatchObject({ status: 'delivered', attemptCount: 1 });
    // Sent: the kept row is gone, and a second run of the job reads the delivery and sends nothing.
    expect(e.heldRows.take(held)).toBeUndefined();
    const again = await countStatements(() => attemptFirstDeliveries(s.app.rt, e, [held], [hookId], e.heldRows));
    expect(again.result).toMatchObject({ settled: 0, skipped: 1 });
    expect(again.statements.some((q) => LOAD.test(q))).toBe(true);
    expect(b.requests).toHaveLength(1);
  });

  it('is not sent when its webhook was disabled since the fan-out', async () => {
    const a = await receiver();
    const { tenantId, hookId } = await tenantWithWebhook(a.url);
    const e = engine();
    const held = await oneSentOneHeld(e, tenantId, hookId, a);
    await s.app.rt.prisma.outboundWebhook.update({ where: { id: hookId }, data: { enabled: false } });
    const { result: r } = await runJob(e, held, hookId);
    expect(r).toMatchObject({ settled: 1, held: [] });
    expect(a.requests).toHaveLength(1);
    expect(await s.app.rt.prisma.delivery.findFirstOrThrow({ where: { id: held } })).toMatchObject({ status: 'failed', lastError: 'webhook disabled before the delivery was sent' });
  });

  it('is gone, not sent, when its webhook was deleted since the fan-out', async () => {
    const a = await receiver();
    const { tenantId, hookId } = await tenantWithWebhook(a.url);
    const e = engine();
    const held = await oneSentOneHeld(e, tenantId, hookId, a);
    await s.app.rt.prisma.outboundWebhook.delete({ where: { id: hookId } });
    const { result: r } = await runJob(e, held, hookId);
    expect(r).toMatchObject({ settled: 0, skipped: 1, held: [] });
    expect(a.requests).toHaveLength(1);
  });

  it('stays kept while the cap still holds it back', async () => {
    const a = await receiver();
    const { tenantId, hookId } = await tenantWithWebhook(a.url);
    const e = engine();
    const held = await oneSentOneHeld(e, tenantId, hookId, a);
    // The receiver's window is kept full for ten minutes (an entry stamped then), however slow the machine.
    const key = `${s.app.rt.config.redisPrefix}:rl:webhook-receiver:${receiverKey(a.url)}`;
    await s.app.rt.redis.zadd(key, s.app.rt.clock.now().getTime() + 600_000, 'held-rows-test');
    await s.app.rt.redis.pexpire(key, 600_000);
    const r = await attemptFirstDeliveries(s.app.rt, e, [held], [hookId], e.heldRows);
    expect(r.held.map((h) => h.deliveryId)).toEqual([held]);
    expect(e.heldRows.take(held)).toMatchObject({ id: held });
    expect(a.requests).toHaveLength(1);
  });
});

describe('HeldRows', () => {
  const row = (id: string) => ({ id }) as DeliveryWithWebhook;

  it('answers with a kept row until it is older than its age bound, counted from when it was read', () => {
    let now = 1_000;
    const rows = new HeldRows(() => now, 5_000);
    rows.keep(row('a'), 900);
    expect(rows.take('a')).toEqual({ id: 'a' });
    now = 5_900;
    expect(rows.take('a')).toEqual({ id: 'a' });
    now = 5_901;
    expect(rows.take('a')).toBeUndefined();
  });

  it('forgets a dropped row, and never answers for one it did not keep', () => {
    const rows = new HeldRows(() => 0);
    rows.keep(row('a'), 0);
    rows.keep(row('b'), 0);
    rows.drop('a');
    expect(rows.take('a')).toBeUndefined();
    expect(rows.take('b')).toEqual({ id: 'b' });
    expect(rows.take('c')).toBeUndefined();
  });
});
