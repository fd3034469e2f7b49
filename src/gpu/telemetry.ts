/**
 * Recording GPU telemetry, whoever sent it: GPUs are upserted by UUID, raw samples stored, hardware
 * events derived from the change between samples (an XID that changes, a thermal excursion that
 * starts, crosses the critical limit or ends (thermal.ts), an ECC double-bit counter that rises) and written to the timeline as `gpu.*` events, so
 * alert rules and outbound webhooks work on them unchanged. Health is recomputed for each GPU that
 * reported; a change is announced on `gpuHealthChanged`.
 */
import type { Ctx } from '../context.js';
import type { Gpu, Prisma } from '../generated/prisma/client.js';
import { announceTimelineEvents } from '../events/announce.js';
import { describeXid } from './xid.js';
import { thermalTransition } from './thermal.js';
import { gpuHealth, type GpuHealth, type HealthLimits } from './health.js';
import { GPU_METRICS, type GpuMetric, type GpuSampleInput } from './samples.js';
import { RECENT_MS } from './rollups.js';
import { numberArray, textArray } from '../db/array-literal.js';
import { forgetBackfill, noteBackfill, rollUpBackfillSoon } from './backfill-rollups.js';

export type GpuSource = 'dcgm' | 'nvidia-smi';

export interface RecordResult {
  gpus: number;
  samples: number;
  events: number;
}

interface GpuState {
  lastXid: number | null;
  lastXidAt: Date | null;
  lastEccDbe: number | null;
  hot: boolean;
  thermalCritical: boolean;
}

type NewTimelineEvent = Omit<Prisma.EventCreateManyInput, 'tenantId'>;

/** What a push reads of each GPU (not its `latest` and `healthReasons` documents, which it rewrites). */
const GPU_STATE = {
  id: true,
  tenantId: true,
  uuid: true,
  model: true,
  health: true,
  lastSampleAt: true,
  lastXid: true,
  lastXidAt: true,
  lastEccDbe: true,
  hot: true,
  thermalCritical: true,
} as const;
type GpuRow = Prisma.GpuGetPayload<{ select: typeof GPU_STATE }>;
type UpdatedGpu = GpuRow & Pick<Gpu, 'node' | 'index' | 'source' | 'latest' | 'lastSeenAt' | 'healthReasons'>;

/** The health limits in force (from the configuration). */
export function healthLimits(ctx: Pick<Ctx, 'rt'>): HealthLimits {
  const c = ctx.rt.config.gpu;
  return {
    temperatureWarnC: c.temperatureWarnC,
    temperatureCriticalC: c.temperatureCriticalC,
    intervalMs: c.sampleIntervalMs,
    missingAfterIntervals: c.missingAfterIntervals,
    xidWindowMs: 3600_000,
  };
}

function labelsOf(s: GpuSampleInput): Record<string, string> {
  return { node: s.node, gpu: String(s.index), uuid: s.uuid, ...(s.model ? { model: s.model } : {}) };
}

/** The hardware events between the GPU's remembered state and one new sample (state is advanced). */
export function deriveGpuEvents(
  state: GpuState,
  s: GpuSampleInput,
  limits: HealthLimits,
  source: GpuSource,
): NewTimelineEvent[] {
  const out: NewTimelineEvent[] = [];
  const base = {
    module: 'gpu',
    source: `gpu/${s.node}`,
    labels: labelsOf(s),
    receivedVia: 'system' as const,
    receivedAt: s.at,
  };
  const where = `GPU ${s.index} on ${s.node}`;
  if (s.xid != null && s.xid !== state.lastXid) {
    if (s.xid !== 0) {
      const x = describeXid(s.xid);
      out.push({
        ...base,
        type: 'gpu.xid',
        severity: x.severity,
        summary: `XID ${x.code} on ${where}: ${x.meaning}`,
        payload: { xid: x.code, meaning: x.meaning, action: x.action, uuid: s.uuid, source },
      });
      state.lastXidAt = s.at;
    }
    state.lastXid = s.xid;
  }
  if (s.temperatureC != null) {
    const thermal = thermalTransition(state, s.temperatureC, limits, where, s.uuid);
    if (thermal) out.push({ ...base, ...thermal });
  }
  if (s.eccDbe != null) {
    if (s.eccDbe > (state.lastEccDbe ?? 0)) {
      out.push({
        ...base,
        type: 'gpu.ecc',
        severity: 'critical',
        summary: `${where}: ${s.eccDbe - (state.lastEccDbe ?? 0)} new uncorrected ECC error(s)`,
        payload: { ecc_dbe_total: s.eccDbe, uuid: s.uuid },
      });
    }
    state.lastEccDbe = s.eccDbe;
  }
  return out;
}

function metricsOf(s: GpuSampleInput): Record<GpuMetric, number | null> {
  return Object.fromEntries(GPU_METRICS.map((m) => [m, s[m] ?? null])) as Record<GpuMetric, number | null>;
}

/**
 * Records a batch of samples for the caller's tenant (one transaction). Samples of one GPU are taken
 * in time order; a sample already stored (same GPU and time) is skipped, so a retried push is harmless.
 */
export async function recordGpuSamples(ctx: Ctx, samples: GpuSampleInput[], source: GpuSource): Promise<RecordResult> {
  if (samples.length === 0) return { gpus: 0, samples: 0, events: 0 };
  const limits = healthLimits(ctx);
  const sorted = [...samples].sort((a, b) => a.at.getTime() - b.at.getTime());
  const uuids = [...new Set(sorted.map((s) => s.uuid))];
  const now = ctx.rt.clock.now();
  // History (older than the periodic rollup redoes) has its buckets redone off the push path: noted
  // before the transaction so a crash after commit still leaves the range to roll up (backfill-rollups.ts).
  const oldest = sorted[0]!.at;
  const to = new Date(sorted[sorted.length - 1]!.at.getTime() + 1);
  const backfill =
    now.getTime() - oldest.getTime() > RECENT_MS - 60_000 ? await noteBackfill(ctx.rt, oldest, to) : null;

  const committed = ctx.db.$transaction(
    async (tx) => {
      const existing = await tx.gpu.findMany({ where: { uuid: { in: uuids } }, select: GPU_STATE });
      const byUuid = new Map<string, GpuRow>(existing.map((g) => [g.uuid, g]));
      const missing = uuids.filter((u) => !byUuid.has(u));
      if (missing.length) {
        const firstOf = new Map<string, GpuSampleInput>();
        for (const s of sorted) if (!firstOf.has(s.uuid)) firstOf.set(s.uuid, s);
        await tx.gpu.createMany({
          data: missing.map((u) => {
            const s = firstOf.get(u)!;
            // lastSampleAt just before the first sample, so that sample moves the new GPU's state.
            return {
              uuid: u,
              node: s.node,
              index: s.index,
              model: s.model ?? null,
              source,
              firstSeenAt: now,
              lastSeenAt: now,
              lastSampleAt: new Date(s.at.getTime() - 1),
            } as Prisma.GpuCreateManyInput;
          }),
          skipDuplicates: true,
        });
        for (const g of await tx.gpu.findMany({ where: { uuid: { in: missing } }, select: GPU_STATE }))
          byUuid.set(g.uuid, g);
      }
      const states = new Map<string, GpuState>(
        [...byUuid.values()].map((g) => [
          g.uuid,
          {
            lastXid: g.lastXid,
            lastXidAt: g.lastXidAt,
            lastEccDbe: g.lastEccDbe,
            hot: g.hot,
            thermalCritical: g.thermalCritical,
          },
        ]),
      );
      const newEvents: NewTimelineEvent[] = [];
      const latest = new Map<string, GpuSampleInput>();
      for (const s of sorted) {
        const g = byUuid.get(s.uuid)!;
        // A sample older than what the GPU already reported is history: stored, but it moves no state.
        if (!latest.has(s.uuid) && s.at <= g.lastSampleAt) continue;
        newEvents.push(...deriveGpuEvents(states.get(s.uuid)!, s, limits, source));
        latest.set(s.uuid, s);
      }
      // One INSERT … SELECT FROM unnest (one array per column) rather than Prisma's createMany, whose
      // per-row parameters make a 5,000-sample push take seconds inside the transaction.
      const tenantId = byUuid.get(sorted[0]!.uuid)!.tenantId;
      // Each column is one array literal (src/db/array-literal.ts), not a JS array the drivers walk.
      const stored = await tx.$executeRawUnsafe(
        `INSERT INTO "GpuSample" ("gpuId", "tenantId", "at", ${GPU_METRICS.map((m) => `"${m}"`).join(', ')})
       SELECT u.gpu, $1, u.at::timestamp, ${GPU_METRICS.map((m) => `u."${m}"`).join(', ')}
         FROM unnest($2::text[], $3::text[], ${GPU_METRICS.map((_, i) => `$${i + 4}::float8[]`).join(', ')}) AS u(gpu, at, ${GPU_METRICS.map((m) => `"${m}"`).join(', ')})
       ON CONFLICT DO NOTHING`,
        tenantId,
        textArray(sorted.map((s) => byUuid.get(s.uuid)!.id)),
        textArray(sorted.map((s) => s.at.toISOString())),
        ...GPU_METRICS.map((m) => numberArray(sorted.map((s) => s[m] ?? null))),
      );
      // Every GPU that reported gets its new state in one UPDATE … FROM unnest (not one UPDATE per GPU:
      // a 5,000-sample push from 1,000 GPUs would otherwise make 1,000 round trips inside the transaction).
      const healthChanged: UpdatedGpu[] = [];
      const updates: UpdatedGpu[] = [];
      for (const [uuid, s] of latest) {
        const g = byUuid.get(uuid)!;
        const st = states.get(uuid)!;
        // It just reported, so it is not missing, whatever the sample's own time says.
        const verdict = gpuHealth(
          { latest: metricsOf(s), lastSeenAt: now, lastXid: st.lastXid, lastXidAt: st.lastXidAt },
          now,
          limits,
        );
        const updated: UpdatedGpu = {
          ...g,
          node: s.node,
          index: s.index,
          model: s.model ?? g.model,
          source,
          latest: metricsOf(s),
          lastSeenAt: now,
          lastSampleAt: s.at,
          lastXid: st.lastXid,
          lastXidAt: st.lastXidAt,
          lastEccDbe: st.lastEccDbe,
          hot: st.hot,
          thermalCritical: st.thermalCritical,
          health: verdict.status,
          healthReasons: verdict.reasons,
        };
        updates.push(updated);
        if (updated.health !== g.health) healthChanged.push(updated);
      }
      if (updates.length) {
        const col = <T>(f: (g: UpdatedGpu) => T) => updates.map(f);
        const iso = (d: Date | null) => (d ? d.toISOString() : null);
        // Timestamps travel as ISO text (UTC) into timestamp(3) columns, as Prisma stores DateTime.
        await tx.$executeRawUnsafe(
          `UPDATE "Gpu" AS g
            SET "node" = u.node, "index" = u.idx, "model" = u.model, "source" = $2, "latest" = u.latest::jsonb,
                "lastSeenAt" = u.seen::timestamp, "lastSampleAt" = u.sample_at::timestamp, "lastXid" = u.xid, "lastXidAt" = u.xid_at::timestamp, "lastEccDbe" = u.ecc,
                "hot" = u.hot, "thermalCritical" = u.critical, "health" = u.health::"GpuHealth", "healthReasons" = u.reasons::jsonb
           FROM unnest($3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::int[], $10::text[], $11::float8[], $12::bool[], $13::text[], $14::text[], $15::text[], $16::bool[])
                AS u(id, node, idx, model, latest, seen, xid, xid_at, ecc, hot, health, reasons, sample_at, critical)
          WHERE g."id" = u.id AND g."tenantId" = $1`,
          updates[0]!.tenantId,
          source,
          col((g) => g.id),
          col((g) => g.node),
          col((g) => g.index),
          col((g) => g.model),
          col((g) => JSON.stringify(g.latest)),
          col((g) => iso(g.lastSeenAt)),
          col((g) => g.lastXid),
          col((g) => iso(g.lastXidAt)),
          col((g) => g.lastEccDbe),
          col((g) => g.hot),
          col((g) => g.health),
          col((g) => JSON.stringify(g.healthReasons)),
          col((g) => iso(g.lastSampleAt)),
          col((g) => g.thermalCritical),
        );
      }
      const rows = newEvents.length
        ? await tx.event.createManyAndReturn({
            data: newEvents.map((e) => ({ ...e, receivedAt: now })) as Prisma.EventCreateManyInput[],
          })
        : [];
      return { events: rows, changed: healthChanged, stored, gpuIds: [...byUuid.values()].map((g) => g.id) };
      // Pushes of the same GPUs queue on their rows; give a busy fleet more than Prisma's default 5 s.
    },
    { timeout: 20_000, maxWait: 10_000 },
  );
  const { events, changed, stored, gpuIds } = await committed.catch(async (err: unknown) => {
    if (backfill) await forgetBackfill(ctx.rt, [backfill]).catch(() => undefined);
    throw err;
  });
  await announceTimelineEvents(ctx.rt, events);
  for (const g of changed) publishGpuHealth(ctx, g);
  // A backfill (a collector catching up, an import) lands in buckets the periodic rollup no longer redoes:
  // only the GPUs of this batch, whose buckets it changed, rolled up soon, not before the answer.
  if (backfill) rollUpBackfillSoon(ctx.rt, backfill, { from: oldest, to, gpuIds });
  return { gpus: uuids.length, samples: stored, events: events.length };
}

/** Tells live views that a GPU's health verdict changed. */
export function publishGpuHealth(
  ctx: Pick<Ctx, 'rt'>,
  g: Pick<Gpu, 'id' | 'tenantId' | 'uuid' | 'node' | 'index' | 'health' | 'healthReasons' | 'lastSeenAt'>,
): void {
  ctx.rt.pubsub.publish('gpuHealthChanged', g.tenantId, {
    id: g.id,
    uuid: g.uuid,
    node: g.node,
    index: g.index,
    health: g.health as GpuHealth,
    healthReasons: g.healthReasons,
    lastSeenAt: g.lastSeenAt.toISOString(),
  });
}
