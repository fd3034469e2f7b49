/**
 * Escalation policies (CRUD for admins, the tenant default) and alert groups (the paging unit): AlertGroup,
 * `Alert.group`, `alertGroups` / `alertGroup(id)`, acknowledge / snooze / resolve / escalate / reassign, and the
 * `alertGroupChanged` subscription. `AlertGroup.notifications` belongs to the notifications area.
 */
import { filter as filterIterable, pipe } from 'graphql-yoga';
import { builder, found, SeverityEnum, upperCaseValues, NodeRef } from './builder.js';
import { requireUser } from '../src/context.js';
import {
  clearDefaultEscalationPolicy,
  createEscalationPolicy,
  defaultEscalationPolicy,
  deleteEscalationPolicy,
  pagingSettings,
  setDefaultEscalationPolicy,
  updateEscalationPolicy,
  updatePagingSettings,
  type PagingSettings,
  type StepInput,
} from '../src/escalation/policies.js';
import { acknowledgeGroup, escalateGroup, reassignGroup, resolveGroup, snoozeGroup } from '../src/escalation/groups.js';
import { snoozeUntil } from '../src/alerts/actions.js';
import type { StepTarget } from '../src/escalation/engine.js';
import { groupAlertsWhere } from '../src/alerts/group-alerts.js';

const TargetTypeEnum = builder.enumType('EscalationTargetType', {
  values: upperCaseValues(['user', 'schedule'] as const),
});
const AlertGroupStatusEnum = builder.enumType('AlertGroupStatus', {
  values: upperCaseValues({
    firing: { description: 'Escalating until someone acknowledges it.' },
    acknowledged: { description: 'Someone took it: escalation stopped.' },
    snoozed: { description: 'Paused until snoozedUntil; escalation restarts from the first step then.' },
    resolved: { description: 'Ended: its alerts resolved.' },
  } as const),
});

const TargetRef = builder.objectRef<StepTarget>('EscalationTarget').implement({
  description: 'A person, or whoever is on call for a schedule when the step runs.',
  fields: (t) => ({
    type: t.field({ type: TargetTypeEnum, resolve: (x) => x.type }),
    id: t.exposeID('id'),
  }),
});

builder.prismaObject('EscalationStep', {
  fields: (t) => ({
    position: t.exposeInt('position', { description: '0 is the first step.' }),
    delayMinutes: t.exposeInt('delayMinutes', {
      description: 'Minutes after the previous step (the first: after the alert opens).',
    }),
    targets: t.field({ type: [TargetRef], resolve: (s) => s.targets as unknown as StepTarget[] }),
  }),
});

builder.prismaObject('EscalationPolicy', {
  interfaces: [NodeRef],
  description: 'Who is paged in which order: ordered steps, run again `repeat` more times while nobody acknowledges.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    repeat: t.exposeInt('repeat'),
    highUrgencySeverities: t.field({
      type: [SeverityEnum],
      description: 'Severities that page with high urgency (the others low).',
      resolve: (p) => p.highUrgencySeverities,
    }),
    steps: t.relation('steps', { query: { orderBy: { position: 'asc' } } }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('AlertGroup', {
  interfaces: [NodeRef],
  description: 'The paging unit: the alerts that page together. Its status follows its alerts.',
  fields: (t) => ({
    id: t.exposeID('id'),
    groupKey: t.exposeString('groupKey'),
    status: t.expose('status', { type: AlertGroupStatusEnum }),
    urgency: t.exposeString('urgency', { description: 'high | low' }),
    policyId: t.exposeID('policyId', { nullable: true }),
    policy: t.relation('policy', { nullable: true }),
    step: t.exposeInt('step', { description: 'The step that ran last (0 is the first; -1: none yet).' }),
    round: t.exposeInt('round', { description: '0 the first time through the steps.' }),
    nextStepAt: t.expose('nextStepAt', { type: 'DateTime', nullable: true }),
    snoozedUntil: t.expose('snoozedUntil', { type: 'DateTime', nullable: true }),
    acknowledgedAt: t.expose('acknowledgedAt', { type: 'DateTime', nullable: true }),
    acknowledgedById: t.exposeID('acknowledgedById', { nullable: true }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true }),
    alerts: t.prismaField({
      type: ['Alert'],
      description:
        'Its alerts: those whose group it is and those a further matched route (`continue`) put in it too, oldest first.',
      resolve: (query, g, _args, ctx) =>
        ctx.db.alert.findMany({ ...query, where: groupAlertsWhere(g.id), orderBy: { createdAt: 'asc' } }),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectField('Alert', 'group', (t) =>
  t.relation('group', { nullable: true, description: 'The group this alert pages in.' }),
);

const PagingSettingsRef = builder.objectRef<PagingSettings>('PagingSettings').implement({
  description: "The tenant's paging settings.",
  fields: (t) => ({
    defaultEscalationPolicyId: t.exposeID('defaultEscalationPolicyId', {
      nullable: true,
      description: 'The policy that pages alerts whose rule and integration name none (null: nobody is paged).',
    }),
    defaultEscalationPolicy: t.prismaField({
      type: 'EscalationPolicy',
      nullable: true,
      resolve: (query, s, _a, ctx) =>
        s.defaultEscalationPolicyId
          ? ctx.db.escalationPolicy.findUnique({ ...query, where: { id: s.defaultEscalationPolicyId } })
          : null,
    }),
  }),
});

const UpdatePagingSettingsInput = builder.inputType('UpdatePagingSettingsInput', {
  description: 'Only the fields sent change.',
  fields: (t) => ({
    defaultEscalationPolicyId: t.id({ description: 'A policy of the tenant; null clears the default.' }),
  }),
});

builder.queryFields((t) => ({
  pagingSettings: t.field({
    type: PagingSettingsRef,
    authScopes: { user: true },
    resolve: (_root, _args, ctx) => pagingSettings(ctx),
  }),
  escalationPolicies: t.prismaField({
    type: ['EscalationPolicy'],
    authScopes: { user: true },
    resolve: (query, _root, _args, ctx) => ctx.db.escalationPolicy.findMany({ ...query, orderBy: { name: 'asc' } }),
  }),
  escalationPolicy: t.prismaField({
    type: 'EscalationPolicy',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found(
        'Escalation policy',
        await ctx.db.escalationPolicy.findUnique({ ...query, where: { id: String(args.id) } }),
      ),
  }),
  defaultEscalationPolicy: t.prismaField({
    type: 'EscalationPolicy',
    nullable: true,
    authScopes: { user: true },
    description: 'The policy that pages alerts whose rule and integration name none.',
    resolve: async (query, _root, _args, ctx) => {
      const p = await defaultEscalationPolicy(ctx);
      return p ? ctx.db.escalationPolicy.findUnique({ ...query, where: { id: p.id } }) : null;
    },
  }),
  alertGroups: t.prismaField({
    type: ['AlertGroup'],
    authScopes: { user: true },
    description: 'Alert groups, newest first (at most 200).',
    args: { status: t.arg({ type: [AlertGroupStatusEnum] }), limit: t.arg.int({ defaultValue: 50 }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.alertGroup.findMany({
        ...query,
        where: args.status?.length ? { status: { in: args.status } } : {},
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: Math.max(1, Math.min(args.limit ?? 50, 200)),
      }),
  }),
  alertGroup: t.prismaField({
    type: 'AlertGroup',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found('Alert group', await ctx.db.alertGroup.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
}));

const TargetInput = builder.inputType('EscalationTargetInput', {
  fields: (t) => ({ type: t.field({ type: TargetTypeEnum, required: true }), id: t.id({ required: true }) }),
});
const StepInputType = builder.inputType('EscalationStepInput', {
  fields: (t) => ({
    delayMinutes: t.int({ description: 'Minutes after the previous step (default: 0 for the first, 5 after).' }),
    targets: t.field({ type: [TargetInput], required: true }),
  }),
});
const policyFields = (t: PothosSchemaTypes.InputFieldBuilder<any, 'InputObject'>, create: boolean) => ({
  name: t.string({ required: create }),
  description: t.string(),
  repeat: t.int({ description: 'How many more times the steps run after the last one (0-20, default 0).' }),
  highUrgencySeverities: t.field({ type: [SeverityEnum] }),
  steps: t.field({ type: [StepInputType], required: create, description: 'In order; on update replaces the steps.' }),
});
const CreateEscalationPolicyInput = builder.inputType('CreateEscalationPolicyInput', {
  fields: (t) => policyFields(t, true),
});
const UpdateEscalationPolicyInput = builder.inputType('UpdateEscalationPolicyInput', {
  fields: (t) => policyFields(t, false),
});
const SnoozeAlertGroupInput = builder.inputType('SnoozeAlertGroupInput', {
  fields: (t) => ({
    duration: t.string({ description: '"15m", "1h", "PT1H", or seconds.' }),
    until: t.field({ type: 'DateTime' }),
  }),
});

function stepsOf(
  steps:
    Array<{ delayMinutes?: number | null; targets: Array<{ type: string; id: string | number }> }> | null | undefined,
): StepInput[] | undefined {
  return steps?.map((s) => ({
    delayMinutes: s.delayMinutes,
    targets: s.targets.map((x) => ({ type: x.type as StepTarget['type'], id: String(x.id) })),
  }));
}

const groupAction = (
  t: PothosSchemaTypes.MutationFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<any>, unknown>,
  description: string,
  act: (ctx: Parameters<typeof acknowledgeGroup>[0], id: string) => Promise<{ id: string }>,
) =>
  t.prismaField({
    type: 'AlertGroup',
    authScopes: { user: true },
    description,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const g = await act(ctx, String(args.id));
      return ctx.db.alertGroup.findUniqueOrThrow({ ...query, where: { id: g.id } });
    },
  });

builder.mutationFields((t) => ({
  createEscalationPolicy: t.prismaField({
    type: 'EscalationPolicy',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateEscalationPolicyInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const p = await createEscalationPolicy(ctx, { ...input, steps: stepsOf(input.steps) });
      return ctx.db.escalationPolicy.findUniqueOrThrow({ ...query, where: { id: p.id } });
    },
  }),
  updateEscalationPolicy: t.prismaField({
    type: 'EscalationPolicy',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateEscalationPolicyInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const p = await updateEscalationPolicy(ctx, String(args.id), { ...args.input, steps: stepsOf(args.input.steps) });
      return ctx.db.escalationPolicy.findUniqueOrThrow({ ...query, where: { id: p.id } });
    },
  }),
  deleteEscalationPolicy: t.field({
    type: 'ID',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await deleteEscalationPolicy(ctx, String(args.id))).id,
  }),
  setDefaultEscalationPolicy: t.prismaField({
    type: 'EscalationPolicy',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const p = await setDefaultEscalationPolicy(ctx, String(args.id));
      return ctx.db.escalationPolicy.findUniqueOrThrow({ ...query, where: { id: p.id } });
    },
  }),
  updatePagingSettings: t.field({
    type: PagingSettingsRef,
    authScopes: { admin: true },
    args: { input: t.arg({ type: UpdatePagingSettingsInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      updatePagingSettings(ctx, {
        defaultEscalationPolicyId:
          input.defaultEscalationPolicyId == null
            ? input.defaultEscalationPolicyId
            : String(input.defaultEscalationPolicyId),
      }),
  }),
  clearDefaultEscalationPolicy: t.boolean({
    authScopes: { admin: true },
    resolve: async (_root, _args, ctx) => {
      await clearDefaultEscalationPolicy(ctx);
      return true;
    },
  }),
  acknowledgeAlertGroup: groupAction(t, 'Acknowledges the group and its alerts: escalation stops.', acknowledgeGroup),
  resolveAlertGroup: groupAction(t, 'Resolves the group and its alerts.', resolveGroup),
  escalateAlertGroup: groupAction(t, 'Escalate now: runs the next step at once.', escalateGroup),
  snoozeAlertGroup: t.prismaField({
    type: 'AlertGroup',
    authScopes: { user: true },
    description: 'Pauses escalation; it restarts from the first step when the snooze ends.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: SnoozeAlertGroupInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      // Load first: another tenant's group is NOT_FOUND whatever the input says.
      found(
        'Alert group',
        await ctx.db.alertGroup.findUnique({ where: { id: String(args.id) }, select: { id: true } }),
      );
      const until = snoozeUntil(args.input, ctx.rt.clock.now());
      const g = await snoozeGroup(ctx, String(args.id), until);
      return ctx.db.alertGroup.findUniqueOrThrow({ ...query, where: { id: g.id } });
    },
  }),
  reassignAlertGroup: t.prismaField({
    type: 'AlertGroup',
    authScopes: { user: true },
    description: 'Assigns the group’s alerts to a person and pages them now.',
    args: { id: t.arg.id({ required: true }), userId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const g = await reassignGroup(ctx, String(args.id), String(args.userId));
      return ctx.db.alertGroup.findUniqueOrThrow({ ...query, where: { id: g.id } });
    },
  }),
}));

const AlertGroupRef = builder.objectRef<{ id: string }>('AlertGroupChange').implement({
  fields: (t) => ({
    group: t.prismaField({
      type: 'AlertGroup',
      description: 'The group as it is now.',
      resolve: (query, m, _args, ctx) => ctx.db.alertGroup.findUniqueOrThrow({ ...query, where: { id: m.id } }),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  alertGroupChanged: t.field({
    type: AlertGroupRef,
    authScopes: { user: true },
    description: "Fires when a group of the caller's tenant changes its paging state (status, step, round).",
    args: { groupId: t.arg.id() },
    subscribe: (_root, args, ctx) => {
      const me = requireUser(ctx);
      return pipe(
        ctx.rt.pubsub.subscribe('alertGroupChanged', me.tenantId),
        filterIterable((p: Record<string, unknown>) => !args.groupId || p.id === String(args.groupId)),
      );
    },
    resolve: (p) => ({ id: String((p as Record<string, unknown>).id) }),
  }),
}));
