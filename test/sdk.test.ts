/**
 * The TypeScript SDK (sdk/, issue 43 item 8) against a running server: its REST client ingests an event and sets up a
 * rule and a signed webhook, its typed GraphQL documents read the alert and follow it live over graphql-ws, and its
 * verifier accepts the delivery the real receiver got (both signature forms, and after a rotation the old secret
 * too), and refuses a changed body, a stale timestamp and a wrong secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import fs from 'node:fs';
import { buildSchema, validate } from 'graphql';
import * as documents from '../sdk/src/documents.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { eventually } from './helpers/http.js';
import { untilSubscribed } from './helpers/pubsub.js';
import {
  AlertById,
  AlertChanges,
  OpenAlerts,
  createGraphQLClient,
  createRestClient,
  verifyWebhook,
  WebhookVerificationError,
  type GraphQLClient,
} from '../sdk/src/index.js';

let s: TestServer;
let t: BuiltTenant;
let receiver: Receiver;
let gql: GraphQLClient;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
  t = await buildTenant(s.app.rt);
  receiver = await startReceiver();
  gql = createGraphQLClient({ baseUrl: s.url, token: t.adminToken, webSocketImpl: WebSocket });
});
afterAll(async () => {
  await gql?.close();
  await receiver?.close();
  await s?.stop();
});

describe('the SDK documents', () => {
  it('are valid against schema.graphql (gql.tada types a field the schema lacks as unknown, not as an error)', () => {
    const schema = buildSchema(fs.readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'));
    for (const [name, doc] of Object.entries(documents)) expect(validate(schema, doc), name).toEqual([]);
  });
});

describe('the SDK against a server', () => {
  let secret = '';
  let alertId = '';

  it('REST: sets up a rule and a signed webhook, ingests an event; GraphQL reads the alert and follows it live', async () => {
    const ops = createRestClient({ baseUrl: s.url, token: t.adminToken });
    const rule = await ops.POST('/alert-rules', {
      body: { name: 'Disk full', type_glob: 'disk.full', alert_severity: 'critical' },
    });
    expect(rule.error).toBeUndefined();
    const hook = await ops.POST('/outbound-webhooks', {
      body: { name: 'sdk', url: receiver.url, triggers: [{ on: 'alert.opened' }] },
    });
    if (hook.error) throw new Error(JSON.stringify(hook.error));
    secret = hook.data.secret;

    const changes = gql.subscribe(AlertChanges);
    const first = changes.next();
    // An ingest before the server has subscribed would not be seen live.
    await untilSubscribed(s, 'alertChanged', t.tenantId);

    const ingest = createRestClient({ baseUrl: s.url, ingestKey: t.ingestKey });
    const sent = await ingest.POST('/events', {
      body: { type: 'disk.full', source: 'db-1', severity: 'critical', payload: { used: 99 } },
    });
    expect(sent.response.status).toBe(202);

    const open = await eventually(async () => {
      const r = await gql.query(OpenAlerts, { first: 10 });
      return r.alerts.totalCount === 1 ? r.alerts : null;
    });
    alertId = open.edges[0]!.node.id;
    const one = await gql.query(AlertById, { id: alertId });
    expect(one.alert).toMatchObject({
      id: alertId,
      severity: 'CRITICAL',
      status: 'OPEN',
      dedupKey: expect.any(String),
    });

    const live = await first;
    expect(live.value?.alertChanged.alert.id).toBe(alertId);
    await changes.return?.();
  });

  it('verifies the delivery the receiver got, in both forms, and refuses a changed one', async () => {
    const req = await eventually(async () => receiver.requests.find((r) => r.body.includes(alertId)) ?? null);
    expect(verifyWebhook({ body: req.body, headers: req.headers, secrets: [secret] })).toBe('standard-webhooks');
    const { ['webhook-signature']: _sw, ...specOnly } = req.headers;
    expect(verifyWebhook({ body: req.body, headers: specOnly, secrets: [secret] })).toBe('x-service-signature');

    expect(() => verifyWebhook({ body: req.body + ' ', headers: req.headers, secrets: [secret] })).toThrow(
      WebhookVerificationError,
    );
    expect(() => verifyWebhook({ body: req.body + ' ', headers: specOnly, secrets: [secret] })).toThrow(
      WebhookVerificationError,
    );
    const later = Number(req.headers['webhook-timestamp']) * 1000 + 6 * 60_000;
    expect(() => verifyWebhook({ body: req.body, headers: req.headers, secrets: [secret], now: later })).toThrow(
      /tolerance/,
    );
    const other = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    expect(() => verifyWebhook({ body: req.body, headers: req.headers, secrets: [other] })).toThrow(
      WebhookVerificationError,
    );
  });

  it('after a rotation, a receiver holding only the old secret still verifies', async () => {
    const ops = createRestClient({ baseUrl: s.url, token: t.adminToken });
    const hooks = await ops.GET('/outbound-webhooks');
    const hook = hooks.data!.items.find((h) => h.name === 'sdk')!;
    const rotated = await ops.POST('/outbound-webhooks/{webhookId}/rotate-secret', {
      params: { path: { webhookId: hook.id } },
    });
    if (rotated.error) throw new Error(JSON.stringify(rotated.error));
    const before = receiver.requests.length;
    const ingest = createRestClient({ baseUrl: s.url, ingestKey: t.ingestKey });
    await ingest.POST('/events', { body: { type: 'disk.full', source: 'db-2', severity: 'critical' } });
    const req = await eventually(
      async () => receiver.requests.slice(before).find((r) => r.body.includes('db-2')) ?? null,
    );
    for (const secrets of [[secret], [rotated.data.secret]]) {
      expect(verifyWebhook({ body: req.body, headers: req.headers, secrets })).toBe('standard-webhooks');
      const { ['webhook-signature']: _sw, ...specOnly } = req.headers;
      expect(verifyWebhook({ body: req.body, headers: specOnly, secrets })).toBe('x-service-signature');
    }
  });
});
