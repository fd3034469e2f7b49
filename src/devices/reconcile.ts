/**
 * Reconcile: compare the current intent with the last observed configuration, record a DriftReport
 * with the unified diff, and put the result on the timeline. Runs as a `sot` job; asking for one is
 * open to any user.
 */
import type { Ctx } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { DriftReport } from '../generated/prisma/client.js';
import { NotFound } from '../errors.js';
import { configDrift } from './diff.js';
import { insertTimelineEvent } from './sot-events.js';
import { announceTimelineEvents } from '../events/announce.js';

export interface QueuedReconcile {
  deviceId: string;
  jobId: string;
  queuedAt: Date;
}

/** Queues a reconcile job for the device (ids only in the job). */
export async function queueReconcile(rt: Runtime, deviceId: string): Promise<QueuedReconcile> {
  const queuedAt = rt.clock.now();
  const jobId = `reconcile-${deviceId}-${queuedAt.getTime()}-${Math.random().toString(36).slice(2, 8)}`;
  await rt.queues.add('sot', { task: 'reconcile', deviceId }, { jobId });
  return { deviceId, jobId, queuedAt };
}

/** Queues a reconcile of one of the caller's tenant's devices; NotFound for another tenant's. */
export async function requestReconcile(ctx: Ctx, deviceId: string): Promise<QueuedReconcile> {
  const device = await ctx.db.device.findUnique({ where: { id: deviceId }, select: { id: true } });
  if (!device) throw new NotFound('Device');
  return queueReconcile(ctx.rt, device.id);
}

/**
 * The job: one DriftReport per run. Without an intent or an observed configuration there is nothing
 * to compare, which is reported (with `detail`) rather than guessed. Returns null if the device is gone.
 */
export async function reconcileDevice(rt: Runtime, deviceId: string): Promise<DriftReport | null> {
  // One reconcile of a device at a time, reading under the device's row lock: a later report always
  // reflects what an earlier one saw or newer, so the latest report is never a stale comparison.
  const done = await rt.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Device" WHERE id = ${deviceId} FOR UPDATE`;
    const device = await tx.device.findUnique({
      where: { id: deviceId },
      include: { intents: { orderBy: { version: 'desc' }, take: 1 } },
    });
    if (!device) return null;
    const intent = device.intents[0];
    let detail: string | null = null;
    if (!intent) detail = 'No intended configuration yet.';
    else if (device.observedConfig == null) detail = 'No configuration has been observed on the device yet.';
    const drift = detail ? null : configDrift(intent!.config, device.observedConfig!, device.name);
    const report = await tx.driftReport.create({
      data: {
        tenantId: device.tenantId,
        deviceId: device.id,
        intentVersion: intent?.version ?? null,
        observedAt: device.observedAt,
        inSync: drift?.inSync ?? false,
        diff: drift?.diff ?? '',
        detail,
      },
    });
    const event = await insertTimelineEvent(tx, {
      receivedAt: rt.clock.now(),
      tenantId: device.tenantId,
      deviceId: device.id,
      receivedVia: 'system',
      type: detail ? 'sot.reconcile_skipped' : drift!.inSync ? 'sot.in_sync' : 'sot.drift_detected',
      severity: drift && !drift.inSync ? 'warning' : 'info',
      summary: detail
        ? `Reconcile of ${device.name}: ${detail}`
        : drift!.inSync
          ? `${device.name} runs its intended configuration (version ${intent!.version})`
          : `${device.name} drifted from intended version ${intent!.version}: +${drift!.linesAdded} −${drift!.linesRemoved} lines`,
      labels: { device: device.name },
      payload: {
        device_id: device.id,
        drift_report_id: report.id,
        intent_version: intent?.version ?? null,
        in_sync: report.inSync,
      },
    });
    return { device, report, event };
  });
  if (!done) return null;
  await announceTimelineEvents(rt, [done.event]);
  rt.pubsub.publish('deviceChanged', done.device.tenantId, {
    id: done.device.id,
    name: done.device.name,
    change: 'reconciled',
  });
  return done.report;
}
