/**
 * The device inventory (source of truth): create, update, delete, observed configuration, and the
 * announcements that go with each change (timeline event, `deviceChanged`).
 *
 * Who may do what is declared on the GraphQL fields: inventory writes are admin-only; reporting an
 * observed configuration (the agent path) and asking for a reconcile are open to any user.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { Device, Event, Prisma } from '../generated/prisma/client.js';
import { Conflict, NotFound, invalid } from '../errors.js';
import { isUniqueViolation } from '../db/errors.js';
import { assertValidDevice, type DeviceFields } from './validation.js';
import { insertTimelineEvent } from './sot-events.js';
import { announceTimelineEvents } from '../events/announce.js';
import { queueReconcile } from './reconcile.js';

export type DeviceChange =
  | 'created'
  | 'updated'
  | 'deleted'
  | 'intent_changed'
  | 'config_observed'
  | 'reconciled'
  /** Rule evaluation linked new events to the device (src/devices/event-links.ts). */
  | 'events_linked';

/** Largest configuration text accepted (intent or observed). The request body limit is 1 MiB anyway. */
export const MAX_CONFIG_BYTES = 512 * 1024;

/** Publishes `deviceChanged` for subscribers of the tenant. */
export function publishDeviceChanged(
  rt: Runtime,
  device: Pick<Device, 'id' | 'tenantId' | 'name'>,
  change: DeviceChange,
): void {
  rt.pubsub.publish('deviceChanged', device.tenantId, { id: device.id, name: device.name, change });
}

/** The device, or NotFound (also for another tenant's device). */
export async function getDevice(ctx: Ctx, id: string): Promise<Device> {
  const d = await ctx.db.device.findUnique({ where: { id } });
  if (!d) throw new NotFound('Device');
  return d;
}

function trimmed(v: string | null | undefined): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  const t = v.trim();
  return t === '' ? null : t;
}

function normalizeFields(f: DeviceFields): DeviceFields {
  return {
    ...(f.name !== undefined ? { name: f.name?.trim() ?? null } : {}),
    ...(f.role !== undefined ? { role: trimmed(f.role) } : {}),
    ...(f.site !== undefined ? { site: trimmed(f.site) } : {}),
    ...(f.platform !== undefined ? { platform: trimmed(f.platform) } : {}),
    ...(f.managementAddress !== undefined ? { managementAddress: trimmed(f.managementAddress) } : {}),
    ...(f.labels !== undefined ? { labels: f.labels ?? {} } : {}),
    ...(f.aliases !== undefined ? { aliases: [...new Set((f.aliases ?? []).map((a) => a.trim()))] } : {}),
  };
}

function dataOf(f: DeviceFields): Prisma.DeviceUncheckedUpdateInput {
  const { labels, ...rest } = f;
  return { ...rest, ...(labels !== undefined ? { labels: labels ?? {} } : {}) } as Prisma.DeviceUncheckedUpdateInput;
}

function nameTaken(name: string | null | undefined): Conflict {
  return new Conflict(`A device named ${name} already exists.`, 'ALREADY_EXISTS');
}

/** Creates a device; 409 when the name is taken in the tenant. Announced on the timeline. */
export async function createDevice(ctx: Ctx, input: DeviceFields & { name: string }): Promise<Device> {
  const me = requireUser(ctx);
  const fields = normalizeFields(input);
  assertValidDevice(fields, true, ['input']);
  let event: Event;
  let device: Device;
  try {
    [device, event] = await ctx.db.$transaction(async (tx) => {
      const d = await tx.device.create({
        data: { ...(dataOf(fields) as Prisma.DeviceUncheckedCreateInput), tenantId: me.tenantId },
      });
      const e = await insertTimelineEvent(tx, {
        receivedAt: ctx.rt.clock.now(),
        tenantId: me.tenantId,
        type: 'sot.device_created',
        summary: `Device ${d.name} created by ${me.email ?? 'a user'}`,
        deviceId: d.id,
        receivedVia: 'system',
        payload: { device_id: d.id, actor_id: me.userId },
      });
      return [d, e] as const;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(fields.name);
    throw err;
  }
  await announceTimelineEvents(ctx.rt, [event]);
  publishDeviceChanged(ctx.rt, device, 'created');
  return device;
}

/** Updates the given fields (null clears one); 409 on a name clash. Announced on the timeline. */
export async function updateDevice(ctx: Ctx, id: string, patch: DeviceFields): Promise<Device> {
  const me = requireUser(ctx);
  const fields = normalizeFields(patch);
  if (fields.name === null) throw invalid(['input', 'name'], 'cannot be cleared');
  assertValidDevice(fields, false, ['input']);
  await getDevice(ctx, id);
  let device: Device;
  let event: Event;
  try {
    [device, event] = await ctx.db.$transaction(async (tx) => {
      const d = await tx.device.update({ where: { id }, data: dataOf(fields) });
      const e = await insertTimelineEvent(tx, {
        receivedAt: ctx.rt.clock.now(),
        tenantId: me.tenantId,
        type: 'sot.device_updated',
        summary: `Device ${d.name} updated by ${me.email ?? 'a user'} (${Object.keys(fields).join(', ') || 'no fields'})`,
        deviceId: d.id,
        receivedVia: 'system',
        payload: { device_id: d.id, actor_id: me.userId, fields: Object.keys(fields) },
      });
      return [d, e] as const;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(fields.name);
    throw err;
  }
  await announceTimelineEvents(ctx.rt, [event]);
  publishDeviceChanged(ctx.rt, device, 'updated');
  return device;
}

/**
 * Deletes a device with its intent history and drift reports. Alerts, events and proposals that named
 * it stay, detached (their device becomes null). The deletion is recorded on the timeline.
 */
export async function deleteDevice(ctx: Ctx, id: string): Promise<Device> {
  const me = requireUser(ctx);
  const device = await getDevice(ctx, id);
  const event = await ctx.db.$transaction(async (tx) => {
    await tx.device.delete({ where: { id } });
    return insertTimelineEvent(tx, {
      receivedAt: ctx.rt.clock.now(),
      tenantId: me.tenantId,
      type: 'sot.device_deleted',
      summary: `Device ${device.name} deleted by ${me.email ?? 'a user'}`,
      receivedVia: 'system',
      payload: { device_id: id, name: device.name, actor_id: me.userId },
    });
  });
  await announceTimelineEvents(ctx.rt, [event]);
  publishDeviceChanged(ctx.rt, device, 'deleted');
  return device;
}

/** Throws 422 on `field` when the configuration text exceeds MAX_CONFIG_BYTES. */
export function assertConfigSize(config: string, field: string[]): void {
  if (Buffer.byteLength(config, 'utf8') > MAX_CONFIG_BYTES)
    throw invalid(field, `must be at most ${MAX_CONFIG_BYTES} bytes`);
}

/**
 * Records what the device was seen running (the agent path: a collector or the device itself reports
 * its configuration) and queues a reconcile. A config equal to the last one only moves `observedAt`.
 */
export async function reportObservedConfig(
  ctx: Ctx,
  input: { deviceId: string; config: string; observedAt?: Date | null },
): Promise<Device> {
  const me = requireUser(ctx);
  assertConfigSize(input.config, ['input', 'config']);
  const before = await getDevice(ctx, input.deviceId);
  const now = ctx.rt.clock.now();
  const observedAt = input.observedAt ?? now;
  if (observedAt.getTime() > now.getTime() + 5 * 60_000)
    throw invalid(['input', 'observedAt'], 'cannot be in the future');
  const changed = before.observedConfig !== input.config;
  const [device, events] = await ctx.db.$transaction(async (tx) => {
    const d = await tx.device.update({
      where: { id: input.deviceId },
      data: { observedConfig: input.config, observedAt },
    });
    const e = changed
      ? [
          await insertTimelineEvent(tx, {
            receivedAt: ctx.rt.clock.now(),
            tenantId: me.tenantId,
            type: 'sot.config_observed',
            summary: `New configuration observed on ${d.name}`,
            deviceId: d.id,
            receivedVia: 'system',
            payload: {
              device_id: d.id,
              reporter_id: me.userId,
              observed_at: observedAt.toISOString(),
              bytes: Buffer.byteLength(input.config),
            },
          }),
        ]
      : [];
    return [d, e] as const;
  });
  await announceTimelineEvents(ctx.rt, events);
  publishDeviceChanged(ctx.rt, device, 'config_observed');
  await queueReconcile(ctx.rt, device.id);
  return device;
}
