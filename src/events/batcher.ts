/**
 * Group commit for event INSERTs. Each accepted event is handed to the batcher and its request waits
 * for *its own* row to be committed; rows that arrive while earlier INSERTs are in flight are written
 * together as one multi-row INSERT (one statement, one commit). Under light load a row is flushed on
 * the next event-loop turn (no added latency); under heavy load batches grow by themselves, which is
 * what keeps Postgres commits (and their WAL flushes) from being the bottleneck.
 */

export interface BatcherOptions {
  /** Most rows in one INSERT. */
  maxBatch: number;
  /** Most INSERTs in flight at once (each holds one pool connection). */
  maxInFlight: number;
}

interface Pending<R> {
  row: R;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class InsertBatcher<R> {
  private pending: Array<Pending<R>> = [];
  private inFlight = 0;
  private scheduled = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    /** Writes the rows in one statement; resolves only after the commit. */
    private readonly insert: (rows: R[]) => Promise<void>,
    /** Called after a batch committed (enqueue, publish); must not throw or block. */
    private readonly afterCommit: (rows: R[]) => void,
    private readonly opts: BatcherOptions,
  ) {}

  /** Resolves once `row` is committed; rejects if it could not be stored. */
  add(row: R): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves when every row handed in so far has been committed or rejected. */
  async drain(): Promise<void> {
    if (this.pending.length === 0 && this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.pending.length === 0 || this.inFlight >= this.opts.maxInFlight) return;
    this.scheduled = true;
    // Let every request that arrived in this event-loop turn join the batch.
    setImmediate(() => {
      this.scheduled = false;
      while (this.pending.length > 0 && this.inFlight < this.opts.maxInFlight)
        void this.flush(this.pending.splice(0, this.opts.maxBatch));
    });
  }

  private async flush(batch: Array<Pending<R>>): Promise<void> {
    this.inFlight++;
    try {
      await this.write(batch);
    } finally {
      this.inFlight--;
      if (this.pending.length > 0) this.schedule();
      else if (this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  private async write(batch: Array<Pending<R>>): Promise<void> {
    try {
      await this.insert(batch.map((p) => p.row));
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        return;
      }
      // One bad row must not fail its neighbours: retry each row on its own.
      await Promise.all(batch.map((p) => this.write([p])));
      return;
    }
    for (const p of batch) p.resolve();
    try {
      this.afterCommit(batch.map((p) => p.row));
    } catch {
      /* afterCommit reports its own failures; the rows are committed regardless */
    }
  }
}
