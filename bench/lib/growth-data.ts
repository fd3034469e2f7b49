/**
 * Data of the history benchmarks (bench:growth, bench:timeline), written by Postgres itself.
 *
 * Events arrive at a steady rate back from `anchor`: event i at anchor - i × (1 day / perDay), with a
 * UUIDv7 id of its time (as ingest makes them). A UTC day without a partition yet is filled as a plain
 * table and then attached, so its indexes (trigram and GIN ones included) are built once per day rather
 * than row by row; a day whose partition exists is inserted into. Each filled day gets its stored-bytes
 * rows per hour (as metering writes them). A few rare events (a rare source, a rare word, a rare label)
 * sit in the last hour.
 */
import type pg from 'pg';

const DAY_MS = 86400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, -1);

/** The SELECT of events g in [lo, hi] (bigint) that fall in [dayStart, dayEnd); $1 tenant, $2 anchor, $3 step ms. */
const EVENT_ROWS = `
  SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(h, 14, 3) || '-8' || substr(h, 18, 3) || '-' || substr(h, 21, 12),
         $1, 'metric.sample' || (g % 20), 'host-' || (g % 500), 'sample ' || g || ' from host ' || (g % 500),
         CASE g % 10 WHEN 0 THEN 'warning' WHEN 1 THEN 'critical' ELSE 'info' END::"Severity",
         jsonb_build_object('team', 'team-' || (g % 30), 'rack', 'r' || (g % 40)), jsonb_build_object('value', g % 1000),
         'ingest'::"ReceivedVia", t, t
    FROM generate_series($4::bigint, $5::bigint) g,
         LATERAL (SELECT $2::timestamp - (g * $3::double precision) * interval '1 millisecond' AS t) tt,
         LATERAL (SELECT lpad(to_hex((extract(epoch FROM t) * 1000)::bigint), 12, '0') || md5(g::text) AS h) hh
   WHERE t >= $6::timestamp AND t < $7::timestamp`;

const EVENT_COLUMNS = `("id", "tenantId", "type", "source", "summary", "severity", "labels", "payload", "receivedVia", "receivedAt", "evaluatedAt")`;

/** Adds events [from, to) of the steady stream (see above); `progress` hears a line per day. */
export async function fillEvents(
  c: pg.Client,
  tenantId: string,
  anchor: number,
  perDay: number,
  from: number,
  to: number,
  progress: (msg: string) => void = () => {},
): Promise<void> {
  if (to <= from) return;
  const step = DAY_MS / perDay;
  const newest = anchor - from * step;
  const oldest = anchor - (to - 1) * step;
  for (let day = Math.floor(newest / DAY_MS) * DAY_MS; day + DAY_MS > oldest; day -= DAY_MS) {
    const lo = Math.max(from, Math.floor((anchor - day - DAY_MS) / step));
    const hi = Math.min(to - 1, Math.ceil((anchor - day) / step));
    const name = `Event_p${new Date(day).toISOString().slice(0, 10).replace(/-/g, '')}`;
    const params = [tenantId, iso(anchor), step, lo, hi, iso(day), iso(day + DAY_MS)];
    const exists = (await c.query(`SELECT to_regclass($1) IS NOT NULL AS e`, [`"${name}"`])).rows[0].e as boolean;
    if (exists) {
      await c.query(`INSERT INTO "Event" ${EVENT_COLUMNS} ${EVENT_ROWS}`, params);
    } else {
      await c.query(`CREATE TABLE "${name}" (LIKE "Event" INCLUDING DEFAULTS)`);
      await c.query(`INSERT INTO "${name}" ${EVENT_COLUMNS} ${EVENT_ROWS}`, params);
      await c.query(
        `ALTER TABLE "Event" ATTACH PARTITION "${name}" FOR VALUES FROM ('${iso(day)}') TO ('${iso(day + DAY_MS)}')`,
      );
    }
    await c.query(
      `INSERT INTO "EventStorageWindow" ("tenantId", "windowStart", "bytes", "events")
       SELECT e."tenantId", date_trunc('hour', e."receivedAt"), sum(pg_column_size(e.*))::bigint, count(*)::int
         FROM "Event" e WHERE e."tenantId" = $1 AND e."receivedAt" >= $2::timestamp AND e."receivedAt" < $3::timestamp GROUP BY 1, 2
       ON CONFLICT ("tenantId", "windowStart") DO UPDATE SET "bytes" = EXCLUDED."bytes", "events" = EXCLUDED."events"`,
      [tenantId, iso(day), iso(day + DAY_MS)],
    );
    progress(`events: ${name} (${(hi - lo + 1).toLocaleString('en')})`);
  }
  if (from === 0) await addRareEvents(c, tenantId, anchor);
}

/** Five events each of a rare source, a rare word and a rare label, in the last 40 minutes before `anchor`. */
export async function addRareEvents(c: pg.Client, tenantId: string, anchor: number): Promise<void> {
  const rare: Array<[string, string, string]> = [
    ['rare-source', 'a rare thing happened', '{"team":"team-1"}'],
    ['host-7', 'a zebrafish sighting', '{"team":"team-2"}'],
    ['host-8', 'labelled rarely', '{"team":"rare"}'],
  ];
  for (const [i, [source, summary, labels]] of rare.entries()) {
    await c.query(
      `INSERT INTO "Event" ${EVENT_COLUMNS}
       SELECT gen_random_uuid()::text, $1, 'rare.thing', $2, $3, 'warning', $4::jsonb, '{}', 'ingest', t, t
         FROM generate_series(1, 5) k, LATERAL (SELECT $5::timestamp - (k * 7 + $6) * interval '1 minute' AS t) tt`,
      [tenantId, source, summary, labels, iso(anchor), i],
    );
  }
}

/** Where the GPUs' steady recent data starts: the hour before `anchor`'s hour (the metered window is inside). */
export const recentGpuStart = (anchor: number) => Math.floor(anchor / 3600_000) * 3600_000 - 3600_000;

/**
 * GPU data: 1,000 GPUs with a sample every 10 s from `recentGpuStart(anchor)` to `anchor` (made on the
 * first call), then history growing with the size, older than that: (to - from) / 10 raw samples and
 * as many minute rollups. Every size thus has the same recent data, and only the history behind it grows.
 */
export async function growGpus(
  c: pg.Client,
  tenantId: string,
  anchor: number,
  from: number,
  to: number,
): Promise<void> {
  const recent = recentGpuStart(anchor);
  if (from === 0) {
    await c.query(
      `INSERT INTO "Gpu" ("id", "tenantId", "uuid", "node", "index", "model", "source") SELECT 'g' || g, $1, 'GPU-' || g, 'node-' || (g / 8), g % 8, 'H100', 'dcgm' FROM generate_series(1, 1000) g`,
      [tenantId],
    );
    for (const parent of ['GpuSample', 'GpuRollup_r60', 'GpuRollup_r3600']) {
      await c.query(`SELECT ops_ensure_partitions($1, $2, $3::timestamp, $4::timestamp, NULL)`, [
        parent,
        parent.endsWith('3600') ? 'week' : 'day',
        iso(anchor - 3 * DAY_MS),
        iso(anchor),
      ]);
    }
    await c.query(
      `INSERT INTO "GpuSample" ("gpuId", "tenantId", "at", "utilization", "powerW", "temperatureC")
       SELECT 'g' || gi, $1, $2::timestamp + s * interval '10 seconds', random() * 100, 300 + random() * 400, 40 + random() * 40
         FROM generate_series(1, 1000) gi, generate_series(0, $3::int) s`,
      [tenantId, iso(recent), Math.floor((anchor - recent) / 10_000)],
    );
  }
  const [lo, hi] = [Math.floor(from / 10), Math.floor(to / 10) - 1];
  await c.query(
    `INSERT INTO "GpuSample" ("gpuId", "tenantId", "at", "utilization", "powerW", "temperatureC")
     SELECT 'g' || (j % 1000 + 1), $1, $2::timestamp - (j / 1000 + 1) * interval '10 seconds', random() * 100, 300 + random() * 400, 40 + random() * 40
       FROM generate_series($3::bigint, $4::bigint) j ON CONFLICT DO NOTHING`,
    [tenantId, iso(recent), lo, hi],
  );
  await c.query(
    `INSERT INTO "GpuRollup" ("gpuId", "tenantId", "resolution", "bucket", "samples", "utilization", "utilizationMax", "powerW", "powerWMax")
     SELECT 'g' || (j % 1000 + 1), $1, 60, $2::timestamp - (j / 1000 + 1) * interval '1 minute', 6, 50, 90, 500, 650
       FROM generate_series($3::bigint, $4::bigint) j ON CONFLICT DO NOTHING`,
    [tenantId, iso(recent), lo, hi],
  );
}
