/**
 * A job whose row no longer exists (a delivery of a deleted webhook, a purged outbox message, a deleted
 * device, a missing proposal) fails at once with BullMQ's UnrecoverableError instead of being retried:
 * real server with its workers, real Redis queues, real Postgres.
 */
import crypto from 'node:crypto';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { eventually } from './helpers/http.js';
import type { JobPayloads } from '../src/queues.js';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});

afterAll(async () => {
  await s?.stop();
});

/** Enqueues a job with the queue's default options (5 attempts with backoff) and waits until it has failed. */
async function enqueueAndWaitFailed<N extends 'deliveries' | 'outbox' | 'sot'>(
  name: N,
  data: JobPayloads[N],
): Promise<Job> {
  const jobId = `gone-${crypto.randomUUID()}`;
  await s.app.rt.queues.add(name, data, { jobId });
  const queue = s.app.rt.queues.get(name);
  await eventually(async () => (await queue.getJobState(jobId)) === 'failed', 20_000);
  // Read after it failed, so attemptsMade and failedReason are final.
  return (await queue.getJob(jobId)) as Job;
}

describe('jobs whose row is gone', () => {
  it('fails a delivery attempt for a delivery that no longer exists after one attempt, saying why', async () => {
    const job = await enqueueAndWaitFailed('deliveries', { deliveryId: crypto.randomUUID() });
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toMatch(/^delivery .* no longer exists$/);
  });

  it('fails the fan-out of an outbox message that no longer exists after one attempt', async () => {
    const job = await enqueueAndWaitFailed('outbox', { outboxId: crypto.randomUUID() });
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toMatch(/^outbox message .* no longer exists$/);
  });

  it('fails a reconcile of a device and an apply of a proposal that no longer exist after one attempt', async () => {
    const reconcile = await enqueueAndWaitFailed('sot', { task: 'reconcile', deviceId: crypto.randomUUID() });
    expect(reconcile.attemptsMade).toBe(1);
    expect(reconcile.failedReason).toMatch(/^device .* no longer exists$/);
    const apply = await enqueueAndWaitFailed('sot', { task: 'applyProposal', proposalId: crypto.randomUUID() });
    expect(apply.attemptsMade).toBe(1);
    expect(apply.failedReason).toMatch(/^proposal .* no longer exists$/);
  });
});
