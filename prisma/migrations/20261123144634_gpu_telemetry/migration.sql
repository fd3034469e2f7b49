-- CreateEnum
CREATE TYPE "GpuHealth" AS ENUM ('healthy', 'warning', 'critical', 'missing', 'unknown');

-- CreateTable
CREATE TABLE "Gpu" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "uuid" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "model" TEXT,
    "source" TEXT NOT NULL,
    "health" "GpuHealth" NOT NULL DEFAULT 'unknown',
    "healthReasons" JSONB NOT NULL DEFAULT '[]',
    "latest" JSONB NOT NULL DEFAULT '{}',
    "lastXid" INTEGER,
    "lastXidAt" TIMESTAMP(3),
    "lastEccDbe" DOUBLE PRECISION,
    "hot" BOOLEAN NOT NULL DEFAULT false,
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Gpu_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GpuSample" (
    "gpuId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "utilization" DOUBLE PRECISION,
    "memUsedMib" DOUBLE PRECISION,
    "memTotalMib" DOUBLE PRECISION,
    "temperatureC" DOUBLE PRECISION,
    "powerW" DOUBLE PRECISION,
    "powerLimitW" DOUBLE PRECISION,
    "energyJ" DOUBLE PRECISION,
    "xid" DOUBLE PRECISION,
    "eccDbe" DOUBLE PRECISION,
    "smClockMhz" DOUBLE PRECISION,

    CONSTRAINT "GpuSample_pkey" PRIMARY KEY ("gpuId","at")
);

-- CreateTable
CREATE TABLE "GpuRollup" (
    "gpuId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "resolution" INTEGER NOT NULL,
    "bucket" TIMESTAMP(3) NOT NULL,
    "samples" INTEGER NOT NULL,
    "utilization" DOUBLE PRECISION,
    "utilizationMax" DOUBLE PRECISION,
    "memUsedMib" DOUBLE PRECISION,
    "memTotalMib" DOUBLE PRECISION,
    "temperatureC" DOUBLE PRECISION,
    "temperatureCMax" DOUBLE PRECISION,
    "powerW" DOUBLE PRECISION,
    "powerWMax" DOUBLE PRECISION,
    "powerLimitW" DOUBLE PRECISION,
    "energyJ" DOUBLE PRECISION,
    "xid" DOUBLE PRECISION,
    "eccDbe" DOUBLE PRECISION,
    "smClockMhz" DOUBLE PRECISION,

    CONSTRAINT "GpuRollup_pkey" PRIMARY KEY ("gpuId","resolution","bucket")
);

-- CreateIndex
CREATE INDEX "Gpu_tenantId_node_index_idx" ON "Gpu"("tenantId", "node", "index");

-- CreateIndex
CREATE UNIQUE INDEX "Gpu_tenantId_uuid_key" ON "Gpu"("tenantId", "uuid");

-- CreateIndex
CREATE INDEX "GpuSample_tenantId_at_idx" ON "GpuSample"("tenantId", "at");

-- CreateIndex
CREATE INDEX "GpuRollup_tenantId_resolution_bucket_idx" ON "GpuRollup"("tenantId", "resolution", "bucket");

-- AddForeignKey
ALTER TABLE "Gpu" ADD CONSTRAINT "Gpu_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GpuSample" ADD CONSTRAINT "GpuSample_gpuId_fkey" FOREIGN KEY ("gpuId") REFERENCES "Gpu"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GpuRollup" ADD CONSTRAINT "GpuRollup_gpuId_fkey" FOREIGN KEY ("gpuId") REFERENCES "Gpu"("id") ON DELETE CASCADE ON UPDATE CASCADE;
