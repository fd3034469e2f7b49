-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "alertIds" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "AlertGroup" ADD COLUMN     "groupIntervalSeconds" INTEGER,
ADD COLUMN     "nextNotifyAt" TIMESTAMP(3),
ADD COLUMN     "notifiedAlertIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "notifiedAt" TIMESTAMP(3),
ADD COLUMN     "notifySeq" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "repeatIntervalSeconds" INTEGER;

-- CreateIndex
CREATE INDEX "AlertGroup_status_nextNotifyAt_idx" ON "AlertGroup"("status", "nextNotifyAt");
