/**
 * Partition upkeep that works the same on Postgres and on the embedded PGlite (no pg_partman): create
 * the partitions of the coming days before rows arrive, list them, and drop the ones wholly older than
 * a cutoff. Rows outside every partition land in `<parent>_default`, so no insert fails; creating a
 * partition moves such rows of its range out of the default (the SQL function does it).
 */
import type { PrismaClient } from '../generated/prisma/client.js';
import { DAY_MS, PARTITIONED_TABLES, type PartitionedTable } from './tables.js';
import { sqlTimestamp, utcFromSql } from '../db/timestamps.js';
import { quoteIdent } from '../db/quote-ident.js';

type Db = Pick<PrismaClient, '$queryRawUnsafe' | '$executeRawUnsafe'>;

export interface Partition {
  name: string;
  /** Inclusive lower and exclusive upper bound of the partition key (UTC). */
  from: Date;
  to: Date;
}

/**
 * The name of the partition of `t` that holds key `at`: `<parent>_pYYYYMMDD` of the start of its unit
 * (UTC; a week starts on Monday, as Postgres's `date_trunc('week', …)`), as `ops_ensure_partition` names
 * it. Lets a hot statement address its partition directly; the partition may not exist (then the rows
 * are in `<parent>_default`).
 */
export function partitionName(t: Pick<PartitionedTable, 'parent' | 'unit'>, at: Date): string {
  let start = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  // 1970-01-01 was a Thursday: days since the Monday before it, modulo 7.
  if (t.unit === 'week') start -= ((((Math.floor(start / DAY_MS) + 3) % 7) + 7) % 7) * DAY_MS;
  return `${t.parent}_p${new Date(start).toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/**
 * Creates every missing partition of `t` from the one holding `now` to the one holding
 * `now + aheadDays`; returns how many it created. Idempotent, safe to run on several nodes at once
 * (a concurrent creator makes the other fail on the name; the next run finds it).
 */
export async function ensurePartitions(db: Db, t: PartitionedTable, now: Date, aheadDays: number): Promise<number> {
  const rows = await db.$queryRawUnsafe<Array<{ n: number }>>(
    'SELECT ops_ensure_partitions($1, $2, $3::timestamp, $4::timestamp, $5) AS n',
    t.parent,
    t.unit,
    sqlTimestamp(now),
    sqlTimestamp(new Date(now.getTime() + aheadDays * DAY_MS)),
    t.uniqueCols,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Ensures the partitions ahead for every partitioned table; returns the number created per parent. */
export async function ensureAllPartitions(db: Db, now: Date, aheadDays: number): Promise<Record<string, number>> {
  const created: Record<string, number> = {};
  for (const t of PARTITIONED_TABLES) created[t.parent] = await ensurePartitions(db, t, now, aheadDays);
  return created;
}

/** The range partitions of `parent` (not its default), oldest first. */
export async function listPartitions(db: Db, parent: string): Promise<Partition[]> {
  const rows = await db.$queryRawUnsafe<Array<{ name: string; bound: string }>>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = to_regclass($1)`,
    quoteIdent(parent),
  );
  const parts: Partition[] = [];
  for (const r of rows) {
    const m = /FROM \('([^']+)'\) TO \('([^']+)'\)/.exec(r.bound);
    if (m) parts.push({ name: r.name, from: utcFromSql(m[1]!), to: utcFromSql(m[2]!) });
  }
  return parts.sort((a, b) => a.from.getTime() - b.from.getTime());
}

/**
 * Drops the partitions of `parent` whose whole range is older than `cutoff` (upper bound ≤ cutoff):
 * a catalog change, no row-by-row delete and no VACUUM debt. Returns the names dropped.
 */
export async function dropPartitionsBefore(db: Db, parent: string, cutoff: Date): Promise<string[]> {
  const dropped: string[] = [];
  for (const p of await listPartitions(db, parent)) {
    if (p.to.getTime() > cutoff.getTime()) break;
    await db.$executeRawUnsafe(`DROP TABLE IF EXISTS ${quoteIdent(p.name)}`);
    dropped.push(p.name);
  }
  return dropped;
}

/** Rows one retention statement removes at most: short locks, bounded WAL per statement. */
export const DELETE_BATCH = 5000;

/**
 * Deletes, `DELETE_BATCH` rows at a time and at most `maxBatches` batches, the rows of `table` matching
 * `where` (SQL over the table's columns; `$1`… are `params`), picking each batch by `key` (`ctid` for a
 * plain table; the primary key columns for a partitioned one, where ctid is unique per partition only).
 * Returns the count, and the values of the `returning` column when one is named.
 */
export async function deleteInBatches(
  db: Db,
  table: string,
  where: string,
  params: unknown[],
  opts: { key?: string; maxBatches?: number; returning?: string } = {},
): Promise<{ count: number; returned: string[] }> {
  const key = opts.key ?? 'ctid';
  let count = 0;
  const returned: string[] = [];
  for (let i = 0; i < (opts.maxBatches ?? 20); i++) {
    const sql = `DELETE FROM ${quoteIdent(table)} WHERE (${key}) IN (SELECT ${key} FROM ${quoteIdent(table)} WHERE ${where} LIMIT ${DELETE_BATCH})${opts.returning ? ` RETURNING ${quoteIdent(opts.returning)} AS v` : ''}`;
    let n: number;
    if (opts.returning) {
      const rows = await db.$queryRawUnsafe<Array<{ v: string }>>(sql, ...params);
      returned.push(...rows.map((r) => r.v));
      n = rows.length;
    } else {
      n = await db.$executeRawUnsafe(sql, ...params);
    }
    count += n;
    if (n < DELETE_BATCH) break;
  }
  return { count, returned };
}
