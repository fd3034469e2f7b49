/**
 * Action links of a page: acknowledge, snooze 1 h or resolve a group from the notification. A link is
 * signed for one person and one group (HMAC-SHA256 under a key derived from APP_SECRET, src/signing.ts)
 * and expires 24 h after the page, on the service clock. Opening it (GET) shows a confirmation page and
 * changes nothing; only its form's POST acts, carrying a form token bound to the link (so a link
 * previewer that fetches the URL acts on nothing, and a form on another site cannot post without the
 * page's token). ntfy's `http` action buttons post the same token (src/notifications/channels.ts).
 */
import crypto from 'node:crypto';
import type { Runtime } from '../runtime.js';
import { hmacHex } from '../signing.js';
import { constantTimeEqual } from '../secrets.js';
import { publicBase } from '../public-url.js';

export const PAGE_ACTIONS = ['acknowledge', 'snooze', 'resolve'] as const;
export type PageAction = (typeof PAGE_ACTIONS)[number];

/** How long a link acts after the page. */
export const LINK_TTL_MS = 24 * 3600 * 1000;
/** How long "snooze" snoozes. */
export const SNOOZE_MS = 3600 * 1000;

/** Where the links point: /actions/<token> under the public base URL. */
export const ACTION_PATH = '/actions';

export interface LinkClaims {
  /** The action. */
  a: PageAction;
  /** Tenant, group and person. */
  t: string;
  g: string;
  u: string;
  /** Expiry, ms since the epoch. */
  e: number;
}

/** The key links are signed with: derived from the runtime's secret material, never stored. */
function linkKey(rt: Pick<Runtime, 'jwtKey'>): string {
  return crypto.createHmac('sha256', rt.jwtKey).update('page-action-links').digest('hex');
}

/** A signed token for one action on one group by one person. */
export function signActionToken(rt: Pick<Runtime, 'jwtKey'>, claims: LinkClaims): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${hmacHex(linkKey(rt), body)}`;
}

export type TokenProblem = 'malformed' | 'bad_signature' | 'expired';

/** The claims of a token whose signature holds and which has not expired, or why not. */
export function verifyActionToken(
  rt: Pick<Runtime, 'jwtKey' | 'clock'>,
  token: string,
): { ok: true; claims: LinkClaims } | { ok: false; problem: TokenProblem } {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined) return { ok: false, problem: 'malformed' };
  if (!constantTimeEqual(hmacHex(linkKey(rt), body), sig)) return { ok: false, problem: 'bad_signature' };
  let claims: LinkClaims;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LinkClaims;
  } catch {
    return { ok: false, problem: 'malformed' };
  }
  if (!PAGE_ACTIONS.includes(claims.a) || typeof claims.e !== 'number') return { ok: false, problem: 'malformed' };
  if (rt.clock.now().getTime() >= claims.e) return { ok: false, problem: 'expired' };
  return { ok: true, claims };
}

/** The confirmation form's token: bound to the link, so only a page (or ntfy button) for this link posts it. */
export function formToken(rt: Pick<Runtime, 'jwtKey'>, token: string): string {
  return hmacHex(linkKey(rt), `form:${token}`);
}

/** True when `given` is the form token of `token` (constant time). */
export function formTokenMatches(rt: Pick<Runtime, 'jwtKey'>, token: string, given: unknown): boolean {
  return typeof given === 'string' && constantTimeEqual(formToken(rt, token), given);
}

export interface ActionLink {
  action: PageAction;
  label: string;
  url: string;
  /** What the confirmation form posts (and ntfy's button sends as its body). */
  formToken: string;
}

const LABELS: Record<PageAction, string> = { acknowledge: 'Acknowledge', snooze: 'Snooze 1 h', resolve: 'Resolve' };

/** The three links of a page for this person and group, valid for 24 h from `pagedAt`. */
export function actionLinks(
  rt: Pick<Runtime, 'jwtKey' | 'config'>,
  p: { tenantId: string; groupId: string; userId: string; pagedAt: Date },
): ActionLink[] {
  const base = publicBase(rt);
  return PAGE_ACTIONS.map((a) => {
    const token = signActionToken(rt, {
      a,
      t: p.tenantId,
      g: p.groupId,
      u: p.userId,
      e: p.pagedAt.getTime() + LINK_TTL_MS,
    });
    return { action: a, label: LABELS[a], url: `${base}${ACTION_PATH}/${token}`, formToken: formToken(rt, token) };
  });
}
