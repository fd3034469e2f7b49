/**
 * The alerts of a group: those whose primary group it is (`Alert.groupId`, the first route they matched) and
 * those that belong to it as a further route's group (`AlertGroupMember`, a route after one with `continue`).
 * Every read of "the alerts of a group" goes through here, so both kinds page, notify, count and move together.
 */
import type { Alert, Prisma } from '../generated/prisma/client.js';

type Tx = Prisma.TransactionClient;

/** The `where` of the alerts of group `groupId`, and'ed with `and` (e.g. `{ status: { not: 'resolved' } }`). */
export function groupAlertsWhere(groupId: string, and: Prisma.AlertWhereInput = {}): Prisma.AlertWhereInput {
  return { AND: [and, { OR: [{ groupId }, { groupMemberships: { some: { groupId } } }] }] };
}

/** The live (not resolved) alerts of group `groupId`, and'ed with `and`. */
export function liveGroupAlertsWhere(groupId: string, and: Prisma.AlertWhereInput = {}): Prisma.AlertWhereInput {
  return groupAlertsWhere(groupId, { ...and, status: { not: 'resolved' } });
}

/**
 * The ids of every group `alert` is in: its primary group first, then the groups it is a member of (an alert
 * is a member only once it has a primary group, so one without asks nothing).
 */
export async function groupIdsOfAlert(tx: Tx, alert: Pick<Alert, 'id' | 'groupId'>): Promise<string[]> {
  if (!alert.groupId) return [];
  const members = await tx.alertGroupMember.findMany({
    where: { alertId: alert.id },
    orderBy: { createdAt: 'asc' },
    select: { groupId: true },
  });
  const ids = [alert.groupId];
  for (const m of members) if (!ids.includes(m.groupId)) ids.push(m.groupId);
  return ids;
}
