-- DropIndex
DROP INDEX "Proposal_deviceId_idx";

-- AlterTable
ALTER TABLE "IntentVersion" ADD COLUMN     "comment" TEXT;

-- AlterTable
ALTER TABLE "DriftReport" ADD COLUMN     "detail" TEXT,
ADD COLUMN     "observedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Proposal" ADD COLUMN     "denialReason" TEXT;

-- CreateIndex
CREATE INDEX "Proposal_deviceId_status_idx" ON "Proposal"("deviceId", "status");

-- AddForeignKey
ALTER TABLE "IntentVersion" ADD CONSTRAINT "IntentVersion_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "Proposal"("id") ON DELETE SET NULL ON UPDATE CASCADE;
