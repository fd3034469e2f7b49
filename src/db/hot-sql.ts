/**
 * Statements on the delivery hot path (fan-out, load, attempt record), run on the Prisma client's own
 * `pg` pool without Prisma: at thousands of deliveries a second, Prisma's per-statement work (argument
 * mapping, the query interpreter, result rows rebuilt as objects) was a tenth of the engine's CPU
 * (bench:deliveries). Same connections, same statement timeout; rows come back as objects with Prisma's
 * conventions: a `timestamp(3)` column (stored as UTC) as a Date, jsonb parsed, enums as text.
 */
import pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.js';
import { poolOf } from './client.js';
import { utcFromSql } from './timestamps.js';

const TIMESTAMP = 1114;

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMP) return utcFromSql;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/** Runs one statement (`$1`… placeholders) and returns its rows. */
export async function hotQuery<T>(prisma: PrismaClient, text: string, values: unknown[]): Promise<T[]> {
  const result = await poolOf(prisma).query({ text, values, types: types as never });
  return result.rows as T[];
}
