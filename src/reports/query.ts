/**
 * Runs report queries for the caller's tenant: validate → compile (tenant from the credential only)
 * → one read-only statement on a connection of its own, bounded by a statement timeout.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { ValidationFailed } from '../errors.js';
import { compileReportQuery } from './compile.js';
import { reportsConnection } from './pool.js';
import { withReportSlot } from './slots.js';
import { readWithRecoveryRetry, replicaLagSeconds } from '../reports-replica.js';
import { validateReportQuery, type OutputColumn, type ReportQuery } from './validate.js';

/** Longest a query (not an export) may run on the server. */
export const QUERY_TIMEOUT_MS = 30_000;

export interface ReportResult {
  entity: string;
  columns: OutputColumn[];
  rows: Array<Record<string, unknown>>;
  row_count: number;
  truncated: boolean;
  /** The replica's lag when it is over REPORTS_LAG_NOTICE_SECONDS (absent on the primary or a current replica). */
  replica_lag_seconds?: number;
}

/** Validates a query document or throws a 422 listing every problem at its path under `base`. */
export function parseReportQuery(
  input: unknown,
  base: string[] = ['query'],
  mode: 'query' | 'export' = 'query',
): ReportQuery {
  const v = validateReportQuery(input, { base, mode });
  if (!v.query) throw new ValidationFailed(v.problems);
  return v.query;
}

/** Runs a validated query for a tenant (workers pass the schedule's tenant; requests use `runReport`). */
export async function executeReportQuery(rt: Ctx['rt'], tenantId: string, q: ReportQuery): Promise<ReportResult> {
  const [result, lag] = await Promise.all([
    readWithRecoveryRetry(rt, () => runOnce(rt, tenantId, q)),
    replicaLagSeconds(rt),
  ]);
  return lag !== null && lag > rt.config.reportsLagNoticeSeconds ? { ...result, replica_lag_seconds: lag } : result;
}

async function runOnce(rt: Ctx['rt'], tenantId: string, q: ReportQuery): Promise<ReportResult> {
  const compiled = compileReportQuery(q, tenantId, { now: rt.clock.now(), extraRow: true });
  const client = await reportsConnection(rt, QUERY_TIMEOUT_MS);
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${QUERY_TIMEOUT_MS}`);
    const res = await client.query({ text: compiled.sql, values: compiled.params, rowMode: 'array' });
    await client.query('COMMIT');
    const truncated = res.rows.length > q.limit;
    const rows = (truncated ? res.rows.slice(0, q.limit) : res.rows).map((r: unknown[]) =>
      Object.fromEntries(compiled.columns.map((c, i) => [c.name, r[i] ?? null])),
    );
    return { entity: q.entity, columns: compiled.columns, rows, row_count: rows.length, truncated };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Validates and runs a query document for the caller's tenant, in one of its report slots (./slots.ts). */
export async function runReport(ctx: Ctx, input: unknown, base: string[] = ['query']): Promise<ReportResult> {
  const me = requireUser(ctx);
  const q = parseReportQuery(input, base);
  return withReportSlot(ctx.rt, me.tenantId, () => executeReportQuery(ctx.rt, me.tenantId, q));
}
