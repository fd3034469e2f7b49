/**
 * End to end through the other areas: an ingested event opens an alert by rule, the alert change is
 * announced through the outbox, and the receiver gets a signed delivery; the same for the EVENT trigger
 * and for acknowledging the alert.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

let s: TestServer;
let t: BuiltTenant;
let rcv: Receiver;
let secret: string;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
  t = await buildTenant(s.app.rt);
  rcv = await startReceiver();
  const rule = await gql(
    s.url,
    t.adminToken,
    'mutation { createAlertRule(input: { name: "Disk", typeGlob: "disk.*", alertSeverity: CRITICAL }) { id } }',
  );
  expect(rule.errors).toBeUndefined();
  const hook = await gql(
    s.url,
    t.adminToken,
    'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id secret } }',
    {
      input: {
        name: 'pager',
        url: rcv.url,
        triggers: [
          { on: 'ALERT_OPENED', severities: ['CRITICAL'] },
          { on: 'ALERT_ACKNOWLEDGED' },
          {
            on: 'EVENT',
            typeGlob: 'deploy.*',
            labels: { env: 'prod' },
            payloadConditions: [{ path: 'build.status', op: 'EQ', value: 'failed' }],
          },
        ],
      },
    },
  );
  expect(hook.errors).toBeUndefined();
  secret = hook.data.createOutboundWebhook.secret;
});
afterAll(async () => {
  await rcv?.close();
  await s?.stop();
});

function verified(i: number): any {
  const req = rcv.requests[i];
  expect(req.headers['x-service-signature']).toBe(crypto.createHmac('sha256', secret).update(req.body).digest('hex'));
  return new Webhook(secret).verify(req.body, req.headers as Record<string, string>);
}

async function ingest(body: Record<string, unknown>): Promise<string> {
  const r = await rest(s.url).post('/events', body, { headers: { 'x-service-key': t.ingestKey } });
  expect(r.status).toBe(202);
  return r.body.id;
}

describe('outbound webhooks end to end', () => {
  it('rule → event → alert opened → signed delivery; acknowledging it sends alert.acknowledged', async () => {
    await ingest({ type: 'disk.full', source: 'db-1', severity: 'warning', summary: 'disk 98%', payload: { pct: 98 } });
    await eventually(async () => rcv.requests.length >= 1, 20_000);
    const opened = verified(0);
    expect(opened).toMatchObject({ topic: 'alert.opened', kind: 'alert.opened', severity: 'critical' });
    const alertId = (await s.app.rt.prisma.alert.findFirstOrThrow({ where: { tenantId: t.tenantId } })).id;
    expect(JSON.stringify(opened.payload)).toContain(alertId);

    const ack = await gql(s.url, t.adminToken, 'mutation($id: ID!) { acknowledgeAlert(id: $id) { id } }', {
      id: alertId,
    });
    expect(ack.errors).toBeUndefined();
    await eventually(async () => rcv.requests.length >= 2, 20_000);
    expect(verified(1)).toMatchObject({ topic: 'alert.acknowledged' });
  });

  it('an event matching the EVENT trigger is delivered as it arrived; others are not', async () => {
    const before = rcv.requests.length;
    await ingest({
      type: 'deploy.finished',
      source: 'ci',
      labels: { env: 'staging' },
      payload: { build: { status: 'failed' } },
    });
    await ingest({
      type: 'deploy.finished',
      source: 'ci',
      labels: { env: 'prod' },
      payload: { build: { status: 'ok' } },
    });
    const matching = await ingest({
      type: 'deploy.finished',
      source: 'ci',
      severity: 'warning',
      labels: { env: 'prod' },
      payload: { build: { status: 'failed' } },
    });
    await eventually(async () => rcv.requests.length > before, 20_000);
    // Give the two non-matching events the same chance to (wrongly) arrive.
    await eventually(
      async () => (await s.app.rt.prisma.event.count({ where: { tenantId: t.tenantId, evaluatedAt: null } })) === 0,
      20_000,
    );
    await eventually(
      async () =>
        (await s.app.rt.prisma.outboxMessage.count({ where: { tenantId: t.tenantId, dispatchedAt: null } })) === 0,
      20_000,
    );
    await eventually(
      async () =>
        (await s.app.rt.prisma.delivery.count({
          where: { tenantId: t.tenantId, status: { in: ['pending', 'retrying'] } },
        })) === 0,
      20_000,
    );
    const events = rcv.requests
      .slice(before)
      .map((_r, i) => verified(before + i))
      .filter((b) => b.topic === 'event.received');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'deploy.finished',
      source: 'ci',
      severity: 'warning',
      labels: { env: 'prod' },
      payload: { build: { status: 'failed' } },
    });
    const msg = await s.app.rt.prisma.outboxMessage.findFirstOrThrow({ where: { topic: 'event.received' } });
    expect(msg.subjectId).toBe(matching);
  });
});
