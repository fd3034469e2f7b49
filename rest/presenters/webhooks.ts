/**
 * REST shapes of webhook settings: outbound webhooks (with their triggers), their deliveries and
 * attempts, inbound webhooks (URL; the secret only on creation and rotation) and ingest keys.
 * Trigger kinds are the announcement topics receivers see (`alert.opened`, `event.received`, …),
 * the same strings as the delivery body's `topic` and the `X-Service-Event` header.
 */
import { TRIGGER_TOPICS, type TriggerOn } from '../../src/webhooks/triggers.js';

type Node = Record<string, any>;

const TRIGGER_FIELDS = 'on severities kinds typeGlob labels payloadConditions { path op value }';
export const OUTBOUND_WEBHOOK_FIELDS = `id name url enabled triggers { ${TRIGGER_FIELDS} } createdAt updatedAt previousSecretValidUntil lastFailureAt lastFailureError secretCleared`;
const ATTEMPT_FIELDS = 'id number requestHeaders responseStatus responseBody durationMs error createdAt';
export const DELIVERY_FIELDS = `id topic status body attemptCount nextAttemptAt lastError createdAt deliveredAt failedAt webhook { id } attempts { ${ATTEMPT_FIELDS} }`;
export const INBOUND_WEBHOOK_FIELDS =
  'id name slug kind url createdAt previousSecretValidUntil requireStandardWebhooks rejectRepeatedSignature';
export const INGEST_KEY_FIELDS = 'id keyPrefix createdAt validUntil';

const TOPIC_OF = TRIGGER_TOPICS as Record<string, string>;
const ON_OF_TOPIC: Record<string, TriggerOn> = Object.fromEntries(
  Object.entries(TRIGGER_TOPICS).map(([on, topic]) => [topic, on as TriggerOn]),
);

/** REST trigger (`on` is a topic) → GraphQL WebhookTriggerInput. An unknown topic passes through for GraphQL to refuse. */
export function triggerInput(t: Node): Node {
  return { ...t, on: ON_OF_TOPIC[t.on] ?? t.on };
}

function presentTrigger(t: Node): Node {
  const out: Node = { on: TOPIC_OF[t.on] ?? t.on };
  if (t.severities) out.severities = t.severities;
  if (t.kinds) out.kinds = t.kinds;
  if (t.typeGlob) out.type_glob = t.typeGlob;
  if (t.labels) out.labels = t.labels;
  if (t.payloadConditions)
    out.payload_conditions = t.payloadConditions.map((c: Node) => ({
      path: c.path,
      op: c.op,
      ...(c.value === null || c.value === undefined ? {} : { value: c.value }),
    }));
  return out;
}

export function presentOutboundWebhook(w: Node): Record<string, unknown> {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    enabled: w.enabled,
    triggers: w.triggers.map(presentTrigger),
    created_at: w.createdAt,
    updated_at: w.updatedAt,
    previous_secret_valid_until: w.previousSecretValidUntil,
    last_failure_at: w.lastFailureAt,
    last_failure_error: w.lastFailureError,
    secret_cleared: w.secretCleared,
  };
}

/** A webhook with its signing secret (creation; shown this once). */
export function presentCreatedOutboundWebhook(c: Node): Record<string, unknown> {
  return { ...presentOutboundWebhook(c.webhook), secret: c.secret };
}

/** The secret after a rotation (or a reveal). */
export function presentWebhookSecret(s: Node): Record<string, unknown> {
  return {
    webhook_id: s.webhookId,
    secret: s.secret,
    previous_secret_valid_until: s.previousSecretValidUntil,
    awaiting_confirmation: s.awaitingConfirmation,
  };
}

export function presentDelivery(d: Node): Record<string, unknown> {
  return {
    id: d.id,
    webhook_id: d.webhook.id,
    topic: d.topic,
    status: d.status,
    body: d.body,
    attempt_count: d.attemptCount,
    next_attempt_at: d.nextAttemptAt,
    last_error: d.lastError,
    created_at: d.createdAt,
    delivered_at: d.deliveredAt,
    failed_at: d.failedAt,
    attempts: d.attempts.map((a: Node) => ({
      id: a.id,
      number: a.number,
      request_headers: a.requestHeaders,
      response_status: a.responseStatus,
      response_body: a.responseBody,
      duration_ms: a.durationMs,
      error: a.error,
      created_at: a.createdAt,
    })),
  };
}

/** An inbound webhook; `secret` only in the answers to creation and rotation. */
export function presentInboundWebhook(w: Node): Record<string, unknown> {
  return {
    id: w.id,
    name: w.name,
    slug: w.slug,
    kind: w.kind,
    url: w.url,
    created_at: w.createdAt,
    previous_secret_valid_until: w.previousSecretValidUntil,
    require_standard_webhooks: w.requireStandardWebhooks,
    reject_repeated_signature: w.rejectRepeatedSignature,
    ...(w.secret !== undefined ? { secret: w.secret } : {}),
  };
}

export function presentIngestKey(k: Node): Record<string, unknown> {
  return { id: k.id, key_prefix: k.keyPrefix, created_at: k.createdAt, valid_until: k.validUntil };
}

/** A rotated ingest key: the new key (shown this once) and until when the older ones keep working. */
export function presentRotatedIngestKey(r: Node): Record<string, unknown> {
  return { ...presentIngestKey(r.ingestKey), key: r.key, previous_valid_until: r.previousValidUntil };
}
