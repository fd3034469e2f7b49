/**
 * Which secret signs SPEC's `X-Service-Signature` during a rotation's 24-hour overlap, against real
 * receivers on 127.0.0.1 built to SPEC: each verifies only `X-Service-Signature` (hex HMAC-SHA256 of the
 * body) with the one secret it holds and answers 401 otherwise, so a delivery it rejects ends FAILED
 * (401 is a 4xx that stops retries). The service runs on an injected clock for the end of the overlap.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestServer } from './helpers/server.js';
import { testClock } from './helpers/clock.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { startReceiver, type ReceivedRequest, type Receiver } from './helpers/webhook-receiver.js';
import { dispatchOutbox, writeOutbox } from '../src/outbox/outbox.js';
import { DELIVERY_ENV } from './helpers/webhooks-outbound-suite.js';
import { verifyServiceSignature } from '../sdk/src/webhooks.js';

const clock = testClock();
let s: TestServer;
let t: BuiltTenant;
const receivers: Receiver[] = [];

beforeAll(async () => {
  s = await startTestServer({ env: DELIVERY_ENV, start: { clock } });
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await s?.stop();
});

const hex = (secret: string, body: string) => crypto.createHmac('sha256', secret).update(body).digest('hex');

/** A receiver built to SPEC holding `holder.secret`: 204 when `X-Service-Signature` verifies, else 401. */
async function specReceiver(holder: { secret: string }): Promise<Receiver> {
  const r = await startReceiver((req: ReceivedRequest) => {
    const sent = Buffer.from(String(req.headers['x-service-signature'] ?? ''));
    const want = Buffer.from(hex(holder.secret, req.body));
    return { status: sent.length === want.length && crypto.timingSafeEqual(sent, want) ? 204 : 401 };
  });
  receivers.push(r);
  return r;
}

async function createWebhook(url: string): Promise<{ id: string; secret: string }> {
  const r = await gql(
    s.url,
    t.adminToken,
    'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id secret } }',
    { input: { name: 'spec receiver', url, triggers: [{ on: 'ALERT_OPENED' }] } },
  );
  expect(r.errors).toBeUndefined();
  return r.data.createOutboundWebhook;
}

/** Announces an alert, waits until the webhook's delivery of it ended, and answers it with its request. */
async function deliverOne(hookId: string, rcv: Receiver) {
  const before = rcv.requests.length;
  const id = await writeOutbox(s.app.rt.prisma, {
    createdAt: clock.now(),
    tenantId: t.tenantId,
    topic: 'alert.opened',
    subjectId: crypto.randomUUID(),
    body: { source: 'rules', kind: 'alert.opened', severity: 'critical', labels: {}, payload: {} } as never,
  });
  await dispatchOutbox(s.app.rt, [id]);
  const delivery = await eventually(async () => {
    const d = await s.app.rt.prisma.delivery.findFirst({ where: { outboxId: id, webhookId: hookId } });
    return d && (d.status === 'delivered' || d.status === 'failed') ? d : null;
  }, 30_000);
  expect(rcv.requests.length).toBe(before + 1);
  return { status: delivery.status, req: rcv.requests[before]! };
}

describe('X-Service-Signature during a secret rotation', () => {
  it('old_until_confirmed: the old secret signs X-Service-Signature until confirmed, then the new one (REST)', async () => {
    const holder = { secret: '' };
    const rcv = await specReceiver(holder);
    const hook = await createWebhook(rcv.url);
    holder.secret = hook.secret;
    const api = rest(s.url, t.adminToken);
    const rot = await api.post(`/outbound-webhooks/${hook.id}/rotate-secret`, { signing: 'old_until_confirmed' });
    expect(rot.status).toBe(200);
    expect(rot.body.awaiting_confirmation).toBe(true);
    const newSecret: string = rot.body.secret;
    expect(newSecret).not.toBe(hook.secret);

    // Every delivery before the confirmation verifies at the SPEC receiver still holding the old secret.
    for (let i = 0; i < 3; i++) {
      const { status, req } = await deliverOne(hook.id, rcv);
      expect(status).toBe('delivered');
      expect(req.headers['x-service-signature']).toBe(hex(hook.secret, req.body));
      expect(req.headers['x-service-signature-next']).toBe(hex(newSecret, req.body));
      expect(req.headers['x-service-signature-previous']).toBeUndefined();
      // Standard Webhooks keeps its two `v1,` entries: either secret verifies.
      expect(String(req.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [hook.secret, newSecret]) {
        expect(new Webhook(secret).verify(req.body, req.headers as Record<string, string>)).toBeTruthy();
        // The SDK's hex check accepts either secret too (the new one through X-Service-Signature-Next).
        expect(() =>
          verifyServiceSignature({ body: req.body, headers: req.headers as never, secrets: [secret] }),
        ).not.toThrow();
      }
    }

    // The receiver is given the new secret, then the admin confirms.
    holder.secret = newSecret;
    const conf = await api.post(`/outbound-webhooks/${hook.id}/rotate-secret/confirm`);
    expect(conf.status).toBe(200);
    expect(conf.body).toMatchObject({ webhook_id: hook.id, secret: newSecret, awaiting_confirmation: false });
    for (let i = 0; i < 2; i++) {
      const { status, req } = await deliverOne(hook.id, rcv);
      expect(status).toBe('delivered');
      expect(req.headers['x-service-signature']).toBe(hex(newSecret, req.body));
      expect(req.headers['x-service-signature-previous']).toBe(hex(hook.secret, req.body));
      expect(req.headers['x-service-signature-next']).toBeUndefined();
    }
    // Confirming again changes nothing.
    const again = await api.post(`/outbound-webhooks/${hook.id}/rotate-secret/confirm`);
    expect(again.status).toBe(200);
    expect(again.body.awaiting_confirmation).toBe(false);
  });

  it('new_at_once (the default): the new secret signs X-Service-Signature at once, the old one X-Service-Signature-Previous', async () => {
    const holder = { secret: '' };
    const rcv = await specReceiver(holder);
    const hook = await createWebhook(rcv.url);
    const rot = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret awaitingConfirmation } }',
      { id: hook.id },
    );
    expect(rot.errors).toBeUndefined();
    expect(rot.data.rotateWebhookSecret.awaitingConfirmation).toBe(false);
    const newSecret: string = rot.data.rotateWebhookSecret.secret;
    // A SPEC receiver still holding the old secret rejects: the new one signs X-Service-Signature.
    holder.secret = hook.secret;
    const rejected = await deliverOne(hook.id, rcv);
    expect(rejected.status).toBe('failed');
    expect(rejected.req.headers['x-service-signature']).toBe(hex(newSecret, rejected.req.body));
    expect(rejected.req.headers['x-service-signature-previous']).toBe(hex(hook.secret, rejected.req.body));
    expect(rejected.req.headers['x-service-signature-next']).toBeUndefined();
    // One given the new secret with the rotation verifies.
    holder.secret = newSecret;
    expect((await deliverOne(hook.id, rcv)).status).toBe('delivered');
    // Nothing to confirm: the new secret already signs X-Service-Signature.
    const conf = await rest(s.url, t.adminToken).post(`/outbound-webhooks/${hook.id}/rotate-secret/confirm`);
    expect(conf.status).toBe(200);
    expect(conf.body.awaiting_confirmation).toBe(false);
  });

  it("a bad signing value is 422 naming the field; confirm with no rotation in its overlap is 409; another tenant's webhook is 404", async () => {
    const hook = await createWebhook((await specReceiver({ secret: 'x' })).url);
    const api = rest(s.url, t.adminToken);
    const bad = await api.post(`/outbound-webhooks/${hook.id}/rotate-secret`, { signing: 'sometime' });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('signing');
    const none = await api.post(`/outbound-webhooks/${hook.id}/rotate-secret/confirm`);
    expect(none.status).toBe(409);
    expect(none.body.detail).toMatch(/nothing to confirm/);
    const other = await buildTenant(s.app.rt);
    const foreign = await rest(s.url, other.adminToken).post(`/outbound-webhooks/${hook.id}/rotate-secret/confirm`);
    expect(foreign.status).toBe(404);
  });

  // Last in the file: it moves the service's clock 24 hours on.
  it('old_until_confirmed without a confirmation: the new secret signs X-Service-Signature once the 24 hours end', async () => {
    const holder = { secret: '' };
    const rcv = await specReceiver(holder);
    const hook = await createWebhook(rcv.url);
    holder.secret = hook.secret;
    const rot = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!) { rotateWebhookSecret(id: $id, signing: OLD_UNTIL_CONFIRMED) { secret awaitingConfirmation } }',
      { id: hook.id },
    );
    expect(rot.data.rotateWebhookSecret.awaitingConfirmation).toBe(true);
    const newSecret: string = rot.data.rotateWebhookSecret.secret;
    clock.advance(23 * 3600_000);
    // An hour before the end the old secret still signs X-Service-Signature.
    const late = await deliverOne(hook.id, rcv);
    expect(late.status).toBe('delivered');
    expect(late.req.headers['x-service-signature']).toBe(hex(hook.secret, late.req.body));
    clock.advance(3600_000 + 1000);
    holder.secret = newSecret;
    const { status, req } = await deliverOne(hook.id, rcv);
    expect(status).toBe('delivered');
    expect(req.headers['x-service-signature']).toBe(hex(newSecret, req.body));
    expect(req.headers['x-service-signature-next']).toBeUndefined();
    expect(req.headers['x-service-signature-previous']).toBeUndefined();
    expect(String(req.headers['webhook-signature']).split(' ')).toHaveLength(1);
    const shown = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!) { revealOutboundWebhookSecret(id: $id) { awaitingConfirmation previousSecretValidUntil } }',
      { id: hook.id },
    );
    expect(shown.data.revealOutboundWebhookSecret).toEqual({
      awaitingConfirmation: false,
      previousSecretValidUntil: null,
    });
  });
});
