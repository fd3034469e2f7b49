/**
 * Outbound webhooks: create, update, delete, reveal and rotate the signing secret, and redeliver.
 * Secrets are sealed with the runtime's SecretBox (never stored or logged in clear) and shown only by
 * create, reveal and rotate. Receiver URLs pass the SSRF guard on every save.
 */
import { previousValidUntil, rotationUpdate } from '../auth/secret-rotation.js';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { Conflict, NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import type { Delivery, OutboundWebhook } from '../generated/prisma/client.js';
import { assertDeliverableUrl } from './url-guard.js';
import { generateWebhookSecret } from './signing.js';
import { validateTriggers, type WebhookTrigger } from './triggers.js';
import { urlPolicyOf } from './deliver.js';
import { enqueueDeliveryAttempt } from '../outbox/jobs.js';
import { announceDelivery } from './announce.js';

/** How long the previous secret keeps signing (and verifying) after a rotation. */

export interface OutboundWebhookInput {
  name: string;
  url: string;
  triggers: WebhookTrigger[];
  enabled?: boolean | null;
}

export type OutboundWebhookPatch = Partial<{ name: string | null; url: string | null; triggers: WebhookTrigger[] | null; enabled: boolean | null }>;

export interface RevealedSecret {
  webhookId: string;
  secret: string;
  /** While set and in the future, deliveries are also signed with the previous secret. */
  previousSecretValidUntil: Date | null;
}

function checkName(name: string | null | undefined, problems: FieldProblem[]): string | undefined {
  if (name == null) return undefined;
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 100) problems.push({ loc: ['input', 'name'], msg: 'must be 1 to 100 characters' });
  return trimmed;
}

/** Loads a webhook of the caller's tenant; another tenant's is NotFound. */
export async function loadOutboundWebhook(ctx: Ctx, id: string): Promise<OutboundWebhook> {
  const hook = await ctx.db.outboundWebhook.findUnique({ where: { id } });
  if (!hook) throw new NotFound('Webhook');
  return hook;
}

/** Creates a webhook with a fresh signing secret, returned this once (and later only through reveal). */
export async function createOutboundWebhook(ctx: Ctx, input: OutboundWebhookInput): Promise<{ webhook: OutboundWebhook; secret: string }> {
  requireUser(ctx);
  const problems: FieldProblem[] = [];
  const name = checkName(input.name, problems) ?? '';
  let triggers: WebhookTrigger[] = [];
  try {
    triggers = validateTriggers(input.triggers);
  } catch (err) {
    if (err instanceof ValidationFailed) problems.push(...(err.extra.fields ?? []));
    else throw err;
  }
  if (problems.length) throw new ValidationFailed(problems);
  await assertDeliverableUrl(input.url, urlPolicyOf(ctx.rt), ['input', 'url']);
  const secret = generateWebhookSecret();
  const webhook = await ctx.db.outboundWebhook.create({
    data: { name, url: input.url, enabled: input.enabled ?? true, triggers: triggers as never, secretCiphertext: ctx.rt.secretBox.seal(secret) } as never,
  });
  return { webhook, secret };
}

/** Changes name, URL (re-checked by the SSRF guard), triggers or enabled; omitted fields stay. */
export async function updateOutboundWebhook(ctx: Ctx, id: string, patch: OutboundWebhookPatch): Promise<OutboundWebhook> {
  const hook = await loadOutboundWebhook(ctx, id);
  const problems: FieldProblem[] = [];
  const name = checkName(patch.name, problems);
  let triggers: WebhookTrigger[] | undefined;
  if (patch.triggers != null) {
    try {
      triggers = validateTriggers(patch.triggers);
    } catch (err) {
      if (err instanceof ValidationFailed) problems.push(...(err.extra.fields ?? []));
      else throw err;
    }
  }
  if (problems.length) throw new ValidationFailed(problems);
  if (patch.url != null && patch.url !== hook.url) await assertDeliverableUrl(patch.url, urlPolicyOf(ctx.rt), ['input', 'url']);
  return ctx.db.outboundWebhook.update({
    where: { id: hook.id },
    data: {
      ...(name !== undefined ? { name } : {}),
      ...(patch.url != null ? { url: patch.url } : {}),
      ...(triggers ? { triggers: triggers as never } : {}),
      ...(patch.enabled != null ? { enabled: patch.enabled } : {}),
    },
  });
}

/** Deletes the webhook and its delivery history; queued attempts find nothing and stop. */
export async function deleteOutboundWebhook(ctx: Ctx, id: string): Promise<OutboundWebhook> {
  const hook = await loadOutboundWebhook(ctx, id);
  await ctx.db.outboundWebhook.delete({ where: { id: hook.id } });
  return hook;
}

function revealed(ctx: Ctx, hook: OutboundWebhook, secret: string): RevealedSecret {
  return { webhookId: hook.id, secret, previousSecretValidUntil: previousValidUntil(hook) };
}

/** The current signing secret in clear (admins; audited like every mutation). */
export async function revealWebhookSecret(ctx: Ctx, id: string): Promise<RevealedSecret> {
  const hook = await loadOutboundWebhook(ctx, id);
  return revealed(ctx, hook, ctx.rt.secretBox.open(hook.secretCiphertext));
}

/**
 * Replaces the signing secret. For 24 hours deliveries carry signatures under both the new and the
 * previous secret, so receivers can switch over without dropping a delivery.
 */
export async function rotateWebhookSecret(ctx: Ctx, id: string): Promise<RevealedSecret> {
  const hook = await loadOutboundWebhook(ctx, id);
  const secret = generateWebhookSecret();
  const updated = await ctx.db.outboundWebhook.update({ where: { id: hook.id }, data: rotationUpdate(ctx.rt.secretBox, hook, secret) });
  return revealed(ctx, updated, secret);
}

/**
 * Sends a settled (delivered or failed) delivery again: same body and `webhook-id`, a fresh one-hour
 * retry window. A delivery still in progress is a Conflict; so is one whose webhook is disabled.
 */
export async function redeliverDelivery(ctx: Ctx, deliveryId: string): Promise<Delivery> {
  const d = await ctx.db.delivery.findUnique({ where: { id: deliveryId }, include: { webhook: { select: { enabled: true } } } });
  if (!d) throw new NotFound('Delivery');
  if (d.status === 'pending' || d.status === 'retrying') throw new Conflict('The delivery is still in progress; wait until it is delivered or failed.');
  if (!d.webhook.enabled) throw new Conflict('The webhook is disabled; enable it before redelivering.');
  const now = new Date();
  const { count } = await ctx.db.delivery.updateMany({
    where: { id: d.id, status: d.status, attemptCount: d.attemptCount },
    data: { status: 'pending', windowStartedAt: now, nextAttemptAt: now, deliveredAt: null, failedAt: null, lastError: null },
  });
  if (count === 0) throw new Conflict('The delivery changed meanwhile; try again.');
  await enqueueDeliveryAttempt(ctx.rt, d.id, d.attemptCount + 1);
  await announceDelivery(ctx.rt, { id: d.id, tenantId: d.tenantId, webhookId: d.webhookId, topic: d.topic, status: 'pending', attemptCount: d.attemptCount, lastError: null, nextAttemptAt: now, responseStatus: null });
  return ctx.db.delivery.findUniqueOrThrow({ where: { id: d.id } });
}
