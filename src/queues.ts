/**
 * Queue names and job payload types. Job data carries ids, never secrets or whole payloads; besides them
 * only the enqueuing request's W3C `traceparent` when it is traced (src/tracing.ts).
 */
import { withTraceparent } from './tracing.js';
import { Queue, type ConnectionOptions, type JobsOptions, type Worker } from 'bullmq';

export const QueueNames = {
  /** Evaluate alert rules for one stored event. */
  evaluate: 'evaluate',
  /** Periodic upkeep: token removal, retention, re-driving, absence checks, snooze wake-ups. */
  maintenance: 'maintenance',
  /** Fan an outbox message out into deliveries. */
  outbox: 'outbox',
  /** Send outbound delivery attempts: one, or the first attempts of an announced change. */
  deliveries: 'deliveries',
  /** Reconcile a device or apply a proposal. */
  sot: 'sot',
  /** Run a report schedule and deliver its result. */
  reports: 'reports',
  /** Run an on-demand GPU diagnostics request. */
  gpuDiagnostics: 'gpuDiagnostics',
  /** Drive one AIPerf-style load-test run (long-running; one attempt). */
  aiperf: 'aiperf',
  /** Compute one tenant's usage window (billing meters). */
  billing: 'billing',
  /** Run one step of an alert group's escalation policy when it is due (workers/escalation.ts). */
  escalation: 'escalation',
  /** Page one person for a step of a group's escalation: plan and send their notifications (workers/notifications.ts). */
  page: 'page',
  /** Send one planned notification when it is due, with retries (workers/notifications.ts). */
  notify: 'notify',
} as const;
export type QueueName = (typeof QueueNames)[keyof typeof QueueNames];

export interface JobPayloads {
  /** A batch of stored events (ids only), in arrival order. */
  evaluate: { eventIds: string[] };
  maintenance: { task: string };
  outbox: { outboxId: string };
  /** One delivery's due attempt, or the first attempts of the deliveries of one outbox message. */
  deliveries:
    | { deliveryId: string }
    | {
        outboxId: string;
        deliveryIds: string[];
        /** Each delivery's webhook, same order (jobs enqueued before it was added lack it). */ webhookIds?: string[];
      };
  sot: { task: 'reconcile'; deviceId: string } | { task: 'applyProposal'; proposalId: string };
  reports: { scheduleId: string };
  gpuDiagnostics: { diagnosticId: string };
  aiperf: { runId: string };
  /** A tenant and the ISO start of the hourly window to (re)compute. */
  billing: { tenantId: string; windowStart: string };
  /** One step of one round of a group's escalation; `epoch` tells a timer made stale by a restart (snooze, escalate now). */
  escalation: { tenantId: string; groupId: string; step: number; round: number; epoch: number };
  /** One person paged for a step of a group's escalation (exactly once per group, step, round and person: pageJobId). */
  page: PageJob;
  /** One Notification row to send (its job id: notifyJobId). */
  notify: { notificationId: string };
}

/** The job id of one notification's send. */
export function notifyJobId(notificationId: string): string {
  return `notify-${notificationId}`;
}

export interface PageJob {
  tenantId: string;
  groupId: string;
  userId: string;
  step: number;
  round: number;
  urgency: 'high' | 'low';
  /** `group_update` / `group_repeat`: a routed group's group_interval update or repeat_interval repeat. */
  reason: 'escalation' | 'escalate_now' | 'reassign' | 'repeat' | 'group_update' | 'group_repeat';
  /** A group notification's number (AlertGroup.notifySeq): one page per person per notification. */
  seq?: number;
  /** The alerts the page announces (a group_interval update: the new ones); absent: the group's. */
  alertIds?: string[];
}

/** The job id of a page: the same person paged for the same step of the same round of a group is one job. */
export function pageJobId(p: Pick<PageJob, 'groupId' | 'step' | 'round' | 'userId' | 'reason' | 'seq'>): string {
  return `page-${p.groupId}-${p.round}-${p.step}-${p.userId}-${p.reason}${p.seq === undefined ? '' : `-${p.seq}`}`;
}

/** The job id of an escalation timer: one per group, step, round and epoch. */
export function escalationJobId(p: JobPayloads['escalation']): string {
  return `esc-${p.groupId}-${p.epoch}-${p.round}-${p.step}`;
}

const defaultJobOptions: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 500 },
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 24 * 3600 },
};

/** Lazily created queues sharing one connection; each queue's keys under `prefixOf(name)`. */
export class Queues {
  private readonly queues = new Map<string, Queue>();
  constructor(
    private readonly connection: ConnectionOptions,
    /** BullMQ's key prefix of a queue (on a Redis Cluster one hash tag per queue: redis-connection.ts). */
    readonly prefixOf: (queue: QueueName) => string,
    /** Hears each queue's 'error' events (Redis connection errors); without a listener BullMQ prints them to stderr. */
    private readonly onError: (err: Error, queue: string) => void = () => {},
  ) {}

  get<N extends QueueName>(name: N): Queue<JobPayloads[N]> {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.prefixOf(name), defaultJobOptions });
      q.on('error', (err) => this.onError(err, name));
      this.queues.set(name, q);
    }
    return q as unknown as Queue<JobPayloads[N]>;
  }

  /** Adds a job; `jobId` makes the add idempotent (BullMQ ignores a duplicate id). */
  async add<N extends QueueName>(name: N, data: JobPayloads[N], opts: JobsOptions = {}): Promise<void> {
    await (this.get(name) as Queue).add(name, withTraceparent(data), opts);
  }

  /** Adds jobs in one round trip (BullMQ's addBulk); a duplicate `jobId` is ignored as with `add`. */
  async addBulk<N extends QueueName>(
    name: N,
    jobs: Array<{ data: JobPayloads[N]; opts?: JobsOptions }>,
  ): Promise<void> {
    if (jobs.length === 0) return;
    await (this.get(name) as Queue).addBulk(
      jobs.map((j) => ({ name, data: withTraceparent(j.data), opts: j.opts ?? {} })),
    );
  }

  /**
   * Makes sure a job with this id will run: adds it when Redis has no such job (lost or never enqueued),
   * retries it when it ended failed, adds it again when it completed while its row still says it is due;
   * leaves a waiting, delayed or active job alone. A job whose data survived but which is in no list
   * (Redis lost part of its keys: an eviction, or a flush racing the job's add) would never run, so it
   * is removed and added again, unless a worker holds its lock. Returns true when it (re)queued
   * something. The re-drive of sweepers, whose database rows are the source of truth.
   */
  async ensure<N extends QueueName>(
    name: N,
    data: JobPayloads[N],
    jobId: string,
    opts: JobsOptions = {},
  ): Promise<boolean> {
    const queue = this.get(name) as Queue;
    const job = await queue.getJob(jobId);
    if (!job) {
      await queue.add(name, withTraceparent(data), { ...opts, jobId });
      return true;
    }
    const state = await job.getState();
    if (state === 'failed') {
      await job.retry('failed');
      return true;
    }
    if (state === 'completed' || state === 'unknown') {
      // BullMQ refuses to remove a job whose lock a worker holds: an 'unknown' one is then running (the
      // next sweep looks again). A completed job holds no lock: its removal failing is an error.
      const removed = await job.remove().then(
        () => true,
        (err: unknown) => {
          if (state === 'unknown') return false;
          throw err;
        },
      );
      if (!removed) return false;
      await queue.add(name, data, { ...opts, jobId });
      return true;
    }
    return false;
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => closeBull(q)));
  }
}

/** How long a close waits for a queue's or worker's connections to finish connecting (Redis may be down). */
const READY_BEFORE_CLOSE_MS = 3000;

/**
 * Closes a BullMQ queue or worker once its Redis connections have finished initialising. BullMQ 5 drops a
 * connection's listeners when it closes; closed while its first INFO is still queued, the INFO then fails
 * into an 'error' event nobody listens to: an unhandled "Connection is closed." rejection whenever a
 * process stops soon after it started (CI failed on two of them). A worker's blocking connection
 * initialises on its own, so it is awaited too.
 */
export async function closeBull(q: Queue | Worker): Promise<void> {
  const connecting: Array<Promise<unknown>> = [q.waitUntilReady()];
  const blocking = (q as unknown as { blockingConnection?: { client: Promise<unknown> } }).blockingConnection;
  if (blocking) connecting.push(blocking.client);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(connecting),
    new Promise((resolve) => (timer = setTimeout(resolve, READY_BEFORE_CLOSE_MS))),
  ]);
  clearTimeout(timer);
  await q.close();
}
