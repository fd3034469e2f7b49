/**
 * Worker supervision (workers/supervisor.ts): a worker that takes no job while its queue has jobs due is
 * started anew. A paused worker stands for one whose blocking connection got stuck after a Redis Cluster
 * failover (test/scale-failover.test.ts is the real case); real Redis, real BullMQ workers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from 'bullmq';
import { startTestServer, type TestServer } from './helpers/server.js';
import { eventually } from './helpers/http.js';
import { SupervisedWorkers, isStuck } from '../workers/supervisor.js';
import { workerOptions } from '../workers/connection.js';
import { closeBull } from '../src/queues.js';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ start: { workers: false } });
});
afterAll(async () => {
  await s?.stop();
});

describe('worker supervision', () => {
  it('calls a worker stuck only when it started nothing for the period while a job was waiting or long due', () => {
    const none = { waiting: 0, earliestDelayedDueAt: null };
    expect(isStuck(0, { ...none, waiting: 1 }, 59_999, 60_000)).toBe(false); // started a job recently
    expect(isStuck(0, { ...none, waiting: 1 }, 60_000, 60_000)).toBe(true);
    expect(isStuck(0, none, 600_000, 60_000)).toBe(false); // idle with nothing due is fine
    expect(isStuck(0, { ...none, earliestDelayedDueAt: 550_000 }, 600_000, 60_000)).toBe(false); // due, but not for long
    expect(isStuck(0, { ...none, earliestDelayedDueAt: 540_000 }, 600_000, 60_000)).toBe(true);
    expect(isStuck(0, { ...none, earliestDelayedDueAt: 700_000 }, 600_000, 60_000)).toBe(false); // not due yet
  });

  it('starts a worker anew when it leaves a due delayed job untaken, and the new one runs it', async () => {
    const rt = s.app.rt;
    const ran: string[] = [];
    const start = async () => [
      new Worker('gpuDiagnostics', async (job) => void ran.push(job.id!), workerOptions(rt, 'gpuDiagnostics')),
    ];
    const area = new SupervisedWorkers(rt, start, () => undefined, { stuckMs: 300, checkMs: 100 });
    await area.run();
    const first = area.current[0];
    try {
      await first.waitUntilReady();
      await first.pause(); // takes no job from now on, as a worker whose blocking connection got stuck
      await rt.queues.add('gpuDiagnostics', { diagnosticId: 'supervised' }, { jobId: 'supervised-1', delay: 50 });
      await eventually(async () => ran.includes('supervised-1'), 20_000);
      expect(area.current[0]).not.toBe(first);
      expect(first.isPaused()).toBe(true);
    } finally {
      area.stop();
      await Promise.all([...area.current, first].map((w) => closeBull(w)));
    }
  });
});
