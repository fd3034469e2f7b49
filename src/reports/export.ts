/**
 * Streaming export of a report query as CSV or JSON. A CSV export COPY can write exactly is written by
 * Postgres (src/reports/copy-csv.ts); other exports read rows from a server-side cursor
 * (pg-query-stream, 1,000 rows per fetch: fewer rows survive to the old generation) through a CSV (csv-stringify) or JSON-array encoder, in ~64 KiB writes, into the
 * caller's writable; `pipeline` carries backpressure end to end, so memory holds a batch or two
 * whatever the size. When the writable goes away (the client disconnected) the pipeline destroys the
 * cursor and the connection is discarded, which ends the query on the server.
 */
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import QueryStream from 'pg-query-stream';
import { stringify } from 'csv-stringify';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { compileReportQuery } from './compile.js';
import { copyCsv, copyCsvApplies, settingPlaceholder } from './copy-csv.js';
import { reportsConnection, reportTypes } from './pool.js';
import { withReportSlot } from './slots.js';
import { parseReportQuery } from './query.js';
import { outputColumns } from './validate.js';

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Rows fetched from the cursor at a time. */
const BATCH_SIZE = 1000;
/** Encoded output is written to the socket in chunks of about this size (one write per row is slow). */
const CHUNK_BYTES = 64 * 1024;

/** Joins the encoder's small per-row chunks into ~64 KiB writes; backpressure passes through. */
function coalesce(): Transform {
  let parts: string[] = [];
  let size = 0;
  return new Transform({
    writableObjectMode: false,
    decodeStrings: false,
    transform(chunk: string | Buffer, _enc, cb) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      parts.push(text);
      size += text.length;
      if (size >= CHUNK_BYTES) {
        const out = parts.join('');
        parts = [];
        size = 0;
        return cb(null, out);
      }
      cb();
    },
    flush(cb) {
      cb(null, parts.length ? parts.join('') : undefined);
    },
  });
}

export interface ExportHead {
  contentType: string;
  filename: string;
}

function jsonArrayEncoder(names: string[]): Transform & { rows: number } {
  let first = true;
  const t = new Transform({
    writableObjectMode: true,
    transform(row: unknown[], _enc, cb) {
      const obj: Record<string, unknown> = {};
      names.forEach((n, i) => (obj[n] = row[i] ?? null));
      const text = (first ? '[\n' : ',\n') + JSON.stringify(obj);
      first = false;
      (t as Transform & { rows: number }).rows++;
      cb(null, text);
    },
    flush(cb) {
      cb(null, first ? '[]\n' : '\n]\n');
    },
  }) as Transform & { rows: number };
  t.rows = 0;
  return t;
}

function csvEncoder(names: string[]) {
  return stringify({
    header: true,
    columns: names,
    cast: {
      object: (v) => JSON.stringify(v),
      boolean: (v) => (v ? 'true' : 'false'),
    },
  });
}

function head(entity: string, format: ExportFormat, now: Date): ExportHead {
  const stamp = now.toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return {
    contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
    filename: `${entity}-${stamp}.${format}`,
  };
}

/**
 * Validates the query (export limits; 422s name `['query', …]`, the document being the `query` argument
 * as for reportQuery), then streams it into `out`. `start` is called once the query is
 * known to be valid, before the first byte, so the caller can send its headers.
 */
export async function exportReport(
  ctx: Ctx,
  input: unknown,
  format: ExportFormat,
  out: Writable,
  start: (head: ExportHead) => void,
): Promise<{ rows: number }> {
  const me = requireUser(ctx);
  const q = parseReportQuery(input, ['query'], 'export');
  // COPY needs a real Postgres (the embedded PGlite takes the cursor path).
  const copy =
    format === 'csv' &&
    !!(ctx.rt.config.reportsDatabaseUrl ?? ctx.rt.config.databaseUrl) &&
    copyCsvApplies(q, outputColumns(q));
  const compiled = compileReportQuery(q, me.tenantId, {
    now: ctx.rt.clock.now(),
    placeholder: copy ? settingPlaceholder : undefined,
  });
  const names = compiled.columns.map((c) => c.name);
  return withReportSlot(ctx.rt, me.tenantId, async () => {
    const client = await reportsConnection(ctx.rt, ctx.rt.config.reportsExportTimeoutSeconds * 1000);
    const unguard = cutWhenStalled(out, ctx.rt.config.reportsExportStallSeconds * 1000);
    try {
      if (copy) {
        start(head(q.entity, format, ctx.rt.clock.now()));
        return { rows: await copyCsv(client, compiled, out) };
      }
      const source = client.query(
        new QueryStream(compiled.sql, compiled.params, { batchSize: BATCH_SIZE, rowMode: 'array', types: reportTypes }),
      );
      start(head(q.entity, format, ctx.rt.clock.now()));
      const encoder = format === 'csv' ? csvEncoder(names) : jsonArrayEncoder(names);
      await pipeline(source, encoder, coalesce(), out);
      const rows =
        'info' in encoder
          ? (encoder.info as { records: number }).records
          : (encoder as Transform & { rows: number }).rows;
      return { rows };
    } finally {
      unguard();
      // Closing the connection ends a query torn down mid-stream on the server too.
      client.release();
    }
  });
}

/** Why an export was cut: its client read nothing for config.reportsExportStallSeconds. */
export class ExportStalled extends Error {
  readonly code = 'EXPORT_STALLED';
  constructor(seconds: number) {
    super(`the client read nothing for ${seconds} s`);
  }
}

const stalledCuts = new WeakMap<Writable, ExportStalled>();

/** Why `out` was cut, when cutWhenStalled cut it (the pipeline may report it as a premature close). */
export function stallOf(out: Writable): ExportStalled | undefined {
  return stalledCuts.get(out);
}

/**
 * Destroys `out` once it has wanted draining (its buffer full, the client reading nothing) for `ms`
 * without a break, so a client that stops reading cannot hold a connection and a slot for longer.
 * Returns the function that stops watching.
 */
export function cutWhenStalled(out: Writable, ms: number): () => void {
  let stalledSince: number | undefined;
  const timer = setInterval(
    () => {
      if (!out.writableNeedDrain) {
        stalledSince = undefined;
        return;
      }
      const now = performance.now();
      stalledSince ??= now;
      if (now - stalledSince >= ms) {
        clearInterval(timer);
        const cut = new ExportStalled(Math.round(ms / 1000));
        stalledCuts.set(out, cut);
        out.destroy(cut);
      }
    },
    Math.max(50, Math.min(1000, ms / 4)),
  );
  timer.unref();
  return () => clearInterval(timer);
}
