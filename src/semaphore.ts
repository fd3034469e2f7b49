/**
 * A counting semaphore, waiters served in arrival order. The delivery engine holds three (src/deliveries/deps.ts):
 * the bound on sends in flight (WEBHOOK_DELIVERY_CONCURRENCY), the fan-out gate and the room waits.
 */
const GRANTED = Promise.resolve();

export class Semaphore {
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
