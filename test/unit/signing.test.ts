import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, signatureHeaders } from '../../src/webhooks/signatures.js';

describe('outbound webhook signatures', () => {
  const body = JSON.stringify({ id: 'd1', kind: 'alert.opened', payload: { n: 1 } });
  const now = Math.floor(Date.now() / 1000);

  it('generates Standard Webhooks secrets (whsec_ + base64 of 32 bytes)', () => {
    const s = generateWebhookSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(s);
  });

  it('X-Service-Signature is the hex HMAC-SHA256 of the exact body under the secret', () => {
    const secret = generateWebhookSecret();
    const h = signatureHeaders({ deliveryId: 'd1', timestampSeconds: now, body, secret });
    expect(h['x-service-signature']).toBe(crypto.createHmac('sha256', secret).update(body).digest('hex'));
    expect(h['x-service-signature-previous']).toBeUndefined();
  });

  it('the standardwebhooks library verifies webhook-signature', () => {
    const secret = generateWebhookSecret();
    const h = signatureHeaders({ deliveryId: 'd1', timestampSeconds: now, body, secret });
    expect(new Webhook(secret).verify(body, h)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, h)).toThrow();
    expect(() => new Webhook(secret).verify(body + ' ', h)).toThrow();
  });

  it('during rotation both secrets verify, in both schemes', () => {
    const [secret, previousSecret] = [generateWebhookSecret(), generateWebhookSecret()];
    const h = signatureHeaders({ deliveryId: 'd1', timestampSeconds: now, body, secret, previousSecret });
    expect(h['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(body, h)).toBeTruthy();
    expect(new Webhook(previousSecret).verify(body, h)).toBeTruthy();
    expect(h['x-service-signature-previous']).toBe(
      crypto.createHmac('sha256', previousSecret).update(body).digest('hex'),
    );
  });

  it('a stale timestamp is rejected by receivers (replay protection)', () => {
    const secret = generateWebhookSecret();
    const h = signatureHeaders({ deliveryId: 'd1', timestampSeconds: now - 3600, body, secret });
    expect(() => new Webhook(secret).verify(body, h)).toThrow(/too old/);
  });
});
