-- AlterTable
ALTER TABLE "Alert" ADD COLUMN     "silenceId" TEXT;

-- CreateTable
CREATE TABLE "TimeInterval" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "intervals" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TimeInterval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Silence" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "matchers" JSONB NOT NULL,
    "startsAt" TIMESTAMP(3) NOT NULL,
    "endsAt" TIMESTAMP(3) NOT NULL,
    "createdBy" TEXT NOT NULL,
    "comment" TEXT NOT NULL,
    "createdById" TEXT,
    "timeIntervalId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Silence_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "TimeInterval_tenantId_name_key" ON "TimeInterval"("tenantId", "name");

-- CreateIndex
CREATE INDEX "Silence_tenantId_endsAt_idx" ON "Silence"("tenantId", "endsAt");

-- CreateIndex
CREATE INDEX "Alert_silenceId_idx" ON "Alert"("silenceId");

-- AddForeignKey
ALTER TABLE "Alert" ADD CONSTRAINT "Alert_silenceId_fkey" FOREIGN KEY ("silenceId") REFERENCES "Silence"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TimeInterval" ADD CONSTRAINT "TimeInterval_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Silence" ADD CONSTRAINT "Silence_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Silence" ADD CONSTRAINT "Silence_timeIntervalId_fkey" FOREIGN KEY ("timeIntervalId") REFERENCES "TimeInterval"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
