/**
 * Alerts: the Alert type (events, rule, assignee, timeline, maintenance window), the `alerts`
 * connection and `alert(id)`, the actions (acknowledge, snooze, resolve) and the `alertChanged`
 * subscription. Maintenance windows are schema/maintenance-windows.ts.
 */
import { filter as filterIterable, pipe } from 'graphql-yoga';
import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { builder, found, SeverityEnum, upperCaseValues, NodeRef } from './builder.js';
import { AlertConnection, PAGE } from './connections.js';
import { EventRef } from './events.js';
import { MaintenanceWindowRef } from './maintenance-windows.js';
import { requireUser } from '../src/context.js';
import { acknowledgeAlert, resolveAlert, snoozeAlert } from '../src/alerts/actions.js';
import { allowedActions, type AlertStatus } from '../src/alerts/state.js';
import type { Prisma } from '../src/generated/prisma/client.js';
import { labelFilterProblem } from '../src/alerts/labels.js';
import { latestEventsLoader } from '../src/alerts/latest-events.js';
import { ValidationFailed } from '../src/errors.js';
import type { AlertChangeKind } from '../src/alerts/lifecycle.js';

export const AlertStatusEnum = builder.enumType('AlertStatus', {
  values: upperCaseValues({
    open: { description: 'Firing, nobody has taken it.' },
    acknowledged: { description: 'Someone took it (the assignee).' },
    snoozed: { description: 'Quiet until snoozedUntil, then open again.' },
    resolved: { description: 'Done. A later match opens a new alert.' },
  } as const),
});
const AlertActionEnum = builder.enumType('AlertAction', {
  values: upperCaseValues(['acknowledge', 'snooze', 'resolve'] as const),
});

/** Most events `Alert.events` returns. */
const MAX_ALERT_EVENTS = 100;

builder.prismaObject('AlertTimelineEntry', {
  description: 'One change of an alert: who (null: the service), what, from which status to which.',
  fields: (t) => ({
    id: t.exposeID('id'),
    action: t.exposeString('action', {
      description:
        'opened, acknowledged, snoozed, reopened, resolved; assigned, unassigned (the note names whom); note (the note is the text).',
    }),
    fromStatus: t.expose('fromStatus', { type: AlertStatusEnum, nullable: true }),
    toStatus: t.expose('toStatus', { type: AlertStatusEnum, nullable: true }),
    note: t.exposeString('note', { nullable: true }),
    actor: t.relation('actor', { nullable: true }),
    actorEventId: t.exposeID('actorEventId', {
      nullable: true,
      description:
        'The event that made this change (a resolve/acknowledge event, a returning heartbeat, an upstream resolve).',
    }),
    actorEvent: t.field({
      type: EventRef,
      nullable: true,
      description: 'The event named by actorEventId, while it is kept.',
      resolve: (e, _args, ctx) => (e.actorEventId ? ctx.db.event.findFirst({ where: { id: e.actorEventId } }) : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/** askedFields by the field nodes of one execution (graphql-js hands each row of a list the same array). */
const askedByNodes = new WeakMap<readonly FieldNode[], string[]>();

/** The names of the fields a field's selection asks for (through fragments too): for a row, the columns to load. */
function askedFields(info: GraphQLResolveInfo): string[] {
  const cached = askedByNodes.get(info.fieldNodes);
  if (cached) return cached;
  const names: string[] = [];
  const collect = (set: SelectionSetNode | undefined, seen: Set<string>): void => {
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) names.push(s.name.value);
      else if (s.kind === Kind.INLINE_FRAGMENT) collect(s.selectionSet, seen);
      else if (!seen.has(s.name.value)) collect(info.fragments[s.name.value]?.selectionSet, seen.add(s.name.value));
    }
  };
  for (const node of info.fieldNodes) collect(node.selectionSet, new Set());
  askedByNodes.set(info.fieldNodes, names);
  return names;
}

export const AlertRef = builder.prismaObject('Alert', {
  interfaces: [NodeRef],
  // Always loaded: the id and the status (`allowedActions` reads it); a column field loads its column when asked (schema/loaded-scalars.ts).
  select: { id: true, status: true },
  description: 'Raised by a rule; repeated matches while it is live attach to it and bump `count`.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.expose('status', { type: AlertStatusEnum }),
    severity: t.expose('severity', { type: SeverityEnum }),
    summary: t.exposeString('summary'),
    source: t.exposeString('source', { nullable: true }),
    labels: t.expose('labels', {
      type: 'JSON',
      description:
        'String → string labels of the opening event or upstream alert (e.g. service, namespace, pod, alertname).',
    }),
    annotations: t.expose('annotations', {
      type: 'JSON',
      description: 'String → string notes of the source: description, runbook_url, generator_url, … when it had them.',
    }),
    dedupKey: t.exposeString('dedupKey', {
      description:
        'The key repeated matches and resolve events name: an event `{event_action: "resolve", dedup_key: <this>}` resolves the alert.',
    }),
    count: t.exposeInt('count', { description: 'Events attached (absence alerts: 1).' }),
    firstSeenAt: t.expose('firstSeenAt', { type: 'DateTime' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime' }),
    acknowledgedAt: t.expose('acknowledgedAt', { type: 'DateTime', nullable: true }),
    snoozedUntil: t.expose('snoozedUntil', { type: 'DateTime', nullable: true }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true }),
    suppressed: t.exposeBoolean('suppressed', {
      description:
        'Muted when it opened (a maintenance window, a silence or an inhibiting alert): pages no one, no outbound trigger.',
    }),
    ruleId: t.exposeString('ruleId', { nullable: true }),
    assigneeId: t.exposeString('assigneeId', { nullable: true }),
    maintenanceWindowId: t.exposeString('maintenanceWindowId', {
      nullable: true,
      description:
        'The maintenance window that muted it when it opened: a silence of the same id (silenceId names it too, for alerts opened since windows became silences).',
    }),
    allowedActions: t.field({
      type: [AlertActionEnum],
      resolve: (a) => allowedActions(a.status as AlertStatus) as Array<'acknowledge' | 'snooze' | 'resolve'>,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    rule: t.relation('rule', { nullable: true }),
    assignee: t.relation('assignee', { nullable: true }),
    maintenanceWindow: t.relation('maintenanceWindow', { nullable: true, type: MaintenanceWindowRef }),
    timeline: t.relation('timeline', { query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } }),
    events: t.field({
      type: [EventRef],
      description: `The attached events, latest first (limit default 20, at most ${MAX_ALERT_EVENTS}).`,
      args: { limit: t.arg.int({ defaultValue: 20 }) },
      // Batched over the alerts of the request, link and events in one statement (src/alerts/latest-events.ts).
      resolve: (alert, args, ctx, info) =>
        latestEventsLoader(ctx, Math.max(1, Math.min(args.limit ?? 20, MAX_ALERT_EVENTS)), askedFields(info)).load(
          alert.id,
        ),
    }),
  }),
});

/** At most this many alerts are listed on an event. */
const MAX_EVENT_ALERTS = 50;

// The event side of the alert ↔ event link (Event is the events area's type).
builder.prismaObjectFields('Event', (t) => ({
  alerts: t.field({
    type: [AlertRef],
    description: `The alerts this event opened or was attached to, newest first (at most ${MAX_EVENT_ALERTS}).`,
    select: (_args, _ctx, nestedSelection) => ({
      alerts: { take: MAX_EVENT_ALERTS, orderBy: [{ alertId: 'desc' }], select: { alert: nestedSelection(true) } },
    }),
    resolve: (event) => event.alerts.map((ae) => ae.alert),
  }),
}));

const AlertFilter = builder.inputType('AlertFilter', {
  fields: (t) => ({
    severity: t.field({ type: SeverityEnum }),
    status: t.field({ type: [AlertStatusEnum], description: 'Any of these statuses.' }),
    since: t.field({ type: 'DateTime', description: 'Opened at or after this time.' }),
    source: t.string(),
    ruleId: t.id(),
    assigneeId: t.id(),
    suppressed: t.boolean(),
    search: t.string({ description: 'Case-insensitive text in the summary, source or dedup key.' }),
    dedupKey: t.string({
      description:
        "The alert with this dedup key: its own `dedupKey`, or the key an integration's sender used (PagerDuty's `dedup_key`, Alertmanager's fingerprint), which the alert stores as `integration:<id>:<key>`.",
    }),
    labels: t.field({
      type: 'JSON',
      description: 'Exact match on each key: `{"service": "checkout"}` keeps alerts whose label service is checkout.',
    }),
  }),
});

type AlertFilterValue = typeof AlertFilter.$inferInput;

function alertWhere(f: AlertFilterValue | null | undefined): Prisma.AlertWhereInput {
  if (!f) return {};
  let labels: Prisma.AlertWhereInput[] = [];
  if (f.labels != null) {
    const problem = labelFilterProblem(f.labels);
    if (problem) throw new ValidationFailed([{ loc: ['filter', 'labels'], msg: problem }]);
    labels = Object.entries(f.labels as Record<string, string>).map(([k, v]) => ({ labels: { path: [k], equals: v } }));
  }
  // A sender's own key matches the alert of any of the tenant's integrations that stored it.
  const dedup: Prisma.AlertWhereInput[] = f.dedupKey
    ? [{ OR: [{ dedupKey: f.dedupKey }, { dedupKey: { startsWith: 'integration:', endsWith: `:${f.dedupKey}` } }] }]
    : [];
  return {
    ...(labels.length || dedup.length ? { AND: [...labels, ...dedup] } : {}),
    ...(f.severity ? { severity: f.severity } : {}),
    ...(f.status?.length ? { status: { in: [...f.status] } } : {}),
    ...(f.since ? { firstSeenAt: { gte: f.since } } : {}),
    ...(f.source ? { source: f.source } : {}),
    ...(f.ruleId ? { ruleId: String(f.ruleId) } : {}),
    ...(f.assigneeId ? { assigneeId: String(f.assigneeId) } : {}),
    ...(f.suppressed != null ? { suppressed: f.suppressed } : {}),
    ...(f.search?.trim()
      ? {
          OR: (['summary', 'source', 'dedupKey'] as const).map((field) => ({
            [field]: { contains: f.search!.trim(), mode: 'insensitive' as const },
          })),
        }
      : {}),
  };
}

/** The sortable columns (REST `sort` spells the same values, snake_case) and the column each sorts by. */
const ORDER_COLUMNS = {
  last_seen_at: 'lastSeenAt',
  first_seen_at: 'firstSeenAt',
  severity: 'severity',
  status: 'status',
  count: 'count',
  summary: 'summary',
} as const;
const AlertOrderFieldEnum = builder.enumType('AlertOrderField', {
  values: upperCaseValues({
    last_seen_at: { description: 'When an event last matched it.' },
    first_seen_at: { description: 'When it opened (its age).' },
    severity: { description: 'INFO < WARNING < CRITICAL.' },
    status: { description: 'OPEN < ACKNOWLEDGED < SNOOZED < RESOLVED.' },
    count: { description: 'Events attached.' },
    summary: { description: 'Alphabetical.' },
  } as const),
});
const OrderDirectionEnum = builder.enumType('OrderDirection', {
  values: upperCaseValues(['asc', 'desc'] as const),
});
const AlertOrder = builder.inputType('AlertOrder', {
  description: 'Sorts the alerts by one field; ties are broken by the id in the same direction, so cursors stay exact.',
  fields: (t) => ({
    field: t.field({ type: AlertOrderFieldEnum, required: true }),
    direction: t.field({ type: OrderDirectionEnum, required: true, defaultValue: 'desc' }),
  }),
});

/** The Prisma order of `alerts(orderBy:)`: the column, then the id (unique), so the order is total and cursors exact. */
function alertOrder(o: typeof AlertOrder.$inferInput | null | undefined): Prisma.AlertOrderByWithRelationInput[] {
  if (!o) return [{ id: 'desc' }];
  return [{ [ORDER_COLUMNS[o.field]]: o.direction }, { id: o.direction }];
}

builder.queryFields((t) => ({
  alerts: t.prismaConnection(
    {
      type: 'Alert',
      cursor: 'id',
      authScopes: { user: true },
      description: 'Alerts of the tenant, newest first unless `orderBy` says otherwise.',
      args: { filter: t.arg({ type: AlertFilter }), orderBy: t.arg({ type: AlertOrder }) },
      ...PAGE,
      totalCount: (_conn, args, ctx) => ctx.db.alert.count({ where: alertWhere(args.filter) }),
      resolve: (query, _root, args, ctx) =>
        ctx.db.alert.findMany({ ...query, where: alertWhere(args.filter), orderBy: alertOrder(args.orderBy) }),
    },
    AlertConnection,
  ),
  alert: t.prismaField({
    type: 'Alert',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found('Alert', await ctx.db.alert.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
}));

const SnoozeAlertInput = builder.inputType('SnoozeAlertInput', {
  description: 'Exactly one of duration or until.',
  fields: (t) => ({
    duration: t.string({
      description: 'Seconds ("900") or a duration: "30s", "15m", "2h", "1d", "1h30m", ISO-8601 "PT1H". Any length.',
    }),
    until: t.field({ type: 'DateTime', description: 'A time in the future.' }),
  }),
});

builder.mutationFields((t) => ({
  acknowledgeAlert: t.prismaField({
    type: 'Alert',
    authScopes: { user: true },
    description: 'open or snoozed → acknowledged, assigned to the caller. Other states: CONFLICT.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const alert = await acknowledgeAlert(ctx, { id: String(args.id) });
      return ctx.db.alert.findUniqueOrThrow({ ...query, where: { id: alert.id } });
    },
  }),
  snoozeAlert: t.prismaField({
    type: 'Alert',
    authScopes: { user: true },
    description: 'open, acknowledged or snoozed → snoozed until a time; it reopens by itself then.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: SnoozeAlertInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const alert = await snoozeAlert(ctx, {
        id: String(args.id),
        duration: args.input.duration,
        until: args.input.until,
      });
      return ctx.db.alert.findUniqueOrThrow({ ...query, where: { id: alert.id } });
    },
  }),
  resolveAlert: t.prismaField({
    type: 'Alert',
    authScopes: { user: true },
    description: 'open, acknowledged or snoozed → resolved. A resolved alert: CONFLICT.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const alert = await resolveAlert(ctx, { id: String(args.id) });
      return ctx.db.alert.findUniqueOrThrow({ ...query, where: { id: alert.id } });
    },
  }),
}));

const AlertChangeKindEnum = builder.enumType('AlertChangeKind', {
  values: upperCaseValues([
    'opened',
    'bumped',
    'acknowledged',
    'snoozed',
    'reopened',
    'resolved',
    'assigned',
    'note_added',
  ] as const satisfies readonly AlertChangeKind[]),
});

interface AlertChangeMessage {
  change: AlertChangeKind;
  id: string;
}

const AlertChange = builder.objectRef<AlertChangeMessage>('AlertChange').implement({
  fields: (t) => ({
    change: t.field({ type: AlertChangeKindEnum, resolve: (m) => m.change }),
    alert: t.prismaField({
      type: 'Alert',
      description: 'The alert as it is now (read with the subscriber’s permissions).',
      resolve: (query, m, _args, ctx) => ctx.db.alert.findUniqueOrThrow({ ...query, where: { id: m.id } }),
    }),
  }),
});

const AlertChangedFilter = builder.inputType('AlertChangedFilter', {
  fields: (t) => ({
    alertId: t.id(),
    severity: t.field({ type: SeverityEnum }),
    status: t.field({ type: [AlertStatusEnum], description: 'The status after the change is one of these.' }),
    source: t.string(),
    ruleId: t.id(),
    deviceId: t.id({ description: 'Only alerts about this device.' }),
    changes: t.field({ type: [AlertChangeKindEnum] }),
  }),
});

builder.subscriptionFields((t) => ({
  alertChanged: t.field({
    type: AlertChange,
    authScopes: { user: true },
    description: "Fires when an alert of the caller's tenant opens, is bumped, or changes state.",
    args: { filter: t.arg({ type: AlertChangedFilter }) },
    subscribe: (_root, args, ctx) => {
      const me = requireUser(ctx);
      const f = args.filter;
      return pipe(
        ctx.rt.pubsub.subscribe('alertChanged', me.tenantId),
        filterIterable((p: Record<string, unknown>) => {
          if (!f) return true;
          if (f.alertId && p.id !== String(f.alertId)) return false;
          if (f.severity && p.severity !== f.severity) return false;
          if (f.status?.length && !f.status.includes(p.status as AlertStatus)) return false;
          if (f.source && p.source !== f.source) return false;
          if (f.ruleId && p.rule_id !== String(f.ruleId)) return false;
          if (f.deviceId && p.device_id !== String(f.deviceId)) return false;
          if (f.changes?.length && !f.changes.includes(p.change as AlertChangeMessage['change'])) return false;
          return true;
        }),
      );
    },
    resolve: (p) => ({
      change: (p as Record<string, unknown>).change as AlertChangeMessage['change'],
      id: String((p as Record<string, unknown>).id),
    }),
  }),
}));
