/**
 * Alert rules: types, queries (members read) and mutations (admins write).
 */
import type { GraphQLInputObjectType } from 'graphql';
import { toGraphQLInput } from './values.js';
import { builder, found, SeverityEnum, upperCaseValues, NodeRef } from './builder.js';
import { createAlertRule, deleteAlertRule, updateAlertRule, type AlertRuleInput } from '../src/rules/rules.js';
import { PAYLOAD_OPS, type PayloadCondition } from '../src/events/match.js';
import { enableSuggestedRule, listSuggestedRules, type SuggestionState } from '../src/rules/suggestions.js';
import {
  addStarterRules,
  dismissStarterRules,
  starterRulesOffer,
  type StarterRulesOffer,
} from '../src/rules/starter.js';

export const AlertRuleKindEnum = builder.enumType('AlertRuleKind', {
  values: upperCaseValues({
    match: { description: 'Each matching event opens an alert, or bumps the live one with the same dedup key.' },
    absence: {
      description: 'A source that sent a matching event and then none for windowSeconds opens an alert (heartbeats).',
    },
  } as const),
});

export const PayloadOpEnum = builder.enumType('PayloadOp', { values: upperCaseValues(PAYLOAD_OPS) });

export const PayloadConditionRef = builder.objectRef<PayloadCondition>('PayloadCondition').implement({
  description: 'A condition on a payload (alert rules and outbound webhook triggers): `path` is dotted (a.b.0.c).',
  fields: (t) => ({
    path: t.exposeString('path'),
    op: t.field({ type: PayloadOpEnum, resolve: (c) => c.op }),
    value: t.field({ type: 'JSON', nullable: true, resolve: (c) => c.value ?? null }),
  }),
});

builder.prismaObject('AlertRule', {
  interfaces: [NodeRef],
  description: 'A tenant-configured rule that turns events (or their absence) into alerts.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    kind: t.expose('kind', { type: AlertRuleKindEnum }),
    enabled: t.exposeBoolean('enabled'),
    typeGlob: t.exposeString('typeGlob', {
      nullable: true,
      description: '`*` matches within one dot-separated segment, `**` across segments, `?` one character.',
    }),
    severities: t.expose('severities', { type: [SeverityEnum], description: 'Empty: any severity.' }),
    module: t.exposeString('module', { nullable: true }),
    source: t.exposeString('source', { nullable: true }),
    labels: t.expose('labels', {
      type: 'JSON',
      description: 'Every label here must be on the event with the same value.',
    }),
    payloadConditions: t.field({
      type: [PayloadConditionRef],
      resolve: (r) => (r.payloadConditions ?? []) as unknown as PayloadCondition[],
    }),
    windowSeconds: t.exposeInt('windowSeconds', { nullable: true }),
    alertSeverity: t.expose('alertSeverity', { type: SeverityEnum }),
    summaryTemplate: t.exposeString('summaryTemplate', { nullable: true }),
    dedupKeyTemplate: t.exposeString('dedupKeyTemplate', {
      nullable: true,
      description:
        "Default: the event's dedup_key (for integration events the upstream alert's key), else `<rule id>:<source>:<label fingerprint>:<type>`: two event types, sources or label sets open two alerts (the fingerprint leaves out volatile labels such as value, count, timestamp). Set a template such as `{{rule.id}}:{{source}}` to merge them.",
    }),
    escalationPolicyId: t.exposeID('escalationPolicyId', {
      nullable: true,
      description: "The policy that pages this rule's alerts; null: the tenant default.",
    }),
    escalationPolicy: t.relation('escalationPolicy', { nullable: true }),
    summaryFollowsLatest: t.exposeBoolean('summaryFollowsLatest', {
      description:
        "Match rules: a bump re-renders the alert's summary from its latest event (false: the first event's stays).",
    }),
    resolveTypeGlob: t.exposeString('resolveTypeGlob', {
      nullable: true,
      description:
        "Match rules: an event of this type (meeting resolveConditions and the rule's module, source and labels) resolves the rule's live alert with the same dedup key.",
    }),
    resolveConditions: t.field({
      type: [PayloadConditionRef],
      resolve: (r) => (r.resolveConditions ?? []) as unknown as PayloadCondition[],
    }),
    autoResolveAfterSeconds: t.exposeInt('autoResolveAfterSeconds', {
      nullable: true,
      description: 'Match rules: a live alert with no matching event for this long resolves by itself.',
    }),
    suggestionKey: t.exposeString('suggestionKey', {
      nullable: true,
      description: 'The suggested (starter) rule it was enabled from, e.g. gpu.xid.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const PayloadConditionInput = builder.inputType('PayloadConditionInput', {
  fields: (t) => ({
    path: t.string({ required: true }),
    op: t.field({ type: PayloadOpEnum, required: true }),
    value: t.field({
      type: 'JSON',
      description:
        'Required for eq, neq, contains; a number for gt, gte, lt, lte; true/false (default true) for exists; a list for in.',
    }),
  }),
});

const ruleFields = (t: PothosSchemaTypes.InputFieldBuilder<any, 'InputObject'>, create: boolean) => ({
  name: t.string({ required: create }),
  enabled: t.boolean(),
  typeGlob: t.string({ description: 'e.g. `deploy.*`' }),
  severities: t.field({ type: [SeverityEnum] }),
  module: t.string(),
  source: t.string(),
  labels: t.field({ type: 'JSON', description: 'Object of string keys to string values.' }),
  payloadConditions: t.field({ type: [PayloadConditionInput] }),
  windowSeconds: t.int({ description: 'Absence rules: seconds of silence that open an alert.' }),
  alertSeverity: t.field({ type: SeverityEnum }),
  summaryTemplate: t.string({
    description: 'e.g. `{{type}} on {{source}}`, `{{payload.x}}`, `{{labels.env}}`, `{{rule.name}}`.',
  }),
  dedupKeyTemplate: t.string({
    description:
      "Same placeholders as summaryTemplate; default the event's dedup_key, else `<rule id>:<source>:<label fingerprint>:<type>` (distinct problems, distinct alerts).",
  }),
  summaryFollowsLatest: t.boolean({
    description: "Match rules: a bump re-renders the alert's summary from its latest event (default false).",
  }),
  resolveTypeGlob: t.string({
    description:
      'Match rules: events of this type resolve the alert with the same dedup key, e.g. `gpu.thermal_recovered`.',
  }),
  resolveConditions: t.field({
    type: [PayloadConditionInput],
    description: 'Conditions on the resolving event (needs resolveTypeGlob).',
  }),
  autoResolveAfterSeconds: t.int({
    description: 'Match rules: resolve a live alert after this many seconds without a matching event.',
  }),
  escalationPolicyId: t.id({
    description: "The policy that pages this rule's alerts (overrides the tenant default); null: the default.",
  }),
});

const CreateAlertRuleInput = builder.inputType('CreateAlertRuleInput', {
  fields: (t) => ({ kind: t.field({ type: AlertRuleKindEnum, defaultValue: 'match' }), ...ruleFields(t, true) }),
});
const UpdateAlertRuleInput = builder.inputType('UpdateAlertRuleInput', {
  description: 'Only the fields sent change; null clears an optional field. The kind cannot change.',
  fields: (t) => ruleFields(t, false),
});

builder.queryFields((t) => ({
  alertRules: t.prismaField({
    type: ['AlertRule'],
    authScopes: { user: true },
    args: { kind: t.arg({ type: AlertRuleKindEnum }), enabled: t.arg.boolean() },
    resolve: (query, _root, args, ctx) =>
      ctx.db.alertRule.findMany({
        ...query,
        where: {
          ...(args.kind ? { kind: args.kind } : {}),
          ...(args.enabled != null ? { enabled: args.enabled } : {}),
        },
        orderBy: { createdAt: 'asc' },
      }),
  }),
  alertRule: t.prismaField({
    type: 'AlertRule',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found('Alert rule', await ctx.db.alertRule.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
}));

builder.mutationFields((t) => ({
  createAlertRule: t.prismaField({
    type: 'AlertRule',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateAlertRuleInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const rule = await createAlertRule(ctx, input as AlertRuleInput);
      return ctx.db.alertRule.findUniqueOrThrow({ ...query, where: { id: rule.id } });
    },
  }),
  updateAlertRule: t.prismaField({
    type: 'AlertRule',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateAlertRuleInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const rule = await updateAlertRule(ctx, String(args.id), args.input as AlertRuleInput);
      return ctx.db.alertRule.findUniqueOrThrow({ ...query, where: { id: rule.id } });
    },
  }),
  deleteAlertRule: t.field({
    type: 'ID',
    authScopes: { admin: true },
    description: 'Deletes the rule and returns its id; its alerts stay (with rule null).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await deleteAlertRule(ctx, String(args.id))).id,
  }),
}));

const SuggestedAlertRuleRef = builder.objectRef<SuggestionState>('SuggestedAlertRule').implement({
  description: 'A ready rule an admin enables in one step (enableSuggestedAlertRule).',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'Stable key, e.g. gpu.xid, integration.failing, heartbeat.<source>.' }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    kind: t.field({ type: AlertRuleKindEnum, resolve: (s) => s.input.kind ?? 'match' }),
    input: t.field({
      type: 'JSON',
      description: 'The CreateAlertRuleInput it creates.',
      extensions: { graphqlInput: 'CreateAlertRuleInput' },
      resolve: (s, _args, _ctx, info) =>
        toGraphQLInput(info.schema.getType('CreateAlertRuleInput') as GraphQLInputObjectType, s.input),
    }),
    enabled: t.boolean({
      description: 'A rule from this suggestion exists and is enabled.',
      resolve: (s) => !!s.rule?.enabled,
    }),
    ruleId: t.id({
      nullable: true,
      description: 'The rule enabled from it, if any.',
      resolve: (s) => s.rule?.id ?? null,
    }),
  }),
});

builder.queryFields((t) => ({
  suggestedAlertRules: t.field({
    type: [SuggestedAlertRuleRef],
    authScopes: { user: true },
    description:
      'Starter rules for what the service records (GPU XID, thermal, missing GPU, failing integration, budget) and a heartbeat rule per source that sent heartbeats.',
    resolve: (_root, _args, ctx) => listSuggestedRules(ctx),
  }),
}));

builder.mutationFields((t) => ({
  enableSuggestedAlertRule: t.prismaField({
    type: 'AlertRule',
    authScopes: { admin: true },
    description:
      'Creates the suggested rule, enabled (idempotent: an existing rule from it is turned on and returned).',
    args: { key: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const rule = await enableSuggestedRule(ctx, args.key);
      return ctx.db.alertRule.findUniqueOrThrow({ ...query, where: { id: rule.id } });
    },
  }),
}));

const StarterRulesRef = builder.objectRef<StarterRulesOffer>('StarterRules').implement({
  description:
    'The starter rules (critical GPU events, a failing integration, a spent budget) offered once to a tenant without rules: the console asks on first sign-in.',
  fields: (t) => ({
    offered: t.exposeBoolean('offered', {
      description: 'True while the tenant has no alert rule and no admin has added or dismissed the starter rules.',
    }),
    decidedAt: t.expose('decidedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When an admin added the starter rules or dismissed the offer.',
    }),
    rules: t.field({
      type: [SuggestedAlertRuleRef],
      description: 'Each starter rule, enabled or not.',
      resolve: (o) => o.rules,
    }),
  }),
});

builder.queryFields((t) => ({
  starterRules: t.field({
    type: StarterRulesRef,
    authScopes: { user: true },
    resolve: (_root, _args, ctx) => starterRulesOffer(ctx),
  }),
}));

builder.mutationFields((t) => ({
  addStarterRules: t.field({
    type: StarterRulesRef,
    authScopes: { admin: true },
    description: 'Enables every starter rule in one step (idempotent) and closes the offer.',
    resolve: (_root, _args, ctx) => addStarterRules(ctx),
  }),
  dismissStarterRules: t.field({
    type: StarterRulesRef,
    authScopes: { admin: true },
    description: 'Closes the offer without adding rules (they stay under suggestedAlertRules).',
    resolve: (_root, _args, ctx) => dismissStarterRules(ctx),
  }),
}));
