/**
 * The CSV export's fast path: Postgres writes the rows itself with `COPY (…) TO STDOUT WITH (FORMAT csv)`
 * (pg-copy-streams) and the bytes go to the caller as they come, about four times the rows per second
 * of decoding rows in Node and encoding them again.
 *
 * COPY takes no bind parameters, so the compiled query refers to its values (the tenant first) as
 * `current_setting('ops_report.p<n>')`, set by one parameterised `set_config(…, true)` in the same
 * READ ONLY transaction: no value ever becomes SQL text, and the settings end with the transaction.
 *
 * The bytes are those csv-stringify writes on the cursor path (src/reports/export.ts), column by column:
 * text without quotes unless it holds `,` `"` CR or LF (quotes doubled), an empty string and NULL both as
 * nothing, timestamps as ISO-8601 UTC with milliseconds, booleans `true`/`false`, integers as digits.
 * Queries this cannot render identically take the cursor path: aggregates (floats), payload columns
 * (JSON re-serialised by Node), a single column (COPY quotes a lone `\.`), and the embedded PGlite.
 */
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { stringify } from 'csv-stringify/sync';
import type { Placeholder } from './compile.js';
import type { OutputColumn, ReportQuery } from './validate.js';

/** Written to the socket in chunks of about this size. */
const CHUNK_BYTES = 64 * 1024;

/** The n-th value of the query, read from the transaction's settings. */
export const settingPlaceholder: Placeholder = (n) => `current_setting('ops_report.p${n}')`;

/** The SQL rendering of an output column as csv-stringify writes its JavaScript value (null: none). */
function render(c: OutputColumn, i: number): string | null {
  const col = `r.c${i}`;
  switch (c.type) {
    case 'string':
      return `NULLIF(${col}, '')`;
    case 'timestamp':
      return `to_char(${col}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    case 'boolean':
      return `${col}::text`;
    case 'integer':
      return col;
    default:
      return null;
  }
}

/** Can COPY write this query's CSV byte for byte as the cursor path would? */
export function copyCsvApplies(q: ReportQuery, columns: OutputColumn[]): boolean {
  return q.aggregate.length === 0 && columns.length > 1 && columns.every((c, i) => render(c, i) !== null);
}

/** Joins buffers into ~64 KiB writes, the header first; backpressure passes through. */
function coalesce(header: string): Transform {
  let parts: Buffer[] = [Buffer.from(header)];
  let size = parts[0].length;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      parts.push(chunk);
      size += chunk.length;
      if (size < CHUNK_BYTES) return cb();
      const out = Buffer.concat(parts, size);
      parts = [];
      size = 0;
      cb(null, out);
    },
    flush(cb) {
      cb(null, size ? Buffer.concat(parts, size) : undefined);
    },
  });
}

/**
 * Streams the query (compiled with `settingPlaceholder`) as CSV with a header into `out`, on a client
 * of its own; returns the number of rows. The caller closes the connection (a COPY torn down mid-stream
 * leaves it unusable).
 */
export async function copyCsv(
  client: pg.ClientBase,
  compiled: { sql: string; params: unknown[]; columns: OutputColumn[] },
  out: Writable,
): Promise<number> {
  const { sql, params, columns } = compiled;
  await client.query('BEGIN READ ONLY');
  // pg sends each value as it would a bind parameter of the query (an array as an array literal).
  await client.query(
    `SELECT ${params.map((_, i) => `set_config('ops_report.p${i + 1}', $${i + 1}, true)`).join(', ')}`,
    params,
  );
  const select = columns.map((c, i) => render(c, i)).join(', ');
  const source = client.query(copyTo(`COPY (SELECT ${select} FROM (${sql}) r) TO STDOUT WITH (FORMAT csv)`));
  await pipeline(source, coalesce(stringify([columns.map((c) => c.name)])), out);
  await client.query('COMMIT');
  return source.rowCount;
}
