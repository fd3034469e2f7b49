/**
 * Child process of the ingest benchmark: the baseline. A bare Express 5 app whose POST /events
 * handler parses JSON and does one INSERT (autocommit) into a table equivalent to "Event" (same
 * columns, indexes and tenant foreign key), through a `pg` pool of the service's size (10), and answers
 * 202 with the id. No authentication, validation, rate limit, logging or queueing.
 * Env: DATABASE_URL, BASELINE_TENANT_ID. Prints `{"ready": {"url": …}}`.
 */
import crypto from 'node:crypto';
import express from 'express';
import pg from 'pg';

export const BASELINE_TABLE_SQL = `
CREATE TABLE IF NOT EXISTS bench_baseline_event (
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES "Tenant"(id) ON DELETE CASCADE,
  type text NOT NULL,
  module text,
  source text NOT NULL,
  summary text,
  severity "Severity" NOT NULL DEFAULT 'info',
  labels jsonb NOT NULL DEFAULT '{}',
  payload jsonb NOT NULL DEFAULT '{}',
  received_via "ReceivedVia" NOT NULL,
  received_at timestamp(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  evaluated_at timestamp(3),
  device_id text
);
CREATE INDEX IF NOT EXISTS bench_baseline_event_tenant_received ON bench_baseline_event (tenant_id, received_at DESC);
CREATE INDEX IF NOT EXISTS bench_baseline_event_eval ON bench_baseline_event (evaluated_at, received_at);
CREATE INDEX IF NOT EXISTS bench_baseline_event_device ON bench_baseline_event (device_id, received_at DESC);
`;

if (process.env.BENCH_ROLE === 'baseline') {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const tenantId = process.env.BASELINE_TENANT_ID!;
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/events', async (req, res) => {
    const b = req.body;
    const id = crypto.randomUUID();
    try {
      await pool.query(
        `INSERT INTO bench_baseline_event (id, tenant_id, type, module, source, summary, severity, labels, payload, received_via)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'ingest')`,
        [
          id,
          tenantId,
          b.type ?? b.kind,
          b.module ?? null,
          b.source,
          b.summary ?? null,
          b.severity ?? 'info',
          JSON.stringify(b.labels ?? {}),
          JSON.stringify(b.payload ?? {}),
        ],
      );
      res.status(202).json({ id, status: 'accepted' });
    } catch (err) {
      res.status(500).json({ detail: (err as Error).message });
    }
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(JSON.stringify({ ready: { url: `http://127.0.0.1:${port}` } }) + '\n');
  });
  process.on('SIGTERM', () => {
    server.close();
    void pool.end().then(() => process.exit(0));
  });
}
