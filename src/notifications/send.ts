/**
 * Sending one planned notification when it is due: re-checks the group (a page for a group that is no
 * longer firing is `skipped`), sends by the method's channel within NOTIFY_SEND_TIMEOUT_MS, and records
 * the result. A failure the channel may recover from (a timeout, a 5xx, 408/429, a refused connection)
 * is thrown for the job's retry with backoff; on the last attempt, or for a failure no retry can fix
 * (a 4xx, an address the policy refuses, no SMTP configured), the row is recorded `failed` with its error
 * and attempts. Rows move from `pending` once (a conditional update), so two workers never both record.
 */
import type { Runtime } from '../runtime.js';
import type { ContactMethod, Notification } from '../generated/prisma/client.js';
import { policyFetch } from '../net/guarded-fetch.js';
import { urlPolicyOf, DisallowedAddressError } from '../net/url-guard.js';
import { signatureHeaders } from '../webhooks/signatures.js';
import { headerValueProblem } from '../net/header-value.js';
import { chatBody, ntfyRequest, pageEmail, webhookBody, type HttpRequestSpec } from './channels.js';
import { pageContent, type PageContent } from './content.js';
import { CHAT_KINDS, type ChatKind } from './contact-methods.js';
import { recordSettled } from './record.js';

/** A failure no retry can fix. */
export class PermanentSendError extends Error {}

export type SendOutcome = 'sent' | 'skipped' | 'failed' | 'not_due' | 'settled' | 'gone';

declare module '../runtime.js' {
  interface RuntimeParts {
    /** fetch under the outbound address policy, for contact methods (one connection pool per runtime). */
    notifyFetch: typeof fetch;
  }
}

/** Builds the runtime's notification fetch (src/server/runtime-parts.ts; after the URL policy). */
export function createNotifyFetch(rt: Runtime): typeof fetch {
  return policyFetch(urlPolicyOf(rt));
}

function fetcherOf(rt: Runtime): typeof fetch {
  return rt.parts.notifyFetch;
}

async function post(rt: Runtime, spec: HttpRequestSpec): Promise<void> {
  let res: Response;
  try {
    res = await fetcherOf(rt)(spec.url, {
      method: 'POST',
      headers: spec.headers,
      body: spec.body,
      signal: AbortSignal.timeout(rt.config.notify.sendTimeoutMs),
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    if (e instanceof DisallowedAddressError || e.cause instanceof DisallowedAddressError)
      throw new PermanentSendError((e.cause as Error | undefined)?.message ?? e.message);
    if (e.name === 'TimeoutError') throw new Error(`timed out after ${rt.config.notify.sendTimeoutMs} ms`);
    if (e.name === 'RedirectRefusedError' || e.constructor.name === 'RedirectRefusedError')
      throw new PermanentSendError(e.message);
    throw new Error(e.cause?.code ? `${e.message} (${e.cause.code})` : e.message);
  }
  const text = (await res.text().catch(() => '')).slice(0, 300);
  if (res.ok) return;
  const msg = `HTTP ${res.status}${text ? `: ${text}` : ''}`;
  if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429)
    throw new PermanentSendError(msg);
  throw new Error(msg);
}

function openSecret(rt: Runtime, m: ContactMethod): string | null {
  return m.secretSealed ? rt.secretBox.open(m.secretSealed) : null;
}

/** Sends by the notification's channel; returns where it went (for the timeline). */
async function sendBy(rt: Runtime, n: Notification, method: ContactMethod | null, c: PageContent): Promise<string> {
  if (n.kind === 'inbox') return 'the inbox';
  if (n.kind === 'email') {
    const to =
      method?.address ??
      (await rt.prisma.user.findFirst({ where: { id: n.userId, tenantId: n.tenantId }, select: { email: true } }))
        ?.email;
    if (!to) throw new PermanentSendError('the user has no email address');
    if (!rt.mailer) throw new PermanentSendError('email is not configured (SMTP_URL is unset)');
    try {
      await rt.mailer.send(pageEmail(to, rt.mailer.from, n.id, c));
    } catch (err) {
      const code = (err as { responseCode?: number }).responseCode;
      if (code && code >= 500) throw new PermanentSendError((err as Error).message);
      throw err;
    }
    return to;
  }
  if (!method) throw new PermanentSendError('the contact method was deleted');
  if (n.kind === 'ntfy') {
    const token = openSecret(rt, method);
    // A token stored before the header rule held is never sent with a line break in it.
    const problem = token ? headerValueProblem(token) : null;
    if (problem) throw new PermanentSendError(`the ntfy token ${problem}; set it again on the contact method`);
    await post(rt, ntfyRequest(method.address, method.topic ?? '', token, c));
    return `${method.address}/${method.topic}`;
  }
  if ((CHAT_KINDS as readonly string[]).includes(n.kind)) {
    const url = openSecret(rt, method);
    if (!url) throw new PermanentSendError('the chat webhook URL is missing');
    const spec = { url, headers: { 'content-type': 'application/json' } };
    await post(rt, { ...spec, body: JSON.stringify(chatBody(n.kind as ChatKind, c)) });
    return `${n.kind} ${method.name}`;
  }
  // Signed webhook
  const secret = openSecret(rt, method);
  if (!secret) throw new PermanentSendError('the webhook signing secret is missing');
  const now = rt.clock.now();
  const body = JSON.stringify(webhookBody(n.id, c, now));
  const headers = signatureHeaders({
    deliveryId: n.id,
    timestampSeconds: Math.floor(now.getTime() / 1000),
    body,
    secret,
  });
  await post(rt, { url: method.address, headers: { 'content-type': 'application/json', ...headers }, body });
  return method.address;
}

/** Moves a pending row to its outcome once; returns the updated row, or null when another worker did. */
async function settle(rt: Runtime, n: Notification, data: Partial<Notification>): Promise<Notification | null> {
  const r = await rt.prisma.notification.updateMany({ where: { id: n.id, status: 'pending' }, data });
  if (r.count === 0) return null;
  return rt.prisma.notification.findUnique({ where: { id: n.id } });
}

/**
 * Sends one notification if it is pending and due. `lastAttempt`: no retry follows, so a failure is
 * recorded `failed`. Throws a retryable failure (after counting the attempt) for the job to retry.
 */
export async function deliverNotification(rt: Runtime, id: string, lastAttempt: boolean): Promise<SendOutcome> {
  const n = await rt.prisma.notification.findUnique({ where: { id } });
  if (!n) return 'gone';
  if (n.status !== 'pending') return 'settled';
  if (n.dueAt.getTime() > rt.clock.now().getTime()) return 'not_due';
  if (n.groupId) {
    const group = await rt.prisma.alertGroup.findFirst({
      where: { id: n.groupId, tenantId: n.tenantId },
      select: { status: true },
    });
    if (group?.status !== 'firing') {
      const done = await settle(rt, n, { status: 'skipped', error: `the group is ${group?.status ?? 'gone'}` });
      if (done) await recordSettled(rt, done, n.kind);
      return 'skipped';
    }
  }
  const method = n.contactMethodId
    ? await rt.prisma.contactMethod.findFirst({ where: { id: n.contactMethodId, tenantId: n.tenantId } })
    : null;
  let to: string;
  try {
    const content = await pageContent(rt, n);
    to = await sendBy(rt, n, method, content);
  } catch (err) {
    const error = (err as Error).message.slice(0, 500);
    const permanent = err instanceof PermanentSendError;
    if (permanent || lastAttempt) {
      const done = await settle(rt, n, { status: 'failed', error, attempts: n.attempts + 1 });
      if (done) await recordSettled(rt, done, method?.address || n.kind);
      return 'failed';
    }
    await rt.prisma.notification.updateMany({
      where: { id: n.id, status: 'pending' },
      data: { attempts: n.attempts + 1, error },
    });
    throw err;
  }
  const sentAt = rt.clock.now();
  const done = await settle(rt, n, {
    status: 'sent',
    sentAt,
    attempts: n.attempts + 1,
    error: null,
    latencyMs: Math.max(0, sentAt.getTime() - n.createdAt.getTime()),
  });
  if (done) await recordSettled(rt, done, to);
  return 'sent';
}
