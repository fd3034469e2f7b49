-- AlterTable
ALTER TABLE "AlertGroup" ADD COLUMN     "groupLabels" JSONB,
ADD COLUMN     "receiver" TEXT,
ADD COLUMN     "routeId" TEXT;

-- CreateTable
CREATE TABLE "RoutingTree" (
    "tenantId" TEXT NOT NULL,
    "routes" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RoutingTree_pkey" PRIMARY KEY ("tenantId")
);

-- CreateTable
CREATE TABLE "RoutingReceiver" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "escalationPolicyId" TEXT,
    "outboundWebhookIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "importedConfig" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RoutingReceiver_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InhibitRule" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "sourceMatchers" JSONB NOT NULL,
    "targetMatchers" JSONB NOT NULL,
    "equal" TEXT[],
    "name" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InhibitRule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RoutingReceiver_tenantId_name_key" ON "RoutingReceiver"("tenantId", "name");

-- CreateIndex
CREATE INDEX "InhibitRule_tenantId_idx" ON "InhibitRule"("tenantId");

-- AddForeignKey
ALTER TABLE "RoutingTree" ADD CONSTRAINT "RoutingTree_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RoutingReceiver" ADD CONSTRAINT "RoutingReceiver_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InhibitRule" ADD CONSTRAINT "InhibitRule_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
