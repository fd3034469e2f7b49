/**
 * `Queues.ensure`, the sweepers' re-drive, against a real Redis: a job lost with all its keys, or whose
 * data survived while the list holding it did not (an eviction, or a flush racing the job's add), is
 * queued again; a job still delayed, or one a worker holds locked, is left alone.
 */
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Queues } from '../src/queues.js';
import { REDIS_URL, testRedisPrefix, unlinkRedisPrefix } from './helpers/env.js';

const prefix = `${testRedisPrefix(inject('testRunId'))}${crypto.randomBytes(5).toString('hex')}`;
let redis: Redis;
let queues: Queues;

beforeAll(() => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  queues = new Queues(redis, (name) => `${prefix}:${name}`);
});
afterAll(async () => {
  await queues.close();
  await unlinkRedisPrefix(redis, `${prefix}:`);
  redis.disconnect();
});

const HOUR = 3600_000;

async function stateOf(jobId: string): Promise<string | undefined> {
  return (await queues.get('deliveries').getJob(jobId))?.getState();
}

describe('Queues.ensure', () => {
  it('adds a job Redis lost, and leaves a delayed one alone', async () => {
    const id = `lost-${crypto.randomUUID()}`;
    expect(await queues.ensure('deliveries', { deliveryId: id }, id, { delay: HOUR })).toBe(true);
    expect(await stateOf(id)).toBe('delayed');
    expect(await queues.ensure('deliveries', { deliveryId: id }, id, { delay: HOUR })).toBe(false);
    expect(await stateOf(id)).toBe('delayed');
  });

  it('queues again a job whose data survived but whose delayed list was lost', async () => {
    const id = `orphan-${crypto.randomUUID()}`;
    await queues.add('deliveries', { deliveryId: id }, { jobId: id, delay: HOUR });
    const queue = queues.get('deliveries');
    await redis.del(queue.keys.delayed);
    expect(await stateOf(id)).toBe('unknown');
    expect(await queues.ensure('deliveries', { deliveryId: id }, id, { delay: 10 })).toBe(true);
    expect(['delayed', 'waiting']).toContain(await stateOf(id));
    expect((await queue.getJob(id))?.data).toEqual({ deliveryId: id });
  });

  it('leaves a job in no list alone while a worker holds its lock', async () => {
    const id = `locked-${crypto.randomUUID()}`;
    await queues.add('deliveries', { deliveryId: id }, { jobId: id, delay: HOUR });
    const queue = queues.get('deliveries');
    await redis.zrem(queue.keys.delayed, id);
    await redis.set(`${queue.toKey(id)}:lock`, 'a-worker-token', 'PX', 60_000);
    expect(await stateOf(id)).toBe('unknown');
    expect(await queues.ensure('deliveries', { deliveryId: id }, id, { delay: 10 })).toBe(false);
    expect(await stateOf(id)).toBe('unknown');
    expect(await redis.exists(queue.toKey(id))).toBe(1);
  });
});
