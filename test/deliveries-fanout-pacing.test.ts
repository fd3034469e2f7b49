/**
 * A fan-out whose receivers this process knows to be full for longer than one wait here keeps its place
 * and waits for their room to come near (src/deliveries/fanout.ts, `untilRoomNears`), then sends from the
 * fan-out, instead of handing every delivery at once to a delayed first-attempts job; at most half the
 * gate waits so, so another tenant's fan-out is not held up. Real Postgres, Redis and receivers on
 * 127.0.0.1; the cap is 1 request per second per receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { eventually } from './helpers/http.js';
import { deliveryEngine } from '../src/deliveries/deps.js';
import { fanOutOutboxMessage } from '../src/deliveries/fanout.js';
import { writeOutbox } from '../src/outbox/outbox.js';
import { newDeliveryId } from '../src/deliveries/ids.js';

let s: TestServer;
let t: BuiltTenant;
let receiver: Receiver;
const others: Receiver[] = [];

beforeAll(async () => {
  s = await startTestServer({
    start: { http: false, workers: false },
    env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1', WEBHOOK_RATE_PER_SECOND: '1' },
  });
  t = await buildTenant(s.app.rt);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await Promise.all(others.map((r) => r.close()));
  await s?.stop();
});

async function hookTo(tenantId: string, url: string): Promise<string> {
  const rt = s.app.rt;
  const hook = await rt.prisma.outboundWebhook.create({
    data: {
      tenantId,
      name: 'pacing',
      url,
      secretCiphertext: rt.secretBox.seal('whsec_pacing'),
      triggers: [{ on: 'ALERT_OPENED' }],
    },
  });
  return hook.id;
}

function announce(tenantId: string): Promise<string> {
  return writeOutbox(s.app.rt.prisma, {
    createdAt: s.app.rt.clock.now(),
    tenantId,
    topic: 'alert.opened',
    subjectId: newDeliveryId(),
    body: { source: 'x', kind: 'alert.opened', severity: 'critical', labels: {}, payload: {} },
  });
}

describe('a fan-out to receivers known to be full', () => {
  it('waits for their room to come near and sends from the fan-out: the delivery is written delivered, no first-attempts job', async () => {
    const rt = s.app.rt;
    const engine = deliveryEngine(rt);
    const hook = await rt.prisma.outboundWebhook.create({
      data: {
        tenantId: t.tenantId,
        name: 'pacing',
        url: receiver.url,
        secretCiphertext: rt.secretBox.seal('whsec_pacing'),
        triggers: [{ on: 'ALERT_OPENED' }],
      },
    });
    // The receiver's second is taken (1/s), and this process has been told so: it is full for about a second.
    const first = await engine.limits.admit(receiver.url, hook.id);
    expect(first.ok).toBe(true);
    if (first.ok) first.release();
    expect((await engine.limits.admit(receiver.url, hook.id)).ok).toBe(false);
    expect(engine.limits.heldFor(hook.id)).toBeGreaterThan(250);

    const id = await writeOutbox(rt.prisma, {
      createdAt: rt.clock.now(),
      tenantId: t.tenantId,
      topic: 'alert.opened',
      subjectId: newDeliveryId(),
      body: { source: 'x', kind: 'alert.opened', severity: 'critical', labels: {}, payload: {} },
    });
    expect(await fanOutOutboxMessage(rt, id, engine)).toBe(1);

    // Sent by the fan-out itself once the room came: written delivered, with nothing left to a job.
    const [delivery] = await rt.prisma.delivery.findMany({
      where: { outboxId: id },
      select: { status: true, attemptCount: true },
    });
    expect(delivery).toEqual({ status: 'delivered', attemptCount: 1 });
    expect(receiver.requests).toHaveLength(1);
    const jobs = await rt.queues.get('deliveries').getJobs(['delayed', 'waiting']);
    expect(jobs.filter((j) => 'outboxId' in j.data && j.data.outboxId === id)).toHaveLength(0);
  });

  it("waits in at most half the gate's places: another tenant's fan-out goes through while they wait", async () => {
    const rt = s.app.rt;
    const engine = deliveryEngine(rt);
    const full = await startReceiver();
    const free = await startReceiver();
    others.push(full, free);
    const flooding = await buildTenant(rt);
    const fullHook = await hookTo(flooding.tenantId, full.url);
    const other = await buildTenant(rt);
    await hookTo(other.tenantId, free.url);
    const first = await engine.limits.admit(full.url, fullHook);
    if (first.ok) first.release();
    expect((await engine.limits.admit(full.url, fullHook)).ok).toBe(false);

    // Ten messages to the full receiver: four wait for its room (each holding a gate place), the others are handed on.
    expect(engine.limits.heldFor(fullHook)).toBeGreaterThan(250);
    const mine = await Promise.all(Array.from({ length: 10 }, () => announce(flooding.tenantId)));
    let waitingDone = 0;
    const fanOuts = mine.map((id) => fanOutOutboxMessage(rt, id, engine).then(() => waitingDone++));
    // Until the ones handed on are done (not a fixed pause: on a loaded machine they may take longer), while four still wait.
    await eventually(async () => waitingDone >= 6, 5_000, 5);
    const before = waitingDone;
    const theirs = await announce(other.tenantId);
    expect(await fanOutOutboxMessage(rt, theirs, engine)).toBe(1);
    // The other tenant's delivery went out while the waiting fan-outs still waited (they wait ~0.75 s).
    expect(free.requests).toHaveLength(1);
    expect(waitingDone - before).toBe(0);
    expect(waitingDone).toBeLessThanOrEqual(6);
    await Promise.all(fanOuts);
  });
});
