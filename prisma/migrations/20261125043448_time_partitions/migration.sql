-- Time partitions (issue 19). The first part is what Prisma's diff wrote; the second is hand-written,
-- because Prisma cannot express partitioned tables. The hand-written part converts the tables in
-- place, keeping every row, and test/migrations.test.ts applies it to a schema built straight from
-- prisma/schema to check that both end the same.

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "eventRetentionDays" INTEGER;

-- AlterTable: an attempt carries its delivery's time (the partition key of both)
ALTER TABLE "DeliveryAttempt" ADD COLUMN     "deliveryCreatedAt" TIMESTAMP(3);
UPDATE "DeliveryAttempt" a SET "deliveryCreatedAt" = d."createdAt" FROM "Delivery" d WHERE d."id" = a."deliveryId";
DELETE FROM "DeliveryAttempt" WHERE "deliveryCreatedAt" IS NULL;
ALTER TABLE "DeliveryAttempt" ALTER COLUMN "deliveryCreatedAt" SET NOT NULL;

-- DropIndex
DROP INDEX "Delivery_webhookId_outboxId_key";

-- DropIndex
DROP INDEX "DeliveryAttempt_deliveryId_number_key";

-- CreateTable
CREATE TABLE "EventStorageDay" (
    "tenantId" TEXT NOT NULL,
    "day" TIMESTAMP(3) NOT NULL,
    "bytes" BIGINT NOT NULL,
    "events" INTEGER NOT NULL,

    CONSTRAINT "EventStorageDay_pkey" PRIMARY KEY ("tenantId","day")
);

-- CreateIndex
CREATE INDEX "EventStorageDay_day_idx" ON "EventStorageDay"("day");

-- CreateIndex
CREATE INDEX "Event_tenantId_source_receivedAt_idx" ON "Event"("tenantId", "source", "receivedAt" DESC);

-- CreateIndex
CREATE INDEX "Event_tenantId_type_receivedAt_idx" ON "Event"("tenantId", "type", "receivedAt" DESC);

-- CreateIndex
CREATE INDEX "Event_labels_idx" ON "Event" USING GIN ("labels" jsonb_path_ops);

-- CreateIndex
CREATE INDEX "GpuSample_at_idx" ON "GpuSample"("at");

-- CreateIndex
CREATE UNIQUE INDEX "Delivery_webhookId_outboxId_createdAt_key" ON "Delivery"("webhookId", "outboxId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "DeliveryAttempt_deliveryId_number_deliveryCreatedAt_key" ON "DeliveryAttempt"("deliveryId", "number", "deliveryCreatedAt");

-- AddForeignKey
ALTER TABLE "EventStorageDay" ADD CONSTRAINT "EventStorageDay_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- >>> partitioning (hand-written) <<<

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The start of the range partition holding `at`: a UTC day, or a week starting on Monday.
CREATE OR REPLACE FUNCTION ops_partition_start(unit text, at timestamp) RETURNS timestamp
LANGUAGE sql IMMUTABLE AS $$ SELECT date_trunc(unit, at) $$;

-- Creates the partition of `parent` for the `unit` holding `lower` (named <parent>_pYYYYMMDD) unless it
-- exists. Rows of that range already in <parent>_default move into it. `unique_cols` (or null) gets a
-- unique index in the partition: uniqueness that cannot include the partition key holds per partition.
-- Returns true when it created the partition.
CREATE OR REPLACE FUNCTION ops_ensure_partition(parent text, unit text, at timestamp, unique_cols text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  lower_bound timestamp := ops_partition_start(unit, at);
  upper_bound timestamp := ops_partition_start(unit, at) + ('1 ' || unit)::interval;
  part text := parent || '_p' || to_char(ops_partition_start(unit, at), 'YYYYMMDD');
  def text := parent || '_default';
  col text;
  has_rows boolean := false;
BEGIN
  IF to_regclass(quote_ident(part)) IS NOT NULL THEN RETURN false; END IF;
  SELECT a.attname INTO col FROM pg_partitioned_table pt
    JOIN pg_attribute a ON a.attrelid = pt.partrelid AND a.attnum = pt.partattrs[0]
   WHERE pt.partrelid = quote_ident(parent)::regclass;
  IF to_regclass(quote_ident(def)) IS NOT NULL THEN
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I >= $1 AND %I < $2)', def, col, col) INTO has_rows USING lower_bound, upper_bound;
  END IF;
  IF has_rows THEN
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', part, parent);
    EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= $1 AND %I < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved', def, col, col, part)
      USING lower_bound, upper_bound;
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, part, lower_bound, upper_bound);
  ELSE
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', part, parent, lower_bound, upper_bound);
  END IF;
  IF unique_cols IS NOT NULL THEN
    EXECUTE format('CREATE UNIQUE INDEX %I ON %I (%s)', part || '_unique', part, unique_cols);
  END IF;
  RETURN true;
END $$;

-- Every partition of `parent` for the units from `from_at` to `to_at` (both included); returns how many it created.
CREATE OR REPLACE FUNCTION ops_ensure_partitions(parent text, unit text, from_at timestamp, to_at timestamp, unique_cols text) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  at timestamp := ops_partition_start(unit, from_at);
  created integer := 0;
BEGIN
  WHILE at <= to_at LOOP
    IF ops_ensure_partition(parent, unit, at, unique_cols) THEN created := created + 1; END IF;
    at := at + ('1 ' || unit)::interval;
  END LOOP;
  RETURN created;
END $$;

-- Turns the plain table `tbl` into one range-partitioned on `col` by `unit` (or, with `list_col`, one
-- list-partitioned on it whose value v is range-partitioned as <tbl>_r<v> by units[i]), keeping every
-- row: partitions from the oldest row to 7 days ahead plus a default partition; the primary key gains
-- the partition columns; indexes and outgoing foreign keys are rebuilt under their names; foreign keys
-- to partitioned tables are not (they cannot reference (id) alone).
CREATE OR REPLACE FUNCTION ops_partition_table(tbl text, col text, unit text, unique_cols text, list_col text DEFAULT NULL, list_values int[] DEFAULT NULL, units text[] DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  old text := tbl || '_unpartitioned';
  pk_cols text;
  idx text[];
  fks text[];
  d text;
  oldest timestamp;
  i integer;
  sub text;
BEGIN
  SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY k.ord) INTO pk_cols
    FROM pg_constraint c CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
   WHERE c.conrelid = quote_ident(tbl)::regclass AND c.contype = 'p';
  SELECT coalesce(array_agg(pg_get_indexdef(x.indexrelid)), '{}') INTO idx FROM pg_index x
   WHERE x.indrelid = quote_ident(tbl)::regclass AND NOT x.indisprimary AND (NOT x.indisunique OR
     (SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = x.indrelid AND a.attname = col) = ANY (x.indkey::int2[]));
  SELECT coalesce(array_agg(format('ALTER TABLE %I ADD CONSTRAINT %I %s', tbl, c.conname, pg_get_constraintdef(c.oid))), '{}') INTO fks
    FROM pg_constraint c JOIN pg_class r ON r.oid = c.confrelid
   WHERE c.conrelid = quote_ident(tbl)::regclass AND c.contype = 'f' AND r.relkind <> 'p';
  EXECUTE format('SELECT min(%I) FROM %I', col, tbl) INTO oldest;

  EXECUTE format('ALTER TABLE %I RENAME TO %I', tbl, old);
  IF list_col IS NULL THEN
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS) PARTITION BY RANGE (%I)', tbl, old, col);
    EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', tbl || '_default', tbl);
    PERFORM ops_ensure_partitions(tbl, unit, coalesce(oldest, (now() AT TIME ZONE 'UTC')), (now() AT TIME ZONE 'UTC') + interval '7 days', unique_cols);
  ELSE
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS) PARTITION BY LIST (%I)', tbl, old, list_col);
    EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', tbl || '_default', tbl);
    FOR i IN 1 .. array_length(list_values, 1) LOOP
      sub := tbl || '_r' || list_values[i];
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES IN (%s) PARTITION BY RANGE (%I)', sub, tbl, list_values[i], col);
      EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', sub || '_default', sub);
      PERFORM ops_ensure_partitions(sub, units[i], coalesce(oldest, (now() AT TIME ZONE 'UTC')), (now() AT TIME ZONE 'UTC') + interval '7 days', unique_cols);
    END LOOP;
  END IF;
  EXECUTE format('INSERT INTO %I SELECT * FROM %I', tbl, old);
  EXECUTE format('DROP TABLE %I CASCADE', old);
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (%s)', tbl, tbl || '_pkey',
    CASE WHEN pk_cols LIKE '%' || quote_ident(col) || '%' THEN pk_cols ELSE pk_cols || ', ' || quote_ident(col) END
    || CASE WHEN list_col IS NOT NULL AND pk_cols NOT LIKE '%' || quote_ident(list_col) || '%' THEN ', ' || quote_ident(list_col) ELSE '' END);
  FOREACH d IN ARRAY idx LOOP EXECUTE d; END LOOP;
  FOREACH d IN ARRAY fks LOOP EXECUTE d; END LOOP;
END $$;

SELECT ops_partition_table('Event', 'receivedAt', 'day', NULL);
SELECT ops_partition_table('Delivery', 'createdAt', 'day', NULL);
SELECT ops_partition_table('DeliveryAttempt', 'deliveryCreatedAt', 'day', NULL);
SELECT ops_partition_table('OutboxMessage', 'createdAt', 'day', '"dedupKey"');
SELECT ops_partition_table('GpuSample', 'at', 'day', NULL);
SELECT ops_partition_table('GpuRollup', 'bucket', NULL, NULL, 'resolution', ARRAY[60, 3600], ARRAY['day', 'week']);
SELECT ops_partition_table('AuditLog', 'createdAt', 'week', NULL);

-- Text search (ILIKE '%word%' on summary, type, source) through trigram indexes.
CREATE INDEX "Event_summary_trgm_idx" ON "Event" USING GIN ("summary" gin_trgm_ops);
CREATE INDEX "Event_type_trgm_idx" ON "Event" USING GIN ("type" gin_trgm_ops);
CREATE INDEX "Event_source_trgm_idx" ON "Event" USING GIN ("source" gin_trgm_ops);
-- Links of alerts to events, found by event id when retention drops events.
-- (AlertEvent_eventId_idx exists already.)
-- Retention of resolved alerts finds them by resolution time.
CREATE INDEX "Alert_resolvedAt_idx" ON "Alert" ("resolvedAt") WHERE "status" = 'resolved';
