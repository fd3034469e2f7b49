/**
 * Maintenance windows (deprecated): the type, `maintenanceWindows` / `maintenanceWindow(id)` (members
 * read) and create, update, delete (admins), an alias over silences. A window is a silence with the same
 * id (src/routing/maintenance-window-store.ts); every field reads from it, every change writes it.
 */
import { builder, found, NodeRef } from './builder.js';
import {
  createMaintenanceWindow,
  deleteMaintenanceWindow,
  updateMaintenanceWindow,
  windowActiveAt,
  windowView,
  WINDOW_WHERE,
  type MaintenanceWindowInput,
} from '../src/routing/maintenance-window-store.js';

/** The removal date of the maintenance-window API (at least 90 days after its deprecation, DESIGN). */
export const WINDOWS_SUNSET = '2027-03-01';
/** The deprecation reason of a window operation: a window is the silence of the same id. */
const deprecated = (replacement: string) =>
  `Use ${replacement} instead (a maintenance window is the silence of the same id; a recurring one has a time interval); removal after ${WINDOWS_SUNSET}`;

export const MaintenanceWindowRef = builder.prismaObject('Silence', {
  variant: 'MaintenanceWindow',
  interfaces: [NodeRef],
  description:
    'Deprecated: a maintenance window is a silence with the same id (see Silence). Alerts that open inside an active window covering them are suppressed: no outbound trigger.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.string({ resolve: (s) => windowView(s).name }),
    startsAt: t.field({ type: 'DateTime', resolve: (s) => s.startsAt }),
    endsAt: t.field({ type: 'DateTime', resolve: (s) => windowView(s).endsAt }),
    repeatEverySeconds: t.int({
      nullable: true,
      description: 'Recurring: the span startsAt..endsAt repeats with this period.',
      resolve: (s) => s.windowRepeatEverySeconds,
    }),
    matchLabels: t.field({ type: 'JSON', resolve: (s) => windowView(s).matchLabels }),
    source: t.string({ nullable: true, resolve: (s) => windowView(s).source }),
    deviceId: t.string({ nullable: true, resolve: (s) => windowView(s).deviceId }),
    activeNow: t.boolean({
      select: { timeInterval: true },
      resolve: (s, _args, ctx) => windowActiveAt(s, ctx.rt.clock.now()),
    }),
    silence: t.variant('Silence', { description: 'The silence this window is.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  maintenanceWindows: t.prismaField({
    type: [MaintenanceWindowRef],
    authScopes: { user: true },
    deprecationReason: deprecated('Query.silences'),
    resolve: (query, _root, _args, ctx) =>
      ctx.db.silence.findMany({ ...query, where: WINDOW_WHERE, orderBy: { startsAt: 'asc' } }),
  }),
  maintenanceWindow: t.prismaField({
    type: MaintenanceWindowRef,
    authScopes: { user: true },
    deprecationReason: deprecated('Query.silence(id:)'),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found(
        'Maintenance window',
        await ctx.db.silence.findFirst({ ...query, where: { id: String(args.id), ...WINDOW_WHERE } }),
      ),
  }),
}));

const windowFields = (t: PothosSchemaTypes.InputFieldBuilder<any, 'InputObject'>, create: boolean) => ({
  name: t.string({ required: create }),
  startsAt: t.field({ type: 'DateTime', required: create }),
  endsAt: t.field({ type: 'DateTime', required: create }),
  repeatEverySeconds: t.int({
    description:
      'Recurring windows: the period (86400 daily and 604800 weekly keep their local time across DST; other periods repeat exactly); null: one-off.',
  }),
  matchLabels: t.field({ type: 'JSON', description: 'Scope: alerts whose opening event carries all these labels.' }),
  source: t.string({ description: 'Scope: alerts from this source.' }),
  deviceId: t.id({ description: 'Scope: alerts of this device.' }),
});
const CreateMaintenanceWindowInput = builder.inputType('CreateMaintenanceWindowInput', {
  fields: (t) => windowFields(t, true),
});
const UpdateMaintenanceWindowInput = builder.inputType('UpdateMaintenanceWindowInput', {
  fields: (t) => windowFields(t, false),
});

function windowInput(input: Record<string, unknown>): MaintenanceWindowInput {
  return {
    ...input,
    deviceId: input.deviceId == null ? (input.deviceId as null | undefined) : String(input.deviceId),
  } as MaintenanceWindowInput;
}

builder.mutationFields((t) => ({
  createMaintenanceWindow: t.prismaField({
    type: MaintenanceWindowRef,
    authScopes: { admin: true },
    deprecationReason: deprecated('Mutation.createSilence'),
    args: { input: t.arg({ type: CreateMaintenanceWindowInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const w = await createMaintenanceWindow(ctx, windowInput(input));
      return ctx.db.silence.findUniqueOrThrow({ ...query, where: { id: w.id } });
    },
  }),
  updateMaintenanceWindow: t.prismaField({
    type: MaintenanceWindowRef,
    authScopes: { admin: true },
    deprecationReason: deprecated('Mutation.updateSilence'),
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateMaintenanceWindowInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const w = await updateMaintenanceWindow(ctx, String(args.id), windowInput(args.input));
      return ctx.db.silence.findUniqueOrThrow({ ...query, where: { id: w.id } });
    },
  }),
  deleteMaintenanceWindow: t.field({
    type: 'ID',
    authScopes: { admin: true },
    deprecationReason: deprecated('Mutation.expireSilence'),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await deleteMaintenanceWindow(ctx, String(args.id))).id,
  }),
}));
