/**
 * Streaming export over REST with a PAT: 100,000 events as CSV parsed back with csv-parse; memory that
 * stays flat (the heap the export keeps alive, measured after forced full GCs all along the stream, is
 * the same for 100,000 rows as for 10,000); JSON export; and a client disconnect that ends the query on
 * the server. (Server peak RSS over 1,000,000 rows is printed by `npm run bench:reports`.)
 * Rows are seeded with one INSERT … SELECT generate_series (the export, not ingest, is under test).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { parse } from 'csv-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, rest } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;
let db: pg.Client;
/** A full GC on demand (V8's flag set at run time; the test process starts without --expose-gc). */
v8.setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const ROWS = 100_000;
const BLOB = 'x'.repeat(1000);

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  db = new pg.Client({ connectionString: s.db.url });
  await db.connect();
  await db.query(
    `INSERT INTO "Event" ("id", "tenantId", "type", "source", "summary", "severity", "labels", "payload", "receivedVia", "receivedAt", "evaluatedAt")
     SELECT gen_random_uuid()::text, $1, 'bulk.tick', 'host-' || (i % 50), 'say "hi", row ' || i, 'info', '{"env":"bulk"}'::jsonb,
            jsonb_build_object('seq', i, 'blob', $2::text), 'ingest', (now() AT TIME ZONE 'UTC') - i * interval '50 milliseconds', now()
       FROM generate_series(1, $3::int) AS i`,
    [t.tenantId, BLOB, ROWS],
  );
}, 180_000);
afterAll(async () => {
  await db?.end();
  await s?.stop();
});

const EXPORT_QUERY = {
  entity: 'events',
  columns: ['id', 'received_at', 'source', 'summary', 'labels.env', 'payload.seq', 'payload.blob'],
};

/** Streams an export from `baseUrl` through csv-parse, counting records and bytes. */
async function exportCsv(
  limit: number,
  baseUrl = s.url,
): Promise<{ records: number; header: string[]; first: string[]; bytes: number; disposition: string | null }> {
  {
    const res = await fetch(`${baseUrl}/api/v1/reports/query/export?format=csv`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...EXPORT_QUERY, limit }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    let bytes = 0;
    let records = 0;
    let header: string[] = [];
    let first: string[] = [];
    const source = Readable.fromWeb(res.body as never).on('data', (c: Buffer) => (bytes += c.length));
    await pipeline(
      source,
      parse(),
      new Writable({
        objectMode: true,
        write(rec: string[], _e, cb) {
          if (records === 0 && header.length === 0) header = rec;
          else {
            if (records === 0) first = rec;
            records++;
          }
          cb();
        },
      }),
    );
    return { records, header, first, bytes, disposition: res.headers.get('content-disposition') };
  }
}

/**
 * Reads an export (the server runs in this process) while forcing a full GC every ~5 MiB received and
 * recording how much heap is still in use compared with before: garbage is gone after a GC, so this is
 * what the export keeps alive (the RSS, by contrast, also counts garbage the GC has not collected yet).
 */
async function retainedDuringExport(limit: number): Promise<{ max: number; samples: number; bytes: number }> {
  gc();
  const base = process.memoryUsage().heapUsed;
  const res = await fetch(`${s.url}/api/v1/reports/query/export?format=csv`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...EXPORT_QUERY, limit }),
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let bytes = 0;
  let next = 1 << 20;
  let max = 0;
  let samples = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (bytes >= next) {
      next += 5 << 20;
      gc();
      max = Math.max(max, process.memoryUsage().heapUsed - base);
      samples++;
    }
  }
  return { max, samples, bytes };
}

describe('POST /reports/query/export', () => {
  it('streams 100,000 events as CSV that parses to 100,000 rows', async () => {
    const big = await exportCsv(ROWS);
    expect(big.records).toBe(ROWS);
    expect(big.header).toEqual(EXPORT_QUERY.columns);
    expect(big.disposition).toMatch(/^attachment; filename="events-[0-9-]+\.csv"$/);
    // Correct quoting: the summary holds a comma and double quotes, the payload string survives whole.
    expect(big.first[3]).toBe('say "hi", row 1');
    expect(big.first[4]).toBe('bulk');
    expect(big.first[5]).toBe('1');
    expect(big.first[6]).toBe(BLOB);
    expect(big.bytes).toBeGreaterThan(100 * 1024 * 1024);
  }, 180_000);

  it('keeps memory flat: the heap still in use mid-stream is the same small amount for 100,000 rows as for 10,000', async () => {
    const small = await retainedDuringExport(10_000);
    const big = await retainedDuringExport(ROWS);
    console.log(
      `heap retained mid-export (after a full GC): max ${(small.max / 2 ** 20).toFixed(1)} MiB over ${small.samples} samples for 10,000 rows, max ${(big.max / 2 ** 20).toFixed(1)} MiB over ${big.samples} samples for 100,000 rows (${(big.bytes / 2 ** 20).toFixed(0)} MiB sent)`,
    );
    expect(big.samples).toBeGreaterThanOrEqual(10);
    // Holding the rows would keep tens of MiB more alive at each later sample; streaming keeps a batch.
    expect(big.max).toBeLessThan(40 * 2 ** 20);
    expect(big.max).toBeLessThan(small.max + 16 * 2 ** 20);
  }, 180_000);

  it('exports JSON as one array of row objects', async () => {
    const r = await rest(s.url, t.adminToken).post('/reports/query/export?format=json', {
      entity: 'events',
      columns: ['source', 'payload.seq'],
      limit: 3,
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="events-.*\.json"$/);
    expect(r.body).toEqual([
      { source: 'host-1', 'payload.seq': 1 },
      { source: 'host-2', 'payload.seq': 2 },
      { source: 'host-3', 'payload.seq': 3 },
    ]);
    const empty = await rest(s.url, t.adminToken).post('/reports/query/export?format=json', {
      entity: 'events',
      filters: [{ field: 'source', op: 'eq', value: 'nobody' }],
    });
    expect(empty.body).toEqual([]);
  });

  it('rejects bad queries before streaming and needs a credential', async () => {
    const bad = await rest(s.url, t.adminToken).post('/reports/query/export?format=csv', {
      entity: 'events',
      filters: [{ field: 'source', op: 'gt', value: 1 }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'filters', '0', 'op']);
    const tooMany = await rest(s.url, t.adminToken).post('/reports/query/export?format=csv', {
      entity: 'events',
      limit: 2_000_001,
    });
    expect(tooMany.status).toBe(422);
    expect(
      (await rest(s.url, t.adminToken).post('/reports/query/export?format=xml', { entity: 'events' })).status,
    ).toBe(422);
    expect((await rest(s.url).post('/reports/query/export?format=csv', { entity: 'events' })).status).toBe(401);
  });

  it('stops the query on the server when the client disconnects', async () => {
    const busy = async () =>
      Number(
        (
          await db.query(
            `SELECT count(*) FROM pg_stat_activity WHERE application_name = 'ops-reports' AND datname = current_database() AND state <> 'idle'`,
          )
        ).rows[0].count,
      );
    const abort = new AbortController();
    const res = await fetch(`${s.url}/api/v1/reports/query/export?format=csv`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...EXPORT_QUERY, limit: ROWS }),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    // The client reads no further: backpressure holds the cursor open on the server, mid-query.
    expect(await busy()).toBe(1);
    abort.abort();
    await eventually(async () => (await busy()) === 0, 20_000);
    // The service still answers exports afterwards (the connection was discarded, not leaked).
    const again = await rest(s.url, t.adminToken).post('/reports/query/export?format=json', {
      entity: 'events',
      columns: ['source'],
      limit: 1,
    });
    expect(again.body).toEqual([{ source: 'host-1' }]);
  }, 60_000);
});
