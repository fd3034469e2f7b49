/**
 * A person's contact methods: email, ntfy push, Slack / Mattermost / Microsoft Teams / Discord incoming
 * webhooks, a signed webhook, and the in-app inbox. Each belongs to one user and is managed by that user.
 * Secrets (an ntfy token, a chat incoming-webhook URL, which is itself the credential, a webhook's
 * signing secret) are sealed with the runtime's SecretBox and never read back in clear; a read shows
 * the non-secret `address` only. Every URL passes the outbound address policy (src/net/url-guard.ts)
 * when saved, and again at each send.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import { EMAIL_MAX_LENGTH } from '../email-address.js';
import type { ContactMethod, ContactMethodKind } from '../generated/prisma/client.js';
import { assertDeliverableUrl, urlPolicyOf } from '../net/url-guard.js';
import { headerValueProblem } from '../net/header-value.js';
import { generateWebhookSecret } from '../webhooks/signatures.js';

export const CHAT_KINDS = ['slack', 'mattermost', 'teams', 'discord'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];

export interface ContactMethodInput {
  kind: ContactMethodKind;
  name: string;
  /** email: the address; ntfy: the server URL; chat kinds and webhook: the URL to POST to; inbox: none. */
  address?: string | null;
  /** ntfy: the topic. */
  topic?: string | null;
  /** ntfy: an access token (optional). */
  token?: string | null;
  enabled?: boolean | null;
}

export type ContactMethodPatch = Partial<{
  name: string | null;
  address: string | null;
  topic: string | null;
  token: string | null;
  enabled: boolean | null;
}>;

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$|^[^\s@<>]+@localhost$/;
const TOPIC = /^[A-Za-z0-9_-]{1,64}$/;

function isChat(kind: ContactMethodKind): kind is ChatKind {
  return (CHAT_KINDS as readonly string[]).includes(kind);
}

/** The address shown for a chat webhook: its origin only (the path is the credential). */
function maskedChatAddress(url: URL): string {
  return `${url.origin}/…`;
}

interface Stored {
  address: string;
  topic: string | null;
  secretSealed: string | null | undefined;
  /** A webhook's signing secret, shown once on create. */
  secret?: string;
}

/** Validates kind-specific fields and builds the stored columns; undefined secretSealed keeps the old one. */
async function storedFields(
  ctx: Ctx,
  kind: ContactMethodKind,
  input: ContactMethodPatch,
  existing: ContactMethod | null,
): Promise<Stored> {
  const problems: FieldProblem[] = [];
  const address = input.address?.trim();
  const out: Stored = { address: existing?.address ?? '', topic: existing?.topic ?? null, secretSealed: undefined };
  const needAddress = !existing || input.address != null;
  if (kind === 'inbox') {
    out.address = '';
  } else if (kind === 'email') {
    if (needAddress) {
      if (address && address.length > EMAIL_MAX_LENGTH)
        problems.push({ loc: ['input', 'address'], msg: `must be at most ${EMAIL_MAX_LENGTH} characters` });
      else if (!address || !EMAIL.test(address))
        problems.push({ loc: ['input', 'address'], msg: 'must be an email address (name@example.com)' });
      out.address = address ?? '';
    }
  } else if (needAddress) {
    if (!address) problems.push({ loc: ['input', 'address'], msg: `a ${kind} contact method needs its URL` });
  }
  if (kind === 'ntfy') {
    const topic = input.topic?.trim();
    if (!existing || input.topic != null) {
      if (!topic || !TOPIC.test(topic))
        problems.push({ loc: ['input', 'topic'], msg: 'must be 1 to 64 letters, digits, - or _' });
      out.topic = topic ?? null;
    }
    // Sent as `Authorization: Bearer <token>`: the header rule integrations' tokens follow.
    const tokenProblem = input.token ? headerValueProblem(input.token) : null;
    if (tokenProblem) problems.push({ loc: ['input', 'token'], msg: tokenProblem });
    else if (input.token != null) out.secretSealed = input.token ? ctx.rt.secretBox.seal(input.token) : null;
  }
  if (problems.length) throw new ValidationFailed(problems);
  if (kind !== 'email' && kind !== 'inbox' && needAddress && address) {
    const url = await assertDeliverableUrl(address, urlPolicyOf(ctx.rt), ['input', 'address']);
    if (kind === 'ntfy') out.address = url.href.replace(/\/+$/, '');
    else if (isChat(kind)) {
      out.address = maskedChatAddress(url);
      out.secretSealed = ctx.rt.secretBox.seal(url.href);
    } else out.address = url.href;
  }
  if (kind === 'webhook' && !existing) {
    out.secret = generateWebhookSecret();
    out.secretSealed = ctx.rt.secretBox.seal(out.secret);
  }
  return out;
}

function checkName(name: string | null | undefined): string | undefined {
  if (name == null) return undefined;
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 100)
    throw new ValidationFailed([{ loc: ['input', 'name'], msg: 'must be 1 to 100 characters' }]);
  return trimmed;
}

/** One of the caller's own contact methods; anyone else's (same tenant or not) is NotFound. */
export async function loadOwnContactMethod(ctx: Ctx, id: string): Promise<ContactMethod> {
  const me = requireUser(ctx);
  const m = await ctx.db.contactMethod.findFirst({ where: { id, userId: me.userId } });
  if (!m) throw new NotFound('ContactMethod');
  return m;
}

/** Adds a contact method for the caller; a webhook's signing secret is returned this once. */
export async function createContactMethod(
  ctx: Ctx,
  input: ContactMethodInput,
): Promise<{ contactMethod: ContactMethod; secret: string | null }> {
  const me = requireUser(ctx);
  const name = checkName(input.name) ?? '';
  const stored = await storedFields(ctx, input.kind, input, null);
  const contactMethod = await ctx.db.contactMethod.create({
    data: {
      id: uuidv7(),
      userId: me.userId,
      kind: input.kind,
      name,
      address: stored.address,
      topic: stored.topic,
      secretSealed: stored.secretSealed ?? null,
      enabled: input.enabled ?? true,
    } as never,
  });
  return { contactMethod, secret: stored.secret ?? null };
}

/** Changes a contact method of the caller; omitted fields stay (a chat URL given again is sealed anew). */
export async function updateContactMethod(ctx: Ctx, id: string, patch: ContactMethodPatch): Promise<ContactMethod> {
  const m = await loadOwnContactMethod(ctx, id);
  const name = checkName(patch.name);
  const stored = await storedFields(ctx, m.kind, patch, m);
  return ctx.db.contactMethod.update({
    where: { id: m.id },
    data: {
      ...(name !== undefined ? { name } : {}),
      address: stored.address,
      topic: stored.topic,
      ...(stored.secretSealed !== undefined ? { secretSealed: stored.secretSealed } : {}),
      ...(patch.enabled != null ? { enabled: patch.enabled } : {}),
    },
  });
}

/** Removes a contact method and the rules that use it. */
export async function deleteContactMethod(ctx: Ctx, id: string): Promise<ContactMethod> {
  const m = await loadOwnContactMethod(ctx, id);
  await ctx.db.contactMethod.delete({ where: { id: m.id } });
  return m;
}

/** True when the method holds a sealed secret (an ntfy token, a chat URL, a signing secret). */
export function hasSecret(m: Pick<ContactMethod, 'secretSealed'>): boolean {
  return m.secretSealed != null;
}
