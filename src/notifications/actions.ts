/**
 * Acting on a page from its link (src/notifications/links.ts): the link's person acknowledges, snoozes
 * (1 h) or resolves the group with their own permissions, through the alert-group functions every other
 * client uses (src/escalation/groups.ts), and the action is written to the audit log as theirs. A link
 * only describes (`describePageLink`) on GET; `actOnPageLink` runs only for a POST carrying the link's
 * form token.
 */
import type { Runtime } from '../runtime.js';
import { createCtx } from '../context.js';
import type { Principal } from '../principal.js';
import { recordAudit } from '../audit/audit.js';
import { Forbidden } from '../errors.js';
import { acknowledgeGroup, resolveGroup, snoozeGroup } from '../escalation/groups.js';
import { formTokenMatches, SNOOZE_MS, verifyActionToken, type LinkClaims, type PageAction } from './links.js';
import { groupAlertsWhere } from '../alerts/group-alerts.js';

export interface LinkView {
  ok: boolean;
  /** Why the link does not act (expired, bad signature, the person is gone). */
  problem?: string;
  action?: PageAction;
  user?: { id: string; email: string; name: string | null };
  group?: { id: string; status: string };
  alert?: { id: string; summary: string; severity: string } | null;
}

const PROBLEMS = {
  malformed: 'This link is not a valid action link.',
  bad_signature: 'This link is not a valid action link.',
  expired: 'This link has expired (links act for 24 hours after the page). Open the alert in the console instead.',
} as const;

async function loadClaims(rt: Runtime, token: string): Promise<{ claims?: LinkClaims; view: LinkView }> {
  const v = verifyActionToken(rt, token);
  if (!v.ok) return { view: { ok: false, problem: PROBLEMS[v.problem] } };
  const { claims } = v;
  const user = await rt.prisma.user.findFirst({
    where: { id: claims.u, tenantId: claims.t },
    select: { id: true, email: true, name: true },
  });
  if (!user) return { view: { ok: false, problem: 'The person this link was sent to no longer exists.' } };
  const group = await rt.prisma.alertGroup.findFirst({
    where: { id: claims.g, tenantId: claims.t },
    select: { id: true, status: true },
  });
  if (!group) return { view: { ok: false, problem: 'This alert group no longer exists.' } };
  const alert = await rt.prisma.alert.findFirst({
    where: groupAlertsWhere(group.id, { tenantId: claims.t }),
    orderBy: { createdAt: 'asc' },
    select: { id: true, summary: true, severity: true },
  });
  return { claims, view: { ok: true, action: claims.a, user, group, alert } };
}

/** What a link would do, for its confirmation page; changes nothing. */
export async function describePageLink(rt: Runtime, token: string): Promise<LinkView> {
  return (await loadClaims(rt, token)).view;
}

/**
 * Runs the link's action as its person, when `givenFormToken` is the link's form token. Throws the
 * group functions' typed errors (a Conflict when the group is already in a state the action cannot
 * leave), Forbidden for a missing or wrong form token.
 */
export async function actOnPageLink(
  rt: Runtime,
  token: string,
  givenFormToken: unknown,
  requestId: string,
): Promise<LinkView> {
  if (!formTokenMatches(rt, token, givenFormToken))
    throw new Forbidden('The confirmation form token is missing or does not match this link.', 'FORBIDDEN');
  const { claims, view } = await loadClaims(rt, token);
  if (!claims || !view.user) return view;
  const full = await rt.prisma.user.findUniqueOrThrow({
    where: { id: claims.u },
    select: { role: true, kind: true },
  });
  const principal: Principal = {
    tenantId: claims.t,
    userId: claims.u,
    email: view.user.email,
    role: full.role,
    userKind: full.kind,
    credential: { kind: 'system', id: 'page-link' },
  };
  const ctx = createCtx(rt, principal, requestId);
  const group =
    claims.a === 'acknowledge'
      ? await acknowledgeGroup(ctx, claims.g)
      : claims.a === 'snooze'
        ? await snoozeGroup(ctx, claims.g, new Date(rt.clock.now().getTime() + SNOOZE_MS))
        : await resolveGroup(ctx, claims.g);
  await recordAudit(ctx, [{ action: `${claims.a}AlertGroup`, targetType: 'AlertGroup', targetId: claims.g }]);
  return { ...view, group: { id: group.id, status: group.status } };
}
