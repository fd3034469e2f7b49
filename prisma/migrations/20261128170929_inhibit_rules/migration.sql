-- AlterTable
ALTER TABLE "Alert" ADD COLUMN     "inhibitedById" TEXT;

-- CreateTable
CREATE TABLE "InhibitRule" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "sourceMatchers" JSONB NOT NULL,
    "targetMatchers" JSONB NOT NULL,
    "equal" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "name" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InhibitRule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "InhibitRule_tenantId_idx" ON "InhibitRule"("tenantId");

-- CreateIndex
CREATE INDEX "Alert_inhibitedById_idx" ON "Alert"("inhibitedById");

-- AddForeignKey
ALTER TABLE "Alert" ADD CONSTRAINT "Alert_inhibitedById_fkey" FOREIGN KEY ("inhibitedById") REFERENCES "Alert"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InhibitRule" ADD CONSTRAINT "InhibitRule_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
