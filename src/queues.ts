/**
 * Queue names and job payload types. Job data carries ids, never secrets or whole payloads.
 */
import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';

export const QueueNames = {
  /** Evaluate alert rules for one stored event. */
  evaluate: 'evaluate',
  /** Periodic upkeep: token removal, retention, re-driving, absence checks, snooze wake-ups. */
  maintenance: 'maintenance',
  /** Fan an outbox message out into deliveries. */
  outbox: 'outbox',
  /** Send one outbound delivery attempt. */
  deliveries: 'deliveries',
  /** Reconcile a device or apply a proposal. */
  sot: 'sot',
} as const;
export type QueueName = (typeof QueueNames)[keyof typeof QueueNames];

export interface JobPayloads {
  /** A batch of stored events (ids only), in arrival order. */
  evaluate: { eventIds: string[] };
  maintenance: { task: string };
  outbox: { outboxId: string };
  deliveries: { deliveryId: string };
  sot: { task: 'reconcile'; deviceId: string } | { task: 'applyProposal'; proposalId: string };
}

export const defaultJobOptions: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 500 },
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 24 * 3600 },
};

/** Lazily created queues sharing one connection and key prefix. */
export class Queues {
  private readonly queues = new Map<string, Queue>();
  constructor(
    private readonly connection: ConnectionOptions,
    readonly prefix: string,
  ) {}

  get<N extends QueueName>(name: N): Queue<JobPayloads[N]> {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.prefix, defaultJobOptions });
      this.queues.set(name, q);
    }
    return q as unknown as Queue<JobPayloads[N]>;
  }

  /** Adds a job; `jobId` makes the add idempotent (BullMQ ignores a duplicate id). */
  async add<N extends QueueName>(name: N, data: JobPayloads[N], opts: JobsOptions = {}): Promise<void> {
    await (this.get(name) as Queue).add(name, data, opts);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
