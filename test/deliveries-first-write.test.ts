/**
 * A fan-out's rows written once with their first attempts' outcomes (src/deliveries/first-write.ts),
 * against Postgres, and delivery ids that every run of a message's fan-out makes alike
 * (src/deliveries/ids.ts), with a real receiver on 127.0.0.1, and the fan-out's read of its message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { countStatements } from './helpers/sql-statements.js';
import { waitForLockWait } from './helpers/lock-waits.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { FanOutWrite, type PlannedDelivery } from '../src/deliveries/first-write.js';
import { DeliveryStore, type AttemptRecord } from '../src/deliveries/store.js';
import { deliveryIdOf, newDeliveryId } from '../src/deliveries/ids.js';
import { deliveryEngine } from '../src/deliveries/deps.js';
import { fanOutOutboxMessage } from '../src/deliveries/fanout.js';
import { writeOutbox } from '../src/outbox/outbox.js';

let s: TestServer;
let t: BuiltTenant;
let store: DeliveryStore;
const receivers: Receiver[] = [];

beforeAll(async () => {
  s = await startTestServer({ start: { http: false, workers: false }, env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
  t = await buildTenant(s.app.rt);
  store = new DeliveryStore(s.app.rt);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await s?.stop();
});

async function webhook(url = 'http://127.0.0.1:9/hook', tenantId = t.tenantId, createdAt?: Date): Promise<string> {
  const hook = await s.app.rt.prisma.outboundWebhook.create({
    data: {
      tenantId,
      createdAt,
      name: 'first-write',
      url,
      secretCiphertext: s.app.rt.secretBox.seal('whsec_first_write'),
      triggers: [{ on: 'ALERT_OPENED' }],
    },
  });
  return hook.id;
}

async function message(
  tenantId = t.tenantId,
  createdAt = s.app.rt.clock.now(),
): Promise<{ id: string; createdAt: Date }> {
  const id = await writeOutbox(s.app.rt.prisma, {
    createdAt,
    tenantId,
    topic: 'alert.opened',
    subjectId: newDeliveryId(),
    body: { source: 'x', kind: 'alert.opened', severity: 'critical', labels: {}, payload: {} },
  });
  return { id, createdAt };
}

async function planned(n: number): Promise<{ msg: { id: string; createdAt: Date }; rows: PlannedDelivery[] }> {
  const msg = await message();
  const rows: PlannedDelivery[] = [];
  for (let i = 0; i < n; i++) {
    const webhookId = await webhook();
    const id = deliveryIdOf(msg.id, webhookId, msg.createdAt);
    rows.push({
      id,
      tenantId: t.tenantId,
      webhookId,
      outboxId: msg.id,
      topic: 'alert.opened',
      body: JSON.stringify({ id }),
    });
  }
  return { msg, rows };
}

function outcome(d: { id: string }, createdAt: Date, status: AttemptRecord['status'] = 'delivered'): AttemptRecord {
  const at = s.app.rt.clock.now();
  return {
    deliveryId: d.id,
    deliveryCreatedAt: createdAt,
    attempt: 1,
    status,
    nextAttemptAt: status === 'retrying' ? new Date(at.getTime() + 30_000) : null,
    lastError: status === 'retrying' ? 'HTTP 503' : null,
    at,
    attemptId: newDeliveryId(),
    requestHeaders: { 'webhook-id': d.id },
    responseStatus: status === 'retrying' ? 503 : 200,
    responseBody: 'ok',
    durationMs: 3,
    attemptError: null,
  };
}

const rowsOf = (outboxId: string) =>
  s.app.rt.prisma.delivery.findMany({
    where: { outboxId },
    select: { id: true, status: true, attemptCount: true, deliveredAt: true },
    orderBy: { id: 'asc' },
  });
const attemptsOf = (ids: string[]) =>
  s.app.rt.prisma.deliveryAttempt.findMany({
    where: { deliveryId: { in: ids } },
    select: { deliveryId: true, number: true, responseStatus: true },
  });

describe("a fan-out's write", () => {
  it('inserts each delivery once, with its first outcome and attempt, and marks the message dispatched in the same statement', async () => {
    const { msg, rows } = await planned(3);
    const { result, statements } = await countStatements(async () => {
      const write = new FanOutWrite(s.app.rt, store, msg, rows, s.app.rt.clock.now(), 60_000);
      const recorded = Promise.all([
        write.record(outcome(rows[0], msg.createdAt)),
        write.record(outcome(rows[1], msg.createdAt, 'retrying')),
      ]);
      write.done(rows[2].id); // held back by its receiver's limits
      return { recorded: await recorded, inserted: await write.inserted };
    });
    expect(result.recorded).toEqual([true, true]);
    expect([...result.inserted].sort()).toEqual(rows.map((r) => r.id).sort());
    const byId = new Map((await rowsOf(msg.id)).map((r) => [r.id, r]));
    expect(byId.get(rows[0].id)).toMatchObject({ status: 'delivered', attemptCount: 1, deliveredAt: expect.any(Date) });
    expect(byId.get(rows[1].id)).toMatchObject({ status: 'retrying', attemptCount: 1, deliveredAt: null });
    expect(byId.get(rows[2].id)).toMatchObject({ status: 'pending', attemptCount: 0 });
    const attempts = await attemptsOf(rows.map((r) => r.id));
    expect(attempts.map((a) => [a.deliveryId, a.number, a.responseStatus]).sort()).toEqual(
      [
        [rows[0].id, 1, 200],
        [rows[1].id, 1, 503],
      ].sort(),
    );
    // One statement did it all: no UPDATE of a delivery row, no separate record.
    expect(statements.filter((q) => /"Delivery"/.test(q))).toHaveLength(1);
    expect(statements.some((q) => /UPDATE "Delivery/.test(q))).toBe(false);
    expect(
      (await s.app.rt.prisma.outboxMessage.findFirstOrThrow({ where: { id: msg.id } })).dispatchedAt,
    ).not.toBeNull();
  });

  it('writes an attempt still in flight as pending once the wait is over; its outcome is then recorded as usual', async () => {
    const { msg, rows } = await planned(2);
    const write = new FanOutWrite(s.app.rt, store, msg, rows, s.app.rt.clock.now(), 50);
    const first = write.record(outcome(rows[0], msg.createdAt));
    // rows[1]'s receiver has not answered: the write does not wait for it past 50 ms.
    expect([...(await write.inserted)].sort()).toEqual(rows.map((r) => r.id).sort());
    expect(await first).toBe(true);
    expect((await rowsOf(msg.id)).find((r) => r.id === rows[1].id)).toMatchObject({
      status: 'pending',
      attemptCount: 0,
    });
    expect(await write.record(outcome(rows[1], msg.createdAt))).toBe(true);
    expect((await rowsOf(msg.id)).find((r) => r.id === rows[1].id)).toMatchObject({
      status: 'delivered',
      attemptCount: 1,
    });
    expect(await attemptsOf([rows[1].id])).toHaveLength(1);
  });

  it('records an outcome that comes while the write is under way once the write has committed', async () => {
    const { msg, rows } = await planned(1);
    // Another session holds the message row, so the write (which marks it dispatched) stays uncommitted.
    const holder = new pg.Client({ connectionString: s.db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM "OutboxMessage" WHERE "id" = $1 FOR UPDATE', [msg.id]);
      // The store's own record, watched: it must run after the commit, never before (where it missed the row).
      const store = new DeliveryStore(s.app.rt, { loadMs: 1, recordMs: 1 });
      const order: string[] = [];
      const storeRecord = store.record.bind(store);
      store.record = (rec) => {
        order.push('store.record');
        return storeRecord(rec);
      };
      const write = new FanOutWrite(s.app.rt, store, msg, rows, s.app.rt.clock.now(), 10);
      await waitForLockWait(s.app.rt.prisma, ['INSERT INTO "Delivery"']);
      // The attempt was in flight when the wait ran out; its outcome comes now, while the row is not yet visible.
      const recorded = write.record(outcome(rows[0], msg.createdAt));
      await holder.query('COMMIT');
      order.push('commit');
      expect(await recorded).toBe(true);
      expect(order).toEqual(['commit', 'store.record']);
    } finally {
      await holder.end();
    }
    expect((await rowsOf(msg.id))[0]).toMatchObject({ status: 'delivered', attemptCount: 1 });
  });

  it("writes each body byte for byte and each time to the millisecond, whether the rows' bodies share their rest (sent once) or not", async () => {
    const rest =
      '"timestamp":"2026-11-28T09:00:00.123Z","topic":"alert.opened","payload":{"note":"quote \\" backslash \\\\ é ✓"}}';
    for (const shared of [true, false]) {
      const { msg, rows } = await planned(3);
      // A fan-out's bodies: the id first, then the same rest; otherwise (a test's, an old run's) any body.
      for (const [k, r] of rows.entries())
        r.body = shared
          ? `{"id":"${r.id}",${rest}`
          : k === 1
            ? `{"id":"${r.id}","other":true}`
            : `{"id":"${r.id}",${rest}`;
      const now = new Date(Date.UTC(2026, 10, 28, 9, 0, 0, 7));
      const write = new FanOutWrite(s.app.rt, store, msg, rows, now, 60_000);
      const o = { ...outcome(rows[0], msg.createdAt), at: new Date(Date.UTC(2026, 10, 28, 9, 0, 1, 999)) };
      const r2 = {
        ...outcome(rows[1], msg.createdAt, 'retrying'),
        nextAttemptAt: new Date(Date.UTC(2026, 10, 28, 9, 0, 31, 1)),
      };
      const recorded = Promise.all([write.record(o), write.record(r2)]);
      write.done(rows[2].id);
      await recorded;
      const got = new Map(
        (
          await s.app.rt.prisma.delivery.findMany({
            where: { outboxId: msg.id },
            select: { id: true, body: true, deliveredAt: true, nextAttemptAt: true, windowStartedAt: true },
          })
        ).map((d) => [d.id, d]),
      );
      for (const r of rows) expect(got.get(r.id)?.body).toBe(r.body);
      expect(got.get(rows[0].id)?.deliveredAt?.toISOString()).toBe('2026-11-28T09:00:01.999Z');
      expect(got.get(rows[1].id)?.nextAttemptAt?.toISOString()).toBe('2026-11-28T09:00:31.001Z');
      expect(got.get(rows[2].id)?.nextAttemptAt?.toISOString()).toBe('2026-11-28T09:00:00.007Z');
      expect(got.get(rows[2].id)?.windowStartedAt.toISOString()).toBe('2026-11-28T09:00:00.007Z');
      const [att] = await s.app.rt.prisma.deliveryAttempt.findMany({
        where: { deliveryId: rows[0].id },
        select: { createdAt: true },
      });
      expect(att.createdAt.toISOString()).toBe('2026-11-28T09:00:01.999Z');
    }
  });

  it('leaves deliveries another run wrote alone: their outcomes from this run are not recorded', async () => {
    const { msg, rows } = await planned(2);
    const earlier = new FanOutWrite(s.app.rt, store, msg, rows, s.app.rt.clock.now(), 60_000);
    expect(await Promise.all(rows.map((r) => earlier.record(outcome(r, msg.createdAt))))).toEqual([true, true]);
    const again = new FanOutWrite(s.app.rt, store, msg, rows, s.app.rt.clock.now(), 60_000);
    expect(await Promise.all(rows.map((r) => again.record(outcome(r, msg.createdAt, 'retrying'))))).toEqual([
      false,
      false,
    ]);
    expect((await again.inserted).size).toBe(0);
    expect((await rowsOf(msg.id)).map((r) => r.status)).toEqual(['delivered', 'delivered']);
    expect(await attemptsOf(rows.map((r) => r.id))).toHaveLength(2);
  });
});

describe('delivery ids', () => {
  it('name a delivery by its message and webhook: a UUIDv7 at the message time', () => {
    const at = new Date('2026-11-27T21:00:00.123Z');
    const a = deliveryIdOf('msg-1', 'hook-1', at);
    expect(deliveryIdOf('msg-1', 'hook-1', at)).toBe(a);
    expect(deliveryIdOf('msg-1', 'hook-2', at)).not.toBe(a);
    expect(deliveryIdOf('msg-2', 'hook-1', at)).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(a.slice(0, 8) + a.slice(9, 13), 16)).toBe(at.getTime());
  });

  it('a fan-out run again after a run that sent but never wrote sends the same webhook-id, and keeps one row', async () => {
    const rcv = await startReceiver();
    receivers.push(rcv);
    const own = await buildTenant(s.app.rt);
    const hookId = await webhook(rcv.url, own.tenantId);
    const msg = await message(own.tenantId);
    const engine = deliveryEngine(s.app.rt);
    expect(await fanOutOutboxMessage(s.app.rt, msg.id, engine)).toBe(1);
    // As if that run had died after its send, before its write: no rows, the message not dispatched.
    const first = await s.app.rt.prisma.delivery.findFirstOrThrow({ where: { outboxId: msg.id, webhookId: hookId } });
    await s.app.rt.prisma.deliveryAttempt.deleteMany({ where: { deliveryId: first.id } });
    await s.app.rt.prisma.delivery.deleteMany({ where: { outboxId: msg.id } });
    await s.app.rt.prisma.outboxMessage.updateMany({ where: { id: msg.id }, data: { dispatchedAt: null } });
    await fanOutOutboxMessage(s.app.rt, msg.id, engine);
    const ids = rcv.requests.map((r) => r.headers['webhook-id']);
    expect(ids).toEqual([first.id, first.id]);
    expect(
      await s.app.rt.prisma.delivery.findMany({
        where: { outboxId: msg.id, webhookId: hookId },
        select: { id: true, status: true },
      }),
    ).toEqual([{ id: first.id, status: 'delivered' }]);
  });
});

describe("the fan-out's message read", () => {
  const reads = (statements: string[]) => statements.filter((q) => /FROM "OutboxMessage" m/.test(q));

  it('looks for the message within a day of the time its id carries, so only those days are planned', async () => {
    const own = await buildTenant(s.app.rt);
    await webhook(undefined, own.tenantId);
    const msg = await message(own.tenantId);
    const { result, statements } = await countStatements(() => fanOutOutboxMessage(s.app.rt, msg.id));
    expect(result).toBe(1);
    expect(reads(statements)).toHaveLength(1);
    expect(reads(statements)[0]).toMatch(/m\."createdAt" BETWEEN/);
  });

  it('still finds a message whose time is far from its id (written with an earlier createdAt), by its id alone', async () => {
    const own = await buildTenant(s.app.rt);
    const long = new Date(s.app.rt.clock.now().getTime() - 10 * 24 * 3600_000);
    await webhook(undefined, own.tenantId, new Date(long.getTime() - 3600_000));
    const msg = await message(own.tenantId, long);
    const { result, statements } = await countStatements(() => fanOutOutboxMessage(s.app.rt, msg.id));
    expect(result).toBe(1);
    expect(reads(statements)).toHaveLength(2);
    expect(await s.app.rt.prisma.delivery.count({ where: { outboxId: msg.id } })).toBe(1);
  });
});
