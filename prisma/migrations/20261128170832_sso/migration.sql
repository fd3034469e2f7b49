-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "ssoBreakGlassUserId" TEXT,
ADD COLUMN     "ssoRequired" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable

-- CreateTable
CREATE TABLE "TenantSsoProvider" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "discoveryUrl" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientSecretSealed" TEXT,
    "groupsClaim" TEXT NOT NULL DEFAULT 'groups',
    "adminGroups" TEXT[],
    "memberGroups" TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TenantSsoProvider_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "TenantSsoProvider_tenantId_key" ON "TenantSsoProvider"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "TenantSsoProvider_slug_key" ON "TenantSsoProvider"("slug");

-- AddForeignKey
ALTER TABLE "TenantSsoProvider" ADD CONSTRAINT "TenantSsoProvider_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Tenant" ADD CONSTRAINT "Tenant_ssoBreakGlassUserId_fkey" FOREIGN KEY ("ssoBreakGlassUserId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
