/**
 * Timestamps in SQL text: every `timestamp(3)` column holds UTC without a zone (Prisma's convention), so
 * a Date goes in as its UTC wall time and a column's text comes back read as UTC, never as local time.
 */

/** A Date as a `timestamp` literal or parameter (UTC): `2026-11-25T00:00:00.000`. */
export function sqlTimestamp(d: Date): string {
  return d.toISOString().slice(0, -1);
}

/** `2026-11-25 00:00:00.5` (a timestamp without zone, as Postgres prints it) → that instant, read as UTC. */
export function utcFromSql(text: string): Date {
  return new Date(`${text.replace(' ', 'T')}Z`);
}
