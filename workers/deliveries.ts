/**
 * The delivery worker. A job is one delivery's due attempt (job id = delivery id + attempt number), or
 * the first attempts of the deliveries of one announced change that its fan-out did not send (job id =
 * outbox id + `_first`: held back by the receivers' limits, or created by an earlier, crashed run).
 * Sends run with a process-wide bound (the send slots) and a per-request deadline; a send held back by
 * the receiver's limits is re-delayed in Redis instead of occupying a worker slot: a lone attempt's job
 * is moved back to delayed; so is a first-attempts job, narrowed to the deliveries still held once the
 * others went out, after its deliveries whose receivers free within moments waited for them here.
 */
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import { QueueNames, type JobPayloads } from '../src/queues.js';
import type { AttemptDeps, AttemptOutcome } from '../src/deliveries/attempt.js';
import { attempt } from '../src/deliveries/engine.js';
import { WAIT_HERE_EACH_MS, type FirstAttemptsResult } from '../src/deliveries/first-attempts.js';
import { deliveryEngine } from '../src/deliveries/deps.js';
import { Semaphore } from '../src/semaphore.js';
import { logJobFailure, workerOptions } from './connection.js';

type DeliveryJob = Job<JobPayloads['deliveries']>;

/** What a job is about, for its failure log. */
function subjectOf(data: JobPayloads['deliveries'] | undefined): Record<string, unknown> {
  if (!data) return {};
  return 'deliveryIds' in data
    ? { outboxId: data.outboxId, deliveries: data.deliveryIds.length }
    : { deliveryId: data.deliveryId };
}

type FirstAttemptsData = Extract<JobPayloads['deliveries'], { deliveryIds: string[] }>;

/**
 * How long a first-attempts job may keep its worker slot while its deliveries wait in this process for
 * their receivers' room, per wait and in all (src/deliveries/first-attempts.ts): at the cap a receiver
 * frees room every few ms, and a job re-delayed in Redis per wake cost a fetch (one at a time per worker),
 * a move to delayed and a data update, woke tens of ms late and read its rows again. Longer waits go back
 * to Redis, and at most half the worker's slots wait here at once (`waitHere`), so held deliveries never
 * crowd out other jobs.
 */
const WAIT_HERE_TOTAL_MS = 1_000;

async function runFirstAttempts(
  rt: Runtime,
  deps: AttemptDeps,
  job: DeliveryJob,
  data: FirstAttemptsData,
  waitHere: Semaphore,
  token?: string,
): Promise<Omit<FirstAttemptsResult, 'held'> & { held: number }> {
  const mayWait = waitHere.tryAcquire();
  let r: FirstAttemptsResult;
  try {
    const wait = mayWait
      ? { eachMs: WAIT_HERE_EACH_MS, untilMs: rt.clock.now().getTime() + WAIT_HERE_TOTAL_MS }
      : undefined;
    r = await attempt(rt, deps, { deliveryIds: data.deliveryIds, webhookIds: data.webhookIds, waitHere: wait });
  } finally {
    if (mayWait) waitHere.release();
  }
  if (r.held.length) {
    if (r.held.length < data.deliveryIds.length) {
      const webhookIds = r.held.every((h) => h.webhookId !== undefined)
        ? { webhookIds: r.held.map((h) => h.webhookId!) }
        : {};
      await job.updateData({ outboxId: data.outboxId, deliveryIds: r.held.map((h) => h.deliveryId), ...webhookIds });
    }
    await job.moveToDelayed(Date.now() + Math.min(...r.held.map((h) => h.retryInMs)), token);
    throw new DelayedError();
  }
  return { settled: r.settled, skipped: r.skipped, held: 0 };
}

/** Starts the delivery worker. */
export async function startDeliveryWorkers(rt: Runtime): Promise<Worker[]> {
  const { concurrency, jobLockMs } = rt.config.webhooks;
  const deps = deliveryEngine(rt);
  const waitHere = new Semaphore(Math.max(1, Math.floor(concurrency / 2)));
  const worker = new Worker<
    JobPayloads['deliveries'],
    AttemptOutcome | { settled: number; skipped: number; held: number }
  >(
    QueueNames.deliveries,
    async (job, token) => {
      const data = job.data;
      if ('deliveryIds' in data) return runFirstAttempts(rt, deps, job, data, waitHere, token);
      const outcome = await attempt(rt, deps, { deliveryId: data.deliveryId });
      if (outcome.kind === 'gone') throw new UnrecoverableError(`delivery ${data.deliveryId} no longer exists`);
      if (outcome.kind === 'delayed') {
        await job.moveToDelayed(Date.now() + outcome.retryInMs, token);
        throw new DelayedError();
      }
      return outcome;
    },
    workerOptions(rt, QueueNames.deliveries, {
      concurrency,
      lockDuration: jobLockMs,
      stalledInterval: jobLockMs,
      maxStalledCount: 5,
    }),
  );
  worker.on('failed', (job, err) => logJobFailure(rt, err, subjectOf(job?.data), 'delivery job failed'));
  return [worker];
}
