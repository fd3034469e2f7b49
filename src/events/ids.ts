/**
 * Event ids are UUIDv7 generated in the process that accepts the event, so the 202 can name the row
 * before the (micro-batched) INSERT runs, and so ids sort by arrival time (the SSE `Last-Event-ID`
 * replay relies on that order).
 */
import crypto from 'node:crypto';

let lastMs = 0;
let seq = 0;

/**
 * A RFC 9562 UUIDv7. Within one process ids are strictly increasing: the 12-bit `rand_a` field is
 * used as a counter inside the same millisecond (method 1 of the RFC), and the clock is never allowed
 * to run backwards.
 */
export function uuidv7(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    seq = crypto.randomInt(0, 0x400); // random start, leaves room for 3k ids in the same ms
  } else if (++seq > 0xfff) {
    lastMs += 1; // counter exhausted: borrow the next millisecond
    seq = 0;
  }
  const b = crypto.randomBytes(16);
  const ms = lastMs;
  b[0] = Math.floor(ms / 2 ** 40) & 0xff;
  b[1] = Math.floor(ms / 2 ** 32) & 0xff;
  b[2] = (ms >>> 24) & 0xff;
  b[3] = (ms >>> 16) & 0xff;
  b[4] = (ms >>> 8) & 0xff;
  b[5] = ms & 0xff;
  b[6] = 0x70 | ((seq >>> 8) & 0x0f);
  b[7] = seq & 0xff;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The millisecond timestamp carried by a UUIDv7 (null for anything else). */
export function uuidv7Time(id: string): Date | null {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(id)) return null;
  return new Date(parseInt(id.slice(0, 8) + id.slice(9, 13), 16));
}
