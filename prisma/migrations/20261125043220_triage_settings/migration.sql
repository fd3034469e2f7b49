-- CreateTable
CREATE TABLE "TriageSettings" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "changeTypes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TriageSettings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "TriageSettings_tenantId_key" ON "TriageSettings"("tenantId");

-- AddForeignKey
ALTER TABLE "TriageSettings" ADD CONSTRAINT "TriageSettings_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
