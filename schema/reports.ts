/**
 * GraphQL of the reports area: the query language (reportQuery, reportSchema, translateReport,
 * reportExportUrl), saved reports and dashboards (panels { data } batched per request); report
 * schedules are schema/report-schedules.ts. The query document is the same JSON structure REST takes (snake_case keys,
 * lowercase values), described by `reportSchema`; it is validated by src/reports/validate.ts.
 */
import { builder, found, NodeRef, upperCaseValues } from './builder.js';
import { PAGE } from './connections.js';
import { runReport, type ReportResult } from '../src/reports/query.js';
import { reportSchemaDocument } from '../src/reports/json-schema.js';
import { reportTranslator, translateReport, type TranslateResult } from '../src/reports/translate.js';
import { createSavedReport, deleteSavedReport, runSavedReport, updateSavedReport } from '../src/reports/saved.js';
import {
  createDashboard,
  deleteDashboard,
  storedPanels,
  updateDashboard,
  type Panel,
  type Viz,
} from '../src/reports/dashboards.js';
import { panelResultLoader } from '../src/reports/loaders.js';
import { canEdit } from '../src/reports/policy.js';
import type { OutputType } from '../src/reports/validate.js';

export const ReportEntityEnum = builder.enumType('ReportEntity', {
  values: upperCaseValues(['events', 'alerts', 'devices', 'proposals'] as const),
});
const ReportColumnTypeEnum = builder.enumType('ReportColumnType', {
  values: upperCaseValues(['string', 'integer', 'number', 'timestamp', 'boolean', 'json'] as const),
});
export const ReportFormatEnum = builder.enumType('ReportFormat', { values: upperCaseValues(['csv', 'json'] as const) });
const DashboardVizEnum = builder.enumType('DashboardViz', {
  values: upperCaseValues(['table', 'line', 'bar', 'stat'] as const),
});

const ReportColumnRef = builder.objectRef<{ name: string; type: OutputType }>('ReportColumn').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    type: t.field({ type: ReportColumnTypeEnum, resolve: (c) => c.type }),
  }),
});

export const ReportResultRef = builder.objectRef<ReportResult>('ReportResult').implement({
  description: 'The answer to a report query: columns in order and one JSON object per row.',
  fields: (t) => ({
    entity: t.field({ type: ReportEntityEnum, resolve: (r) => r.entity as never }),
    columns: t.field({ type: [ReportColumnRef], resolve: (r) => r.columns }),
    rows: t.field({ type: ['JSON'], resolve: (r) => r.rows }),
    rowCount: t.int({ resolve: (r) => r.row_count }),
    truncated: t.boolean({ description: 'More rows matched than `limit`.', resolve: (r) => r.truncated }),
    replicaLagSeconds: t.float({
      nullable: true,
      description:
        'Set when the report ran on a read replica (REPORTS_DATABASE_URL) that was behind the primary by more than REPORTS_LAG_NOTICE_SECONDS: rows written in that time are missing.',
      resolve: (r) => r.replica_lag_seconds ?? null,
    }),
  }),
});

const FieldProblemRef = builder.objectRef<{ loc: string[]; msg: string }>('ReportFieldProblem').implement({
  fields: (t) => ({ loc: t.exposeStringList('loc'), msg: t.exposeString('msg') }),
});

const TranslationRef = builder.objectRef<TranslateResult>('ReportTranslation').implement({
  description: 'A query document translated from plain English, checked by the same validator as any query.',
  fields: (t) => ({
    query: t.field({ type: 'JSON', nullable: true, resolve: (r) => r.query }),
    explanation: t.exposeString('explanation'),
    valid: t.exposeBoolean('valid'),
    errors: t.field({ type: [FieldProblemRef], resolve: (r) => r.errors }),
  }),
});

builder.prismaObject('SavedReport', {
  interfaces: [NodeRef],
  description: 'A named report query.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    query: t.expose('query', { type: 'JSON', description: 'The query document (see reportSchema).' }),
    entity: t.field({ type: ReportEntityEnum, resolve: (r) => (r.query as { entity: string }).entity as never }),
    ownerId: t.exposeID('ownerId'),
    canEdit: t.boolean({
      description: 'Whether the caller may change or delete it (owner or admin).',
      resolve: (r, _a, ctx) => canEdit(ctx, r),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const PositionRef = builder.objectRef<Panel['position']>('DashboardPanelPosition').implement({
  fields: (t) => ({ x: t.exposeInt('x'), y: t.exposeInt('y'), w: t.exposeInt('w'), h: t.exposeInt('h') }),
});

const PanelRef = builder.objectRef<Panel & { index: number }>('DashboardPanel').implement({
  fields: (t) => ({
    index: t.exposeInt('index'),
    title: t.exposeString('title'),
    savedReportId: t.exposeID('savedReportId'),
    viz: t.field({ type: DashboardVizEnum, resolve: (p) => p.viz }),
    position: t.field({ type: PositionRef, resolve: (p) => p.position }),
    data: t.field({
      type: ReportResultRef,
      nullable: true,
      description:
        "The panel's report result (null when its report was deleted or failed; see `error`). Batched: one request runs each distinct report once.",
      resolve: async (p, _a, ctx) =>
        panelResultLoader(ctx)
          .load(p.savedReportId)
          .catch(() => null),
    }),
    error: t.string({
      nullable: true,
      resolve: async (p, _a, ctx) =>
        panelResultLoader(ctx)
          .load(p.savedReportId)
          .then(
            () => null,
            (err: Error) => err.message,
          ),
    }),
  }),
});

builder.prismaObject('Dashboard', {
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    ownerId: t.exposeID('ownerId'),
    canEdit: t.boolean({ resolve: (d, _a, ctx) => canEdit(ctx, d) }),
    panels: t.field({ type: [PanelRef], resolve: (d) => storedPanels(d.panels).map((p, index) => ({ ...p, index })) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const SavedReportInput = builder.inputType('SavedReportInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    query: t.field({ type: 'JSON', required: true }),
  }),
});
const UpdateSavedReportInput = builder.inputType('UpdateSavedReportInput', {
  fields: (t) => ({ name: t.string(), description: t.string(), query: t.field({ type: 'JSON' }) }),
});
const PositionInput = builder.inputType('DashboardPanelPositionInput', {
  fields: (t) => ({
    x: t.int({ required: true }),
    y: t.int({ required: true }),
    w: t.int({ required: true }),
    h: t.int({ required: true }),
  }),
});
const PanelInput = builder.inputType('DashboardPanelInput', {
  fields: (t) => ({
    title: t.string({ required: true }),
    savedReportId: t.id({ required: true }),
    viz: t.field({ type: DashboardVizEnum, required: true }),
    position: t.field({ type: PositionInput, required: true }),
  }),
});
const DashboardInput = builder.inputType('DashboardInput', {
  fields: (t) => ({ name: t.string({ required: true }), panels: t.field({ type: [PanelInput] }) }),
});
const UpdateDashboardInput = builder.inputType('UpdateDashboardInput', {
  fields: (t) => ({
    name: t.string(),
    panels: t.field({ type: [PanelInput], description: 'Replaces the whole list.' }),
  }),
});

const panelsIn = (
  panels:
    Array<{ title: string; savedReportId: string | number; viz: Viz; position: Panel['position'] }> | null | undefined,
) => panels?.map((p) => ({ ...p, savedReportId: String(p.savedReportId) })) ?? null;
export const limitArg = (t: any) =>
  t.arg.int({ defaultValue: PAGE.defaultSize, description: `At most ${PAGE.maxSize}.` });
export const take = (limit: unknown) =>
  Math.min(Math.max(typeof limit === 'number' ? limit : PAGE.defaultSize, 1), PAGE.maxSize);

builder.queryFields((t) => ({
  reportQuery: t.field({
    type: ReportResultRef,
    authScopes: { user: true },
    description: 'Runs a report query document (see reportSchema) for your tenant.',
    args: { query: t.arg({ type: 'JSON', required: true }) },
    resolve: (_r, args, ctx) => runReport(ctx, args.query, ['query']),
  }),
  reportSchema: t.field({
    type: 'JSON',
    authScopes: { user: true },
    description: 'JSON Schema (2020-12) of the query document, the field catalogue and the limits.',
    resolve: () => reportSchemaDocument(),
  }),
  translateReport: t.field({
    type: TranslationRef,
    authScopes: { user: true },
    description:
      'Plain English to a query document, validated like any query: the built-in deterministic translator (offline) by default, the configured language model when ASSISTANT_PROVIDER=openai.',
    args: { text: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => translateReport(args.text.slice(0, 500), reportTranslator(ctx)),
  }),
  reportExportUrl: t.string({
    authScopes: { user: true },
    description: 'Where to POST the same query document for a streamed export (REST; GraphQL answers are not streams).',
    args: { format: t.arg({ type: ReportFormatEnum, required: true }) },
    resolve: (_r, args) => `/api/v1/reports/query/export?format=${args.format}`,
  }),
  savedReports: t.prismaField({
    type: ['SavedReport'],
    authScopes: { user: true },
    args: { limit: limitArg(t) },
    resolve: (query, _r, args, ctx) =>
      ctx.db.savedReport.findMany({ ...query, orderBy: { id: 'desc' }, take: take(args.limit) }),
  }),
  savedReport: t.prismaField({
    type: 'SavedReport',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _r, args, ctx) =>
      found('Saved report', await ctx.db.savedReport.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
  dashboards: t.prismaField({
    type: ['Dashboard'],
    authScopes: { user: true },
    args: { limit: limitArg(t) },
    resolve: (query, _r, args, ctx) =>
      ctx.db.dashboard.findMany({ ...query, orderBy: { id: 'desc' }, take: take(args.limit) }),
  }),
  dashboard: t.prismaField({
    type: 'Dashboard',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _r, args, ctx) =>
      found('Dashboard', await ctx.db.dashboard.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
}));

builder.mutationFields((t) => ({
  createSavedReport: t.prismaField({
    type: 'SavedReport',
    authScopes: { user: true },
    args: { input: t.arg({ type: SavedReportInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) =>
      ctx.db.savedReport.findUniqueOrThrow({ ...query, where: { id: (await createSavedReport(ctx, input)).id } }),
  }),
  updateSavedReport: t.prismaField({
    type: 'SavedReport',
    authScopes: { user: true },
    description: 'Owner or admin.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateSavedReportInput, required: true }) },
    resolve: async (query, _r, args, ctx) =>
      ctx.db.savedReport.findUniqueOrThrow({
        ...query,
        where: { id: (await updateSavedReport(ctx, String(args.id), args.input)).id },
      }),
  }),
  deleteSavedReport: t.id({
    authScopes: { user: true },
    description: 'Owner or admin. Schedules of the report are disabled with the reason.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => (await deleteSavedReport(ctx, String(args.id))).id,
  }),
  runSavedReport: t.field({
    type: ReportResultRef,
    authScopes: { user: true },
    args: {
      id: t.arg.id({ required: true }),
      parameters: t.arg({
        type: 'JSON',
        description: 'Field name → value overriding its filters; also `since_hours`, `limit`.',
      }),
    },
    resolve: (_r, args, ctx) =>
      runSavedReport(ctx, String(args.id), args.parameters as Record<string, unknown> | null, ['parameters']),
  }),
  createDashboard: t.prismaField({
    type: 'Dashboard',
    authScopes: { user: true },
    args: { input: t.arg({ type: DashboardInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) =>
      ctx.db.dashboard.findUniqueOrThrow({
        ...query,
        where: { id: (await createDashboard(ctx, { name: input.name, panels: panelsIn(input.panels) })).id },
      }),
  }),
  updateDashboard: t.prismaField({
    type: 'Dashboard',
    authScopes: { user: true },
    description: 'Owner or admin.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateDashboardInput, required: true }) },
    resolve: async (query, _r, args, ctx) =>
      ctx.db.dashboard.findUniqueOrThrow({
        ...query,
        where: {
          id: (
            await updateDashboard(ctx, String(args.id), { name: args.input.name, panels: panelsIn(args.input.panels) })
          ).id,
        },
      }),
  }),
  deleteDashboard: t.id({
    authScopes: { user: true },
    description: 'Owner or admin.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => (await deleteDashboard(ctx, String(args.id))).id,
  }),
}));
