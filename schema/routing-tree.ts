/**
 * The routing tree (Alertmanager's `route`), its named receivers, the "which route does this alert take"
 * check, and importing an alertmanager.yml. Members read and test; admins replace the tree, manage
 * receivers and import. Rules in src/routing/route-tree.ts, routing-tree-store.ts, alertmanager-import.ts.
 */
import { builder } from './builder.js';
import { LabelMatcher, LabelMatcherInput } from './routing.js';
import type { RouteDoc } from '../src/routing/route-tree.js';
import {
  createRoutingReceiver,
  deleteRoutingReceiver,
  loadRoutingTree,
  replaceRoutingTree,
  testRoute,
  updateRoutingReceiver,
  type RouteTestResult,
  type StoredTree,
} from '../src/routing/routing-tree-store.js';
import { importAlertmanagerConfig, type ImportResult } from '../src/routing/alertmanager-import.js';
import { requireUser } from '../src/context.js';

const Route = builder.objectRef<RouteDoc>('Route').implement({
  description:
    "A route of the routing tree (Alertmanager's model). Null fields inherit from the parent (receiver, groupBy, " +
    'groupWait, groupInterval, repeatInterval); the root route has no parent and no matchers.',
  fields: (t) => ({
    id: t.exposeID('id'),
    parentId: t.exposeID('parentId', { nullable: true }),
    matchers: t.field({ type: [LabelMatcher], resolve: (r) => r.matchers }),
    continue: t.exposeBoolean('continue', { description: 'After matching, go on trying the next sibling routes.' }),
    receiver: t.exposeString('receiver', { nullable: true, description: 'A RoutingReceiver name.' }),
    groupBy: t.exposeStringList('groupBy', { nullable: true, description: '["..."] groups by every label.' }),
    groupWait: t.exposeString('groupWait', {
      nullable: true,
      description: 'Duration ("30s"): default 30s at the root.',
    }),
    groupInterval: t.exposeString('groupInterval', { nullable: true, description: 'Default 5m at the root.' }),
    repeatInterval: t.exposeString('repeatInterval', { nullable: true, description: 'Default 4h at the root.' }),
    muteTimeIntervals: t.exposeStringList('muteTimeIntervals'),
    activeTimeIntervals: t.exposeStringList('activeTimeIntervals'),
  }),
});

const RoutingTree = builder.objectRef<StoredTree>('RoutingTree').implement({
  description: "A tenant's routing tree, flat: each route names its parent; siblings are tried in list order.",
  fields: (t) => ({
    routes: t.field({ type: [Route], resolve: (tree) => tree.routes }),
    custom: t.exposeBoolean('custom', {
      description: 'False while it is the implicit default: every alert to the default policy, one group per alert.',
    }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, resolve: (tree) => tree.updatedAt }),
  }),
});

builder.prismaObject('RoutingReceiver', {
  description:
    'A named receiver routes send to: an escalation policy, outbound webhooks, or both. One that points at ' +
    "nothing pages as the default route does (the rule's, integration's or tenant default policy).",
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    escalationPolicyId: t.exposeID('escalationPolicyId', { nullable: true }),
    outboundWebhookIds: t.exposeIDList('outboundWebhookIds'),
    importedConfig: t.expose('importedConfig', {
      type: 'JSON',
      nullable: true,
      description: "The receiver's Alertmanager integrations as imported (not used; to see what it did).",
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const RouteMatch = builder.objectRef<RouteTestResult>('RouteMatch').implement({
  description: 'A route an alert takes, with what it inherited.',
  fields: (t) => ({
    routeId: t.id({ resolve: (m) => m.id }),
    path: t.idList({ resolve: (m) => m.path, description: 'Route ids from the root to this route.' }),
    receiver: t.exposeString('receiver', { nullable: true, description: 'Null: the default policy.' }),
    receiverDetail: t.prismaField({
      type: 'RoutingReceiver',
      nullable: true,
      resolve: (query, m, _a, ctx) =>
        m.receiverRow ? ctx.db.routingReceiver.findUnique({ ...query, where: { id: m.receiverRow.id } }) : null,
    }),
    groupBy: t.exposeStringList('groupBy'),
    groupByAll: t.exposeBoolean('groupByAll'),
    groupWaitSeconds: t.exposeFloat('groupWaitSeconds'),
    groupIntervalSeconds: t.exposeFloat('groupIntervalSeconds'),
    repeatIntervalSeconds: t.exposeFloat('repeatIntervalSeconds'),
    continue: t.exposeBoolean('continue'),
    mutedNow: t.exposeBoolean('mutedNow', { description: "The route's time intervals mute it now." }),
  }),
});

const AlertmanagerImportResult = builder.objectRef<ImportResult>('AlertmanagerImportResult').implement({
  fields: (t) => ({
    routes: t.exposeInt('routes'),
    receivers: t.exposeStringList('receivers'),
    inhibitRules: t.exposeInt('inhibitRules'),
    timeIntervals: t.exposeStringList('timeIntervals'),
    unmapped: t.exposeStringList('unmapped', { description: 'What could not be mapped, one sentence each.' }),
  }),
});

const RouteInput = builder.inputType('RouteInput', {
  fields: (t) => ({
    id: t.id({ description: 'Kept when given (group keys use it); a new route gets one.' }),
    parentId: t.id({ description: 'Null for the root.' }),
    matchers: t.field({ type: [LabelMatcherInput] }),
    continue: t.boolean(),
    receiver: t.string(),
    groupBy: t.stringList(),
    groupWait: t.string(),
    groupInterval: t.string(),
    repeatInterval: t.string(),
    muteTimeIntervals: t.stringList(),
    activeTimeIntervals: t.stringList(),
  }),
});
const RoutingTreeInput = builder.inputType('RoutingTreeInput', {
  fields: (t) => ({ routes: t.field({ type: [RouteInput], required: true }) }),
});
const receiverFields = (t: PothosSchemaTypes.InputFieldBuilder<any, 'InputObject'>, create: boolean) => ({
  name: t.string({ required: create }),
  escalationPolicyId: t.id(),
  outboundWebhookIds: t.idList(),
});
const CreateRoutingReceiverInput = builder.inputType('CreateRoutingReceiverInput', {
  fields: (t) => receiverFields(t, true),
});
const UpdateRoutingReceiverInput = builder.inputType('UpdateRoutingReceiverInput', {
  fields: (t) => receiverFields(t, false),
});
const ImportAlertmanagerConfigInput = builder.inputType('ImportAlertmanagerConfigInput', {
  fields: (t) => ({ config: t.string({ required: true, description: 'The alertmanager.yml text.' }) }),
});

const ids = (v: readonly (string | number)[] | null | undefined) => (v == null ? v : v.map(String));

builder.queryFields((t) => ({
  routingTree: t.field({
    type: RoutingTree,
    authScopes: { user: true },
    resolve: (_r, _a, ctx) => loadRoutingTree(ctx.db, requireUser(ctx).tenantId),
  }),
  routingReceivers: t.prismaField({
    type: ['RoutingReceiver'],
    authScopes: { user: true },
    resolve: (query, _r, _a, ctx) => ctx.db.routingReceiver.findMany({ ...query, orderBy: { name: 'asc' } }),
  }),
  routeTest: t.field({
    type: [RouteMatch],
    authScopes: { user: true },
    description:
      'Which route an alert with these labels takes (its `severity`, `source` and `rule` count as labels): the ' +
      'matching routes in order, as `amtool config routes test` lists them.',
    args: { labels: t.arg({ type: 'JSON', required: true }) },
    resolve: (_r, args, ctx) => testRoute(ctx, args.labels as Record<string, unknown>),
  }),
}));

builder.mutationFields((t) => ({
  replaceRoutingTree: t.field({
    type: RoutingTree,
    authScopes: { admin: true },
    description: 'Replaces the whole tree (checked whole: one root, known receivers and time intervals).',
    args: { input: t.arg({ type: RoutingTreeInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      replaceRoutingTree(
        ctx,
        input.routes.map((r) => ({
          ...r,
          id: r.id == null ? null : String(r.id),
          parentId: r.parentId == null ? null : String(r.parentId),
        })),
      ),
  }),
  createRoutingReceiver: t.prismaField({
    type: 'RoutingReceiver',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateRoutingReceiverInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const r = await createRoutingReceiver(ctx, {
        ...input,
        escalationPolicyId:
          input.escalationPolicyId == null ? input.escalationPolicyId : String(input.escalationPolicyId),
        outboundWebhookIds: ids(input.outboundWebhookIds),
      });
      return ctx.db.routingReceiver.findUniqueOrThrow({ ...query, where: { id: r.id } });
    },
  }),
  updateRoutingReceiver: t.prismaField({
    type: 'RoutingReceiver',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateRoutingReceiverInput, required: true }) },
    resolve: async (query, _r, { id, input }, ctx) => {
      const r = await updateRoutingReceiver(ctx, String(id), {
        ...input,
        escalationPolicyId:
          input.escalationPolicyId == null ? input.escalationPolicyId : String(input.escalationPolicyId),
        outboundWebhookIds: ids(input.outboundWebhookIds),
      });
      return ctx.db.routingReceiver.findUniqueOrThrow({ ...query, where: { id: r.id } });
    },
  }),
  deleteRoutingReceiver: t.field({
    type: 'ID',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => (await deleteRoutingReceiver(ctx, String(id))).id,
  }),
  importAlertmanagerConfig: t.field({
    type: AlertmanagerImportResult,
    authScopes: { admin: true },
    description:
      'Imports an alertmanager.yml: its route replaces the tree, its inhibit_rules the inhibition rules; its ' +
      'time intervals and receivers are created or updated by name. `unmapped` lists what has no counterpart.',
    args: { input: t.arg({ type: ImportAlertmanagerConfigInput, required: true }) },
    resolve: (_r, { input }, ctx) => importAlertmanagerConfig(ctx, input.config),
  }),
}));

builder.prismaObjectField('AlertGroup', 'routeId', (t) =>
  t.exposeID('routeId', { nullable: true, description: 'The route that formed it (null: the default route).' }),
);
builder.prismaObjectField('AlertGroup', 'receiver', (t) =>
  t.exposeString('receiver', { nullable: true, description: 'The receiver it pages (null: the default policy).' }),
);
builder.prismaObjectField('AlertGroup', 'groupLabels', (t) =>
  t.expose('groupLabels', { type: 'JSON', nullable: true, description: "The route's group_by label values." }),
);
