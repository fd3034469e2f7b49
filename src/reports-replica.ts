/**
 * Reads on the reports database (REPORTS_DATABASE_URL: a hot-standby replica; the primary when unset):
 * the retry of a query the standby cancelled to replay WAL, and the replica's lag.
 *
 * A hot standby cancels a query whose snapshot conflicts with a cleanup it must replay ("canceling
 * statement due to conflict with recovery", SQLSTATE 40001 or 40P01). Such a query is run once more
 * (a fresh snapshot usually passes); a second cancellation is answered with a clear error instead of
 * retrying without bound.
 */
import pg from 'pg';
import type { Runtime } from './runtime.js';
import { UpstreamFailed } from './errors.js';

/** True for a query the standby cancelled because of a recovery conflict (also through Prisma's wrapping). */
export function isRecoveryConflict(err: unknown): boolean {
  for (
    let e = err as Record<string, unknown> | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as Record<string, unknown> | undefined, depth++
  ) {
    const text = `${String(e.message ?? '')} ${JSON.stringify(e.meta ?? '')}`;
    if (/conflict with recovery/i.test(text)) return true;
    const code = String(e.code ?? (e.meta as Record<string, unknown> | undefined)?.code ?? '');
    if ((code === '40001' || code === '40P01') && /recovery/i.test(text)) return true;
  }
  return false;
}

/** Runs a read on the reports database; retries once after a recovery conflict, then fails clearly (502). */
export async function readWithRecoveryRetry<T>(rt: Runtime, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!isRecoveryConflict(err)) throw err;
    rt.logger.warn(
      { err: (err as Error).message },
      'report query cancelled by a recovery conflict on the replica; retrying once',
    );
  }
  try {
    return await read();
  } catch (err) {
    if (!isRecoveryConflict(err)) throw err;
    throw new UpstreamFailed(
      'The reports replica cancelled this query twice to replay changes from the primary (conflict with recovery). ' +
        'Retry in a moment, narrow the time range, or raise max_standby_streaming_delay on the replica.',
    );
  }
}

/**
 * Seconds the replica is behind the primary: 0 on the primary itself or when it has replayed all it has
 * received; otherwise the age of the last replayed transaction.
 */
export const REPLICA_LAG_SQL = `SELECT CASE
  WHEN NOT pg_is_in_recovery() THEN 0
  WHEN pg_last_wal_receive_lsn() IS NOT NULL AND pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
  ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0)
END::float8 AS lag`;

declare module './runtime.js' {
  interface RuntimeParts {
    /** One connection to the reports replica for its lag (null without REPORTS_DATABASE_URL). */
    replicaLagPool: pg.Pool | null;
  }
}

/** Builds the lag pool (src/server/runtime-parts.ts); it connects on first use, closes with the runtime. */
export function createReplicaLagPool(rt: Runtime): pg.Pool | null {
  if (rt.reportsDatabaseUrl === rt.databaseUrl) return null;
  const p = new pg.Pool({ connectionString: rt.reportsDatabaseUrl, max: 1, application_name: 'ops-replica-lag' });
  p.on('error', () => undefined);
  rt.onClose(() => p.end());
  return p;
}

/** The replica's lag in seconds (0 without REPORTS_DATABASE_URL); null when it cannot be read. */
export async function replicaLagSeconds(rt: Runtime): Promise<number | null> {
  const pool = rt.parts.replicaLagPool;
  if (!pool) return 0;
  try {
    const { rows } = await pool.query<{ lag: number }>(REPLICA_LAG_SQL);
    return Math.round(Number(rows[0]?.lag ?? 0) * 1000) / 1000;
  } catch (err) {
    rt.logger.warn({ err: (err as Error).message }, 'could not read the replica lag');
    return null;
  }
}
