/**
 * Outbound webhook secrets and request signatures.
 *
 * Every delivery carries two signature schemes over the exact body bytes sent:
 * - `X-Service-Signature`: hex HMAC-SHA256 of the body, keyed by the secret exactly as shown
 *   (`whsec_…`, as UTF-8 bytes) — verifiable with plain `crypto.createHmac`.
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`): `v1,<base64 HMAC-SHA256 of
 *   "{id}.{timestamp}.{body}">`, keyed by the base64-decoded part of the secret after `whsec_` — what the
 *   `standardwebhooks` libraries verify; receivers reject stale timestamps to stop replays.
 * For 24 hours after a rotation the previous secret signs too: a second space-separated `v1,` entry in
 * `webhook-signature`, and, as the rotating admin chose:
 * - `new_at_once` (default): the new secret signs `X-Service-Signature`, the previous one
 *   `X-Service-Signature-Previous`;
 * - `old_until_confirmed`: until the admin confirms the rotation (or the 24 hours end) the previous secret
 *   keeps signing `X-Service-Signature` and the new one signs `X-Service-Signature-Next`, so a receiver
 *   built to SPEC that still holds the old secret keeps verifying.
 */
import crypto from 'node:crypto';
import { hmacBase64, hmacHex } from '../signing.js';

const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the Standard Webhooks format). */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + crypto.randomBytes(32).toString('base64');
}

/** The Standard Webhooks signing key: the base64-decoded part of the secret after `whsec_`. */
function standardWebhooksKey(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret,
    'base64',
  );
}

export interface SignatureInput {
  /** The delivery id: stable across retries, so receivers deduplicate on `webhook-id`. */
  deliveryId: string;
  /** Seconds since the epoch of this attempt. */
  timestampSeconds: number;
  body: string;
  secret: string;
  /** The pre-rotation secret while it is still valid. */
  previousSecret?: string | null;
  /** `old_until_confirmed` not yet confirmed: the previous secret signs `X-Service-Signature`. */
  previousSignsPrimary?: boolean;
}

/** The signature headers of one attempt; contains signatures only, never a secret. */
export function signatureHeaders(input: SignatureInput): Record<string, string> {
  const secrets = [input.secret, ...(input.previousSecret ? [input.previousSecret] : [])];
  const signedContent = `${input.deliveryId}.${input.timestampSeconds}.${input.body}`;
  const oldPrimary = Boolean(input.previousSecret && input.previousSignsPrimary);
  const headers: Record<string, string> = {
    'x-service-signature': hmacHex(oldPrimary ? input.previousSecret! : input.secret, input.body),
    'webhook-id': input.deliveryId,
    'webhook-timestamp': String(input.timestampSeconds),
    'webhook-signature': secrets.map((s) => `v1,${hmacBase64(standardWebhooksKey(s), signedContent)}`).join(' '),
  };
  if (oldPrimary) headers['x-service-signature-next'] = hmacHex(input.secret, input.body);
  else if (input.previousSecret) headers['x-service-signature-previous'] = hmacHex(input.previousSecret, input.body);
  return headers;
}
