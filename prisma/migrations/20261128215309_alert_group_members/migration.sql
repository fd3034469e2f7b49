-- CreateTable
CREATE TABLE "AlertGroupMember" (
    "alertId" TEXT NOT NULL,
    "groupId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertGroupMember_pkey" PRIMARY KEY ("alertId","groupId")
);

-- CreateIndex
CREATE INDEX "AlertGroupMember_groupId_idx" ON "AlertGroupMember"("groupId");

-- CreateIndex
CREATE INDEX "AlertGroupMember_tenantId_idx" ON "AlertGroupMember"("tenantId");

-- AddForeignKey
ALTER TABLE "AlertGroupMember" ADD CONSTRAINT "AlertGroupMember_alertId_fkey" FOREIGN KEY ("alertId") REFERENCES "Alert"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertGroupMember" ADD CONSTRAINT "AlertGroupMember_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "AlertGroup"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertGroupMember" ADD CONSTRAINT "AlertGroupMember_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
