/**
 * Intended configuration, versioned: every change is a new IntentVersion with its author, time, and
 * the proposal it came from (if any). Versions of a device are numbered 1, 2, 3… without gaps.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { Event, IntentVersion, PrismaClient } from '../generated/prisma/client.js';
import { assertConfigSize, getDevice, publishDeviceChanged } from './devices.js';
import { insertTimelineEvent } from './sot-events.js';
import { announceTimelineEvents } from '../events/announce.js';
import { queueReconcile } from './reconcile.js';
import { assertDirectIntentEditAllowed } from './review-settings.js';

export interface NewIntent {
  tenantId: string;
  deviceId: string;
  config: string;
  authorId: string | null;
  proposalId?: string | null;
  comment?: string | null;
  /** The service clock's now (the device row's updatedAt). */
  now: Date;
}

type Tx = Pick<PrismaClient, 'device' | 'intentVersion' | 'event'>;

/**
 * Writes the next intent version inside `tx` and its timeline event. Touching the device row first
 * takes its row lock, so concurrent writers of one device number their versions one after the other.
 */
export async function writeIntentVersion(tx: Tx, input: NewIntent): Promise<{ intent: IntentVersion; event: Event }> {
  const device = await tx.device.update({
    where: { id: input.deviceId },
    data: { updatedAt: input.now },
    select: { id: true, name: true },
  });
  const last = await tx.intentVersion.findFirst({
    where: { deviceId: input.deviceId },
    orderBy: { version: 'desc' },
    select: { version: true },
  });
  const intent = await tx.intentVersion.create({
    data: {
      tenantId: input.tenantId,
      deviceId: input.deviceId,
      version: (last?.version ?? 0) + 1,
      config: input.config,
      authorId: input.authorId,
      proposalId: input.proposalId ?? null,
      comment: input.comment ?? null,
    },
  });
  const event = await insertTimelineEvent(tx, {
    receivedAt: input.now,
    tenantId: input.tenantId,
    type: 'sot.intent_changed',
    summary: `Intended configuration of ${device.name} is now version ${intent.version}${input.proposalId ? ' (approved proposal)' : ''}`,
    deviceId: input.deviceId,
    receivedVia: 'system',
    payload: {
      device_id: input.deviceId,
      version: intent.version,
      author_id: input.authorId,
      proposal_id: input.proposalId ?? null,
    },
  });
  return { intent, event };
}

/**
 * A direct intent edit (admin-only, declared on the field): bypasses the four-eyes rule by design, so
 * it is recorded with its author on the version, on the timeline and in the audit log (flagged
 * `bypassedReview` by its resolver). Refused with 403 PROPOSAL_REQUIRED when the tenant requires
 * proposals (review-settings.ts). A reconcile is queued after commit.
 */
export async function setDeviceIntent(
  ctx: Ctx,
  input: { deviceId: string; config: string; comment?: string | null },
): Promise<IntentVersion> {
  const me = requireUser(ctx);
  assertConfigSize(input.config, ['input', 'config']);
  const device = await getDevice(ctx, input.deviceId);
  await assertDirectIntentEditAllowed(ctx);
  const { intent, event } = await ctx.db.$transaction((tx) =>
    writeIntentVersion(tx, {
      tenantId: me.tenantId,
      deviceId: input.deviceId,
      config: input.config,
      authorId: me.userId,
      comment: input.comment ?? null,
      now: ctx.rt.clock.now(),
    }),
  );
  await announceTimelineEvents(ctx.rt, [event]);
  publishDeviceChanged(ctx.rt, device, 'intent_changed');
  await queueReconcile(ctx.rt, device.id);
  return intent;
}
