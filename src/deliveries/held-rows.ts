/**
 * The rows of deliveries this process's fan-outs held back (their receivers were full), kept for a
 * short while so that their first-attempts job, when it runs here, sends them without reading them
 * again: at the cap, about half of a busy fan-out's deliveries are held, and reading them back was a
 * statement per job returning every row with its body. The job still reads the rows' webhooks as they
 * are now (src/deliveries/first-attempts.ts), so a webhook disabled, re-pointed, rotated or deleted
 * since the fan-out is honoured as before. A delivery's own row changes only through its attempts, whose
 * record is guarded (src/deliveries/store.ts: the attempt number must be the next one), so a kept row
 * can at worst lead to a send that is not counted, which receivers deduplicate by `webhook-id`. Only a
 * first attempt uses a kept row, within `maxAgeMs`; another process's job reads the rows as before.
 */
import type { DeliveryWithWebhook } from './store.js';

/** How long a held row is used instead of reading it. */
export const HELD_ROW_MAX_AGE_MS = 5_000;
/** Rows kept at most (a burst beyond this reads its rows, as before). */
const LIMIT = 50_000;

export class HeldRows {
  private readonly rows = new Map<string, { row: DeliveryWithWebhook; at: number }>();

  constructor(
    private readonly now: () => number,
    private readonly maxAgeMs = HELD_ROW_MAX_AGE_MS,
  ) {}

  /**
   * Keeps `row` (a delivery written `pending`, held back before its first attempt), read with its webhook
   * at `readAt` (epoch ms).
   */
  keep(row: DeliveryWithWebhook, readAt: number): void {
    if (this.rows.size >= LIMIT) this.rows.clear();
    this.rows.set(row.id, { row, at: readAt });
  }

  /** The kept row of `deliveryId` while fresh, for its first attempt; undefined otherwise. */
  take(deliveryId: string): DeliveryWithWebhook | undefined {
    const kept = this.rows.get(deliveryId);
    if (!kept) return undefined;
    if (this.now() - kept.at > this.maxAgeMs) {
      this.rows.delete(deliveryId);
      return undefined;
    }
    return kept.row;
  }

  /** Forgets `deliveryId` (its first attempt was made, or it is not this process's to make). */
  drop(deliveryId: string): void {
    this.rows.delete(deliveryId);
  }
}
