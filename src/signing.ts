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
