/**
 * Signed inbound webhooks, of two kinds: `events` (`{base}/api/v1/webhooks/<slug>`, envelope shape B)
 * and `sot` (`{base}/api/v1/sot/webhooks/<slug>`, NetBox-style device changes, see src/devices).
 * Both are signed with `X-Service-Signature` = hex HMAC-SHA256 of the raw body under the webhook's
 * secret; this module is the one place that creates, rotates and verifies them.
 *
 * The slug is derived from the name plus a short random suffix, because the URL carries no tenant and
 * must be unique across all tenants (and not guessable from the name alone). The secret is sealed with
 * the runtime's SecretBox (it must be read back to verify and to reveal); rotating keeps the previous
 * secret verifying for 24 hours. Secrets are never logged.
 */
import crypto from 'node:crypto';
import type { Request } from 'express';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { Principal } from '../principal.js';
import type { InboundWebhook } from '../generated/prisma/client.js';
import { NotFound, Unauthenticated, ValidationFailed } from '../errors.js';
import { isUniqueViolation } from '../db/errors.js';
import { randomSecret } from '../secrets.js';
import { verifyHmacHex } from '../signing.js';
import { rotationClaim, rotationInGrace, rotationUpdate, workingSecrets } from '../auth/secret-rotation.js';
import { consumeInboundRate } from './rate-limit.js';
import { refuseRepeatedSignature, verifyStandardWebhookDelivery } from './inbound-replay.js';

export const INBOUND_SECRET_PREFIX = 'whsec_';
const NAME_MAX = 100;
const SLUG_BASE_MAX = 40;

/** `Deploy Hooks (prod)` → `deploy-hooks-prod`; never empty. */
export function slugBase(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_BASE_MAX)
    .replace(/-+$/g, '');
  return base || 'webhook';
}

function slugSuffix(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  return Array.from(crypto.randomBytes(6), (b) => alphabet[b % alphabet.length]).join('');
}

export type InboundWebhookKind = InboundWebhook['kind'];

const PATH_BY_KIND: Record<InboundWebhookKind, string> = { events: '/api/v1/webhooks/', sot: '/api/v1/sot/webhooks/' };

/** The public URL of an inbound webhook: PUBLIC_BASE_URL if set, else the caller's origin, else a path. */
export function inboundWebhookUrl(
  rt: Runtime,
  hook: { slug: string; kind: InboundWebhookKind },
  requestOrigin?: string | null,
): string {
  const base = (rt.config.publicBaseUrl ?? requestOrigin ?? '').replace(/\/+$/, '');
  return `${base}${PATH_BY_KIND[hook.kind]}${hook.slug}`;
}

/** Creates an inbound webhook for the caller's tenant; the cleartext secret is returned here and by reveal. */
/** Replay protection settings of an inbound webhook (src/events/inbound-replay.ts). */
export interface InboundReplaySettings {
  requireStandardWebhooks?: boolean | null;
  rejectRepeatedSignature?: boolean | null;
}

function checkName(name: string | null | undefined): string {
  const n = name?.trim() ?? '';
  if (n.length === 0 || n.length > NAME_MAX)
    throw new ValidationFailed([{ loc: ['input', 'name'], msg: `must be 1 to ${NAME_MAX} characters` }]);
  return n;
}

/** The settings given (omitted ones stay as they are). */
function replaySettings(input: InboundReplaySettings): Partial<Record<keyof InboundReplaySettings, boolean>> {
  return {
    ...(input.requireStandardWebhooks != null ? { requireStandardWebhooks: input.requireStandardWebhooks } : {}),
    ...(input.rejectRepeatedSignature != null ? { rejectRepeatedSignature: input.rejectRepeatedSignature } : {}),
  };
}

export async function createInboundWebhook(
  ctx: Ctx,
  input: { name: string; kind?: InboundWebhookKind } & InboundReplaySettings,
): Promise<{ webhook: InboundWebhook; secret: string }> {
  requireUser(ctx);
  const name = checkName(input.name);
  const secret = randomSecret(INBOUND_SECRET_PREFIX, 32);
  for (let attempt = 0; ; attempt++) {
    try {
      const webhook = await ctx.db.inboundWebhook.create({
        data: {
          name,
          slug: `${slugBase(name)}-${slugSuffix()}`,
          kind: input.kind ?? 'events',
          secretCiphertext: ctx.rt.secretBox.seal(secret),
          ...replaySettings(input),
        } as never,
      });
      return { webhook, secret };
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 3) throw err; // slug suffix collision: draw again
    }
  }
}

async function load(ctx: Ctx, id: string): Promise<InboundWebhook> {
  requireUser(ctx);
  const hook = await ctx.db.inboundWebhook.findUnique({ where: { id } });
  if (!hook) throw new NotFound('Inbound webhook');
  return hook;
}

/** Renames a webhook or changes its replay protection; omitted fields stay. */
export async function updateInboundWebhook(
  ctx: Ctx,
  id: string,
  input: { name?: string | null } & InboundReplaySettings,
): Promise<InboundWebhook> {
  const hook = await load(ctx, id);
  return ctx.db.inboundWebhook.update({
    where: { id: hook.id },
    data: { ...(input.name != null ? { name: checkName(input.name) } : {}), ...replaySettings(input) },
  });
}

/** The current signing secret in cleartext (another tenant's webhook is a 404). */
export async function revealInboundWebhookSecret(ctx: Ctx, id: string): Promise<string> {
  const hook = await load(ctx, id);
  return ctx.rt.secretBox.open(hook.secretCiphertext);
}

/** A new current secret; the previous one keeps verifying for 24 hours. Returns the new cleartext. */
export async function rotateInboundWebhookSecret(
  ctx: Ctx,
  id: string,
): Promise<{ webhook: InboundWebhook; secret: string }> {
  const hook = await load(ctx, id);
  const secret = randomSecret(INBOUND_SECRET_PREFIX, 32);
  const now = ctx.rt.clock.now();
  // A conditional update: of parallel rotations one wins, and none while the previous secret still works.
  const { count } = await ctx.db.inboundWebhook.updateMany({
    where: { id: hook.id, ...rotationClaim(hook, now) },
    data: rotationUpdate(ctx.rt.secretBox, hook, secret, now.getTime()),
  });
  if (count === 0) throw rotationInGrace('webhook secret', hook.previousValidUntil);
  return { webhook: await load(ctx, id), secret };
}

/** Deletes the webhook; its URL answers 404 from then on. */
export async function deleteInboundWebhook(ctx: Ctx, id: string): Promise<InboundWebhook> {
  const hook = await load(ctx, id);
  await ctx.db.inboundWebhook.delete({ where: { id: hook.id } });
  return hook;
}

/**
 * A route authenticator for webhooks of `kind` (POST /webhooks/:slug, POST /sot/webhooks/:slug): 404 for
 * an unknown slug, 401 unless X-Service-Signature is the HMAC of the exact raw body under a verifying
 * secret (constant-time), then 429 past the per-webhook rate. The principal acts for the tenant,
 * credential kind `webhook`.
 */
export function webhookSignatureAuth(kind: InboundWebhookKind) {
  return async (rt: Runtime, req: Request & { rawBody?: Buffer }): Promise<Principal> => {
    const slug = String(req.params.slug ?? '');
    // Credential resolution by a globally unique slug: the root client, like ingest keys by hash.
    const hook = await rt.prisma.inboundWebhook.findUnique({ where: { slug } });
    if (!hook || hook.kind !== kind) throw new NotFound('Inbound webhook');
    const secrets = workingSecrets(rt.secretBox, hook, rt.clock.now().getTime());
    if (hook.requireStandardWebhooks) {
      await verifyStandardWebhookDelivery(rt, hook, req, secrets);
      await consumeInboundRate(rt, `hook:${hook.id}`);
      return webhookPrincipal(hook);
    }
    const header = req.headers['x-service-signature'];
    const signature = Array.isArray(header) ? header[0] : header;
    if (!signature)
      throw new Unauthenticated(
        'Missing X-Service-Signature header (hex HMAC-SHA256 of the raw body).',
        'SIGNATURE_INVALID',
      );
    if (!verifyHmacHex(secrets, req.rawBody ?? Buffer.alloc(0), signature))
      throw new Unauthenticated('Invalid X-Service-Signature.', 'SIGNATURE_INVALID');
    if (hook.rejectRepeatedSignature) await refuseRepeatedSignature(rt, hook, signature);
    await consumeInboundRate(rt, `hook:${hook.id}`);
    return webhookPrincipal(hook);
  };
}

/** The principal a verified delivery acts as: the webhook's tenant, credential kind `webhook`. */
function webhookPrincipal(hook: InboundWebhook): Principal {
  return {
    tenantId: hook.tenantId,
    userId: null,
    email: null,
    role: null,
    userKind: null,
    credential: { kind: 'webhook', id: hook.id },
  };
}
