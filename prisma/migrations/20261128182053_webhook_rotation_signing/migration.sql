-- AlterTable
ALTER TABLE "OutboundWebhook" ADD COLUMN     "previousSignsPrimary" BOOLEAN NOT NULL DEFAULT false;
