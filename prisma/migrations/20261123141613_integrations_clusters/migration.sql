-- CreateEnum
CREATE TYPE "IntegrationHealthStatus" AS ENUM ('healthy', 'degraded', 'failing', 'unknown');

-- CreateTable
CREATE TABLE "ClusterInvite" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "tokenPrefix" TEXT NOT NULL,
    "createdById" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "clusterId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ClusterInvite_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Cluster" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT,
    "credentialHash" TEXT NOT NULL,
    "credentialPrefix" TEXT NOT NULL,
    "version" TEXT,
    "summary" JSONB NOT NULL DEFAULT '{}',
    "lastSeenAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Cluster_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ClusterLink" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "hubUrl" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "remoteClusterId" TEXT NOT NULL,
    "credentialCiphertext" TEXT NOT NULL,
    "forwardedAlertId" TEXT,
    "lastHeartbeatAt" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ClusterLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Integration" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "config" JSONB NOT NULL DEFAULT '{}',
    "secretsCiphertext" TEXT,
    "pushTokenHash" TEXT,
    "pushTokenPrefix" TEXT,
    "previousTokenHash" TEXT,
    "previousTokenValidUntil" TIMESTAMP(3),
    "freshnessSeconds" INTEGER,
    "lastEventAt" TIMESTAMP(3),
    "lastPullAt" TIMESTAMP(3),
    "lastErrorAt" TIMESTAMP(3),
    "lastError" TEXT,
    "errorCount" INTEGER NOT NULL DEFAULT 0,
    "healthStatus" "IntegrationHealthStatus" NOT NULL DEFAULT 'unknown',
    "healthChecks" JSONB NOT NULL DEFAULT '{}',
    "healthReason" TEXT,
    "healthCheckedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Integration_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IntegrationHealthCheck" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "integrationId" TEXT NOT NULL,
    "status" "IntegrationHealthStatus" NOT NULL,
    "checks" JSONB NOT NULL,
    "reason" TEXT,
    "checkedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IntegrationHealthCheck_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IntegrationProviderConfig" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',
    "secretsCiphertext" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IntegrationProviderConfig_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ClusterInvite_tokenHash_key" ON "ClusterInvite"("tokenHash");

-- CreateIndex
CREATE INDEX "ClusterInvite_tenantId_idx" ON "ClusterInvite"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "Cluster_credentialHash_key" ON "Cluster"("credentialHash");

-- CreateIndex
CREATE INDEX "Cluster_tenantId_idx" ON "Cluster"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "ClusterLink_tenantId_hubUrl_key" ON "ClusterLink"("tenantId", "hubUrl");

-- CreateIndex
CREATE UNIQUE INDEX "Integration_pushTokenHash_key" ON "Integration"("pushTokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "Integration_previousTokenHash_key" ON "Integration"("previousTokenHash");

-- CreateIndex
CREATE INDEX "Integration_tenantId_provider_idx" ON "Integration"("tenantId", "provider");

-- CreateIndex
CREATE UNIQUE INDEX "Integration_tenantId_name_key" ON "Integration"("tenantId", "name");

-- CreateIndex
CREATE INDEX "IntegrationHealthCheck_integrationId_checkedAt_idx" ON "IntegrationHealthCheck"("integrationId", "checkedAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "IntegrationProviderConfig_tenantId_provider_key" ON "IntegrationProviderConfig"("tenantId", "provider");

-- AddForeignKey
ALTER TABLE "ClusterInvite" ADD CONSTRAINT "ClusterInvite_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Cluster" ADD CONSTRAINT "Cluster_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ClusterLink" ADD CONSTRAINT "ClusterLink_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Integration" ADD CONSTRAINT "Integration_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IntegrationHealthCheck" ADD CONSTRAINT "IntegrationHealthCheck_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IntegrationHealthCheck" ADD CONSTRAINT "IntegrationHealthCheck_integrationId_fkey" FOREIGN KEY ("integrationId") REFERENCES "Integration"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IntegrationProviderConfig" ADD CONSTRAINT "IntegrationProviderConfig_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
