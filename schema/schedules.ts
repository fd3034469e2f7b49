/**
 * On-call schedules: Schedule (layers, overrides, who is on call, final shifts), `schedules` / `schedule(id)` /
 * `onCall(at)` (members read), create/update/delete (admins), overrides (any user), iCalendar feeds.
 */
import { builder, found, upperCaseValues, NodeRef } from './builder.js';
import { requireUser } from '../src/context.js';
import {
  createSchedule,
  createScheduleOverride,
  deleteSchedule,
  deleteScheduleOverride,
  updateSchedule,
  type LayerInput,
} from '../src/schedules/schedules.js';
import { finalShiftsOf, loadScheduleRows, scheduleSpecOf } from '../src/schedules/oncall.js';
import { layerShifts, onCallAt, type Shift } from '../src/schedules/shifts.js';
import { createCalendarFeed, revokeCalendarFeed } from '../src/schedules/feeds.js';
import { ValidationFailed } from '../src/errors.js';

const RotationKindEnum = builder.enumType('RotationKind', {
  values: upperCaseValues(['daily', 'weekly', 'custom'] as const),
});

/** Longest window a shifts query computes. */
const MAX_WINDOW_DAYS = 92;

function windowOf(from: Date, to: Date): [Date, Date] {
  if (to.getTime() <= from.getTime()) throw new ValidationFailed([{ loc: ['to'], msg: 'must be after from' }]);
  if (to.getTime() - from.getTime() > MAX_WINDOW_DAYS * 86400_000)
    throw new ValidationFailed([{ loc: ['to'], msg: `must be at most ${MAX_WINDOW_DAYS} days after from` }]);
  return [from, to];
}

export const ScheduleShiftRef = builder.objectRef<Shift>('ScheduleShift').implement({
  description: 'Someone on call from start to end (end exclusive): from a layer or an override.',
  fields: (t) => ({
    userId: t.exposeID('userId'),
    user: t.prismaField({
      type: 'User',
      nullable: true,
      resolve: (query, s, _args, ctx) => ctx.db.user.findUnique({ ...query, where: { id: s.userId } }),
    }),
    start: t.expose('start', { type: 'DateTime' }),
    end: t.expose('end', { type: 'DateTime' }),
    layerId: t.exposeID('layerId', { nullable: true }),
    overrideId: t.exposeID('overrideId', { nullable: true }),
  }),
});

builder.prismaObject('ScheduleLayer', {
  description: 'One rotation of a schedule; a higher position wins where it has someone on call.',
  fields: (t) => ({
    id: t.exposeID('id'),
    position: t.exposeInt('position'),
    name: t.exposeString('name', { nullable: true }),
    startsAt: t.expose('startsAt', { type: 'DateTime' }),
    rotation: t.expose('rotation', { type: RotationKindEnum }),
    turnLengthSeconds: t.exposeInt('turnLengthSeconds', { nullable: true }),
    handoffTime: t.exposeString('handoffTime', { description: 'HH:mm in the schedule’s time zone.' }),
    handoffWeekday: t.exposeInt('handoffWeekday', { nullable: true, description: 'ISO weekday 1 (Monday) … 7.' }),
    userIds: t.exposeIDList('userIds'),
    restrictions: t.expose('restrictions', { type: 'JSON' }),
    shifts: t.field({
      type: [ScheduleShiftRef],
      description: 'This layer’s own shifts within [from, to) (at most 92 days).',
      args: { from: t.arg({ type: 'DateTime', required: true }), to: t.arg({ type: 'DateTime', required: true }) },
      resolve: async (layer, args, ctx) => {
        const [from, to] = windowOf(args.from, args.to);
        const s = await ctx.db.schedule.findUniqueOrThrow({ where: { id: layer.scheduleId } });
        const spec = scheduleSpecOf({ ...s, layers: [layer], overrides: [] }).layers[0]!;
        return layerShifts(spec, s.timeZone, from, to);
      },
    }),
  }),
});

builder.prismaObject('ScheduleOverride', {
  fields: (t) => ({
    id: t.exposeID('id'),
    scheduleId: t.exposeID('scheduleId'),
    userId: t.exposeID('userId'),
    user: t.relation('user'),
    startsAt: t.expose('startsAt', { type: 'DateTime' }),
    endsAt: t.expose('endsAt', { type: 'DateTime' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('Schedule', {
  interfaces: [NodeRef],
  description: 'An on-call schedule: layers of rotations in one IANA time zone, and overrides over them.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    timeZone: t.exposeString('timeZone'),
    layers: t.relation('layers', { query: { orderBy: { position: 'asc' } } }),
    overrides: t.relation('overrides', { query: { orderBy: { startsAt: 'asc' } } }),
    onCall: t.field({
      type: ScheduleShiftRef,
      nullable: true,
      description: 'Who is on call at `at` (default now), with their shift.',
      args: { at: t.arg({ type: 'DateTime' }) },
      resolve: async (s, args, ctx) => {
        const rows = await loadScheduleRows(ctx.db, s.id);
        return rows ? onCallAt(scheduleSpecOf(rows), args.at ?? ctx.rt.clock.now()) : null;
      },
    }),
    finalShifts: t.field({
      type: [ScheduleShiftRef],
      description:
        'The final shifts within [from, to) (at most 92 days): overrides over layers, higher layers over lower.',
      args: { from: t.arg({ type: 'DateTime', required: true }), to: t.arg({ type: 'DateTime', required: true }) },
      resolve: async (s, args, ctx) => {
        const [from, to] = windowOf(args.from, args.to);
        const rows = await loadScheduleRows(ctx.db, s.id);
        return rows ? finalShiftsOf(rows, from, to) : [];
      },
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

interface OnCallRow {
  scheduleId: string;
  shift: Shift;
}

const OnCallRef = builder.objectRef<OnCallRow>('OnCall').implement({
  description: 'Who is on call for one schedule.',
  fields: (t) => ({
    schedule: t.prismaField({
      type: 'Schedule',
      resolve: (query, r, _args, ctx) => ctx.db.schedule.findUniqueOrThrow({ ...query, where: { id: r.scheduleId } }),
    }),
    shift: t.field({ type: ScheduleShiftRef, resolve: (r) => r.shift }),
  }),
});

builder.queryFields((t) => ({
  schedules: t.prismaField({
    type: ['Schedule'],
    authScopes: { user: true },
    resolve: (query, _root, _args, ctx) => ctx.db.schedule.findMany({ ...query, orderBy: { name: 'asc' } }),
  }),
  schedule: t.prismaField({
    type: 'Schedule',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found('Schedule', await ctx.db.schedule.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
  onCall: t.field({
    type: [OnCallRef],
    authScopes: { user: true },
    description: 'Who is on call now (or at `at`) in each schedule that has someone.',
    args: { at: t.arg({ type: 'DateTime' }) },
    resolve: async (_root, args, ctx) => {
      const at = args.at ?? ctx.rt.clock.now();
      const all = await ctx.db.schedule.findMany({
        include: { layers: true, overrides: true },
        orderBy: { name: 'asc' },
      });
      return all.flatMap((s) => {
        const shift = onCallAt(scheduleSpecOf(s), at);
        return shift ? [{ scheduleId: s.id, shift }] : [];
      });
    },
  }),
}));

const RestrictionInput = builder.inputType('ScheduleRestrictionInput', {
  description:
    'daily: every day start..end; weekly: startDay start .. endDay end (ISO weekdays 1-7). Times HH:mm local.',
  fields: (t) => ({
    kind: t.string({ required: true, description: 'daily | weekly' }),
    start: t.string({ required: true }),
    end: t.string({ required: true }),
    startDay: t.int(),
    endDay: t.int(),
  }),
});

const LayerInputType = builder.inputType('ScheduleLayerInput', {
  fields: (t) => ({
    name: t.string(),
    startsAt: t.field({ type: 'DateTime', required: true }),
    rotation: t.field({ type: RotationKindEnum, required: true }),
    turnLengthSeconds: t.int({
      description: 'custom rotations: the turn length (≥ 3600; whole days keep wall-clock time).',
    }),
    handoffTime: t.string({ description: 'HH:mm local (default 09:00).' }),
    handoffWeekday: t.int({ description: 'weekly rotations: ISO weekday of the handoff (default 1, Monday).' }),
    userIds: t.idList({ required: true }),
    restrictions: t.field({ type: [RestrictionInput] }),
  }),
});

const scheduleFields = (t: PothosSchemaTypes.InputFieldBuilder<any, 'InputObject'>, create: boolean) => ({
  name: t.string({ required: create }),
  description: t.string(),
  timeZone: t.string({ required: create, description: 'IANA zone, e.g. Europe/Amsterdam.' }),
  layers: t.field({ type: [LayerInputType], description: 'In order, lowest first; on update replaces the layers.' }),
});
const CreateScheduleInput = builder.inputType('CreateScheduleInput', { fields: (t) => scheduleFields(t, true) });
const UpdateScheduleInput = builder.inputType('UpdateScheduleInput', { fields: (t) => scheduleFields(t, false) });
const CreateScheduleOverrideInput = builder.inputType('CreateScheduleOverrideInput', {
  fields: (t) => ({
    scheduleId: t.id({ required: true }),
    userId: t.id({ required: true }),
    startsAt: t.field({ type: 'DateTime', required: true }),
    endsAt: t.field({ type: 'DateTime', required: true }),
  }),
});
const CreateCalendarFeedInput = builder.inputType('CreateCalendarFeedInput', {
  fields: (t) => ({ scheduleId: t.id(), userId: t.id({ description: 'Your own id: your shifts across schedules.' }) }),
});

interface FeedSecret {
  id: string;
  url: string;
  token: string;
}
const CalendarFeedSecretRef = builder.objectRef<FeedSecret>('CalendarFeedSecret').implement({
  description: 'A new iCalendar feed: its secret URL path is shown this once.',
  fields: (t) => ({ id: t.exposeID('id'), url: t.exposeString('url'), token: t.exposeString('token') }),
});

function layersOf(input: { layers?: unknown[] | null }): LayerInput[] | null | undefined {
  return input.layers as LayerInput[] | null | undefined;
}

builder.mutationFields((t) => ({
  createSchedule: t.prismaField({
    type: 'Schedule',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateScheduleInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const s = await createSchedule(ctx, { ...input, layers: layersOf(input) });
      return ctx.db.schedule.findUniqueOrThrow({ ...query, where: { id: s.id } });
    },
  }),
  updateSchedule: t.prismaField({
    type: 'Schedule',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateScheduleInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const s = await updateSchedule(ctx, String(args.id), { ...args.input, layers: layersOf(args.input) });
      return ctx.db.schedule.findUniqueOrThrow({ ...query, where: { id: s.id } });
    },
  }),
  deleteSchedule: t.field({
    type: 'ID',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await deleteSchedule(ctx, String(args.id))).id,
  }),
  createScheduleOverride: t.prismaField({
    type: 'ScheduleOverride',
    authScopes: { user: true },
    args: { input: t.arg({ type: CreateScheduleOverrideInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const o = await createScheduleOverride(ctx, {
        ...input,
        scheduleId: String(input.scheduleId),
        userId: String(input.userId),
      });
      return ctx.db.scheduleOverride.findUniqueOrThrow({ ...query, where: { id: o.id } });
    },
  }),
  deleteScheduleOverride: t.field({
    type: 'ID',
    authScopes: { user: true },
    args: {
      id: t.arg.id({ required: true }),
      scheduleId: t.arg.id({ description: 'When given, the override must be of this schedule (else NOT_FOUND).' }),
    },
    resolve: async (_root, args, ctx) =>
      (await deleteScheduleOverride(ctx, String(args.id), args.scheduleId == null ? null : String(args.scheduleId))).id,
  }),
  createCalendarFeed: t.field({
    type: CalendarFeedSecretRef,
    authScopes: { user: true },
    args: { input: t.arg({ type: CreateCalendarFeedInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      requireUser(ctx);
      const r = await createCalendarFeed(ctx, {
        scheduleId: input.scheduleId ? String(input.scheduleId) : null,
        userId: input.userId ? String(input.userId) : null,
      });
      return { id: r.feed.id, url: r.url, token: r.token };
    },
  }),
  revokeCalendarFeed: t.field({
    type: 'ID',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await revokeCalendarFeed(ctx, String(args.id))).id,
  }),
}));
