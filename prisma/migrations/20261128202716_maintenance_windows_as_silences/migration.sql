-- DropForeignKey
ALTER TABLE "Alert" DROP CONSTRAINT "Alert_maintenanceWindowId_fkey";

-- AlterTable
ALTER TABLE "Silence" ADD COLUMN     "windowEndsAt" TIMESTAMP(3),
ADD COLUMN     "windowName" TEXT,
ADD COLUMN     "windowRepeatEverySeconds" INTEGER;

-- Data (hand-written): every maintenance window becomes a silence with the same id, as
-- src/routing/window-silences.ts maps new ones (docs/silences.md, "Maintenance windows"). Alerts keep
-- "maintenanceWindowId", which now references that silence.

-- A window's scope as matchers: labels (name order), source, device_id; unscoped: severity=~".+".
CREATE FUNCTION pg_temp.window_matchers(labels jsonb, source text, device text) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN m = '[]'::jsonb THEN '[{"name": "severity", "type": "=~", "value": ".+"}]'::jsonb ELSE m END
    FROM (SELECT
      COALESCE((SELECT jsonb_agg(jsonb_build_object('name', key, 'type', '=', 'value', value) ORDER BY key COLLATE "C")
                  FROM jsonb_each_text(CASE WHEN jsonb_typeof(labels) = 'object' THEN labels ELSE '{}'::jsonb END)),
               '[]'::jsonb)
      || CASE WHEN source <> '' THEN jsonb_build_array(jsonb_build_object('name', 'source', 'type', '=', 'value', source))
              ELSE '[]'::jsonb END
      || CASE WHEN device <> '' THEN jsonb_build_array(jsonb_build_object('name', 'device_id', 'type', '=', 'value', device))
              ELSE '[]'::jsonb END AS m) x
$$;

-- A daily or weekly window's time interval specs in `zone` (one per local day it touches), or NULL when
-- no time interval says it exactly (another period, or a start or length off the minute).
CREATE FUNCTION pg_temp.window_specs(starts_utc timestamp, ends_utc timestamp, period integer, zone text)
RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  local_start timestamp := (starts_utc AT TIME ZONE 'UTC') AT TIME ZONE zone;
  local_end timestamp;
  at_ timestamp;
  midnight timestamp;
  piece_end timestamp;
  spec jsonb;
  specs jsonb := '[]'::jsonb;
  days text[] := ARRAY['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
BEGIN
  IF period IS NULL OR period NOT IN (86400, 604800) OR ends_utc <= starts_utc
     OR date_trunc('minute', local_start) <> local_start
     OR mod(extract(epoch FROM ends_utc - starts_utc)::numeric, 60) <> 0 THEN
    RETURN NULL;
  END IF;
  -- Wall-clock arithmetic: the local start plus the window's length.
  local_end := local_start + (ends_utc - starts_utc);
  at_ := local_start;
  WHILE at_ < local_end LOOP
    midnight := date_trunc('day', at_) + interval '1 day';
    piece_end := LEAST(local_end, midnight);
    spec := jsonb_build_object(
      'times', jsonb_build_array(jsonb_build_object(
        'start_time', to_char(at_, 'HH24:MI'),
        'end_time', CASE WHEN piece_end = midnight THEN '24:00' ELSE to_char(piece_end, 'HH24:MI') END)),
      'location', zone);
    IF period = 604800 THEN
      spec := spec || jsonb_build_object('weekdays', jsonb_build_array(days[extract(dow FROM at_)::int + 1]));
    END IF;
    specs := specs || jsonb_build_array(spec);
    at_ := piece_end;
  END LOOP;
  RETURN specs;
END
$$;

-- The zone a recurring window keeps its local time in: the tenant's billing time zone, else UTC.
CREATE TEMP TABLE "_WindowSilence" AS
SELECT w.*,
       pg_temp.window_specs(w."startsAt", w."endsAt", w."repeatEverySeconds",
                            COALESCE((SELECT b."timeZone" FROM "BillingSettings" b
                                       WHERE b."tenantId" = w."tenantId"
                                         AND b."timeZone" IN (SELECT name FROM pg_timezone_names)), 'UTC')) AS specs
  FROM "MaintenanceWindow" w;

INSERT INTO "TimeInterval" ("id", "tenantId", "name", "intervals", "createdAt", "updatedAt")
SELECT gen_random_uuid()::text, w."tenantId", 'maintenance window ' || w."id", w.specs, w."createdAt", CURRENT_TIMESTAMP
  FROM "_WindowSilence" w
 WHERE w.specs IS NOT NULL;

INSERT INTO "Silence" ("id", "tenantId", "matchers", "startsAt", "endsAt", "createdBy", "comment", "createdById",
                       "timeIntervalId", "createdAt", "updatedAt", "windowName", "windowRepeatEverySeconds", "windowEndsAt")
SELECT w."id", w."tenantId", pg_temp.window_matchers(w."matchLabels", w."source", w."deviceId"), w."startsAt",
       CASE WHEN w."repeatEverySeconds" IS NULL THEN w."endsAt" ELSE TIMESTAMP '9999-12-31 00:00:00' END,
       'maintenance window (migrated)', 'Maintenance window "' || w."name" || '"', NULL,
       ti."id", w."createdAt", CURRENT_TIMESTAMP, w."name", w."repeatEverySeconds",
       CASE WHEN w."repeatEverySeconds" IS NULL THEN NULL ELSE w."endsAt" END
  FROM "_WindowSilence" w
  LEFT JOIN "TimeInterval" ti
    ON w.specs IS NOT NULL AND ti."tenantId" = w."tenantId" AND ti."name" = 'maintenance window ' || w."id";

DROP TABLE "_WindowSilence";

-- DropTable
DROP TABLE "MaintenanceWindow";

-- AddForeignKey
ALTER TABLE "Alert" ADD CONSTRAINT "Alert_maintenanceWindowId_fkey" FOREIGN KEY ("maintenanceWindowId") REFERENCES "Silence"("id") ON DELETE SET NULL ON UPDATE CASCADE;
