/**
 * Maintenance windows: the type, `maintenanceWindows` / `maintenanceWindow(id)` (members read) and
 * create, update, delete (admins). Alerts that open inside an active window covering them are suppressed.
 */
import { builder, found, NodeRef } from './builder.js';
import {
  createMaintenanceWindow,
  deleteMaintenanceWindow,
  updateMaintenanceWindow,
  windowIsActive,
  type MaintenanceWindowInput,
} from '../src/alerts/maintenance-windows.js';

builder.prismaObject('MaintenanceWindow', {
  interfaces: [NodeRef],
  description: 'Alerts that open inside an active window covering them are suppressed: no outbound trigger.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    startsAt: t.expose('startsAt', { type: 'DateTime' }),
    endsAt: t.expose('endsAt', { type: 'DateTime' }),
    repeatEverySeconds: t.exposeInt('repeatEverySeconds', {
      nullable: true,
      description: 'Recurring: the span startsAt..endsAt repeats with this period.',
    }),
    matchLabels: t.expose('matchLabels', { type: 'JSON' }),
    source: t.exposeString('source', { nullable: true }),
    deviceId: t.exposeString('deviceId', { nullable: true }),
    activeNow: t.boolean({ resolve: (w, _args, ctx) => windowIsActive(w, ctx.rt.clock.now()) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  maintenanceWindows: t.prismaField({
    type: ['MaintenanceWindow'],
    authScopes: { user: true },
    resolve: (query, _root, _args, ctx) =>
      ctx.db.maintenanceWindow.findMany({ ...query, orderBy: { startsAt: 'asc' } }),
  }),
  maintenanceWindow: t.prismaField({
    type: 'MaintenanceWindow',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found(
        'Maintenance window',
        await ctx.db.maintenanceWindow.findUnique({ ...query, where: { id: String(args.id) } }),
      ),
  }),
}));

const windowFields = (t: PothosSchemaTypes.InputFieldBuilder<any, 'InputObject'>, create: boolean) => ({
  name: t.string({ required: create }),
  startsAt: t.field({ type: 'DateTime', required: create }),
  endsAt: t.field({ type: 'DateTime', required: create }),
  repeatEverySeconds: t.int({ description: 'Recurring windows: the period (e.g. 604800 for weekly); null: one-off.' }),
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
    type: 'MaintenanceWindow',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateMaintenanceWindowInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const w = await createMaintenanceWindow(ctx, windowInput(input));
      return ctx.db.maintenanceWindow.findUniqueOrThrow({ ...query, where: { id: w.id } });
    },
  }),
  updateMaintenanceWindow: t.prismaField({
    type: 'MaintenanceWindow',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateMaintenanceWindowInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const w = await updateMaintenanceWindow(ctx, String(args.id), windowInput(args.input));
      return ctx.db.maintenanceWindow.findUniqueOrThrow({ ...query, where: { id: w.id } });
    },
  }),
  deleteMaintenanceWindow: t.field({
    type: 'ID',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await deleteMaintenanceWindow(ctx, String(args.id))).id,
  }),
}));
