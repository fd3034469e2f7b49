/**
 * UUIDv7 ids for the delivery hot path. Attempts (and other new rows) get random ones from the `uuid`
 * package with its random bytes drawn from a pooled buffer: the package asks WebCrypto for 16 bytes per
 * id, which cost more than the rest of the id; one `randomFillSync` serves 256 ids. A delivery's id is
 * derived from its message and webhook (`deliveryIdOf`). `uuidv7Millis` reads the time back, for
 * statements that bound a row's partitions by it.
 */
import crypto from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

const POOL_BYTES = 16 * 256;
const pool = new Uint8Array(POOL_BYTES);
let used = POOL_BYTES;

/** A new UUIDv7 (time-ordered to the millisecond). */
export function newDeliveryId(): string {
  if (used + 16 > POOL_BYTES) {
    crypto.randomFillSync(pool);
    used = 0;
  }
  const random = pool.subarray(used, used + 16);
  used += 16;
  return uuidv7({ random });
}

/**
 * The id of the delivery of message `outboxId` to webhook `webhookId`: a UUIDv7 whose time is the
 * message's (`createdAt`, also the delivery's) and whose other bits come from a hash of the pair. Every
 * run of a message's fan-out names a delivery alike, so a send repeated by a run that did not get to
 * write its rows (a killed worker) carries the same `webhook-id`, and the receiver deduplicates it.
 */
export function deliveryIdOf(outboxId: string, webhookId: string, createdAt: Date): string {
  const b = crypto.createHash('sha256').update(outboxId).update('\0').update(webhookId).digest();
  const ms = createdAt.getTime();
  b.writeUIntBE(ms, 0, 6);
  b[6] = 0x70 | (b[6] & 0x0f);
  b[8] = 0x80 | (b[8] & 0x3f);
  const h = b.toString('hex', 0, 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7/i;

/**
 * A day: how far a row's createdAt (the service clock, or a time its writer chose) is looked for from the
 * time in its UUIDv7 id (the clock of the process that made the id).
 */
export const ID_CLOCK_MARGIN_MS = 24 * 3600 * 1000;

/** The time (epoch ms) a UUIDv7 carries in its first 48 bits; undefined when `id` is no UUIDv7. */
export function uuidv7Millis(id: string): number | undefined {
  return UUIDV7.test(id) ? parseInt(id.slice(0, 8) + id.slice(9, 13), 16) : undefined;
}
