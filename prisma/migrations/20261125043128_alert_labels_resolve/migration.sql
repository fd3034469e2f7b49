-- AlterTable
ALTER TABLE "Alert" ADD COLUMN     "annotations" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "labels" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "AlertTimelineEntry" ADD COLUMN     "actorEventId" TEXT;

-- AlterTable
ALTER TABLE "AlertRule" ADD COLUMN     "autoResolveAfterSeconds" INTEGER,
ADD COLUMN     "resolveConditions" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "resolveTypeGlob" TEXT,
ADD COLUMN     "suggestionKey" TEXT;

-- CreateIndex
CREATE INDEX "Alert_ruleId_lastSeenAt_idx" ON "Alert"("ruleId", "lastSeenAt");

-- CreateIndex
CREATE UNIQUE INDEX "AlertRule_tenantId_suggestionKey_key" ON "AlertRule"("tenantId", "suggestionKey");
