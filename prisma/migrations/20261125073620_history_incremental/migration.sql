-- DropForeignKey
ALTER TABLE "EventStorageDay" DROP CONSTRAINT "EventStorageDay_tenantId_fkey";

-- DropTable
DROP TABLE "EventStorageDay";

-- CreateTable
CREATE TABLE "EventStorageWindow" (
    "tenantId" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "bytes" BIGINT NOT NULL,
    "events" INTEGER NOT NULL,

    CONSTRAINT "EventStorageWindow_pkey" PRIMARY KEY ("tenantId","windowStart")
);

-- CreateIndex
CREATE INDEX "EventStorageWindow_windowStart_idx" ON "EventStorageWindow"("windowStart");

-- CreateIndex
CREATE INDEX "Session_expiresAt_idx" ON "Session"("expiresAt");

-- CreateIndex
CREATE INDEX "BillingWindow_windowStart_idx" ON "BillingWindow"("windowStart");

-- CreateIndex
CREATE INDEX "DriftReport_createdAt_idx" ON "DriftReport"("createdAt");

-- CreateIndex
CREATE INDEX "GpuRollup_bucket_idx" ON "GpuRollup"("bucket");

-- AddForeignKey
ALTER TABLE "EventStorageWindow" ADD CONSTRAINT "EventStorageWindow_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: the stored bytes of the events already on the timeline, one row per tenant and hourly
-- window, so that `events_stored` is right from the first metering run on (a one-time read of the
-- existing rows; from now on each window's metering run writes its own row).
INSERT INTO "EventStorageWindow" ("tenantId", "windowStart", "bytes", "events")
SELECT e."tenantId", date_trunc('hour', e."receivedAt"), sum(pg_column_size(e.*))::bigint, count(*)::int
  FROM "Event" e GROUP BY 1, 2;
