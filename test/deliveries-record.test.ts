/**
 * The batched attempt record (src/deliveries/store.ts) against Postgres: a batch addresses each day's
 * partition of "Delivery" directly, falls back to the parent for a day without a partition (its rows wait
 * in the default partition), records each attempt number once, and never reopens a settled delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startTestServer, type TestServer } from './helpers/server.js';
import { waitForLockWait } from './helpers/lock-waits.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { countStatements } from './helpers/sql-statements.js';
import { DeliveryStore, type AttemptRecord } from '../src/deliveries/store.js';
import { newDeliveryId } from '../src/deliveries/ids.js';
import { ensurePartitions, partitionName } from '../src/history/partitions.js';
import { partitionedTable } from '../src/history/tables.js';
import { sqlTimestamp } from '../src/db/timestamps.js';

let s: TestServer;
let t: BuiltTenant;
let webhookId: string;

beforeAll(async () => {
  s = await startTestServer({ start: { http: false, workers: false } });
  t = await buildTenant(s.app.rt);
  const hook = await s.app.rt.prisma.outboundWebhook.create({
    data: {
      tenantId: t.tenantId,
      name: 'record',
      url: 'http://127.0.0.1:9/hook',
      secretCiphertext: s.app.rt.secretBox.seal('whsec_record'),
    },
  });
  webhookId = hook.id;
});
afterAll(async () => {
  await s?.stop();
});

async function delivery(createdAt: Date): Promise<{ id: string; createdAt: Date }> {
  const id = newDeliveryId();
  await s.app.rt.prisma.delivery.create({
    data: {
      id,
      tenantId: t.tenantId,
      webhookId,
      topic: 'alert.opened',
      body: '{}',
      nextAttemptAt: createdAt,
      windowStartedAt: createdAt,
      createdAt,
    },
  });
  return { id, createdAt };
}

function outcome(
  d: { id: string; createdAt: Date },
  attempt = 1,
  status: AttemptRecord['status'] = 'delivered',
): AttemptRecord {
  const at = s.app.rt.clock.now();
  return {
    deliveryId: d.id,
    deliveryCreatedAt: d.createdAt,
    attempt,
    status,
    nextAttemptAt: null,
    lastError: null,
    at,
    attemptId: newDeliveryId(),
    requestHeaders: { 'webhook-id': d.id },
    responseStatus: 200,
    responseBody: 'ok',
    durationMs: 3,
    attemptError: null,
  };
}

const state = (id: string) =>
  s.app.rt.prisma.delivery.findFirstOrThrow({
    where: { id },
    select: { status: true, attemptCount: true, deliveredAt: true },
  });
const attempts = (id: string) =>
  s.app.rt.prisma.deliveryAttempt.findMany({
    where: { deliveryId: id },
    select: { number: true, responseStatus: true },
  });

describe('the attempt record', () => {
  it("updates today's deliveries in their partition and an old day's through the parent, in one batch", async () => {
    const now = s.app.rt.clock.now();
    const old = new Date('2001-06-15T12:00:00.123Z');
    // The suite may run the service's clock at another time of day (TEST_TIME_OF_DAY): its day's partition first.
    await ensurePartitions(s.app.rt.prisma, partitionedTable('Delivery'), now, 0);
    const [a, b, c] = [await delivery(now), await delivery(now), await delivery(old)];
    const today = partitionName(partitionedTable('Delivery'), now);
    const store = new DeliveryStore(s.app.rt, { loadMs: 1, recordMs: 1 });
    const { result, statements } = await countStatements(() =>
      Promise.all([a, b, c].map((d) => store.record(outcome(d)))),
    );
    expect(result).toEqual([true, true, true]);
    // Today's partition named directly; the old day's statement failed on its missing partition and ran on the parent.
    expect(statements.filter((q) => q.includes(`UPDATE "${today}" d`))).toHaveLength(1);
    expect(statements.filter((q) => q.includes('UPDATE "Delivery_p20010615" d'))).toHaveLength(1);
    expect(statements.filter((q) => q.includes('UPDATE "Delivery" d'))).toHaveLength(1);
    for (const d of [a, b, c]) {
      expect(await state(d.id)).toMatchObject({ status: 'delivered', attemptCount: 1 });
      expect(await attempts(d.id)).toEqual([{ number: 1, responseStatus: 200 }]);
    }
    const inDefault = await s.app.rt.prisma.$queryRawUnsafe<Array<{ id: string }>>(
      `SELECT "id" FROM "Delivery_default" WHERE "id" = $1`,
      c.id,
    );
    expect(inDefault).toHaveLength(1);

    // The missing partition is remembered: the next batch of that day goes to the parent at once.
    const d = await delivery(new Date(old.getTime() + 1));
    const again = await countStatements(() => store.record(outcome(d)));
    expect(again.result).toBe(true);
    expect(again.statements.filter((q) => q.includes('UPDATE "Delivery_p20010615" d'))).toHaveLength(0);
    expect(again.statements.filter((q) => q.includes('UPDATE "Delivery" d'))).toHaveLength(1);
  });

  it('finds a row that moved into its new partition while the record waited on the default partition', async () => {
    const store = new DeliveryStore(s.app.rt, { loadMs: 1, recordMs: 1 });
    const day = new Date('2001-07-01T08:00:00.000Z');
    const d = await delivery(day); // no partition for that day: the row waits in the default partition
    // Partition upkeep making that day's partition, caught in the middle: the row moved, nothing committed yet.
    const mover = new pg.Client({ connectionString: s.db.url });
    await mover.connect();
    try {
      await mover.query('BEGIN');
      await mover.query(`SELECT ops_ensure_partition('Delivery', 'day', $1::timestamp, NULL)`, [sqlTimestamp(day)]);
      const recorded = store.record(outcome(d));
      // The record finds no partition for the day, so it goes through the parent, and waits on the move.
      await waitForLockWait(s.app.rt.prisma, ['UPDATE "Delivery" d']);
      await mover.query('COMMIT');
      // Its plan had the default partition only, where the row no longer is: it looks in the new partition once more.
      expect(await recorded).toBe(true);
    } finally {
      await mover.end();
    }
    expect(await state(d.id)).toMatchObject({ status: 'delivered', attemptCount: 1 });
    expect(await attempts(d.id)).toEqual([{ number: 1, responseStatus: 200 }]);
    const inPartition = await s.app.rt.prisma.$queryRawUnsafe<Array<{ id: string }>>(
      `SELECT "id" FROM "Delivery_p20010701" WHERE "id" = $1`,
      d.id,
    );
    expect(inPartition).toHaveLength(1);
  });

  it('records an attempt number once, and never reopens a settled delivery', async () => {
    const store = new DeliveryStore(s.app.rt, { loadMs: 1, recordMs: 1 });
    const d = await delivery(s.app.rt.clock.now());
    // The same attempt twice in one batch and once more later: only the first counts.
    const first = outcome(d, 1, 'retrying');
    const [won, lostInBatch] = await Promise.all([store.record(first), store.record(outcome(d, 1, 'retrying'))]);
    expect([won, lostInBatch]).toEqual([true, false]);
    expect(await store.record(outcome(d, 1, 'delivered'))).toBe(false);
    expect(await state(d.id)).toMatchObject({ status: 'retrying', attemptCount: 1 });
    // The next attempt settles it; an attempt after that is refused.
    expect(await store.record(outcome(d, 2, 'delivered'))).toBe(true);
    expect(await store.record(outcome(d, 3, 'delivered'))).toBe(false);
    expect(await state(d.id)).toMatchObject({ status: 'delivered', attemptCount: 2 });
    expect((await attempts(d.id)).map((x) => x.number).sort()).toEqual([1, 2]);
  });

  it('finds a delivery by its whole key, id and createdAt', async () => {
    const store = new DeliveryStore(s.app.rt, { loadMs: 1, recordMs: 1 });
    const d = await delivery(s.app.rt.clock.now());
    // A record naming the right id but the wrong createdAt finds no row: the whole key is the address.
    expect(await store.record({ ...outcome(d), deliveryCreatedAt: new Date(d.createdAt.getTime() + 1) })).toBe(false);
    expect(await state(d.id)).toMatchObject({ status: 'pending', attemptCount: 0 });
    expect(await store.record(outcome(d))).toBe(true);
  });
});
