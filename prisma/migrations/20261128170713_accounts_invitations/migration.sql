-- CreateEnum
CREATE TYPE "CredentialOrigin" AS ENUM ('invited_password', 'self_password', 'sso', 'admin_set', 'legacy');

-- CreateEnum
CREATE TYPE "PasswordLinkPurpose" AS ENUM ('invite', 'reset');

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "createdById" TEXT,
ADD COLUMN     "credentialOrigin" "CredentialOrigin" NOT NULL DEFAULT 'legacy';

-- CreateTable
CREATE TABLE "PasswordLink" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdById" TEXT,
    "purpose" "PasswordLinkPurpose" NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "PasswordLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PasswordLink_tokenHash_key" ON "PasswordLink"("tokenHash");

-- CreateIndex
CREATE INDEX "PasswordLink_userId_idx" ON "PasswordLink"("userId");

-- CreateIndex
CREATE INDEX "PasswordLink_tenantId_idx" ON "PasswordLink"("tenantId");

-- CreateIndex
CREATE INDEX "PasswordLink_expiresAt_idx" ON "PasswordLink"("expiresAt");

-- AddForeignKey
ALTER TABLE "PasswordLink" ADD CONSTRAINT "PasswordLink_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PasswordLink" ADD CONSTRAINT "PasswordLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PasswordLink" ADD CONSTRAINT "PasswordLink_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
