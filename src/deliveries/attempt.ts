/**
 * One delivery attempt, end to end: load the delivery and its webhook, refuse to send what is already
 * settled, respect the receiver's limits, sign the stored body bytes, POST, record the attempt and the new
 * state in one statement, announce the change, and schedule the next attempt when the failure is
 * retryable. At-least-once: a worker that dies mid-send leaves the attempt unrecorded and the job is run
 * again; the receiver deduplicates by `webhook-id` (the delivery id).
 */
import { inSpan, SpanKind, SpanStatusCode } from '../tracing.js';
import { newDeliveryId } from './ids.js';
import { previousValidUntil } from '../auth/secret-rotation.js';
import type { Runtime } from '../runtime.js';
import type { DeliveryStatus } from '../generated/prisma/client.js';
import type { AttemptStore, DeliveryWithWebhook } from './store.js';
import { nextAttemptAt, parseRetryAfter } from './backoff.js';
import { signatureHeaders } from '../webhooks/signatures.js';
import { sendWebhookRequest, type SendResult } from './sender.js';
import type { ReceiverLimits } from './receiver-limits.js';
import type { Semaphore } from '../semaphore.js';
import { urlPolicyOf } from '../net/url-guard.js';
import { enqueueDeliveryAttempt } from './jobs.js';
import type { DeliveryAnnouncer } from './announce.js';

const USER_AGENT = 'OpsService-Webhooks/1.0';

/**
 * Webhook secrets opened once per ciphertext (AES-GCM on every send cost more than the HMAC): a
 * rotation or a new webhook seals a new ciphertext, so an entry can never answer for a changed secret.
 */
const OPENED_LIMIT = 4096;
const opened = new Map<string, string>();
function openSecret(rt: Runtime, ciphertext: string): string {
  let secret = opened.get(ciphertext);
  if (secret === undefined) {
    secret = rt.secretBox.open(ciphertext);
    if (opened.size >= OPENED_LIMIT) opened.clear();
    opened.set(ciphertext, secret);
  }
  return secret;
}

export type AttemptOutcome =
  /** The delivery row no longer exists (its webhook was deleted): nothing to send, ever. */
  | { kind: 'gone' }
  | { kind: 'skipped'; reason: string }
  | { kind: 'delayed'; attempt: number; retryInMs: number; reason: string }
  | { kind: 'delivered'; attempt: number }
  | { kind: 'retrying'; attempt: number; nextAttemptAt: Date }
  | { kind: 'failed'; attempt: number; reason: string };

interface Verdict {
  status: DeliveryStatus;
  error: string | null;
  next: Date | null;
}

/** Decides what a response (or its absence) means: delivered, retry later, or failed for good. */
function judgeAttempt(
  rt: Runtime,
  result: SendResult,
  attempt: number,
  windowStartedAt: Date,
  now = rt.clock.now(),
): Verdict {
  const s = result.status;
  if (result.disallowed) return { status: 'failed', error: result.error, next: null };
  if (s !== null && s >= 200 && s < 300 && !result.error) return { status: 'delivered', error: null, next: null };
  const described = result.error ?? `HTTP ${s}${result.responseBody ? `: ${result.responseBody.slice(0, 200)}` : ''}`;
  if (s === 410)
    return { status: 'failed', error: `receiver answered 410 Gone; retries stopped (${described})`, next: null };
  if (s !== null && s >= 400 && s < 500 && s !== 408 && s !== 429 && !result.error) {
    return { status: 'failed', error: `receiver rejected the delivery; retries stopped (${described})`, next: null };
  }
  const retryAfterMs = s === 429 || s === 503 ? parseRetryAfter(result.retryAfter, now) : null;
  const next = nextAttemptAt({ attempt, windowStartedAt, now, retryAfterMs }, rt.config.webhooks);
  if (!next)
    return {
      status: 'failed',
      error: `retry window of ${Math.round(rt.config.webhooks.retryWindowMs / 1000)} s exhausted after ${attempt} attempts; last: ${described}`,
      next: null,
    };
  return { status: 'retrying', error: described, next };
}

/**
 * Performs the attempt that is due for `deliveryId`. Never sends a delivery that is delivered or failed,
 * and records each attempt number at most once (a stale or duplicate job is skipped).
 */
export interface AttemptDeps {
  limits: ReceiverLimits;
  store: AttemptStore;
  /** The process's bound on sends in flight. */
  slots: Semaphore;
  /** Publishes outcomes, those of one turn of the event loop together. */
  announcer: DeliveryAnnouncer;
}

export async function attemptDelivery(rt: Runtime, deps: AttemptDeps, deliveryId: string): Promise<AttemptOutcome> {
  const d = await deps.store.load(deliveryId);
  return d ? attemptLoadedDelivery(rt, deps, d) : { kind: 'gone' };
}

/**
 * The attempt that is due for a delivery already read (the load, or the fan-out that has just created
 * it). `started` is told once the request is under way (it holds a send slot and its receiver's
 * admission) or will not be sent now: from then on only the receiver decides how long the attempt takes.
 */
export async function attemptLoadedDelivery(
  rt: Runtime,
  deps: AttemptDeps,
  d: DeliveryWithWebhook,
  started?: () => void,
): Promise<AttemptOutcome> {
  if (!started) return attemptNow(rt, deps, d, () => undefined);
  const tell = onceOnly(started);
  try {
    return await attemptNow(rt, deps, d, tell);
  } finally {
    tell();
  }
}

/** `fn` (if any), called at most once however often the result is. */
export function onceOnly(fn?: () => void): () => void {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    fn?.();
  };
}

/** The same, but `sending` is told only once the request is under way, not when the attempt ends without one. */
export function attemptLoadedDeliveryIfSent(
  rt: Runtime,
  deps: AttemptDeps,
  d: DeliveryWithWebhook,
  sending: () => void,
): Promise<AttemptOutcome> {
  return attemptNow(rt, deps, d, sending);
}

async function attemptNow(
  rt: Runtime,
  deps: AttemptDeps,
  d: DeliveryWithWebhook,
  started: () => void,
): Promise<AttemptOutcome> {
  const { limits, slots } = deps;
  if (d.status === 'delivered' || d.status === 'failed') return { kind: 'skipped', reason: `already ${d.status}` };
  const attempt = d.attemptCount + 1;
  const now = rt.clock.now().getTime();
  if (d.nextAttemptAt && d.nextAttemptAt.getTime() - now > 50)
    return { kind: 'delayed', attempt, retryInMs: d.nextAttemptAt.getTime() - now, reason: 'not due yet' };
  if (!d.webhook.enabled)
    return settle(
      rt,
      deps,
      d,
      attempt,
      { status: 'failed', error: 'webhook disabled before the delivery was sent', next: null },
      null,
    );

  await slots.acquire();
  let admission: Awaited<ReturnType<ReceiverLimits['admit']>>;
  try {
    admission = await limits.admit(d.webhook.url, d.webhookId);
  } catch (err) {
    slots.release();
    throw err;
  }
  if (!admission.ok) {
    slots.release();
    return { kind: 'delayed', attempt, retryInMs: admission.retryInMs, reason: admission.reason };
  }
  let result: SendResult;
  let headers: Record<string, string>;
  try {
    // After any wait for a slot: the signed timestamp is the send's, on the wall clock the receiver checks
    // it against; the previous secret's grace was stamped on the service clock.
    const sentAt = Date.now();
    const secret = openSecret(rt, d.webhook.secretCiphertext);
    const previous = previousValidUntil(d.webhook, rt.clock.now().getTime())
      ? openSecret(rt, d.webhook.previousCiphertext!)
      : null;
    headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-service-event': d.topic,
      'x-service-attempt': String(attempt),
      ...signatureHeaders({
        deliveryId: d.id,
        timestampSeconds: Math.floor(sentAt / 1000),
        body: d.body,
        secret,
        previousSecret: previous,
        previousSignsPrimary: d.webhook.previousSignsPrimary,
      }),
    };
    started();
    const request = {
      url: d.webhook.url,
      body: d.body,
      headers,
      timeoutMs: rt.config.webhooks.timeoutMs,
      policy: urlPolicyOf(rt),
    };
    result = rt.telemetry.enabled ? await tracedSend(rt, d, attempt, request) : await sendWebhookRequest(request);
  } finally {
    admission.release();
    slots.release();
  }
  return settle(rt, deps, d, attempt, judgeAttempt(rt, result, attempt, d.windowStartedAt), { headers, result });
}

type LoadedDelivery = Pick<
  DeliveryWithWebhook,
  'id' | 'tenantId' | 'webhookId' | 'topic' | 'attemptCount' | 'createdAt'
>;

/**
 * Records the attempt and the delivery's new state in one guarded statement (only if nobody recorded
 * this attempt number first), then announces it and schedules the next attempt.
 */
async function settle(
  rt: Runtime,
  deps: AttemptDeps,
  d: LoadedDelivery,
  attempt: number,
  v: Verdict,
  sent: { headers: Record<string, string>; result: SendResult } | null,
): Promise<AttemptOutcome> {
  const now = rt.clock.now();
  const r = sent?.result;
  const recorded = await deps.store.record({
    deliveryId: d.id,
    deliveryCreatedAt: d.createdAt,
    attempt,
    status: v.status,
    nextAttemptAt: v.next,
    lastError: v.error,
    at: now,
    attemptId: newDeliveryId(),
    requestHeaders: sent?.headers ?? {},
    responseStatus: r?.status ?? null,
    responseBody: r?.responseBody ?? null,
    durationMs: r?.durationMs ?? 0,
    attemptError: r?.error ?? (v.status === 'delivered' ? null : v.error),
  });
  if (!recorded) return { kind: 'skipped', reason: `attempt ${attempt} was already recorded` };
  if (v.status === 'failed') {
    await rt.prisma.outboundWebhook.updateMany({
      where: { id: d.webhookId },
      data: { lastFailedDeliveryId: d.id, lastFailureAt: now, lastFailureError: v.error },
    });
  }
  // Not awaited: live views must not slow the delivery down (the announcer never throws).
  deps.announcer.announce({
    id: d.id,
    tenantId: d.tenantId,
    webhookId: d.webhookId,
    topic: d.topic,
    status: v.status,
    attemptCount: attempt,
    lastError: v.error,
    nextAttemptAt: v.next,
    responseStatus: sent?.result.status ?? null,
  });
  if (v.status === 'retrying' && v.next) {
    await enqueueDeliveryAttempt(rt, d.id, attempt + 1, v.next);
    return { kind: 'retrying', attempt, nextAttemptAt: v.next };
  }
  if (v.status === 'delivered') return { kind: 'delivered', attempt };
  return { kind: 'failed', attempt, reason: v.error ?? 'failed' };
}

/** One send as a client span: the delivery's ids, the receiver's host (never its path, query or body), the outcome. */
function tracedSend(
  rt: Runtime,
  d: Pick<DeliveryWithWebhook, 'id' | 'webhookId' | 'topic'> & { webhook: { url: string } },
  attempt: number,
  request: Parameters<typeof sendWebhookRequest>[0],
): Promise<SendResult> {
  let host = '';
  try {
    host = new URL(d.webhook.url).host;
  } catch {
    /* an invalid URL fails the send below */
  }
  return inSpan(
    rt.telemetry.tracer,
    'webhook delivery',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': 'POST',
        'server.address': host,
        'ops.delivery.id': d.id,
        'ops.webhook.id': d.webhookId,
        'ops.delivery.topic': d.topic,
        'ops.delivery.attempt': attempt,
      },
    },
    async (span) => {
      const result = await sendWebhookRequest(request);
      if (result.status !== null) span.setAttribute('http.response.status_code', result.status);
      if (result.error) span.setStatus({ code: SpanStatusCode.ERROR, message: 'send failed' });
      return result;
    },
  );
}
