/**
 * Verifying the service's outbound webhook deliveries, in both forms every delivery carries:
 * - `X-Service-Signature`: hex HMAC-SHA256 of the raw body, keyed by the secret as shown (`whsec_…`). For 24 hours
 *   after a rotation the other secret's signature travels in `X-Service-Signature-Previous` (the old one, when the
 *   new one signs at once) or `X-Service-Signature-Next` (the new one, while the old one signs until confirmed).
 * - Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature` (`v1,<base64 HMAC-SHA256 of
 *   "{id}.{timestamp}.{body}">` keyed by the base64 part of the secret after `whsec_`, space-separated entries).
 *   The timestamp must be within the tolerance (default 5 minutes), which stops a captured delivery being replayed.
 * Pass the raw body exactly as received (bytes or string), never re-serialised JSON. Comparisons take constant time.
 */
import crypto from 'node:crypto';

export type WebhookHeaders = Record<string, string | string[] | undefined> | Headers;

export interface VerifyOptions {
  /** The raw request body. */
  body: string | Uint8Array;
  headers: WebhookHeaders;
  /** The webhook's secrets you hold: the current one, and during a rotation the other as well. */
  secrets: string[];
  /** Standard Webhooks timestamp tolerance in seconds (default 300). */
  toleranceSeconds?: number;
  /** "Now" in milliseconds (default Date.now()). */
  now?: number;
}

export type VerifiedWith = 'standard-webhooks' | 'x-service-signature';

export class WebhookVerificationError extends Error {}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const h = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(h).find((k) => k.toLowerCase() === name);
  const v = key ? h[key] : undefined;
  return Array.isArray(v) ? v[0] : v;
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
}

/** Checks the Standard Webhooks headers; throws when any is missing, stale or wrong. */
export function verifyStandardWebhook(opts: VerifyOptions): void {
  const id = header(opts.headers, 'webhook-id');
  const timestamp = header(opts.headers, 'webhook-timestamp');
  const signatures = header(opts.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id/-timestamp/-signature');
  const seconds = Number(timestamp);
  const now = (opts.now ?? Date.now()) / 1000;
  if (!Number.isInteger(seconds) || Math.abs(now - seconds) > (opts.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');
  const content = `${id}.${timestamp}.${Buffer.from(opts.body).toString('utf8')}`;
  const expected = opts.secrets.map(
    (s) => `v1,${crypto.createHmac('sha256', standardKey(s)).update(content).digest('base64')}`,
  );
  const given = signatures.split(' ').filter(Boolean);
  if (!given.some((g) => expected.some((e) => equal(g, e))))
    throw new WebhookVerificationError('no webhook-signature matches');
}

/** Checks `X-Service-Signature` (or, during a rotation, `-Previous` / `-Next`); throws when none matches. */
export function verifyServiceSignature(opts: VerifyOptions): void {
  const given = ['x-service-signature', 'x-service-signature-previous', 'x-service-signature-next']
    .map((name) => header(opts.headers, name))
    .filter((g): g is string => !!g)
    .map((g) => g.trim().toLowerCase());
  if (!given.length) throw new WebhookVerificationError('missing X-Service-Signature');
  const body = Buffer.from(opts.body);
  const expected = opts.secrets.map((s) => crypto.createHmac('sha256', s).update(body).digest('hex'));
  if (!given.some((g) => expected.some((e) => equal(g, e))))
    throw new WebhookVerificationError('no X-Service-Signature matches');
}

/**
 * Verifies a delivery: by Standard Webhooks when its headers are present (with the replay window), else by
 * `X-Service-Signature`. Returns which form verified it; throws WebhookVerificationError otherwise.
 */
export function verifyWebhook(opts: VerifyOptions): VerifiedWith {
  if (header(opts.headers, 'webhook-signature')) {
    verifyStandardWebhook(opts);
    return 'standard-webhooks';
  }
  verifyServiceSignature(opts);
  return 'x-service-signature';
}
