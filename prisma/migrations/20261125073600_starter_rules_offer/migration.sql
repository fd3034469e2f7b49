-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "starterRulesDecidedAt" TIMESTAMP(3);
