-- CreateEnum
CREATE TYPE "GpuDiagnosticStatus" AS ENUM ('queued', 'running', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "GpuDiagnosticResult" AS ENUM ('pass', 'warn', 'fail');

-- CreateEnum
CREATE TYPE "AiperfRunStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "AiperfMode" AS ENUM ('concurrency', 'request_rate');

-- CreateTable
CREATE TABLE "GpuDiagnostic" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "gpuIds" TEXT[],
    "targetGpu" TEXT,
    "targetNode" TEXT,
    "level" INTEGER NOT NULL,
    "status" "GpuDiagnosticStatus" NOT NULL DEFAULT 'queued',
    "result" "GpuDiagnosticResult",
    "checks" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "requestedBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "GpuDiagnostic_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AiperfRun" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "endpointUrl" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "mode" "AiperfMode" NOT NULL,
    "concurrency" INTEGER,
    "requestRate" DOUBLE PRECISION,
    "requestCount" INTEGER,
    "durationS" INTEGER,
    "inputTokens" INTEGER NOT NULL,
    "outputTokens" INTEGER NOT NULL,
    "streaming" BOOLEAN NOT NULL DEFAULT true,
    "status" "AiperfRunStatus" NOT NULL DEFAULT 'queued',
    "cancelRequestedAt" TIMESTAMP(3),
    "results" JSONB,
    "gpuTelemetry" JSONB,
    "error" TEXT,
    "requestedBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "AiperfRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "GpuDiagnostic_tenantId_createdAt_idx" ON "GpuDiagnostic"("tenantId", "createdAt");

-- CreateIndex
CREATE INDEX "AiperfRun_tenantId_createdAt_idx" ON "AiperfRun"("tenantId", "createdAt");

-- AddForeignKey
ALTER TABLE "GpuDiagnostic" ADD CONSTRAINT "GpuDiagnostic_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AiperfRun" ADD CONSTRAINT "AiperfRun_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
