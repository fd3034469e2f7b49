/**
 * The process-wide bound on concurrent sends (WEBHOOK_DELIVERY_CONCURRENCY): a counting semaphore,
 * waiters served in arrival order. A delivery job may carry many deliveries (every first attempt of an
 * announced change), so the number of jobs running no longer bounds the requests in flight; this does.
 * A send takes its slot before the receiver's rate admission, so admitted requests leave at once.
 */
const GRANTED = Promise.resolve();

export class SendSlots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = Math.max(1, size);
  }

  /** Resolves once a slot is held; give it back with `release()`. */
  acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return GRANTED;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}
