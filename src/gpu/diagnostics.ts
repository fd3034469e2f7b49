/**
 * On-demand GPU diagnostics (`dcgmi diag -r 1|2|3` in spirit): an admin asks for one GPU or a node,
 * a BullMQ job runs the checks the stored telemetry allows and records `[{name, gpu_uuid, status:
 * pass|warn|fail|skip, detail}]` with an overall result (the worst check; skips do not count).
 * Checks that need the host itself (`dcgmi diag`, `nvidia-smi -q`) are recorded as `skip`: they run
 * through the collector on the GPU host, which is not part of this service.
 *
 * Levels add checks: 1 = telemetry present, XID in the last hour, ECC double-bit errors;
 * 2 = + temperature, power, memory; 3 = + utilization sanity and the 24 h thermal history (1-minute rollups).
 */
import type { Ctx } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { Gpu, GpuDiagnostic, GpuSample, Prisma } from '../generated/prisma/client.js';
import { ValidationFailed, type FieldProblem } from '../errors.js';
import { describeXid } from './xid.js';
import { healthLimits } from './telemetry.js';
import type { HealthLimits } from './health.js';

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';
export type DiagnosticResult = 'pass' | 'warn' | 'fail';

export interface DiagnosticCheck {
  name: string;
  /** The GPU checked; null for a check of the request as a whole. */
  gpu_uuid: string | null;
  status: CheckStatus;
  detail: string;
}

export const DIAGNOSTIC_LIMITS = { maxGpus: 64, xidWindowMs: 3600_000, historyWindowMs: 24 * 3600_000 } as const;

/** Why the host checks are not run here. */
export const NEEDS_COLLECTOR = 'needs the collector on the host';

export interface StartDiagnosticInput {
  gpu?: string | null;
  node?: string | null;
  level: number;
}

/** Accepts a diagnostics request (202): target resolved in the caller's tenant, row `queued`, job queued. */
export async function startGpuDiagnostic(ctx: Ctx, input: StartDiagnosticInput): Promise<GpuDiagnostic> {
  const p: FieldProblem[] = [];
  const gpu = input.gpu?.trim() || null;
  const node = input.node?.trim() || null;
  if (!Number.isInteger(input.level) || input.level < 1 || input.level > 3)
    p.push({ loc: ['input', 'level'], msg: 'must be 1, 2 or 3 (as dcgmi diag -r)' });
  if ((gpu == null) === (node == null))
    p.push({ loc: ['input', gpu == null ? 'gpu' : 'node'], msg: 'give exactly one of gpu (id or UUID) and node' });
  if (p.length) throw new ValidationFailed(p);
  let gpus: Array<Pick<Gpu, 'id'>>;
  if (gpu) {
    gpus = await ctx.db.gpu.findMany({
      where: gpu.startsWith('GPU-') ? { uuid: gpu } : { id: gpu },
      select: { id: true },
    });
    if (!gpus.length)
      throw new ValidationFailed([
        { loc: ['input', 'gpu'], msg: `no GPU ${gpu} in this tenant (give a GPU id or UUID from gpu/summary)` },
      ]);
  } else {
    gpus = await ctx.db.gpu.findMany({
      where: { node: node! },
      select: { id: true },
      orderBy: { index: 'asc' },
      take: DIAGNOSTIC_LIMITS.maxGpus + 1,
    });
    if (!gpus.length)
      throw new ValidationFailed([{ loc: ['input', 'node'], msg: `no GPU reported from node ${node} in this tenant` }]);
    if (gpus.length > DIAGNOSTIC_LIMITS.maxGpus)
      throw new ValidationFailed([
        {
          loc: ['input', 'node'],
          msg: `node ${node} has more than ${DIAGNOSTIC_LIMITS.maxGpus} GPUs; diagnose them one by one`,
        },
      ]);
  }
  const d = await ctx.db.gpuDiagnostic.create({
    data: {
      gpuIds: gpus.map((g) => g.id),
      targetGpu: gpu,
      targetNode: node,
      level: input.level,
      requestedBy: ctx.principal?.userId ?? null,
    } as Prisma.GpuDiagnosticUncheckedCreateInput,
  });
  await queueGpuDiagnostic(ctx.rt, d.id);
  return d;
}

/** Queues the request's job (idempotent: the job id is the request's). */
export async function queueGpuDiagnostic(rt: Runtime, diagnosticId: string): Promise<void> {
  await rt.queues.add('gpuDiagnostics', { diagnosticId }, { jobId: `diag-${diagnosticId}` });
}

/** Re-queues requests still `queued` a minute after they were accepted (an enqueue lost after commit). */
export async function redriveQueuedGpuDiagnostics(rt: Runtime, now = rt.clock.now()): Promise<number> {
  const stale = await rt.prisma.gpuDiagnostic.findMany({
    where: { status: 'queued', createdAt: { lt: new Date(now.getTime() - 60_000) } },
    select: { id: true },
    take: 500,
  });
  for (const d of stale) await queueGpuDiagnostic(rt, d.id);
  return stale.length;
}

/** The tenant's diagnostics requests, newest first. */
export async function listGpuDiagnostics(ctx: Ctx, opts: { limit?: number | null } = {}): Promise<GpuDiagnostic[]> {
  const limit = opts.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    throw new ValidationFailed([{ loc: ['limit'], msg: 'must be an integer from 1 to 200' }]);
  return ctx.db.gpuDiagnostic.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
}

// ------------------------------------------------------------------ the checks (pure)

type SampleValues = Pick<
  GpuSample,
  'at' | 'utilization' | 'memUsedMib' | 'memTotalMib' | 'temperatureC' | 'powerW' | 'powerLimitW' | 'xid' | 'eccDbe'
>;

export interface GpuEvidence {
  gpu: Pick<Gpu, 'uuid' | 'node' | 'index' | 'lastXid' | 'lastXidAt'>;
  /** The newest raw sample, if any. */
  latest: SampleValues | null;
  /** Raw samples of the XID window (last hour). */
  recent: Array<Pick<GpuSample, 'at' | 'xid'>>;
  /** Highest 1-minute temperature of the last 24 h (level 3). */
  maxTemperature24h: number | null;
}

/** The telemetry checks of one GPU at a level. */
export function evaluateGpuChecks(e: GpuEvidence, level: number, limits: HealthLimits, now: Date): DiagnosticCheck[] {
  const uuid = e.gpu.uuid;
  const out: DiagnosticCheck[] = [];
  const add = (name: string, status: CheckStatus, detail: string) => out.push({ name, gpu_uuid: uuid, status, detail });
  const s = e.latest;
  const missingAfterMs = limits.intervalMs * limits.missingAfterIntervals;

  if (!s) add('telemetry_recent', 'fail', 'no telemetry sample stored for this GPU');
  else {
    const age = now.getTime() - s.at.getTime();
    if (age > missingAfterMs)
      add(
        'telemetry_recent',
        'fail',
        `latest sample is ${Math.round(age / 1000)} s old (expected every ${limits.intervalMs / 1000} s)`,
      );
    else add('telemetry_recent', 'pass', `latest sample ${Math.max(0, Math.round(age / 1000))} s ago`);
  }

  const since = now.getTime() - DIAGNOSTIC_LIMITS.xidWindowMs;
  const codes = new Set<number>();
  for (const r of e.recent) if (r.xid != null && r.xid !== 0 && r.at.getTime() >= since) codes.add(r.xid);
  if (e.gpu.lastXid != null && e.gpu.lastXid !== 0 && e.gpu.lastXidAt && e.gpu.lastXidAt.getTime() >= since)
    codes.add(e.gpu.lastXid);
  if (codes.size === 0)
    add('xid_last_hour', s ? 'pass' : 'skip', s ? 'no XID error in the last hour' : 'no telemetry to check');
  else {
    const xids = [...codes].sort((a, b) => a - b).map(describeXid);
    const status: CheckStatus = xids.some((x) => x.severity !== 'info') ? 'fail' : 'warn';
    add(
      'xid_last_hour',
      status,
      xids.map((x) => `XID ${x.code} (${x.severity}): ${x.meaning}. ${x.action}`).join(' | '),
    );
  }

  if (s?.eccDbe == null) add('ecc_double_bit', 'skip', 'ECC double-bit counter not reported (ECC off or unsupported)');
  else if (s.eccDbe > 0)
    add(
      'ecc_double_bit',
      'fail',
      `${s.eccDbe} uncorrected (double-bit) ECC error(s) since the driver loaded; drain the node and reset the GPU`,
    );
  else add('ecc_double_bit', 'pass', 'no uncorrected ECC errors');

  if (level >= 2) {
    if (s?.temperatureC == null) add('temperature', 'skip', 'temperature not reported');
    else if (s.temperatureC >= limits.temperatureCriticalC)
      add('temperature', 'fail', `${s.temperatureC} °C ≥ critical limit ${limits.temperatureCriticalC} °C`);
    else if (s.temperatureC >= limits.temperatureWarnC)
      add('temperature', 'warn', `${s.temperatureC} °C ≥ warning limit ${limits.temperatureWarnC} °C`);
    else add('temperature', 'pass', `${s.temperatureC} °C (warning at ${limits.temperatureWarnC} °C)`);

    if (s?.powerW == null) add('power', 'skip', 'power draw not reported');
    else if (s.powerLimitW == null || s.powerLimitW <= 0)
      add('power', 'skip', `${s.powerW} W drawn; no power limit reported to compare with`);
    else if (s.powerW > s.powerLimitW * 1.05) add('power', 'fail', `${s.powerW} W over the ${s.powerLimitW} W limit`);
    else if (s.powerW >= s.powerLimitW * 0.98)
      add('power', 'warn', `${s.powerW} W at the ${s.powerLimitW} W limit (power throttling)`);
    else add('power', 'pass', `${s.powerW} W of ${s.powerLimitW} W`);

    if (s?.memUsedMib == null || s.memTotalMib == null) add('memory', 'skip', 'frame buffer usage not reported');
    else if (s.memUsedMib < 0 || s.memTotalMib <= 0 || s.memUsedMib > s.memTotalMib)
      add('memory', 'fail', `inconsistent frame buffer reading: ${s.memUsedMib} MiB used of ${s.memTotalMib} MiB`);
    else if (s.memUsedMib / s.memTotalMib >= 0.98)
      add('memory', 'warn', `${s.memUsedMib} of ${s.memTotalMib} MiB used (≥ 98 %)`);
    else add('memory', 'pass', `${s.memUsedMib} of ${s.memTotalMib} MiB used`);
  }

  if (level >= 3) {
    if (s?.utilization == null) add('utilization', 'skip', 'utilization not reported');
    else if (s.utilization < 0 || s.utilization > 100)
      add('utilization', 'fail', `impossible utilization reading ${s.utilization} %`);
    else add('utilization', 'pass', `${s.utilization} %`);

    const t = e.maxTemperature24h;
    if (t == null) add('thermal_history_24h', 'skip', 'no 1-minute rollups in the last 24 h');
    else if (t >= limits.temperatureCriticalC)
      add(
        'thermal_history_24h',
        'fail',
        `peaked at ${t} °C in the last 24 h (critical ${limits.temperatureCriticalC} °C)`,
      );
    else if (t >= limits.temperatureWarnC)
      add('thermal_history_24h', 'warn', `peaked at ${t} °C in the last 24 h (warning ${limits.temperatureWarnC} °C)`);
    else add('thermal_history_24h', 'pass', `peak ${t} °C in the last 24 h`);
  }
  return out;
}

/** The host-side checks, recorded as skipped: they run through the collector on the GPU host. */
export function hostChecks(level: number): DiagnosticCheck[] {
  return [
    { name: 'nvidia_smi_query', gpu_uuid: null, status: 'skip', detail: `nvidia-smi -q: ${NEEDS_COLLECTOR}` },
    { name: 'dcgmi_diag', gpu_uuid: null, status: 'skip', detail: `dcgmi diag -r ${level}: ${NEEDS_COLLECTOR}` },
  ];
}

/** The worst status of the checks that ran; all skipped is a pass with nothing against it. */
export function overallResult(checks: DiagnosticCheck[]): DiagnosticResult {
  if (checks.some((c) => c.status === 'fail')) return 'fail';
  if (checks.some((c) => c.status === 'warn')) return 'warn';
  return 'pass';
}

// ------------------------------------------------------------------ the job

async function evidenceOf(rt: Runtime, gpu: Gpu, level: number, now: Date): Promise<GpuEvidence> {
  const where = { tenantId: gpu.tenantId, gpuId: gpu.id };
  const [latest, recent, history] = await Promise.all([
    rt.prisma.gpuSample.findFirst({ where, orderBy: { at: 'desc' } }),
    rt.prisma.gpuSample.findMany({
      where: { ...where, at: { gte: new Date(now.getTime() - DIAGNOSTIC_LIMITS.xidWindowMs) }, xid: { not: null } },
      select: { at: true, xid: true },
      orderBy: { at: 'desc' },
      take: 5000,
    }),
    level >= 3
      ? rt.prisma.gpuRollup.aggregate({
          where: {
            ...where,
            resolution: 60,
            bucket: { gte: new Date(now.getTime() - DIAGNOSTIC_LIMITS.historyWindowMs) },
          },
          _max: { temperatureCMax: true },
        })
      : Promise.resolve(null),
  ]);
  return { gpu, latest, recent, maxTemperature24h: history?._max.temperatureCMax ?? null };
}

/**
 * The job: claims the queued request (a duplicate job is skipped), gathers each GPU's evidence, records
 * the checks and the overall result. A GPU deleted since the request is reported as a failed check.
 */
export async function executeGpuDiagnostic(rt: Runtime, diagnosticId: string): Promise<DiagnosticResult | 'skipped'> {
  const claimed = await rt.prisma.gpuDiagnostic.updateMany({
    where: { id: diagnosticId, status: { in: ['queued', 'running'] } },
    data: { status: 'running', startedAt: rt.clock.now() },
  });
  if (claimed.count === 0) return 'skipped';
  const d = await rt.prisma.gpuDiagnostic.findUniqueOrThrow({ where: { id: diagnosticId } });
  const now = rt.clock.now();
  const limits = healthLimits({ rt });
  const gpus = await rt.prisma.gpu.findMany({
    where: { tenantId: d.tenantId, id: { in: d.gpuIds } },
    orderBy: [{ node: 'asc' }, { index: 'asc' }],
  });
  const checks: DiagnosticCheck[] = [];
  for (const id of d.gpuIds.filter((x) => !gpus.some((g) => g.id === x)))
    checks.push({ name: 'gpu_present', gpu_uuid: null, status: 'fail', detail: `GPU ${id} no longer exists` });
  for (const gpu of gpus)
    checks.push(...evaluateGpuChecks(await evidenceOf(rt, gpu, d.level, now), d.level, limits, now));
  checks.push(...hostChecks(d.level));
  const result = overallResult(checks);
  await rt.prisma.gpuDiagnostic.update({
    where: { id: d.id },
    data: {
      status: 'completed',
      result,
      checks: checks as unknown as Prisma.InputJsonValue,
      finishedAt: rt.clock.now(),
    },
  });
  return result;
}

/** Marks a request whose job failed for good (the error kept for the reader). */
export async function failGpuDiagnostic(rt: Runtime, diagnosticId: string, error: string): Promise<void> {
  await rt.prisma.gpuDiagnostic.updateMany({
    where: { id: diagnosticId, status: { in: ['queued', 'running'] } },
    data: { status: 'failed', error: error.slice(0, 1000), finishedAt: rt.clock.now() },
  });
}
