-- CreateEnum
CREATE TYPE "MeterAggregation" AS ENUM ('sum', 'count', 'unique', 'avg', 'min', 'max', 'latest');

-- CreateTable
CREATE TABLE "BillingMeter" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "typeGlob" TEXT NOT NULL,
    "valuePath" TEXT,
    "aggregation" "MeterAggregation" NOT NULL,
    "groupBy" TEXT,
    "unit" TEXT NOT NULL,
    "unitPrice" DECIMAL(24,10) NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BillingMeter_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BillingUsage" (
    "tenantId" TEXT NOT NULL,
    "meter" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "dimension" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "module" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "quantity" DECIMAL(38,10) NOT NULL,
    "computedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BillingUsage_pkey" PRIMARY KEY ("tenantId","meter","windowStart","dimension")
);

-- CreateTable
CREATE TABLE "BillingWindow" (
    "tenantId" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "computedAt" TIMESTAMP(3),

    CONSTRAINT "BillingWindow_pkey" PRIMARY KEY ("tenantId","windowStart")
);

-- CreateTable
CREATE TABLE "BillingPrice" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "skuId" TEXT NOT NULL,
    "unitPrice" DECIMAL(24,10) NOT NULL,
    "currency" TEXT NOT NULL,
    "effectiveFrom" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "changedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BillingPrice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BillingSettings" (
    "tenantId" TEXT NOT NULL,
    "timeZone" TEXT NOT NULL DEFAULT 'UTC',
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BillingSettings_pkey" PRIMARY KEY ("tenantId")
);

-- CreateTable
CREATE TABLE "BillingBudget" (
    "tenantId" TEXT NOT NULL,
    "amount" DECIMAL(24,10) NOT NULL,
    "currency" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BillingBudget_pkey" PRIMARY KEY ("tenantId")
);

-- CreateTable
CREATE TABLE "BillingBudgetAlert" (
    "tenantId" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "threshold" INTEGER NOT NULL,
    "eventId" TEXT NOT NULL,
    "firedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BillingBudgetAlert_pkey" PRIMARY KEY ("tenantId","month","threshold")
);

-- CreateIndex
CREATE UNIQUE INDEX "BillingMeter_tenantId_slug_key" ON "BillingMeter"("tenantId", "slug");

-- CreateIndex
CREATE INDEX "BillingUsage_tenantId_windowStart_idx" ON "BillingUsage"("tenantId", "windowStart");

-- CreateIndex
CREATE INDEX "BillingWindow_computedAt_requestedAt_idx" ON "BillingWindow"("computedAt", "requestedAt");

-- CreateIndex
CREATE INDEX "BillingPrice_tenantId_skuId_effectiveFrom_idx" ON "BillingPrice"("tenantId", "skuId", "effectiveFrom");

-- AddForeignKey
ALTER TABLE "BillingMeter" ADD CONSTRAINT "BillingMeter_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BillingUsage" ADD CONSTRAINT "BillingUsage_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BillingWindow" ADD CONSTRAINT "BillingWindow_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BillingPrice" ADD CONSTRAINT "BillingPrice_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BillingSettings" ADD CONSTRAINT "BillingSettings_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BillingBudget" ADD CONSTRAINT "BillingBudget_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BillingBudgetAlert" ADD CONSTRAINT "BillingBudgetAlert_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
