/**
 * Outbound webhooks: create, update, delete, reveal and rotate the signing secret (redelivering is
 * src/deliveries/redeliver.ts).
 * Secrets are sealed with the runtime's SecretBox (never stored or logged in clear) and shown only by
 * create, reveal and rotate. Receiver URLs pass the SSRF guard on every save.
 */
import { previousValidUntil, rotationClaim, rotationInGrace, rotationUpdate } from '../auth/secret-rotation.js';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { Conflict, NotFound, ValidationFailed, invalid, type FieldProblem } from '../errors.js';
import { constantTimeEqual, type SecretBox } from '../secrets.js';
import type { OutboundWebhook } from '../generated/prisma/client.js';
import { assertDeliverableUrl, urlPolicyOf } from '../net/url-guard.js';
import { generateWebhookSecret } from './signatures.js';
import { validateTriggers, type WebhookTrigger } from './triggers.js';
import { disableSchedulesOfWebhook } from '../reports/schedules.js';

export interface OutboundWebhookInput {
  name: string;
  url: string;
  triggers: WebhookTrigger[];
  enabled?: boolean | null;
}

export type OutboundWebhookPatch = Partial<{
  name: string | null;
  url: string | null;
  triggers: WebhookTrigger[] | null;
  enabled: boolean | null;
  /** The current signing secret, given again to keep it when the URL moves to another origin. */
  secret: string | null;
}>;

/** The origin (`scheme://host:port`) of a URL, or the text itself when it is none. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Whether a URL change keeps the signing secret: the same origin (host, scheme and port) does; another
 * one only when the request gives the current secret again (`********` is no secret). A wrong secret is
 * a 422; none means a new secret is made and the previous one stops signing at once.
 */
function keepsSecret(box: SecretBox, hook: OutboundWebhook, patch: OutboundWebhookPatch): boolean {
  if (patch.url == null || originOf(patch.url) === originOf(hook.url)) return true;
  if (patch.secret == null || /^\**$/.test(patch.secret)) return false; // none, or a mask such as `********`
  if (!constantTimeEqual(patch.secret, box.open(hook.secretCiphertext)))
    throw invalid(
      ['input', 'secret'],
      "is not this webhook's current secret: give it exactly, or leave it out to have a new secret made for the new host",
    );
  return true;
}

export interface RevealedSecret {
  webhookId: string;
  secret: string;
  /** While set and in the future, deliveries are also signed with the previous secret. */
  previousSecretValidUntil: Date | null;
  /** True while the previous secret still signs `X-Service-Signature` (an unconfirmed `old_until_confirmed`). */
  awaitingConfirmation: boolean;
}

/** Which secret signs `X-Service-Signature` during a rotation's 24-hour overlap (the rotating admin's choice). */
export type RotationSigning = 'new_at_once' | 'old_until_confirmed';

function checkName(name: string | null | undefined, problems: FieldProblem[]): string | undefined {
  if (name == null) return undefined;
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 100)
    problems.push({ loc: ['input', 'name'], msg: 'must be 1 to 100 characters' });
  return trimmed;
}

/** Loads a webhook of the caller's tenant; another tenant's is NotFound. */
export async function loadOutboundWebhook(ctx: Ctx, id: string): Promise<OutboundWebhook> {
  const hook = await ctx.db.outboundWebhook.findUnique({ where: { id } });
  if (!hook) throw new NotFound('Webhook');
  return hook;
}

/** Creates a webhook with a fresh signing secret, returned this once (and later only through reveal). */
export async function createOutboundWebhook(
  ctx: Ctx,
  input: OutboundWebhookInput,
): Promise<{ webhook: OutboundWebhook; secret: string }> {
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
    // createdAt on the service clock: fan-out compares it with the outbox message's time.
    data: {
      name,
      url: input.url,
      enabled: input.enabled ?? true,
      triggers: triggers as never,
      secretCiphertext: ctx.rt.secretBox.seal(secret),
      createdAt: ctx.rt.clock.now(),
    } as never,
  });
  return { webhook, secret };
}

/**
 * Changes name, URL (re-checked by the SSRF guard), triggers or enabled; omitted fields stay. A URL on
 * another origin gets a new signing secret (no grace for the old one) unless the patch gives the current
 * one again; `secretCleared` says so.
 */
export async function updateOutboundWebhook(
  ctx: Ctx,
  id: string,
  patch: OutboundWebhookPatch,
): Promise<OutboundWebhook & { secretCleared: boolean }> {
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
  if (patch.url != null && patch.url !== hook.url)
    await assertDeliverableUrl(patch.url, urlPolicyOf(ctx.rt), ['input', 'url']);
  const secretCleared = !keepsSecret(ctx.rt.secretBox, hook, patch);
  const updated = await ctx.db.outboundWebhook.update({
    where: { id: hook.id },
    data: {
      ...(name !== undefined ? { name } : {}),
      ...(patch.url != null ? { url: patch.url } : {}),
      ...(triggers ? { triggers: triggers as never } : {}),
      ...(patch.enabled != null ? { enabled: patch.enabled } : {}),
      ...(secretCleared
        ? {
            secretCiphertext: ctx.rt.secretBox.seal(generateWebhookSecret()),
            previousCiphertext: null,
            previousValidUntil: null,
            previousSignsPrimary: false,
          }
        : {}),
    },
  });
  return { ...updated, secretCleared };
}

/** Deletes the webhook and its delivery history; queued attempts find nothing and stop. */
export async function deleteOutboundWebhook(ctx: Ctx, id: string): Promise<OutboundWebhook> {
  const hook = await loadOutboundWebhook(ctx, id);
  await ctx.db.outboundWebhook.delete({ where: { id: hook.id } });
  // Report schedules delivering here stop at once, with the reason (a run would disable them anyway).
  await disableSchedulesOfWebhook(ctx.rt, hook.tenantId, hook.id);
  return hook;
}

function revealed(ctx: Ctx, hook: OutboundWebhook, secret: string): RevealedSecret {
  const until = previousValidUntil(hook, ctx.rt.clock.now().getTime());
  return {
    webhookId: hook.id,
    secret,
    previousSecretValidUntil: until,
    awaitingConfirmation: until !== null && hook.previousSignsPrimary,
  };
}

/** The current signing secret in clear (admins; audited like every mutation). */
export async function revealWebhookSecret(ctx: Ctx, id: string): Promise<RevealedSecret> {
  const hook = await loadOutboundWebhook(ctx, id);
  return revealed(ctx, hook, ctx.rt.secretBox.open(hook.secretCiphertext));
}

/**
 * Replaces the signing secret. For 24 hours deliveries carry signatures under both the new and the
 * previous secret, so receivers can switch over without dropping a delivery. `signing` says which one
 * signs `X-Service-Signature` meanwhile: the new one at once, or the old one until the rotation is confirmed.
 */
export async function rotateWebhookSecret(
  ctx: Ctx,
  id: string,
  signing: RotationSigning = 'new_at_once',
): Promise<RevealedSecret> {
  const hook = await loadOutboundWebhook(ctx, id);
  const secret = generateWebhookSecret();
  const now = ctx.rt.clock.now();
  // A conditional update: of parallel rotations one wins, and none while the previous secret still works.
  const { count } = await ctx.db.outboundWebhook.updateMany({
    where: { id: hook.id, ...rotationClaim(hook, now) },
    data: {
      ...rotationUpdate(ctx.rt.secretBox, hook, secret, now.getTime()),
      previousSignsPrimary: signing === 'old_until_confirmed',
    },
  });
  if (count === 0) throw rotationInGrace('webhook secret', previousValidUntil(hook, now.getTime()));
  return revealed(ctx, await loadOutboundWebhook(ctx, id), secret);
}

/**
 * Confirms an `old_until_confirmed` rotation: from now on the new secret signs `X-Service-Signature` (the
 * previous one moves to `X-Service-Signature-Previous` for the rest of its 24 hours). Confirming again is a
 * no-op; 409 when no such rotation is in its overlap.
 */
export async function confirmWebhookSecretRotation(ctx: Ctx, id: string): Promise<RevealedSecret> {
  const hook = await loadOutboundWebhook(ctx, id);
  if (previousValidUntil(hook, ctx.rt.clock.now().getTime()) === null)
    throw new Conflict(
      'No secret rotation of this webhook is in its 24-hour overlap: there is nothing to confirm (rotate with signing old_until_confirmed first).',
    );
  const updated = hook.previousSignsPrimary
    ? await ctx.db.outboundWebhook.update({ where: { id: hook.id }, data: { previousSignsPrimary: false } })
    : hook;
  return revealed(ctx, updated, ctx.rt.secretBox.open(updated.secretCiphertext));
}
