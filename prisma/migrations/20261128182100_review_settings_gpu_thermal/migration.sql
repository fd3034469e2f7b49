-- AlterTable
ALTER TABLE "AuditLog" ADD COLUMN     "bypassedReview" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Gpu" ADD COLUMN     "thermalCritical" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "requireProposals" BOOLEAN NOT NULL DEFAULT false;
