/**
 * What a notification says: the group's alert (summary, severity, labels, annotations with `runbook_url`
 * as a link), how many alerts the group holds, a link to the alert's console page, and the action links
 * signed for the person paged. A test notification says it is a test and carries no actions.
 */
import type { Runtime } from '../runtime.js';
import type { Notification } from '../generated/prisma/client.js';
import { actionLinks, type ActionLink } from './links.js';
import { publicBase } from '../public-url.js';
import { groupAlertsWhere } from '../alerts/group-alerts.js';

/** How many of a group's alerts a notification lists (the title counts them all). */
export const GROUP_ALERTS_LISTED = 100;

export interface PageContent {
  /** One line: `[CRITICAL] Disk full on db-1`. */
  title: string;
  summary: string;
  severity: string;
  urgency: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  runbookUrl: string | null;
  /** The alert's page in the console (or the console's home for a test). */
  consoleUrl: string;
  /** Other alerts in the group besides the one shown. */
  moreAlerts: number;
  /** The group's alerts, oldest first (at most GROUP_ALERTS_LISTED), when it holds more than one. */
  groupAlerts: Array<{ summary: string; severity: string; labels: Record<string, string> }>;
  groupId: string | null;
  alertId: string | null;
  actions: ActionLink[];
  test: boolean;
  /** A group_interval update: `groupAlerts` are the alerts new since the group's last notification. */
  update: boolean;
}

function stringMap(v: unknown): Record<string, string> {
  if (!v || typeof v !== 'object') return {};
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, String(x)]));
}

/** A runbook link only when it is an http(s) URL (an annotation is free text). */
function httpUrl(v: string | undefined): string | null {
  if (!v) return null;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** The content of one notification, read from its group (root client: the row carries its tenant). */
export async function pageContent(rt: Runtime, n: Notification): Promise<PageContent> {
  const base = publicBase(rt);
  if (!n.groupId) {
    return {
      title: 'Test notification from the Operations Service',
      summary: 'This is a test: your contact method works. Pages will look like this, with links to act on them.',
      severity: 'info',
      urgency: 'low',
      labels: {},
      annotations: {},
      runbookUrl: null,
      consoleUrl: `${base}/`,
      moreAlerts: 0,
      groupAlerts: [],
      groupId: null,
      alertId: null,
      actions: [],
      test: true,
      update: false,
    };
  }
  const [group, alertCount] = await Promise.all([
    rt.prisma.alertGroup.findFirst({ where: { id: n.groupId, tenantId: n.tenantId }, select: { urgency: true } }),
    rt.prisma.alert.count({ where: groupAlertsWhere(n.groupId, { tenantId: n.tenantId }) }),
  ]);
  const alert = await rt.prisma.alert.findFirst({
    where: n.alertId ? { id: n.alertId, tenantId: n.tenantId } : groupAlertsWhere(n.groupId, { tenantId: n.tenantId }),
    orderBy: { createdAt: 'asc' },
  });
  const annotations = stringMap(alert?.annotations);
  const summary = alert?.summary ?? 'An alert group is firing';
  const severity = alert?.severity ?? 'critical';
  // A group_interval update announces its new alerts only (n.alertIds); every other page, the whole group.
  const announced = n.alertIds.length ? n.alertIds.length : alertCount || 1;
  const more = Math.max(announced - 1, 0);
  const listed = more
    ? await rt.prisma.alert.findMany({
        where: n.alertIds.length
          ? { id: { in: n.alertIds }, tenantId: n.tenantId }
          : groupAlertsWhere(n.groupId, { tenantId: n.tenantId }),
        orderBy: { createdAt: 'asc' },
        take: GROUP_ALERTS_LISTED,
        select: { summary: true, severity: true, labels: true },
      })
    : [];
  const prefix = n.reason === 'group_update' ? 'New in group: ' : n.reason === 'group_repeat' ? 'Still firing: ' : '';
  return {
    title: `${prefix}[${severity.toUpperCase()}] ${summary}${more ? ` (+${more} more)` : ''}`,
    summary,
    severity,
    urgency: group?.urgency ?? 'high',
    labels: stringMap(alert?.labels),
    annotations,
    runbookUrl: httpUrl(annotations.runbook_url),
    consoleUrl: alert ? `${base}/alerts/${alert.id}` : `${base}/alerts`,
    moreAlerts: more,
    groupAlerts: listed.map((a) => ({ summary: a.summary, severity: a.severity, labels: stringMap(a.labels) })),
    groupId: n.groupId,
    alertId: alert?.id ?? null,
    actions: actionLinks(rt, { tenantId: n.tenantId, groupId: n.groupId, userId: n.userId, pagedAt: n.createdAt }),
    test: false,
    update: n.reason === 'group_update',
  };
}

/** Plain text of a page, for email bodies and chat messages without markup. */
export function plainText(c: PageContent): string {
  const lines = [c.title, '', c.summary, `Severity: ${c.severity}`];
  const labels = Object.entries(c.labels);
  if (labels.length) lines.push('', 'Labels:', ...labels.map(([k, v]) => `  ${k}=${v}`));
  const notes = Object.entries(c.annotations).filter(([k]) => k !== 'runbook_url');
  if (notes.length) lines.push('', 'Annotations:', ...notes.map(([k, v]) => `  ${k}: ${v}`));
  if (c.runbookUrl) lines.push('', `Runbook: ${c.runbookUrl}`);
  if (c.groupAlerts.length) {
    lines.push('', `${c.update ? 'New alerts' : 'Alerts'} in this group (${c.moreAlerts + 1}):`);
    for (const a of c.groupAlerts) {
      const ls = Object.entries(a.labels)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ');
      lines.push(`  [${a.severity}] ${a.summary}${ls ? ` {${ls}}` : ''}`);
    }
    if (c.moreAlerts + 1 > c.groupAlerts.length) lines.push(`  … and ${c.moreAlerts + 1 - c.groupAlerts.length} more`);
  }
  lines.push('', `Open in the console: ${c.consoleUrl}`);
  for (const a of c.actions) lines.push(`${a.label}: ${a.url}`);
  if (c.actions.length) lines.push('', 'Each link opens a confirmation page; it acts for you and expires in 24 hours.');
  return lines.join('\n');
}
