-- AlterTable
ALTER TABLE "Device" ADD COLUMN     "aliases" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "AlertRule" ADD COLUMN     "summaryFollowsLatest" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Device_aliases_idx" ON "Device" USING GIN ("aliases");
