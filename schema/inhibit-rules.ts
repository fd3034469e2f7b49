/**
 * Inhibition rules (members read, admins change) and what they, silences and paging mean for one alert:
 * `Alert.inhibitedBy` (the live alert that inhibited it), `Alert.silenceId`, and `Alert.pagingExplanation`
 * ("why did or didn't it page").
 */
import { builder, found, upperCaseValues } from './builder.js';
import { LabelMatcher, LabelMatcherInput } from './routing.js';
import {
  createInhibitRule,
  deleteInhibitRule,
  updateInhibitRule,
  type InhibitRuleInput,
} from '../src/routing/inhibit-rules.js';
import { explainPaging, type PagingExplanation, type PagingReason } from '../src/routing/paging-explanation.js';
import type { Matcher } from '../src/routing/matchers.js';
import { NotFound } from '../src/errors.js';

builder.prismaObject('InhibitRule', {
  description:
    "Alertmanager's inhibit rule: while a live alert matches sourceMatchers, alerts matching targetMatchers with the same values of the `equal` labels are recorded, marked inhibited, and page no one.",
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { nullable: true }),
    sourceMatchers: t.field({ type: [LabelMatcher], resolve: (r) => r.sourceMatchers as unknown as Matcher[] }),
    targetMatchers: t.field({
      type: [LabelMatcher],
      description: 'Empty: every alert.',
      resolve: (r) => r.targetMatchers as unknown as Matcher[],
    }),
    equal: t.exposeStringList('equal', {
      description: 'Labels the source and the target must share the values of (missing on both counts as equal).',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const PagingReasonKindEnum = builder.enumType('PagingReasonKind', {
  values: upperCaseValues({
    status: { description: 'The alert is resolved.' },
    maintenance_window: { description: 'It opened inside a maintenance window.' },
    silence: { description: 'A silence muted it.' },
    inhibition: { description: 'A live alert inhibited it (an inhibition rule).' },
    route: { description: 'The route it took (the routing tree).' },
    group: { description: 'The alert group it pages in, and its state.' },
    policy: { description: "The group's escalation policy, or why it has none." },
    pages: { description: 'The pages sent for it so far.' },
  } as const),
});

const PagingReasonRef = builder.objectRef<PagingReason>('PagingReason').implement({
  description: 'One reason an alert pages someone or no one.',
  fields: (t) => ({
    kind: t.field({ type: PagingReasonKindEnum, resolve: (r) => r.kind }),
    message: t.exposeString('message'),
    blocks: t.exposeBoolean('blocks', { description: 'Whether this reason keeps the alert from paging.' }),
    silenceId: t.exposeID('silenceId', { nullable: true }),
    inhibitingAlertId: t.exposeID('inhibitingAlertId', { nullable: true }),
    maintenanceWindowId: t.exposeID('maintenanceWindowId', { nullable: true }),
    groupId: t.exposeID('groupId', { nullable: true }),
    policyId: t.exposeID('policyId', { nullable: true }),
    routeId: t.exposeID('routeId', { nullable: true, description: 'A ROUTE reason: the route its group formed on.' }),
    routePath: t.exposeIDList('routePath', {
      nullable: true,
      description: 'A ROUTE reason: the route ids from the root to that route.',
    }),
    receiver: t.exposeString('receiver', {
      nullable: true,
      description: "A ROUTE reason: the route's receiver (null: the default, the tenant default policy).",
    }),
  }),
});

const PagingExplanationRef = builder.objectRef<PagingExplanation>('PagingExplanation').implement({
  description: "Why an alert did or didn't page: what muted it, its group and escalation policy, the pages sent.",
  fields: (t) => ({
    pages: t.exposeBoolean('pages', {
      description: 'Whether it pages (or paged) someone: nothing muted it and its group has an escalation policy.',
    }),
    pagedCount: t.exposeInt('pagedCount', { description: 'People paged for it so far.' }),
    summary: t.exposeString('summary'),
    reasons: t.field({ type: [PagingReasonRef], resolve: (e) => e.reasons }),
  }),
});

builder.prismaObjectFields('Alert', (t) => ({
  silenceId: t.exposeID('silenceId', { nullable: true, description: 'The silence that muted it when it opened.' }),
  inhibitedById: t.exposeID('inhibitedById', {
    nullable: true,
    description:
      'The live alert that inhibits it (an inhibition rule): recorded, paging no one until that one resolves.',
  }),
  inhibitedBy: t.relation('inhibitedBy', { nullable: true, description: 'The alert named by inhibitedById.' }),
  pagingExplanation: t.field({
    type: PagingExplanationRef,
    description:
      "Why it did or didn't page: silence, inhibition, maintenance window, route, group and policy, pages sent.",
    resolve: async (a, _args, ctx) => {
      const e = await explainPaging(ctx, a.id);
      if (!e) throw new NotFound('Alert');
      return e;
    },
  }),
}));

builder.queryFields((t) => ({
  inhibitRules: t.prismaField({
    type: ['InhibitRule'],
    authScopes: { user: true },
    description: 'Oldest first (the order they are evaluated in).',
    resolve: (query, _r, _a, ctx) => ctx.db.inhibitRule.findMany({ ...query, orderBy: { createdAt: 'asc' } }),
  }),
  inhibitRule: t.prismaField({
    type: 'InhibitRule',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _r, args, ctx) =>
      found('Inhibit rule', await ctx.db.inhibitRule.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
}));

const ruleFields = (t: PothosSchemaTypes.InputFieldBuilder<any, 'InputObject'>, create: boolean) => ({
  name: t.string(),
  sourceMatchers: t.field({ type: [LabelMatcherInput], required: create }),
  targetMatchers: t.field({ type: [LabelMatcherInput], description: 'Empty or absent: every alert.' }),
  equal: t.stringList({ description: 'Label names whose values source and target must share.' }),
});
const CreateInhibitRuleInput = builder.inputType('CreateInhibitRuleInput', { fields: (t) => ruleFields(t, true) });
const UpdateInhibitRuleInput = builder.inputType('UpdateInhibitRuleInput', { fields: (t) => ruleFields(t, false) });

builder.mutationFields((t) => ({
  createInhibitRule: t.prismaField({
    type: 'InhibitRule',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateInhibitRuleInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const r = await createInhibitRule(ctx, input as InhibitRuleInput);
      return ctx.db.inhibitRule.findUniqueOrThrow({ ...query, where: { id: r.id } });
    },
  }),
  updateInhibitRule: t.prismaField({
    type: 'InhibitRule',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateInhibitRuleInput, required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const r = await updateInhibitRule(ctx, String(args.id), args.input as InhibitRuleInput);
      return ctx.db.inhibitRule.findUniqueOrThrow({ ...query, where: { id: r.id } });
    },
  }),
  deleteInhibitRule: t.field({
    type: 'ID',
    authScopes: { admin: true },
    description: 'Deletes the rule; alerts it inhibited stay marked until the alert inhibiting them resolves.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => (await deleteInhibitRule(ctx, String(args.id))).id,
  }),
}));
