-- AlterTable
ALTER TABLE "AlertGroup" ADD COLUMN     "firstRound" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "pendingPages" JSONB NOT NULL DEFAULT '[]';
