-- AlterTable
ALTER TABLE "OutboundWebhook" ADD COLUMN     "lastFailedDeliveryId" TEXT,
ADD COLUMN     "lastFailureAt" TIMESTAMP(3),
ADD COLUMN     "lastFailureError" TEXT;

-- AlterTable
ALTER TABLE "OutboxMessage" ADD COLUMN     "dedupKey" TEXT;

-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "windowStartedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE UNIQUE INDEX "OutboxMessage_dedupKey_key" ON "OutboxMessage"("dedupKey");

-- AddForeignKey
ALTER TABLE "OutboundWebhook" ADD CONSTRAINT "OutboundWebhook_lastFailedDeliveryId_fkey" FOREIGN KEY ("lastFailedDeliveryId") REFERENCES "Delivery"("id") ON DELETE SET NULL ON UPDATE CASCADE;
