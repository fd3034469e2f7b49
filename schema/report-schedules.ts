/**
 * GraphQL of report schedules (admins): a saved report run on a cron pattern and delivered to an
 * outbound webhook as `report.delivered`; list, lookup, create, update, delete and run now.
 */
import { builder, found, NodeRef, upperCaseValues } from './builder.js';
import { limitArg, ReportFormatEnum, take } from './reports.js';
import {
  createSchedule,
  deleteSchedule,
  runScheduleNow,
  updateSchedule,
  type ScheduleInput as ScheduleFields,
  type ScheduleRun,
} from '../src/reports/schedules.js';

const ScheduleRunStatusEnum = builder.enumType('ReportScheduleRunStatus', {
  values: upperCaseValues(['delivered', 'disabled', 'skipped'] as const),
});

builder.prismaObject('ReportSchedule', {
  interfaces: [NodeRef],
  description: 'A saved report delivered to an outbound webhook on a cron schedule (admin only).',
  fields: (t) => ({
    id: t.exposeID('id'),
    savedReportId: t.exposeID('savedReportId', { nullable: true }),
    webhookId: t.exposeID('webhookId'),
    cron: t.exposeString('cron'),
    timezone: t.exposeString('timezone'),
    format: t.field({ type: ReportFormatEnum, resolve: (s) => s.format }),
    parameters: t.expose('parameters', { type: 'JSON' }),
    enabled: t.exposeBoolean('enabled'),
    disabledReason: t.exposeString('disabledReason', { nullable: true }),
    lastRunAt: t.expose('lastRunAt', { type: 'DateTime', nullable: true }),
    lastOutboxId: t.exposeID('lastOutboxId', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    ownerId: t.exposeID('ownerId'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const ScheduleRunRef = builder.objectRef<ScheduleRun>('ReportScheduleRun').implement({
  fields: (t) => ({
    scheduleId: t.exposeID('scheduleId'),
    status: t.field({ type: ScheduleRunStatusEnum, resolve: (r) => r.status }),
    outboxId: t.exposeID('outboxId', { nullable: true }),
    rowCount: t.exposeInt('rowCount', { nullable: true }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});

const scheduleFields = (t: any, creating: boolean) => ({
  savedReportId: t.id({ required: creating }),
  webhookId: t.id({ required: creating, description: 'The outbound webhook that receives `report.delivered`.' }),
  cron: t.string({
    required: creating,
    description: 'Cron pattern of 5 or 6 fields, e.g. `0 8 * * 1` (Mondays 08:00).',
  }),
  timezone: t.string({ description: 'IANA time zone of the pattern (default UTC).' }),
  format: t.field({ type: ReportFormatEnum }),
  parameters: t.field({
    type: 'JSON',
    description: 'Values that override the report filters, `since_hours` or `limit` at each run.',
  }),
  enabled: t.boolean(),
});
const ScheduleInput = builder.inputType('ReportScheduleInput', { fields: (t) => scheduleFields(t, true) });
const UpdateScheduleInput = builder.inputType('UpdateReportScheduleInput', { fields: (t) => scheduleFields(t, false) });

const idOrNull = (v: unknown) => (v == null ? null : String(v));

builder.queryFields((t) => ({
  reportSchedules: t.prismaField({
    type: ['ReportSchedule'],
    authScopes: { admin: true },
    args: { limit: limitArg(t) },
    resolve: (query, _r, args, ctx) =>
      ctx.db.reportSchedule.findMany({ ...query, orderBy: { id: 'desc' }, take: take(args.limit) }),
  }),
  reportSchedule: t.prismaField({
    type: 'ReportSchedule',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _r, args, ctx) =>
      found('Report schedule', await ctx.db.reportSchedule.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
}));

builder.mutationFields((t) => ({
  createReportSchedule: t.prismaField({
    type: 'ReportSchedule',
    authScopes: { admin: true },
    args: { input: t.arg({ type: ScheduleInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const s = await createSchedule(ctx, {
        ...(input as ScheduleFields),
        savedReportId: idOrNull(input.savedReportId),
        webhookId: idOrNull(input.webhookId),
        parameters: input.parameters as Record<string, unknown> | null,
      });
      return ctx.db.reportSchedule.findUniqueOrThrow({ ...query, where: { id: s.id } });
    },
  }),
  updateReportSchedule: t.prismaField({
    type: 'ReportSchedule',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateScheduleInput, required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const i = args.input;
      const s = await updateSchedule(ctx, String(args.id), {
        ...(i as ScheduleFields),
        savedReportId: idOrNull(i.savedReportId),
        webhookId: idOrNull(i.webhookId),
        parameters: i.parameters as Record<string, unknown> | null,
      });
      return ctx.db.reportSchedule.findUniqueOrThrow({ ...query, where: { id: s.id } });
    },
  }),
  deleteReportSchedule: t.id({
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => (await deleteSchedule(ctx, String(args.id))).id,
  }),
  runReportSchedule: t.field({
    type: ScheduleRunRef,
    authScopes: { admin: true },
    description: 'Runs the schedule now: the result goes to its webhook as `report.delivered`.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => runScheduleNow(ctx, String(args.id)),
  }),
}));
