/**
 * The groups an alert that just opened pages in, by the tenant's routing tree (src/routing/route-tree.ts):
 * one per route it matched (several when a route has `continue`). Alerts with the same route and the same
 * `group_by` values share the live group of key `route:<route id>:<digest of the values>`; the group first
 * pages after the route's `group_wait`, so every alert that joined meanwhile is in that one page.
 *
 * The first matched route's group is the alert's primary group (`Alert.groupId`, the one the API shows);
 * each further route's group holds it as a member (`AlertGroupMember`), and pages, notifies and follows it
 * the same way (src/alerts/group-alerts.ts).
 *
 * A route's receiver chooses the policy: its escalation policy; a receiver that points at nothing (or the
 * root's unset receiver) pages as the default route does (`choosePolicy`); a receiver with webhooks only,
 * and a route its time intervals mute now page no one. A silenced or suppressed alert pages no one: it gets
 * one group of its own (its first route's), not one per route.
 *
 * A tenant that never stored a tree keeps the default route: one group per alert (`openOwnGroup`).
 */
import type { Alert, AlertGroup, Prisma } from '../generated/prisma/client.js';
import { alertLabelSet } from './silences.js';
import { groupLabels, matchRoutes, routeGroupKey, type ResolvedRoute, type RouteDoc } from './route-tree.js';
import { routeMutedAt } from './routing-tree-store.js';
import { choosePolicy, openOrJoinGroup, openOwnGroup } from '../escalation/join.js';

type Tx = Prisma.TransactionClient;

/**
 * Opens or joins the groups the tenant's routing tree forms for `alert` (see the module comment); the
 * primary group first.
 */
export async function openRoutedGroups(tx: Tx, alert: Alert, now: Date): Promise<AlertGroup[]> {
  const tree = await tx.routingTree.findUnique({ where: { tenantId: alert.tenantId }, select: { routes: true } });
  if (!tree) return [await openOwnGroup(tx, alert, now)];
  const rule = alert.ruleId
    ? await tx.alertRule.findUnique({ where: { id: alert.ruleId }, select: { name: true } })
    : null;
  const labels = alertLabelSet({ ...alert, ruleName: rule?.name ?? null });
  const matched = matchRoutes(tree.routes as unknown as RouteDoc[], labels);
  if (!matched.length) return [await openOwnGroup(tx, alert, now)];
  const routes = alert.suppressed ? matched.slice(0, 1) : matched;
  const groups: AlertGroup[] = [];
  for (const [i, route] of routes.entries()) groups.push(await openRouteGroup(tx, alert, route, labels, now, i > 0));
  return groups;
}

/** Opens or joins `alert`'s group on one matched route; `member`: a further route's group, not its primary one. */
async function openRouteGroup(
  tx: Tx,
  alert: Alert,
  route: ResolvedRoute,
  labels: Record<string, string>,
  now: Date,
  member: boolean,
): Promise<AlertGroup> {
  const receiver = route.receiver
    ? await tx.routingReceiver.findFirst({ where: { tenantId: alert.tenantId, name: route.receiver } })
    : null;
  let policyId: string | null = null;
  const muted = alert.suppressed || (await routeMutedAt(tx, alert.tenantId, route, now));
  if (!muted) {
    if (receiver?.escalationPolicyId) policyId = receiver.escalationPolicyId;
    else if (!receiver || receiver.outboundWebhookIds.length === 0) policyId = await choosePolicy(tx, alert);
  }
  // A muted or silenced alert pages no one: it gets a group of its own rather than joining (and holding) a paging one.
  const groupKey = alert.suppressed ? `alert:${alert.id}` : `${routeGroupKey(route, labels)}${muted ? ':muted' : ''}`;
  // A group that pages or sends to webhooks notifies by group_interval and repeat_interval (group-notify.ts).
  const notifies = !muted && (policyId !== null || (receiver?.outboundWebhookIds.length ?? 0) > 0);
  const { group } = await openOrJoinGroup(tx, alert, {
    groupKey,
    policyId,
    now,
    member,
    waitSeconds: route.groupWaitSeconds,
    routeId: route.id,
    receiver: route.receiver,
    groupLabels: groupLabels(route, labels),
    intervals: notifies
      ? { groupSeconds: route.groupIntervalSeconds, repeatSeconds: route.repeatIntervalSeconds }
      : null,
  });
  return group;
}
