/**
 * POST /sot/webhooks/<slug>: a source-of-truth system (NetBox-style) pushes device changes.
 *
 * `authenticateSotWebhook` is the route authenticator: it runs before body validation, so an unsigned
 * or wrongly signed call is a 401 whatever its body. The signature is the hex HMAC-SHA256 of the raw
 * body in X-Service-Signature, keyed by the webhook's current secret or, during the 24 hours after a
 * rotation, its previous one. `applySotWebhook` then upserts (by external id) or deletes the device.
 */
import crypto from 'node:crypto';
import type { Request } from 'express';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { Principal } from '../auth/principal.js';
import type { Device, Event, InboundWebhook, Prisma } from '../generated/prisma/client.js';
import { Conflict, Unauthenticated, invalid } from '../errors.js';
import { randomSecret } from '../auth/secrets.js';
import { INBOUND_SECRET_PREFIX, slugBase } from '../events/inbound-webhooks.js';
import { verifyHmacHex } from '../signing.js';
import { isUniqueViolation } from '../db/errors.js';
import { consumeInboundRate } from '../events/rate-limit.js';
import { parseNetboxWebhook } from './netbox.js';
import { assertValidDevice } from './validation.js';
import { announceTimelineEvents, insertTimelineEvent } from './timeline.js';
import { publishDeviceChanged } from './devices.js';

/** The public URL of a source-of-truth webhook: PUBLIC_BASE_URL if set, else the caller's origin, else a path. */
export function sotWebhookUrl(rt: Runtime, slug: string, requestOrigin?: string | null): string {
  const base = (rt.config.publicBaseUrl ?? requestOrigin ?? '').replace(/\/+$/, '');
  return `${base}/api/v1/sot/webhooks/${slug}`;
}

/**
 * Creates a source-of-truth webhook (an InboundWebhook of kind `sot`) for the caller's tenant; the
 * cleartext secret is returned this once. Slugs are the name plus a random suffix (globally unique).
 */
export async function createSotWebhook(ctx: Ctx, input: { name: string }): Promise<{ webhook: InboundWebhook; secret: string }> {
  requireUser(ctx);
  const name = input.name?.trim() ?? '';
  if (!name || name.length > 100) throw invalid(['input', 'name'], 'must be 1 to 100 characters');
  const secret = randomSecret(INBOUND_SECRET_PREFIX, 32);
  for (let attempt = 0; ; attempt++) {
    try {
      const suffix = crypto.randomBytes(5).toString('hex');
      const webhook = await ctx.db.inboundWebhook.create({
        data: { name, slug: `${slugBase(name)}-${suffix}`, kind: 'sot', secretCiphertext: ctx.rt.secretBox.seal(secret) } as Prisma.InboundWebhookUncheckedCreateInput,
      });
      return { webhook, secret };
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 3) throw err;
    }
  }
}

/** The secrets a signature may be made with right now: the current one, and the previous within its grace. */
export function signingSecrets(rt: Runtime, hook: { secretCiphertext: string; previousCiphertext: string | null; previousValidUntil: Date | null }, now = new Date()): string[] {
  const secrets = [rt.secretBox.open(hook.secretCiphertext)];
  if (hook.previousCiphertext && hook.previousValidUntil && hook.previousValidUntil > now) secrets.push(rt.secretBox.open(hook.previousCiphertext));
  return secrets;
}

/**
 * Route authenticator: the principal of the `sot` webhook named by the slug. 401 when the signature
 * is missing or wrong (or the slug names no `sot` webhook: a caller cannot tell the two apart), then
 * 429 past the per-webhook inbound rate.
 */
export async function authenticateSotWebhook(rt: Runtime, req: Request & { rawBody?: Buffer }): Promise<Principal> {
  const header = req.headers['x-service-signature'];
  const signature = Array.isArray(header) ? header[0] : header;
  if (!signature) throw new Unauthenticated('Sign the body: X-Service-Signature must be the hex HMAC-SHA256 of the raw body.');
  const slug = String(req.params.slug ?? '');
  // The slug carries no tenant, so this lookup uses the root client (credential resolution).
  const hook = await rt.prisma.inboundWebhook.findUnique({ where: { slug } });
  const ok = !!hook && hook.kind === 'sot' && verifyHmacHex(signingSecrets(rt, hook), req.rawBody ?? Buffer.alloc(0), signature);
  if (!ok || !hook) throw new Unauthenticated('Invalid webhook signature.');
  await consumeInboundRate(rt, `webhook:${hook.id}`);
  return { tenantId: hook.tenantId, userId: null, email: null, role: null, userKind: null, credential: { kind: 'webhook', id: hook.id } };
}

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
  const meta = { sot_event: b.event, model: b.model, request_id: b.request_id ?? null, username: b.username ?? null, timestamp: b.timestamp ?? null, external_id: change.externalId } as Record<string, Prisma.InputJsonValue | null>;
  const source = `sot/${slug}`;

  if (change.action === 'delete') {
    const device = await ctx.db.device.findFirst({ where: { externalId: change.externalId } });
    if (!device) return { result: 'ignored', deviceId: null, eventId: null, detail: 'no device has this external id' };
    const event = await ctx.db.$transaction(async (tx) => {
      await tx.device.delete({ where: { id: device.id } });
      return insertTimelineEvent(tx, {
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

  assertValidDevice(change.fields, true, ['body', 'data']);
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
          throw new Conflict(`Device ${change.fields.name} is already linked to source-of-truth object ${sameName.externalId}.`);
        }
        target = sameName;
      }
      const d = target
        ? await tx.device.update({ where: { id: target.id }, data })
        : await tx.device.create({ data: { ...(data as Prisma.DeviceUncheckedCreateInput), tenantId: p.tenantId } });
      const e = await insertTimelineEvent(tx, {
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
    if (isUniqueViolation(err)) throw new Conflict(`Device ${change.fields.name} was changed concurrently; retry.`);
    throw err;
  }
  await announceTimelineEvents(ctx.rt, [event]);
  publishDeviceChanged(ctx.rt, device, created ? 'created' : 'updated');
  return { result: created ? 'created' : 'updated', deviceId: device.id, eventId: event.id };
}

