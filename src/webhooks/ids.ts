/**
 * Time-ordered UUIDs (version 7), like the database defaults, for rows whose id must be known before
 * insert (a delivery's id is part of its body).
 */
import crypto from 'node:crypto';

/** A UUIDv7: 48-bit millisecond timestamp, then random bits; sorts by creation time. */
export function uuidv7(now = Date.now()): string {
  const b = crypto.randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
