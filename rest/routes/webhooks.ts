/**
 * REST routes of webhook settings, for scripts that set up a tenant: outbound webhooks (CRUD, secret
 * rotation, the delivery history and redelivery), inbound webhooks (create, list, rotate the secret)
 * and the tenant's ingest keys (list, rotate). Each executes a GraphQL operation of schema/webhooks.ts
 * or schema/events.ts with the caller's permissions: every user reads webhooks, admins change them and
 * see secrets. Lists answer `{"items": [...]}`.
 *
 * Inbound webhooks live under `/inbound-webhooks`, not `/webhooks/...`: `POST /webhooks/<slug>` is the
 * docs/spec.md's signed receiving URL, and a slug may be any word.
 */
import type { RouteEntry, RestRequest } from '../route-types.js';
import {
  DELIVERY_FIELDS,
  INBOUND_WEBHOOK_FIELDS,
  INGEST_KEY_FIELDS,
  OUTBOUND_WEBHOOK_FIELDS,
  presentCreatedOutboundWebhook,
  presentDelivery,
  presentInboundWebhook,
  presentIngestKey,
  presentOutboundWebhook,
  presentRotatedIngestKey,
  presentWebhookSecret,
  triggerInput,
} from '../presenters/webhooks.js';

/** GraphQL outbound webhook input from a REST body: a trigger's `on` is a topic in REST, a WebhookTriggerOn in GraphQL. */
function outboundInput(b: Record<string, unknown>): Record<string, unknown> {
  return Array.isArray(b.triggers)
    ? { ...b, triggers: b.triggers.map((t) => triggerInput(t as Record<string, unknown>)) }
    : b;
}

const deliveryLimit = (req: RestRequest) => Number(req.query.limit ?? 100);

export const webhooksRoutes: RouteEntry[] = [
  // Outbound webhooks
  {
    method: 'get',
    path: '/outbound-webhooks',
    operation: `query OutboundWebhooks { outboundWebhooks { ${OUTBOUND_WEBHOOK_FIELDS} } }`,
    respond: (data) => ({ items: data.outboundWebhooks.map(presentOutboundWebhook) }),
  },
  {
    method: 'post',
    path: '/outbound-webhooks',
    operation: `mutation CreateOutboundWebhook($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { secret webhook { ${OUTBOUND_WEBHOOK_FIELDS} } } }`,
    variables: (req) => ({ input: outboundInput(req.body) }),
    status: 201,
    respond: (data) => presentCreatedOutboundWebhook(data.createOutboundWebhook),
  },
  {
    method: 'get',
    path: '/outbound-webhooks/:webhookId',
    operation: `query OutboundWebhook($id: ID!) { outboundWebhook(id: $id) { ${OUTBOUND_WEBHOOK_FIELDS} } }`,
    variables: (req) => ({ id: req.params.webhookId }),
    respond: (data) => presentOutboundWebhook(data.outboundWebhook),
  },
  {
    method: 'patch',
    path: '/outbound-webhooks/:webhookId',
    operation: `mutation UpdateOutboundWebhook($id: ID!, $input: UpdateOutboundWebhookInput!) { updateOutboundWebhook(id: $id, input: $input) { ${OUTBOUND_WEBHOOK_FIELDS} } }`,
    variables: (req) => ({ id: req.params.webhookId, input: outboundInput(req.body) }),
    respond: (data) => presentOutboundWebhook(data.updateOutboundWebhook),
  },
  {
    method: 'delete',
    path: '/outbound-webhooks/:webhookId',
    operation: 'mutation DeleteOutboundWebhook($id: ID!) { deleteOutboundWebhook(id: $id) }',
    variables: (req) => ({ id: req.params.webhookId }),
    status: 204,
  },
  {
    method: 'post',
    path: '/outbound-webhooks/:webhookId/rotate-secret',
    operation:
      'mutation RotateWebhookSecret($id: ID!, $signing: WebhookRotationSigning) { rotateWebhookSecret(id: $id, signing: $signing) { webhookId secret previousSecretValidUntil awaitingConfirmation } }',
    variables: (req) => ({ id: req.params.webhookId, signing: req.body?.signing ?? null }),
    respond: (data) => presentWebhookSecret(data.rotateWebhookSecret),
  },
  {
    method: 'post',
    path: '/outbound-webhooks/:webhookId/rotate-secret/confirm',
    operation:
      'mutation ConfirmWebhookSecretRotation($id: ID!) { confirmWebhookSecretRotation(id: $id) { webhookId secret previousSecretValidUntil awaitingConfirmation } }',
    variables: (req) => ({ id: req.params.webhookId }),
    respond: (data) => presentWebhookSecret(data.confirmWebhookSecretRotation),
  },
  {
    method: 'get',
    path: '/outbound-webhooks/:webhookId/deliveries',
    operation: `query WebhookDeliveries($id: ID!, $status: DeliveryStatus, $first: Int) { outboundWebhook(id: $id) { deliveries(status: $status, first: $first) { ${DELIVERY_FIELDS} } } }`,
    variables: (req) => ({ id: req.params.webhookId, status: req.query.status ?? null, first: deliveryLimit(req) }),
    respond: (data) => ({ items: data.outboundWebhook.deliveries.map(presentDelivery) }),
  },
  {
    method: 'post',
    path: '/deliveries/:deliveryId/redeliver',
    operation: `mutation Redeliver($id: ID!) { redeliver(deliveryId: $id) { ${DELIVERY_FIELDS} } }`,
    variables: (req) => ({ id: req.params.deliveryId }),
    status: 202,
    respond: (data) => presentDelivery(data.redeliver),
  },
  // Inbound webhooks
  {
    method: 'get',
    path: '/inbound-webhooks',
    operation: `query InboundWebhooks($kind: InboundWebhookKind) { inboundWebhooks(kind: $kind) { ${INBOUND_WEBHOOK_FIELDS} } }`,
    variables: (req) => ({ kind: req.query.kind ?? null }),
    respond: (data) => ({ items: data.inboundWebhooks.map(presentInboundWebhook) }),
  },
  {
    method: 'post',
    path: '/inbound-webhooks',
    operation: `mutation CreateInboundWebhook($input: CreateInboundWebhookInput!) { createInboundWebhook(input: $input) { ${INBOUND_WEBHOOK_FIELDS} secret } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentInboundWebhook(data.createInboundWebhook),
  },
  {
    method: 'patch',
    path: '/inbound-webhooks/:inboundWebhookId',
    operation: `mutation UpdateInboundWebhook($id: ID!, $input: UpdateInboundWebhookInput!) { updateInboundWebhook(id: $id, input: $input) { ${INBOUND_WEBHOOK_FIELDS} } }`,
    variables: (req) => ({ id: req.params.inboundWebhookId, input: req.body }),
    respond: (data) => presentInboundWebhook(data.updateInboundWebhook),
  },
  {
    method: 'post',
    path: '/inbound-webhooks/:inboundWebhookId/rotate-secret',
    operation: `mutation RotateInboundWebhookSecret($id: ID!) { rotateInboundWebhookSecret(id: $id) { ${INBOUND_WEBHOOK_FIELDS} secret } }`,
    variables: (req) => ({ id: req.params.inboundWebhookId }),
    respond: (data) => presentInboundWebhook(data.rotateInboundWebhookSecret),
  },
  // Ingest keys
  {
    method: 'get',
    path: '/ingest-keys',
    operation: `query IngestKeys { ingestKeys { ${INGEST_KEY_FIELDS} } }`,
    respond: (data) => ({ items: data.ingestKeys.map(presentIngestKey) }),
  },
  {
    method: 'post',
    path: '/ingest-keys/rotate',
    operation: `mutation RotateIngestKey { rotateIngestKey { key previousValidUntil ingestKey { ${INGEST_KEY_FIELDS} } } }`,
    status: 201,
    respond: (data) => presentRotatedIngestKey(data.rotateIngestKey),
  },
];
