-- AlterTable
ALTER TABLE "InboundWebhook" ADD COLUMN     "rejectRepeatedSignature" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "requireStandardWebhooks" BOOLEAN NOT NULL DEFAULT false;
