/**
 * "Why did or didn't it page": the reasons an alert pages someone or no one, in the order a reader
 * checks them: what muted it (maintenance window, silence, inhibition), the group it pages in, the
 * escalation policy of that group, and the pages written so far. The route its group formed on (the routing
 * tree's route path and receiver) is the `route` reason. Read-only; tenant-scoped through `ctx.db`.
 */
import type { Ctx } from '../context.js';
import type { RouteDoc } from './route-tree.js';

export type PagingReasonKind =
  'status' | 'maintenance_window' | 'silence' | 'inhibition' | 'route' | 'group' | 'policy' | 'pages';

export interface PagingReason {
  kind: PagingReasonKind;
  /** One sentence for people. */
  message: string;
  /** Whether this reason keeps the alert from paging. */
  blocks: boolean;
  silenceId: string | null;
  inhibitingAlertId: string | null;
  maintenanceWindowId: string | null;
  groupId: string | null;
  policyId: string | null;
  /** A `route` reason: the route's id, the route ids from the root to it, and its receiver (null: the default). */
  routeId: string | null;
  routePath: string[] | null;
  receiver: string | null;
}

export interface PagingExplanation {
  /** Whether the alert pages (or paged) someone: nothing muted it and its group has an escalation policy. */
  pages: boolean;
  /** People paged for it so far (its `paged` timeline entries). */
  pagedCount: number;
  summary: string;
  reasons: PagingReason[];
}

const reason = (kind: PagingReasonKind, message: string, blocks: boolean, ids: Partial<PagingReason> = {}) => ({
  kind,
  message,
  blocks,
  silenceId: null,
  inhibitingAlertId: null,
  maintenanceWindowId: null,
  groupId: null,
  policyId: null,
  routeId: null,
  routePath: null,
  receiver: null,
  ...ids,
});

/** Explains the paging of the caller's alert `alertId` (null when the caller cannot see it). */
export async function explainPaging(ctx: Ctx, alertId: string): Promise<PagingExplanation | null> {
  const a = await ctx.db.alert.findUnique({
    where: { id: alertId },
    include: {
      maintenanceWindow: { select: { id: true, windowName: true } },
      silence: { select: { id: true, comment: true, createdBy: true, endsAt: true } },
      inhibitedBy: { select: { id: true, summary: true, status: true } },
      group: { include: { policy: { select: { id: true, name: true } } } },
    },
  });
  if (!a) return null;
  const reasons: PagingReason[] = [];
  if (a.maintenanceWindowId || a.maintenanceWindow)
    reasons.push(
      reason(
        'maintenance_window',
        `Opened inside maintenance window "${a.maintenanceWindow?.windowName ?? a.maintenanceWindowId}": it pages no one.`,
        true,
        { maintenanceWindowId: a.maintenanceWindowId },
      ),
    );
  // A window is a silence of the same id: one reason says it.
  if (a.silence && a.silence.id !== a.maintenanceWindowId)
    reasons.push(
      reason(
        'silence',
        `Silenced by ${a.silence.createdBy}'s silence "${a.silence.comment.slice(0, 200)}" (${a.silence.id}): it pages no one while the silence mutes it.`,
        true,
        { silenceId: a.silence.id },
      ),
    );
  if (a.inhibitedBy)
    reasons.push(
      reason(
        'inhibition',
        `Inhibited by alert "${a.inhibitedBy.summary.slice(0, 200)}" (${a.inhibitedBy.id}, ${a.inhibitedBy.status}): it pages no one until that alert resolves.`,
        true,
        { inhibitingAlertId: a.inhibitedBy.id },
      ),
    );
  const muted = reasons.length > 0 || a.suppressed;
  const g = a.group;
  if (g?.routeId) reasons.push(await routeReason(ctx, g));
  if (!g) reasons.push(reason('group', 'It is in no alert group, so no escalation runs for it.', true));
  else {
    const state =
      g.status === 'acknowledged'
        ? 'acknowledged: escalation stopped'
        : g.status === 'snoozed'
          ? `snoozed until ${g.snoozedUntil?.toISOString() ?? 'later'}`
          : g.status;
    reasons.push(reason('group', `It pages in alert group ${g.groupKey} (${state}).`, false, { groupId: g.id }));
    if (g.policy)
      reasons.push(
        reason(
          'policy',
          `Escalation policy "${g.policy.name}"${g.step >= 0 ? `: step ${g.step + 1} ran last` : ': no step has run yet'}${g.nextStepAt ? `, next step due ${g.nextStepAt.toISOString()}` : ''}.`,
          false,
          { policyId: g.policy.id, groupId: g.id },
        ),
      );
    else
      reasons.push(
        reason(
          'policy',
          muted
            ? 'Its group has no escalation policy because it opened muted.'
            : 'No escalation policy: its rule, its integration and the tenant have none.',
          true,
          { groupId: g.id },
        ),
      );
  }
  const pagedCount = await ctx.db.alertTimelineEntry.count({ where: { alertId: a.id, action: 'paged' } });
  reasons.push(
    reason('pages', pagedCount ? `${pagedCount} page(s) sent for it.` : 'No one has been paged for it.', false),
  );
  const pages = !muted && !!g?.policyId;
  if (a.status === 'resolved')
    reasons.unshift(reason('status', `Resolved at ${a.resolvedAt?.toISOString() ?? 'some time'}.`, false));
  const first = reasons.find((r) => r.blocks);
  const summary = pages
    ? pagedCount
      ? `It paged ${pagedCount} time(s).`
      : 'It pages: escalation runs for its group.'
    : `It pages no one: ${first?.message ?? 'it was muted.'}`;
  return { pages, pagedCount, summary, reasons };
}

/** Route ids from the root to `routeId` in the tenant's current tree (just the id when the tree changed since). */
function routePathOf(routes: RouteDoc[], routeId: string): string[] {
  const byId = new Map(routes.map((r) => [r.id, r]));
  const path: string[] = [];
  for (let r = byId.get(routeId); r && path.length <= routes.length; r = r.parentId ? byId.get(r.parentId) : undefined)
    path.unshift(r.id);
  return path.length ? path : [routeId];
}

/** The `route` reason of a group the routing tree formed: its route path and receiver. */
async function routeReason(
  ctx: Ctx,
  g: { id: string; routeId: string | null; receiver: string | null; groupLabels: unknown },
): Promise<PagingReason> {
  const tree = await ctx.db.routingTree.findFirst({ select: { routes: true } });
  const routePath = routePathOf((tree?.routes ?? []) as unknown as RouteDoc[], g.routeId!);
  const values = Object.entries((g.groupLabels ?? {}) as Record<string, string>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  const to = g.receiver ? `receiver "${g.receiver}"` : 'the default receiver (the tenant default policy)';
  return reason(
    'route',
    `It took route ${routePath.join(' › ')} to ${to}${values ? `, grouped by ${values}` : ''}.`,
    false,
    { groupId: g.id, routeId: g.routeId, routePath, receiver: g.receiver },
  );
}
