/**
 * The process-wide bound on concurrent sends (WEBHOOK_DELIVERY_CONCURRENCY): a counting semaphore,
 * waiters served in arrival order. A delivery job may carry many deliveries (every first attempt of an
 * announced change), so the number of jobs running no longer bounds the requests in flight; this does.
 * A send takes its slot before the receiver's rate admission, so admitted requests leave at once.
 */
const GRANTED = Promise.resolve();

export class SendSlots {
  private free: number;
  /** Waiters in arrival order from `head` on (an index, not `shift()`: thousands may wait). */
  private waiting: Array<() => void> = [];
  private head = 0;

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

  /** Takes a slot if one is free now; never waits. */
  tryAcquire(): boolean {
    if (this.free <= 0) return false;
    this.free--;
    return true;
  }

  release(): void {
    if (this.head < this.waiting.length) {
      const next = this.waiting[this.head++];
      if (this.head === this.waiting.length || this.head > 4096) {
        this.waiting = this.waiting.slice(this.head); // drop the served (a queue never drained under load stays bounded)
        this.head = 0;
      }
      next();
    } else this.free++;
  }
}
