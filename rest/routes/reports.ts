/**
 * REST routes of the reports area. Each executes a GraphQL operation of schema/reports.ts, except the
 * export: a stream (HandlerRoute) that calls src/reports/export.ts. The query document travels as a
 * JSON argument, so its 422s carry the same paths (`body.filters.1.op`) as the route's body.
 */
import type { RouteEntry } from '../route-types.js';
import type { Writable } from 'node:stream';
import { ExportStalled, exportReport, stallOf, type ExportFormat } from '../../src/reports/export.js';
import {
  DASHBOARD_FIELDS,
  REPORT_RESULT_FIELDS,
  SAVED_REPORT_FIELDS,
  SCHEDULE_FIELDS,
  presentDashboard,
  presentDashboardData,
  presentReportResult,
  presentSavedReport,
  presentSchedule,
  presentScheduleRun,
  presentTranslation,
} from '../presenters/reports.js';

/** Why an export ended without failing: its client closed the connection or read nothing (else undefined). */
function clientWentAway(err: unknown, res: Writable): string | undefined {
  const stall = err instanceof ExportStalled ? err : stallOf(res);
  if (stall) return stall.message;
  const code = (err as { code?: unknown }).code;
  if (code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'EPIPE' || res.destroyed)
    return 'the client closed the connection';
  return undefined;
}

export const reportsRoutes: RouteEntry[] = [
  {
    method: 'post',
    path: '/reports/query',
    operation: `query ReportQuery($query: JSON!) { reportQuery(query: $query) { ${REPORT_RESULT_FIELDS} } }`,
    variables: (req) => ({ query: req.body }),
    respond: (data) => presentReportResult(data.reportQuery),
  },
  {
    method: 'post',
    path: '/reports/query/export',
    // The document is the `query` argument, as for reportQuery: its 422s name `body.filters.1.op`.
    variables: (req) => ({ query: req.body, format: req.query.format ?? 'csv' }),
    handler: async (req, res, vars) => {
      try {
        const head = (h: { contentType: string; filename: string }) => {
          res.status(200);
          res.setHeader('Content-Type', h.contentType);
          res.setHeader('Content-Disposition', `attachment; filename="${h.filename}"`);
          res.setHeader('Cache-Control', 'no-store');
        };
        await exportReport(req.ctx, vars.query, vars.format as ExportFormat, res, head);
      } catch (err) {
        // A client that hung up, or stopped reading and was cut, is one info line: nothing failed here.
        const hangUp = clientWentAway(err, res);
        if (hangUp) {
          req.ctx.rt.logger.info({ reason: hangUp }, 'report export ended early by its client');
          if (!res.destroyed) res.destroy();
          return;
        }
        // Once the stream has started the status is sent: a failure can only end the response early.
        if (!res.headersSent) throw err;
        if (!res.destroyed) {
          req.ctx.rt.logger.warn({ err }, 'report export failed mid-stream');
          res.destroy(err as Error);
        }
      }
    },
  },
  {
    method: 'get',
    path: '/reports/query/schema',
    operation: 'query ReportSchema { reportSchema }',
    respond: (data) => data.reportSchema,
  },
  {
    method: 'post',
    path: '/reports/query/translate',
    operation:
      'query TranslateReport($text: String!) { translateReport(text: $text) { query explanation valid errors { loc msg } } }',
    variables: (req) => ({ text: req.body.text }),
    respond: (data) => presentTranslation(data.translateReport),
  },
  // Saved reports
  {
    method: 'get',
    path: '/reports/saved',
    operation: `query SavedReports($limit: Int) { savedReports(limit: $limit) { ${SAVED_REPORT_FIELDS} } }`,
    variables: (req) => ({ limit: req.query.limit === undefined ? null : Number(req.query.limit) }),
    respond: (data) => ({ items: data.savedReports.map(presentSavedReport) }),
  },
  {
    method: 'post',
    path: '/reports/saved',
    operation: `mutation CreateSavedReport($input: SavedReportInput!) { createSavedReport(input: $input) { ${SAVED_REPORT_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentSavedReport(data.createSavedReport),
  },
  {
    method: 'get',
    path: '/reports/saved/:reportId',
    operation: `query SavedReport($id: ID!) { savedReport(id: $id) { ${SAVED_REPORT_FIELDS} } }`,
    variables: (req) => ({ id: req.params.reportId }),
    respond: (data) => presentSavedReport(data.savedReport),
  },
  {
    method: 'patch',
    path: '/reports/saved/:reportId',
    operation: `mutation UpdateSavedReport($id: ID!, $input: UpdateSavedReportInput!) { updateSavedReport(id: $id, input: $input) { ${SAVED_REPORT_FIELDS} } }`,
    variables: (req) => ({ id: req.params.reportId, input: req.body }),
    respond: (data) => presentSavedReport(data.updateSavedReport),
  },
  {
    method: 'delete',
    path: '/reports/saved/:reportId',
    operation: 'mutation DeleteSavedReport($id: ID!) { deleteSavedReport(id: $id) }',
    variables: (req) => ({ id: req.params.reportId }),
    status: 204,
  },
  {
    method: 'post',
    path: '/reports/saved/:reportId/run',
    operation: `mutation RunSavedReport($id: ID!, $parameters: JSON) { runSavedReport(id: $id, parameters: $parameters) { ${REPORT_RESULT_FIELDS} } }`,
    variables: (req) => ({ id: req.params.reportId, parameters: req.body?.parameters ?? null }),
    respond: (data) => presentReportResult(data.runSavedReport),
  },
  // Dashboards
  {
    method: 'get',
    path: '/reports/dashboards',
    operation: `query Dashboards($limit: Int) { dashboards(limit: $limit) { ${DASHBOARD_FIELDS} } }`,
    variables: (req) => ({ limit: req.query.limit === undefined ? null : Number(req.query.limit) }),
    respond: (data) => ({ items: data.dashboards.map(presentDashboard) }),
  },
  {
    method: 'post',
    path: '/reports/dashboards',
    operation: `mutation CreateDashboard($input: DashboardInput!) { createDashboard(input: $input) { ${DASHBOARD_FIELDS} } }`,
    variables: (req) => ({ input: { panels: [], ...req.body } }),
    status: 201,
    respond: (data) => presentDashboard(data.createDashboard),
  },
  {
    method: 'get',
    path: '/reports/dashboards/:dashboardId',
    operation: `query Dashboard($id: ID!) { dashboard(id: $id) { ${DASHBOARD_FIELDS} } }`,
    variables: (req) => ({ id: req.params.dashboardId }),
    respond: (data) => presentDashboard(data.dashboard),
  },
  {
    method: 'patch',
    path: '/reports/dashboards/:dashboardId',
    operation: `mutation UpdateDashboard($id: ID!, $input: UpdateDashboardInput!) { updateDashboard(id: $id, input: $input) { ${DASHBOARD_FIELDS} } }`,
    variables: (req) => ({ id: req.params.dashboardId, input: req.body }),
    respond: (data) => presentDashboard(data.updateDashboard),
  },
  {
    method: 'delete',
    path: '/reports/dashboards/:dashboardId',
    operation: 'mutation DeleteDashboard($id: ID!) { deleteDashboard(id: $id) }',
    variables: (req) => ({ id: req.params.dashboardId }),
    status: 204,
  },
  {
    method: 'get',
    path: '/reports/dashboards/:dashboardId/data',
    operation: `query DashboardData($id: ID!) { dashboard(id: $id) { id name panels { index title savedReportId viz position { x y w h } error data { ${REPORT_RESULT_FIELDS} } } } }`,
    variables: (req) => ({ id: req.params.dashboardId }),
    respond: (data) => presentDashboardData(data.dashboard),
  },
  // Schedules (admin)
  {
    method: 'get',
    path: '/reports/schedules',
    operation: `query ReportSchedules($limit: Int) { reportSchedules(limit: $limit) { ${SCHEDULE_FIELDS} } }`,
    variables: (req) => ({ limit: req.query.limit === undefined ? null : Number(req.query.limit) }),
    respond: (data) => ({ items: data.reportSchedules.map(presentSchedule) }),
  },
  {
    method: 'post',
    path: '/reports/schedules',
    operation: `mutation CreateReportSchedule($input: ReportScheduleInput!) { createReportSchedule(input: $input) { ${SCHEDULE_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentSchedule(data.createReportSchedule),
  },
  {
    method: 'get',
    path: '/reports/schedules/:scheduleId',
    operation: `query ReportSchedule($id: ID!) { reportSchedule(id: $id) { ${SCHEDULE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.scheduleId }),
    respond: (data) => presentSchedule(data.reportSchedule),
  },
  {
    method: 'patch',
    path: '/reports/schedules/:scheduleId',
    operation: `mutation UpdateReportSchedule($id: ID!, $input: UpdateReportScheduleInput!) { updateReportSchedule(id: $id, input: $input) { ${SCHEDULE_FIELDS} } }`,
    variables: (req) => ({ id: req.params.scheduleId, input: req.body }),
    respond: (data) => presentSchedule(data.updateReportSchedule),
  },
  {
    method: 'delete',
    path: '/reports/schedules/:scheduleId',
    operation: 'mutation DeleteReportSchedule($id: ID!) { deleteReportSchedule(id: $id) }',
    variables: (req) => ({ id: req.params.scheduleId }),
    status: 204,
  },
  {
    method: 'post',
    path: '/reports/schedules/:scheduleId/run',
    operation:
      'mutation RunReportSchedule($id: ID!) { runReportSchedule(id: $id) { scheduleId status outboxId rowCount reason } }',
    variables: (req) => ({ id: req.params.scheduleId }),
    respond: (data) => presentScheduleRun(data.runReportSchedule),
  },
];
