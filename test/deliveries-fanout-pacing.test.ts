/**
 * A fan-out whose receivers this process knows to be full for longer than one wait here keeps its place
 * and waits for their room to come near (src/deliveries/fanout.ts, `untilRoomNears`), then sends from the
 * fan-out, instead of handing every delivery at once to a delayed first-attempts job. Real Postgres, Redis
 * and a receiver on 127.0.0.1; the cap is 1 request per second per receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { deliveryEngine } from '../src/deliveries/deps.js';
import { fanOutOutboxMessage } from '../src/deliveries/fanout.js';
import { writeOutbox } from '../src/outbox/outbox.js';
import { newDeliveryId } from '../src/deliveries/ids.js';

let s: TestServer;
let t: BuiltTenant;
let receiver: Receiver;

beforeAll(async () => {
  s = await startTestServer({ start: { http: false, workers: false }, env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1', WEBHOOK_RATE_PER_SECOND: '1' } });
  t = await buildTenant(s.app.rt);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await s?.stop();
});

describe("a fan-out to receivers known to be full", () => {
  it('waits for their room to come near and sends from the fan-out: the delivery is written delivered, no first-attempts job', async () => {
    const rt = s.app.rt;
    const engine = deliveryEngine(rt);
    const hook = await rt.prisma.outboundWebhook.create({
      data: { tenantId: t.tenantId, name: 'pacing', url: receiver.url, secretCiphertext: rt.secretBox.seal('whsec_pacing'), triggers: [{ on: 'ALERT_OPENED' }] },
    });
    // The receiver's second is taken (1/s), and this process has been told so: it is full for about a second.
    const first = await engine.limits.admit(receiver.url, hook.id);
    expect(first.ok).toBe(true);
    if (first.ok) first.release();
    expect((await engine.limits.admit(receiver.url, hook.id)).ok).toBe(false);
    expect(engine.limits.heldFor(hook.id)).toBeGreaterThan(250);

    const id = await writeOutbox(rt.prisma, { createdAt: rt.clock.now(), tenantId: t.tenantId, topic: 'alert.opened', subjectId: newDeliveryId(), body: { source: 'x', kind: 'alert.opened', severity: 'critical', labels: {}, payload: {} } });
    expect(await fanOutOutboxMessage(rt, id, engine)).toBe(1);

    // Sent by the fan-out itself once the room came: written delivered, with nothing left to a job.
    const [delivery] = await rt.prisma.delivery.findMany({ where: { outboxId: id }, select: { status: true, attemptCount: true } });
    expect(delivery).toEqual({ status: 'delivered', attemptCount: 1 });
    expect(receiver.requests).toHaveLength(1);
    const jobs = await rt.queues.get('deliveries').getJobs(['delayed', 'waiting']);
    expect(jobs.filter((j) => 'outboxId' in j.data && j.data.outboxId === id)).toHaveLength(0);
  });
});
