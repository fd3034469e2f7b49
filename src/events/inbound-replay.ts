/**
 * Replay protection of signed inbound webhooks, per webhook (SPEC's body-only `X-Service-Signature` stays
 * the default, unchanged):
 *
 * - `requireStandardWebhooks`: only the Standard Webhooks form is accepted: `webhook-id`, `webhook-timestamp`
 *   (Unix seconds, within `REPLAY_TOLERANCE_SECONDS` of the service clock either way) and `webhook-signature`
 *   (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`). Each `webhook-id` is accepted once in
 *   `REPLAY_ID_TTL_SECONDS`: a second delivery with it is a 409 WEBHOOK_REPLAYED.
 * - `rejectRepeatedSignature`: for senders that cannot timestamp, the same `X-Service-Signature` (so the same
 *   body) twice within `REPLAY_TOLERANCE_SECONDS` is a 409 WEBHOOK_REPLAYED.
 *
 * Ids and signatures are remembered in Redis (`SET NX` with an expiry), so the rule holds across API nodes.
 * Only a delivery whose signature verified is remembered: unsigned junk cannot burn an id.
 */
import type { Request } from 'express';
import type { Runtime } from '../runtime.js';
import type { InboundWebhook } from '../generated/prisma/client.js';
import { Conflict, Unauthenticated } from '../errors.js';
import { tokenHash } from '../secrets.js';
import { verifyStandardWebhookSignature } from '../signing.js';

export const REPLAY_TOLERANCE_SECONDS = 5 * 60;
export const REPLAY_ID_TTL_SECONDS = 24 * 3600;

function header(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Remembers `key` for `ttlSeconds`; false when it was already remembered (a replay). */
async function firstTime(rt: Runtime, key: string, ttlSeconds: number): Promise<boolean> {
  const set = await rt.redis.set(`${rt.config.redisPrefix}:inbound-replay:${key}`, '1', 'EX', ttlSeconds, 'NX');
  return set === 'OK';
}

/**
 * Verifies a Standard Webhooks delivery under `secrets`: 401 SIGNATURE_INVALID naming what is missing,
 * stale or wrong; 409 WEBHOOK_REPLAYED for a `webhook-id` already accepted within 24 hours.
 */
export async function verifyStandardWebhookDelivery(
  rt: Runtime,
  hook: Pick<InboundWebhook, 'id'>,
  req: Request & { rawBody?: Buffer },
  secrets: string[],
): Promise<void> {
  const id = header(req, 'webhook-id');
  const timestamp = header(req, 'webhook-timestamp');
  const signature = header(req, 'webhook-signature');
  if (!id || !timestamp || !signature)
    throw new Unauthenticated(
      'This webhook requires the Standard Webhooks form: send webhook-id, webhook-timestamp (Unix seconds) and webhook-signature (v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">).',
      'SIGNATURE_INVALID',
    );
  if (id.length > 256) throw new Unauthenticated('webhook-id must be at most 256 characters.', 'SIGNATURE_INVALID');
  const seconds = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
  const skew = Math.abs(rt.clock.now().getTime() / 1000 - seconds);
  if (!(skew <= REPLAY_TOLERANCE_SECONDS))
    throw new Unauthenticated(
      `webhook-timestamp must be Unix seconds within ${REPLAY_TOLERANCE_SECONDS / 60} minutes of the service's time; sign each delivery when it is sent.`,
      'SIGNATURE_INVALID',
    );
  if (!verifyStandardWebhookSignature(secrets, { id, timestamp, body: req.rawBody ?? Buffer.alloc(0) }, signature))
    throw new Unauthenticated('Invalid webhook-signature.', 'SIGNATURE_INVALID');
  if (!(await firstTime(rt, `id:${hook.id}:${tokenHash(id)}`, REPLAY_ID_TTL_SECONDS)))
    throw new Conflict(
      `webhook-id ${JSON.stringify(id)} was already received in the last 24 hours; a new delivery needs a new id.`,
      'WEBHOOK_REPLAYED',
    );
}

/** 409 WEBHOOK_REPLAYED when the same verified X-Service-Signature came within the last 5 minutes. */
export async function refuseRepeatedSignature(rt: Runtime, hook: Pick<InboundWebhook, 'id'>, signature: string) {
  const normal = signature
    .trim()
    .toLowerCase()
    .replace(/^sha256=/, '');
  if (!(await firstTime(rt, `sig:${hook.id}:${normal}`, REPLAY_TOLERANCE_SECONDS)))
    throw new Conflict(
      'The same X-Service-Signature (the same body) was received in the last 5 minutes and this webhook rejects repeats; make each delivery differ (e.g. a timestamp or id in the body).',
      'WEBHOOK_REPLAYED',
    );
}
