/**
 * The bytes of a CSV export with tricky values (commas, quotes, LF, CRLF, a lone CR, tabs, an empty
 * string next to NULL, unicode, `\.`, formula-like text, non-string label values, milliseconds), exactly,
 * on both paths: Postgres' COPY (the columns it can render: src/reports/copy-csv.ts) and the cursor
 * through csv-stringify (the same columns plus a payload column, which only the cursor path writes).
 * Another tenant's rows in the same window never appear. Booleans and integers: alerts, COPY path.
 */
import pg from 'pg';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let db: pg.Client;
/** A whole second an hour ago; every row is some milliseconds before it (newest first). */
const base = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const at = (i: number, ms: number) => new Date(base - i * 1000 + ms);

/** Each event (newest first) and how csv-stringify writes its module, summary and labels.env fields. */
const EVENTS: Array<{
  summary: string | null;
  module: string | null;
  labels: unknown;
  ms: number;
  csv: [string, string, string];
}> = [
  { summary: 'plain', module: 'm', labels: { env: 'prod' }, ms: 0, csv: ['m', 'plain', 'prod'] },
  { summary: 'comma, inside', module: null, labels: { env: 'a,b' }, ms: 500, csv: ['', '"comma, inside"', '"a,b"'] },
  {
    summary: 'say "hi"',
    module: '"',
    labels: { env: '"quoted"' },
    ms: 7,
    csv: ['""""', '"say ""hi"""', '"""quoted"""'],
  },
  { summary: 'line1\nline2', module: null, labels: { env: 'x\ny' }, ms: 999, csv: ['', '"line1\nline2"', '"x\ny"'] },
  { summary: 'crlf\r\nend', module: null, labels: {}, ms: 10, csv: ['', '"crlf\r\nend"', ''] },
  { summary: 'cr\ronly', module: null, labels: { env: null }, ms: 20, csv: ['', '"cr\ronly"', ''] },
  { summary: '', module: '', labels: { env: '' }, ms: 30, csv: ['', '', ''] },
  { summary: null, module: null, labels: { env: 42 }, ms: 40, csv: ['', '', '42'] },
  {
    summary: 'ünïcödé ✓ 日本語 🚀',
    module: 'é',
    labels: { env: 'Grüße' },
    ms: 50,
    csv: ['é', 'ünïcödé ✓ 日本語 🚀', 'Grüße'],
  },
  {
    summary: '\\.',
    module: '\\',
    labels: { env: { nested: [1, 'two'] } },
    ms: 60,
    csv: ['\\', '\\.', '"{""nested"": [1, ""two""]}"'],
  },
  { summary: ' padded ', module: 'tab\there', labels: { env: true }, ms: 70, csv: ['tab\there', ' padded ', 'true'] },
  { summary: '=SUM(A1)+@x -1', module: "it's", labels: { env: '#;' }, ms: 80, csv: ["it's", '=SUM(A1)+@x -1', '#;'] },
];
const COLUMNS = ['id', 'received_at', 'type', 'module', 'summary', 'labels.env'];

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  db = new pg.Client({ connectionString: s.db.url });
  await db.connect();
  const insert = async (tenantId: string, id: string, e: (typeof EVENTS)[number], when: Date, seq: number) =>
    db.query(
      `INSERT INTO "Event" ("id", "tenantId", "type", "module", "source", "summary", "labels", "payload", "receivedVia", "receivedAt")
       VALUES ($1, $2, 'csv.test', $3, 'host', $4, $5::jsonb, $6::jsonb, 'ingest', $7::timestamptz AT TIME ZONE 'UTC')`,
      [id, tenantId, e.module, e.summary, JSON.stringify(e.labels), JSON.stringify({ seq }), when.toISOString()],
    );
  for (const [i, e] of EVENTS.entries()) {
    await insert(t.tenantId, `ev-${String(i).padStart(2, '0')}`, e, at(i, -e.ms), i);
    await insert(other.tenantId, `other-${i}`, e, at(i, -e.ms), i);
  }
  const alert = (id: string, tenantId: string, suppressed: boolean, count: number, summary: string, when: Date) =>
    db.query(
      `INSERT INTO "Alert" ("id", "tenantId", "severity", "summary", "source", "dedupKey", "status", "count", "suppressed", "createdAt", "firstSeenAt", "lastSeenAt", "updatedAt")
       SELECT $1, $2, 'critical', $3, 'host', $1, 'resolved', $4, $5, ts, ts, ts, ts FROM (SELECT $6::timestamptz AT TIME ZONE 'UTC' AS ts) x`,
      [id, tenantId, summary, count, suppressed, when.toISOString()],
    );
  await alert('al-1', t.tenantId, true, 2147483647, 'big, "count"', at(0, 0));
  await alert('al-2', t.tenantId, false, 1, 'one', at(1, -1));
  await alert('al-x', other.tenantId, true, 5, 'not mine', at(0, 0));
}, 120_000);
afterAll(async () => {
  await db?.end();
  await s?.stop();
});

async function exportText(query: object, token = t.adminToken): Promise<string> {
  const res = await fetch(`${s.url}/api/v1/reports/query/export?format=csv`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(query),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
  return res.text();
}

const iso = (i: number) => at(i, -EVENTS[i].ms).toISOString();

describe('CSV export bytes', () => {
  it('writes tricky values exactly as csv-stringify does, on the COPY path', async () => {
    const text = await exportText({ entity: 'events', columns: COLUMNS, since_hours: 24 });
    const lines = EVENTS.map((e, i) => `ev-${String(i).padStart(2, '0')},${iso(i)},csv.test,${e.csv.join(',')}\n`);
    expect(text).toBe('id,received_at,type,module,summary,labels.env\n' + lines.join(''));
    // And it parses back to the values (NULL and '' both read as '').
    const records = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(records.map((r) => r.summary)).toEqual(EVENTS.map((e) => e.summary ?? ''));
    expect(records.map((r) => r.module)).toEqual(EVENTS.map((e) => e.module ?? ''));
  });

  it('writes the same bytes on the cursor path (a payload column added at the end)', async () => {
    const copy = await exportText({ entity: 'events', columns: COLUMNS, since_hours: 24 });
    const cursor = await exportText({ entity: 'events', columns: [...COLUMNS, 'payload.seq'], since_hours: 24 });
    const records = parse(cursor, { columns: true }) as Array<Record<string, string>>;
    expect(records.map((r) => r['payload.seq'])).toEqual(EVENTS.map((_, i) => String(i)));
    // Each cursor record is the COPY record with `,<seq>` before its end of line.
    const copyRecords = parse(copy, { raw: true }) as unknown as Array<{ raw: string }>;
    const cursorRecords = parse(cursor, { raw: true }) as unknown as Array<{ raw: string }>;
    const line = (raw: string) => raw.replace(/\n$/, '');
    expect(line(cursorRecords[0].raw)).toBe(line(copyRecords[0].raw) + ',payload.seq');
    for (let i = 1; i < copyRecords.length; i++)
      expect(line(cursorRecords[i].raw)).toBe(line(copyRecords[i].raw) + `,${i - 1}`);
    expect(cursorRecords.length).toBe(copyRecords.length);
  });

  it('writes booleans and integers as csv-stringify does, and only the caller’s tenant', async () => {
    const text = await exportText({
      entity: 'alerts',
      columns: ['id', 'created_at', 'suppressed', 'count', 'summary'],
      since_hours: 24,
    });
    expect(text).toBe(
      `id,created_at,suppressed,count,summary\nal-1,${at(0, 0).toISOString()},true,2147483647,"big, ""count"""\nal-2,${at(1, -1).toISOString()},false,1,one\n`,
    );
    const theirs = await exportText(
      { entity: 'alerts', columns: ['id', 'summary'], since_hours: 24 },
      other.adminToken,
    );
    expect(theirs).toBe('id,summary\nal-x,not mine\n');
  });

  it('writes the header alone when no row matches', async () => {
    const text = await exportText({
      entity: 'events',
      columns: COLUMNS,
      since_hours: 24,
      filters: [{ field: 'source', op: 'in', value: ['nobody', 'a,"b"'] }],
    });
    expect(text).toBe('id,received_at,type,module,summary,labels.env\n');
  });
});
