-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "evaluationAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "evaluationError" TEXT;
