-- AlterTable
ALTER TABLE "AlertGroup" ADD COLUMN     "pendingPages" JSONB NOT NULL DEFAULT '[]';
