/**
 * No caller can hold the reports for everyone (issue 40, item 3): exports whose clients never read
 * leave another tenant's report query answering, one tenant runs at most REPORTS_TENANT_CONCURRENCY
 * queries and exports at once (429 past it), a client that reads nothing is cut after
 * REPORTS_EXPORT_STALL_SECONDS, and a client hanging up is one info line, never an error.
 */
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, rest } from './helpers/http.js';

const CAP = 4;
let s: TestServer;
/** A second server whose exports are cut after 2 s of stall (the first one's never are, within a test). */
let quick: TestServer;
let a: BuiltTenant;
let b: BuiltTenant;
let db: pg.Client;
let quickDb: pg.Client;

async function seed(client: pg.Client, tenantId: string): Promise<void> {
  // 20,000 rows of about 1 KB: an export of ~20 MB, far more than the sockets' buffers hold.
  await client.query(
    `INSERT INTO "Event" ("id", "tenantId", "type", "source", "summary", "severity", "labels", "payload", "receivedVia", "receivedAt", "evaluatedAt")
     SELECT gen_random_uuid()::text, $1, 'bulk.tick', 'host', 'row ' || i, 'info', '{}'::jsonb,
            jsonb_build_object('blob', repeat('x', 1000)), 'ingest', (now() AT TIME ZONE 'UTC') - i * interval '1 second', now()
       FROM generate_series(1, 20000) AS i`,
    [tenantId],
  );
}

let qa: BuiltTenant;

beforeAll(async () => {
  [s, quick] = await Promise.all([
    startTestServer({ env: { REPORTS_TENANT_CONCURRENCY: String(CAP), REPORTS_EXPORT_STALL_SECONDS: '3600' } }),
    startTestServer({ env: { REPORTS_TENANT_CONCURRENCY: '1', REPORTS_EXPORT_STALL_SECONDS: '2' } }),
  ]);
  a = await buildTenant(s.app.rt);
  b = await buildTenant(s.app.rt);
  qa = await buildTenant(quick.app.rt);
  db = new pg.Client({ connectionString: s.db.url });
  quickDb = new pg.Client({ connectionString: quick.db.url });
  await Promise.all([db.connect(), quickDb.connect()]);
  await Promise.all([seed(db, a.tenantId), seed(quickDb, qa.tenantId)]);
}, 180_000);
afterAll(async () => {
  await db?.end();
  await quickDb?.end();
  await Promise.all([s?.stop(), quick?.stop()]);
});

const EXPORT = JSON.stringify({ entity: 'events', columns: ['id', 'summary', 'payload.blob'], limit: 100000 });

/** An export request on a raw socket that reads only the first bytes, then nothing (or hangs up). */
function rawExport(
  token: string,
  server: TestServer = s,
): { socket: net.Socket; firstBytes: Promise<string>; closed: Promise<void> } {
  const url = new URL(server.url);
  const socket = net.connect(Number(url.port), url.hostname);
  socket.write(
    `POST /api/v1/reports/query/export?format=csv HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(EXPORT)}\r\n\r\n${EXPORT}`,
  );
  const firstBytes = new Promise<string>((resolve) =>
    socket.once('data', (chunk: Buffer) => {
      socket.pause(); // never reads again: the kernel buffers fill, then the server's
      resolve(chunk.toString('latin1'));
    }),
  );
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  return { socket, firstBytes, closed };
}

async function reportsConnections(client = db): Promise<number> {
  const r = await client.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'ops-reports'`,
  );
  return r.rows[0].n as number;
}

const QUERY = { entity: 'events', columns: ['id'], limit: 5 };

describe('exports whose clients never read', () => {
  it("leave another tenant's report query answering, and refuse the stalling tenant's next one with 429", async () => {
    const info = vi.spyOn(s.app.rt.logger, 'info');
    const error = vi.spyOn(s.app.rt.logger, 'error');
    const stalled = Array.from({ length: CAP }, () => rawExport(a.adminToken));
    for (const x of stalled) expect(await x.firstBytes).toMatch(/^HTTP\/1\.1 200/);
    await eventually(async () => (await reportsConnections()) >= CAP);

    const other = await rest(s.url, b.adminToken).post('/reports/query', QUERY);
    expect(other.status).toBe(200);

    const same = await rest(s.url, a.adminToken).post('/reports/query', QUERY);
    expect(same.status).toBe(429);
    expect(same.headers.get('retry-after')).toBeTruthy();
    expect(same.body.detail).toMatch(/REPORTS_TENANT_CONCURRENCY/);

    // The clients hang up: each is one info line, and the connections and the tenant's slots are free.
    for (const x of stalled) x.socket.destroy();
    await eventually(async () => (await reportsConnections()) === 0);
    await eventually(async () => (await rest(s.url, a.adminToken).post('/reports/query', QUERY)).status === 200);
    await eventually(async () =>
      info.mock.calls.filter((c) => c[1] === 'report export ended early by its client').length >= CAP ? true : null,
    );
    expect(error).not.toHaveBeenCalled();
    info.mockRestore();
    error.mockRestore();
  });

  it(`cuts an export whose client reads nothing for REPORTS_EXPORT_STALL_SECONDS, freeing its slot`, async () => {
    const info = vi.spyOn(quick.app.rt.logger, 'info');
    const x = rawExport(qa.adminToken, quick);
    expect(await x.firstBytes).toMatch(/^HTTP\/1\.1 200/);
    // The server cuts it (the paused client sees the end only once it reads what is buffered).
    await eventually(async () =>
      info.mock.calls.some((c) => c[1] === 'report export ended early by its client') ? true : null,
    );
    await eventually(async () => (await reportsConnections(quickDb)) === 0);
    x.socket.resume();
    await x.closed;
    expect((await rest(quick.url, qa.adminToken).post('/reports/query', QUERY)).status).toBe(200);
    expect(info.mock.calls.find((c) => c[1] === 'report export ended early by its client')?.[0]).toEqual({
      reason: 'the client read nothing for 2 s',
    });
    info.mockRestore();
  });

  it('logs a client that hangs up mid-export as one info line, not an error', async () => {
    const info = vi.spyOn(s.app.rt.logger, 'info');
    const error = vi.spyOn(s.app.rt.logger, 'error');
    const warn = vi.spyOn(s.app.rt.logger, 'warn');
    const x = rawExport(a.adminToken);
    expect(await x.firstBytes).toMatch(/^HTTP\/1\.1 200/);
    x.socket.destroy();
    await eventually(async () =>
      info.mock.calls.some((c) => c[1] === 'report export ended early by its client') ? true : null,
    );
    await eventually(async () => (await reportsConnections()) === 0);
    expect(info.mock.calls.filter((c) => c[1] === 'report export ended early by its client')).toHaveLength(1);
    expect(error).not.toHaveBeenCalled();
    expect(warn.mock.calls.map((c) => c[1])).not.toContain('report export failed mid-stream');
    info.mockRestore();
    error.mockRestore();
    warn.mockRestore();
  });
});
