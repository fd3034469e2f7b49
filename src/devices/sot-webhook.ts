/**
 * POST /sot/webhooks/<slug>: a source-of-truth system (NetBox-style) pushes device changes.
 * The webhook itself (an InboundWebhook of kind `sot`) is created, rotated and its signature verified
 * by src/events/inbound-webhooks.ts; `applySotWebhook` upserts (by external id) or deletes the device.
 */
import type { Ctx } from '../context.js';
import type { Device, Event, Prisma } from '../generated/prisma/client.js';
import { Conflict, Unauthenticated } from '../errors.js';
import { isUniqueViolation } from '../db/errors.js';
import { parseNetboxWebhook } from './netbox.js';
import { assertValidDevice } from './validation.js';
import { insertTimelineEvent } from './sot-events.js';
import { announceTimelineEvents } from '../events/announce.js';
import { publishDeviceChanged } from './devices.js';

export interface SotWebhookResult {
  result: 'created' | 'updated' | 'deleted' | 'ignored';
  deviceId: string | null;
  eventId: string | null;
  detail?: string;
}

type DeviceData = Prisma.DeviceUncheckedUpdateInput;

/**
 * Applies one NetBox-style body for the webhook's tenant: `created`/`updated` upsert the device by
 * external id (adopting a same-named device that has none), `deleted` removes it. Every applied
 * change is recorded on the timeline as `sot.device_<created|updated|deleted>`; bodies about other
 * models are acknowledged and ignored. 409 when the name belongs to a device of another external id.
 */
export async function applySotWebhook(ctx: Ctx, slug: string, body: unknown): Promise<SotWebhookResult> {
  const p = ctx.principal;
  if (!p || p.credential.kind !== 'webhook') throw new Unauthenticated();
  const change = parseNetboxWebhook(body);
  if (change.action === 'ignore') return { result: 'ignored', deviceId: null, eventId: null, detail: change.reason };
  const b = body as Record<string, unknown>;
  const meta = {
    sot_event: b.event,
    model: b.model,
    request_id: b.request_id ?? null,
    username: b.username ?? null,
    timestamp: b.timestamp ?? null,
    external_id: change.externalId,
  } as Record<string, Prisma.InputJsonValue | null>;
  const source = `sot/${slug}`;

  if (change.action === 'delete') {
    const device = await ctx.db.device.findFirst({ where: { externalId: change.externalId } });
    if (!device) return { result: 'ignored', deviceId: null, eventId: null, detail: 'no device has this external id' };
    const event = await ctx.db.$transaction(async (tx) => {
      await tx.device.delete({ where: { id: device.id } });
      return insertTimelineEvent(tx, {
        receivedAt: ctx.rt.clock.now(),
        tenantId: p.tenantId,
        type: 'sot.device_deleted',
        summary: `Device ${device.name} deleted in the source of truth`,
        receivedVia: 'sot',
        source,
        payload: { ...meta, device_id: device.id, name: device.name },
      });
    });
    await announceTimelineEvents(ctx.rt, [event]);
    publishDeviceChanged(ctx.rt, device, 'deleted');
    return { result: 'deleted', deviceId: device.id, eventId: event.id };
  }

  assertValidDevice(change.fields, true, ['data']);
  const data: DeviceData = { ...change.fields, labels: change.fields.labels ?? {}, externalId: change.externalId };
  let device: Device;
  let event: Event;
  let created: boolean;
  try {
    [device, event, created] = await ctx.db.$transaction(async (tx) => {
      let target = await tx.device.findFirst({ where: { externalId: change.externalId } });
      if (!target) {
        const sameName = await tx.device.findFirst({ where: { name: change.fields.name } });
        if (sameName?.externalId && sameName.externalId !== change.externalId) {
          throw new Conflict(
            `Device ${change.fields.name} is already linked to source-of-truth object ${sameName.externalId}.`,
            'DEVICE_ALREADY_LINKED',
          );
        }
        target = sameName;
      }
      const d = target
        ? await tx.device.update({ where: { id: target.id }, data })
        : await tx.device.create({ data: { ...(data as Prisma.DeviceUncheckedCreateInput), tenantId: p.tenantId } });
      const e = await insertTimelineEvent(tx, {
        receivedAt: ctx.rt.clock.now(),
        tenantId: p.tenantId,
        type: target ? 'sot.device_updated' : 'sot.device_created',
        summary: `Device ${d.name} ${target ? 'updated' : 'created'} from the source of truth`,
        deviceId: d.id,
        receivedVia: 'sot',
        source,
        payload: { ...meta, device_id: d.id },
      });
      return [d, e, !target] as const;
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new Conflict(`Device ${change.fields.name} was changed concurrently; retry.`, 'CONCURRENT_CHANGE');
    throw err;
  }
  await announceTimelineEvents(ctx.rt, [event]);
  publishDeviceChanged(ctx.rt, device, created ? 'created' : 'updated');
  return { result: created ? 'created' : 'updated', deviceId: device.id, eventId: event.id };
}
