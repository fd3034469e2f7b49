/**
 * Shared set-up of the outbound webhook tests (test/webhooks-outbound*.test.ts): the main server with fast
 * retries and generous timeouts (DELIVERY_ENV), a tenant, another tenant and a member; servers of their
 * own for the few tests that need other settings; receivers, and helpers to create, announce and wait.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestServer, type TestServer } from './server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from '../factories.js';
import { eventually, gql } from './http.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';
import { dispatchOutbox, writeOutbox, type OutboxTopic } from '../../src/outbox/outbox.js';

export let s: TestServer;
export let t: BuiltTenant;
export let other: BuiltTenant;
export let memberToken: string;
export const receivers: Receiver[] = [];
/** A server and a tenant on it; most tests use `main`, a few start one with the settings they need. */
export interface Site {
  s: TestServer;
  t: BuiltTenant;
}
export let main: Site;
export const sites: Site[] = [];

/**
 * Fast retries (40 ms doubling to 150 ms) so multi-attempt tests are quick, but a generous send timeout
 * (20 s) and retry window (2 min): no test here depends on how fast a loaded machine answers. The two
 * tests about the timeout and the window start their own server with just that setting short.
 */
export const DELIVERY_ENV = {
  WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
  WEBHOOK_RETRY_BASE_MS: '40',
  WEBHOOK_RETRY_MAX_DELAY_MS: '150',
  WEBHOOK_RETRY_WINDOW_MS: '120000',
  WEBHOOK_TIMEOUT_MS: '20000',
  WEBHOOK_SWEEP_AFTER_MS: '30000',
};

/**
 * A fresh tenant on the main server, for tests that count deliveries or changes: announcements of
 * earlier tests (re-dispatched by the sweeper on a busy machine) reach every matching webhook of their
 * tenant, so a count on the shared tenant could include them.
 */
export async function ownTenant(): Promise<Site> {
  return { s, t: await buildTenant(s.app.rt) };
}

/** A server of its own with DELIVERY_ENV plus `env`, and a tenant on it; stopped after the file. */
export async function siteWith(env: Record<string, string>): Promise<Site> {
  const server = await startTestServer({ env: { ...DELIVERY_ENV, ...env } });
  const site = { s: server, t: await buildTenant(server.app.rt) };
  sites.push(site);
  return site;
}

export const WEBHOOK_FIELDS =
  'id name url enabled triggers { on severities kinds typeGlob labels payloadConditions { path op value } } previousSecretValidUntil lastFailureError lastFailure { id status lastError }';
export const CREATE = `mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id secret webhook { ${WEBHOOK_FIELDS} } } }`;
export const WEBHOOK = `query($id: ID!, $first: Int) { webhook: outboundWebhook(id: $id) { ${WEBHOOK_FIELDS} deliveries(first: $first) { id status attemptCount lastError body attempts { number responseStatus responseBody durationMs error requestHeaders } } } }`;

/** Registers the file's hooks: the main server before; receivers and every server stopped after. */
export function useOutboundSuite(): void {
  beforeAll(async () => {
    s = await startTestServer({ env: DELIVERY_ENV });
    t = await buildTenant(s.app.rt);
    main = { s, t };
    other = await buildTenant(s.app.rt);
    memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId, { role: 'member' }));
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    for (const site of sites) await site.s.stop();
    await s?.stop();
  });
}

export async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

export async function createWebhook(
  url: string,
  triggers: unknown[] = [{ on: 'ALERT_OPENED' }],
  token = t.adminToken,
  name = 'receiver',
  at: Site = main,
) {
  const r = await gql(at.s.url, token, CREATE, { input: { name, url, triggers } });
  expect(r.errors).toBeUndefined();
  return r.data.createOutboundWebhook as { id: string; secret: string; webhook: any };
}

/** Announces a change the way the alerts and proposals areas do: an outbox row, then dispatch. */
export async function announce(
  topic: OutboxTopic,
  body: Record<string, unknown>,
  tenantId = t.tenantId,
  at: Site = main,
): Promise<string> {
  const id = await writeOutbox(at.s.app.rt.prisma, {
    createdAt: at.s.app.rt.clock.now(),
    tenantId,
    topic,
    subjectId: crypto.randomUUID(),
    body: body as never,
  });
  await dispatchOutbox(at.s.app.rt, [id]);
  return id;
}

export const alertBody = (severity = 'critical') => ({
  source: 'rules',
  kind: 'alert.opened',
  severity,
  labels: { team: 'core' },
  payload: { alertId: 'a1', summary: 'disk full' },
});

export async function webhookView(id: string, first?: number, at: Site = main) {
  const r = await gql(at.s.url, at.t.adminToken, WEBHOOK, { id, first });
  expect(r.errors).toBeUndefined();
  return r.data.webhook;
}

/** Waits until `n` deliveries of the webhook reached a final state (delivered or failed). */
export async function settled(id: string, n = 1, at: Site = main) {
  return eventually(async () => {
    const w = await webhookView(id, undefined, at);
    const done = w.deliveries.filter((d: any) => d.status === 'DELIVERED' || d.status === 'FAILED');
    return done.length >= n ? w : null;
  }, 30_000);
}
