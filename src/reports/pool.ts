/**
 * The reports' own pg pool, one per runtime (closed with it). Reports read through plain `pg` rather
 * than Prisma's `$queryRawUnsafe` because exports need a server-side cursor (pg-query-stream), and the
 * query endpoint then decodes rows exactly as the export does: int8/numeric as numbers and Prisma's
 * UTC `timestamp(3)` columns as ISO-8601 strings, with no BigInt or Decimal objects to convert.
 * Its connections are named `ops-reports` in pg_stat_activity. They go to REPORTS_DATABASE_URL (a read
 * replica) when it is set, else to the primary; every statement runs in a READ ONLY transaction.
 */
import pg from 'pg';
import type { Runtime } from '../runtime.js';
import { utcFromSql } from '../db/timestamps.js';

/** Connections for report queries and exports (an export holds one for its whole stream). */
const POOL_SIZE = 4;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;
const INT8 = 20;
const NUMERIC = 1700;

/** Type parsers of the reports pool: numbers as numbers, timestamps (stored as UTC) as ISO strings. */
export const reportTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMP) return utcIso;
    if (oid === TIMESTAMPTZ) return (s: string) => new Date(s).toISOString();
    if (oid === INT8 || oid === NUMERIC) return (s: string) => Number(s);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * `2026-11-23 14:00:01.5` (a UTC `timestamp(3)` as Postgres prints it) → `2026-11-23T14:00:01.500Z`,
 * with string operations only (this runs once per timestamp of every exported row).
 */
export function utcIso(s: string): string {
  if (s.length < 19 || s.charCodeAt(4) !== 45 || s.length > 26) return utcFromSql(s).toISOString();
  const frac = s.length > 20 ? s.slice(20, 23).padEnd(3, '0') : '000';
  return `${s.slice(0, 10)}T${s.slice(11, 19)}.${frac}Z`;
}

declare module '../runtime.js' {
  interface RuntimeParts {
    reportsPool: pg.Pool;
  }
}

/** Builds the runtime's reports pool (src/server/runtime-parts.ts); it connects on first use, closes with the runtime. */
export function createReportsPool(rt: Runtime): pg.Pool {
  const p = new pg.Pool({
    connectionString: rt.reportsDatabaseUrl,
    max: POOL_SIZE,
    application_name: 'ops-reports',
    types: reportTypes as never,
  });
  p.on('error', (err) => rt.logger.warn({ err: err.message }, 'reports pool connection error'));
  rt.onClose(() => p.end());
  return p;
}

/** The pool for this runtime. */
export function reportsPool(rt: Runtime): pg.Pool {
  return rt.parts.reportsPool;
}
