-- AlterTable
ALTER TABLE "Alert" ADD COLUMN     "inhibitedById" TEXT;

-- AlterTable (the routing tree's migration made the table; an inhibition rule's `equal` defaults to no labels)
ALTER TABLE "InhibitRule" ALTER COLUMN "equal" SET DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "Alert_inhibitedById_idx" ON "Alert"("inhibitedById");

-- AddForeignKey
ALTER TABLE "Alert" ADD CONSTRAINT "Alert_inhibitedById_fkey" FOREIGN KEY ("inhibitedById") REFERENCES "Alert"("id") ON DELETE SET NULL ON UPDATE CASCADE;
