-- Partition upkeep serialized per table: ops_ensure_partition (20261125043448_time_partitions) checked
-- that a partition was missing and then created it, so two sessions ensuring the same partitions at once
-- failed with "relation … already exists" or a deadlock (test/history.test.ts runs two at once).
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
  -- One ensurer per parent at a time, until its transaction ends: two upkeeps (two nodes, or a node's
  -- start beside its scheduled upkeep) making the same partition raced between the check below and the
  -- CREATE ("relation … already exists"), and two making neighbouring partitions could deadlock on the
  -- parent's lock. The second now waits, then finds the partition made.
  PERFORM pg_advisory_xact_lock(hashtext('ops_ensure_partition'), hashtext(parent));
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
