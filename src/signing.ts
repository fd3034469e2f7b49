/**
 * The one place that computes and checks HMAC-SHA256 signatures (inbound and outbound webhooks).
 */
import crypto from 'node:crypto';
import { constantTimeEqual } from './secrets.js';

/** Hex HMAC-SHA256 of the exact bytes, keyed by the secret. */
export function hmacHex(secret: string, body: Buffer | string): string {
  return crypto.createHmac('sha256', secret).update(body).digest('hex');
}

/** Base64 HMAC-SHA256 of the exact bytes under a binary key (Standard Webhooks `v1` signatures). */
export function hmacBase64(key: Buffer, data: Buffer | string): string {
  return crypto.createHmac('sha256', key).update(data).digest('base64');
}

/** True when `signatureHex` is the HMAC of `body` under any of `secrets` (constant-time per secret). */
export function verifyHmacHex(secrets: string[], body: Buffer | string, signatureHex: string | undefined): boolean {
  if (!signatureHex) return false;
  const given = signatureHex
    .trim()
    .toLowerCase()
    .replace(/^sha256=/, '');
  let ok = false;
  for (const secret of secrets) ok = constantTimeEqual(hmacHex(secret, body), given) || ok;
  return ok;
}

/**
 * The Standard Webhooks signing key of a `whsec_…` secret: the part after the prefix decoded as base64 (the
 * base64url alphabet of inbound secrets decodes the same way).
 */
export function standardWebhooksKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/**
 * True when a Standard Webhooks `webhook-signature` header (space-separated `v1,<base64>` entries) holds the
 * HMAC-SHA256 of `{id}.{timestamp}.{body}` under any of `secrets` (constant-time per comparison).
 */
export function verifyStandardWebhookSignature(
  secrets: string[],
  signed: { id: string; timestamp: string; body: Buffer | string },
  header: string | undefined,
): boolean {
  if (!header) return false;
  const given = header
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => s.slice(3))
    .slice(0, 10);
  const content = Buffer.concat([Buffer.from(`${signed.id}.${signed.timestamp}.`), Buffer.from(signed.body)]);
  let ok = false;
  for (const secret of secrets) {
    const expected = hmacBase64(standardWebhooksKey(secret), content);
    for (const sig of given) ok = constantTimeEqual(expected, sig) || ok;
  }
  return ok;
}
