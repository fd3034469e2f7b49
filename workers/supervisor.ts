/**
 * Replaces workers that stopped taking jobs while their queue has jobs due. A BullMQ worker waits for
 * jobs on a blocking connection (BZPOPMIN on its queue's marker); when the Redis Cluster master holding
 * that queue fails over while the worker waits there, the connection can be left stuck: the worker
 * looks alive and never takes a job again (bullmq#4138, #3088; seen here in test/scale-failover.test.ts,
 * an idle delivery worker with its delayed jobs long due). The sweepers cannot help: they re-drive into
 * the same queue. So every `checkMs`, a worker that has started no job for `stuckMs` while its queue has
 * a job waiting, or a delayed job due for `stuckMs`, is suspected; still so at the next check (a healthy
 * worker takes a waiting job within milliseconds, so one look could catch a job between its add and its
 * fetch), it has its area's workers started anew, and the old ones are closed (their running jobs, if
 * any, finish first).
 */
import type { Worker } from 'bullmq';
import type { Runtime } from '../src/runtime.js';
import type { QueueName } from '../src/queues.js';
import { closeBull } from '../src/queues.js';
import type { RedisClient } from '../src/redis-connection.js';

export interface SupervisorOptions {
  /** How long without a started job, with work due, makes a worker stuck. */
  stuckMs: number;
  /** How often to look (0: never; the workers are only started and closed through this). */
  checkMs: number;
  /** BullMQ's clock (its delays are epoch ms). */
  now?: () => number;
}

/** What the supervisor knows of one worker's queue, for the verdict. */
export interface QueueWork {
  /** Jobs waiting (or prioritized) to be taken. */
  waiting: number;
  /** When the earliest delayed job became or becomes due (epoch ms), if any. */
  earliestDelayedDueAt: number | null;
}

/** True when a worker that last started a job at `lastStartedAt` should have taken one by `now`. */
export function isStuck(lastStartedAt: number, work: QueueWork, now: number, stuckMs: number): boolean {
  if (now - lastStartedAt < stuckMs) return false;
  return work.waiting > 0 || (work.earliestDelayedDueAt !== null && now - work.earliestDelayedDueAt >= stuckMs);
}

/** BullMQ scores a delayed job by its due time shifted left 12 bits (the low bits order ties). */
const DELAY_SCORE_SHIFT = 4096;

async function queueWork(rt: Runtime, name: string): Promise<QueueWork> {
  const queue = rt.queues.get(name as QueueName);
  const counts = await queue.getJobCounts('waiting', 'prioritized');
  const client = (await queue.client) as unknown as Pick<RedisClient, 'zrange'>;
  const first = await client.zrange(queue.keys.delayed, 0, 0, 'WITHSCORES');
  return {
    waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
    earliestDelayedDueAt: first.length === 2 ? Math.floor(Number(first[1]) / DELAY_SCORE_SHIFT) : null,
  };
}

/** One area's workers under watch; `current` is what to close at shutdown. */
export class SupervisedWorkers {
  current: Worker[] = [];
  private readonly lastStartedAt = new WeakMap<Worker, number>();
  /** Workers the previous check found stuck. */
  private readonly suspected = new WeakSet<Worker>();
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private stopped = false;
  private readonly now: () => number;

  constructor(
    private readonly rt: Runtime,
    private readonly start: () => Promise<Worker[]>,
    private readonly onStarted: (w: Worker) => void,
    private readonly opts: SupervisorOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  async run(): Promise<void> {
    await this.replace();
    if (this.opts.checkMs <= 0) return;
    this.timer = setInterval(() => void this.check(), this.opts.checkMs);
    this.timer.unref();
  }

  /** Stops watching (the caller closes `current`). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  private async replace(): Promise<void> {
    const fresh = await this.start();
    if (this.stopped && this.current.length) {
      // Stopped while these were starting: the caller is closing `current`, so these go at once.
      await Promise.all(fresh.map((w) => closeBull(w)));
      return;
    }
    for (const w of fresh) {
      this.lastStartedAt.set(w, this.now());
      w.on('active', () => this.lastStartedAt.set(w, this.now()));
      this.onStarted(w);
    }
    const old = this.current;
    this.current = fresh;
    for (const w of old)
      void closeBull(w).catch((err: Error) =>
        this.rt.logger.warn({ err: err.message, queue: w.name }, 'closing a replaced worker failed'),
      );
  }

  private async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      for (const w of this.current) {
        if (this.stopped) return;
        const work = await queueWork(this.rt, w.name);
        if (!isStuck(this.lastStartedAt.get(w) ?? this.now(), work, this.now(), this.opts.stuckMs)) {
          this.suspected.delete(w);
          continue;
        }
        if (!this.suspected.has(w)) {
          this.suspected.add(w);
          continue;
        }
        this.rt.logger.error(
          { queue: w.name, waiting: work.waiting, earliestDelayedDueAt: work.earliestDelayedDueAt },
          'worker took no job while jobs were due; starting its workers anew',
        );
        await this.replace();
        return;
      }
    } catch (err) {
      this.rt.logger.warn({ err: (err as Error).message }, 'worker supervision check failed');
    } finally {
      this.checking = false;
    }
  }
}
