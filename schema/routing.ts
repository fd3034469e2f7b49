/**
 * Routing and noise control (Alertmanager's model): named time intervals and silences. Members read
 * and create/expire silences (as anyone with access to an Alertmanager can); admins manage time
 * intervals. `Alert.silence` names the silence that muted an alert.
 */
import { builder, found } from './builder.js';
import { PAGE } from './connections.js';
import {
  createSilence,
  expireSilence,
  silenceState,
  silenceStateWhere,
  updateSilence,
  type SilenceInput,
  type SilenceState,
} from '../src/routing/silences.js';
import {
  createTimeInterval,
  deleteTimeInterval,
  timeIntervalActive,
  updateTimeInterval,
} from '../src/routing/time-interval-store.js';
import type { Matcher } from '../src/routing/matchers.js';

const MatcherType = builder.enumType('MatcherType', {
  description: "Alertmanager's matcher operators: = (equal), != (not equal), =~ (regex), !~ (not regex).",
  values: {
    EQUAL: { value: '=' },
    NOT_EQUAL: { value: '!=' },
    REGEX: { value: '=~', description: 'RE2 regex, fully anchored (^(?:value)$).' },
    NOT_REGEX: { value: '!~' },
  } as const,
});

const SilenceStateEnum = builder.enumType('SilenceState', {
  values: {
    PENDING: { value: 'pending', description: 'Starts later.' },
    ACTIVE: { value: 'active' },
    EXPIRED: { value: 'expired' },
  } as const,
});

export const LabelMatcher = builder.objectRef<Matcher>('LabelMatcher').implement({
  description: 'A label matcher: a missing label counts as the empty string.',
  fields: (t) => ({
    name: t.exposeString('name'),
    type: t.field({ type: MatcherType, resolve: (m) => m.type }),
    value: t.exposeString('value'),
  }),
});

export const LabelMatcherInput = builder.inputType('LabelMatcherInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    type: t.field({ type: MatcherType, required: true }),
    value: t.string({ required: true }),
  }),
});

builder.prismaObject('TimeInterval', {
  description: "A named time interval in Alertmanager's semantics, used by recurring silences.",
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    intervals: t.expose('intervals', {
      type: 'JSON',
      description: 'Specs as Alertmanager writes them: [{times, weekdays, days_of_month, months, years, location}].',
    }),
    activeNow: t.boolean({ resolve: (ti, _a, ctx) => timeIntervalActive(ti, ctx.rt.clock.now()) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('Silence', {
  description: 'Alerts matching every matcher while it is active are recorded, marked silenced, and page no one.',
  fields: (t) => ({
    id: t.exposeID('id'),
    matchers: t.field({ type: [LabelMatcher], resolve: (s) => s.matchers as unknown as Matcher[] }),
    startsAt: t.expose('startsAt', { type: 'DateTime' }),
    endsAt: t.expose('endsAt', { type: 'DateTime' }),
    createdBy: t.exposeString('createdBy'),
    comment: t.exposeString('comment'),
    state: t.field({ type: SilenceStateEnum, resolve: (s, _a, ctx) => silenceState(s, ctx.rt.clock.now()) }),
    timeInterval: t.relation('timeInterval', {
      nullable: true,
      description: 'Recurring: it mutes only inside this interval.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectField('Alert', 'silence', (t) =>
  t.relation('silence', { nullable: true, description: 'The silence that muted it when it opened.' }),
);

builder.queryFields((t) => ({
  timeIntervals: t.prismaField({
    type: ['TimeInterval'],
    authScopes: { user: true },
    resolve: (query, _r, _a, ctx) => ctx.db.timeInterval.findMany({ ...query, orderBy: { name: 'asc' } }),
  }),
  timeInterval: t.prismaField({
    type: 'TimeInterval',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _r, args, ctx) =>
      found('Time interval', await ctx.db.timeInterval.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
  silences: t.prismaField({
    type: ['Silence'],
    authScopes: { user: true },
    description: 'Newest first; at most `limit` (default 100, at most 500).',
    args: { state: t.arg({ type: SilenceStateEnum }), limit: t.arg.int() },
    resolve: (query, _r, args, ctx) =>
      ctx.db.silence.findMany({
        ...query,
        where: silenceStateWhere(args.state as SilenceState | null, ctx.rt.clock.now()),
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: Math.min(Math.max(args.limit ?? PAGE.defaultSize, 1), PAGE.maxSize),
      }),
  }),
  silence: t.prismaField({
    type: 'Silence',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _r, args, ctx) =>
      found('Silence', await ctx.db.silence.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
}));

const intervalFields = (t: PothosSchemaTypes.InputFieldBuilder<any, 'InputObject'>, create: boolean) => ({
  name: t.string({ required: create }),
  intervals: t.field({
    type: 'JSON',
    required: create,
    description:
      'List of specs: [{times: [{start_time, end_time}], weekdays, days_of_month, months, years, location}].',
  }),
});
const CreateTimeIntervalInput = builder.inputType('CreateTimeIntervalInput', {
  fields: (t) => intervalFields(t, true),
});
const UpdateTimeIntervalInput = builder.inputType('UpdateTimeIntervalInput', {
  fields: (t) => intervalFields(t, false),
});

const silenceFields = (t: PothosSchemaTypes.InputFieldBuilder<any, 'InputObject'>, create: boolean) => ({
  matchers: t.field({ type: [LabelMatcherInput], required: create }),
  startsAt: t.field({ type: 'DateTime', description: 'Default (and any time in the past): now.' }),
  endsAt: t.field({ type: 'DateTime', required: create }),
  createdBy: t.string({ description: "Author; default: the caller's email." }),
  comment: t.string({ required: create }),
  timeIntervalId: t.id({ description: 'Recurring: mute only inside this named time interval.' }),
});
const CreateSilenceInput = builder.inputType('CreateSilenceInput', { fields: (t) => silenceFields(t, true) });
const UpdateSilenceInput = builder.inputType('UpdateSilenceInput', { fields: (t) => silenceFields(t, false) });

function silenceInput(input: Record<string, unknown>): SilenceInput {
  const { timeIntervalId, ...rest } = input;
  return {
    ...(rest as SilenceInput),
    ...(timeIntervalId === undefined ? {} : { timeIntervalId: timeIntervalId == null ? null : String(timeIntervalId) }),
  };
}

builder.mutationFields((t) => ({
  createTimeInterval: t.prismaField({
    type: 'TimeInterval',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateTimeIntervalInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const ti = await createTimeInterval(ctx, input);
      return ctx.db.timeInterval.findUniqueOrThrow({ ...query, where: { id: ti.id } });
    },
  }),
  updateTimeInterval: t.prismaField({
    type: 'TimeInterval',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateTimeIntervalInput, required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const ti = await updateTimeInterval(ctx, String(args.id), args.input);
      return ctx.db.timeInterval.findUniqueOrThrow({ ...query, where: { id: ti.id } });
    },
  }),
  deleteTimeInterval: t.field({
    type: 'ID',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => (await deleteTimeInterval(ctx, String(args.id))).id,
  }),
  createSilence: t.prismaField({
    type: 'Silence',
    authScopes: { user: true },
    args: { input: t.arg({ type: CreateSilenceInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const s = await createSilence(ctx, silenceInput(input));
      return ctx.db.silence.findUniqueOrThrow({ ...query, where: { id: s.id } });
    },
  }),
  updateSilence: t.prismaField({
    type: 'Silence',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateSilenceInput, required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const s = await updateSilence(ctx, String(args.id), silenceInput(args.input));
      return ctx.db.silence.findUniqueOrThrow({ ...query, where: { id: s.id } });
    },
  }),
  expireSilence: t.prismaField({
    type: 'Silence',
    authScopes: { user: true },
    description: 'Ends the silence now (a pending one never starts). 409 SILENCE_EXPIRED when it already has.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const s = await expireSilence(ctx, String(args.id));
      return ctx.db.silence.findUniqueOrThrow({ ...query, where: { id: s.id } });
    },
  }),
}));
