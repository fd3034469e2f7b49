/**
 * REST shapes of the reports area: snake_case keys and the contract's lowercase values (GraphQL
 * answers with UPPER_CASE enum values). Every route that returns one of these uses these functions.
 */
type Node = Record<string, any>;

/** GraphQL fields the presenters read. */
export const REPORT_RESULT_FIELDS = 'entity columns { name type } rows rowCount truncated replicaLagSeconds';
export const SAVED_REPORT_FIELDS = 'id name description query entity ownerId canEdit createdAt updatedAt';
export const DASHBOARD_FIELDS =
  'id name ownerId canEdit createdAt updatedAt panels { index title savedReportId viz position { x y w h } }';
export const SCHEDULE_FIELDS =
  'id savedReportId webhookId cron timezone format parameters enabled disabledReason lastRunAt lastOutboxId lastError ownerId createdAt updatedAt';

export function presentReportResult(r: Node) {
  return {
    entity: r.entity,
    columns: r.columns.map((c: Node) => ({ name: c.name, type: c.type })),
    rows: r.rows,
    row_count: r.rowCount,
    truncated: r.truncated,
    // Only when the replica is behind (REPORTS_LAG_NOTICE_SECONDS): a current answer looks as it always did.
    ...(r.replicaLagSeconds != null ? { replica_lag_seconds: r.replicaLagSeconds } : {}),
  };
}

export function presentTranslation(t: Node) {
  return { query: t.query, explanation: t.explanation, valid: t.valid, errors: t.errors };
}

export function presentSavedReport(r: Node) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    entity: r.entity,
    query: r.query,
    owner_id: r.ownerId,
    can_edit: r.canEdit,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

function presentPanel(p: Node) {
  return { index: p.index, title: p.title, saved_report_id: p.savedReportId, viz: p.viz, position: p.position };
}

export function presentDashboard(d: Node) {
  return {
    id: d.id,
    name: d.name,
    owner_id: d.ownerId,
    can_edit: d.canEdit,
    panels: d.panels.map(presentPanel),
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

export function presentDashboardData(d: Node) {
  return {
    dashboard_id: d.id,
    name: d.name,
    panels: d.panels.map((p: Node) => ({
      ...presentPanel(p),
      data: p.data ? presentReportResult(p.data) : null,
      error: p.error,
    })),
  };
}

export function presentSchedule(s: Node) {
  return {
    id: s.id,
    saved_report_id: s.savedReportId,
    webhook_id: s.webhookId,
    cron: s.cron,
    timezone: s.timezone,
    format: s.format,
    parameters: s.parameters,
    enabled: s.enabled,
    disabled_reason: s.disabledReason,
    last_run_at: s.lastRunAt,
    last_outbox_id: s.lastOutboxId,
    last_error: s.lastError,
    owner_id: s.ownerId,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

export function presentScheduleRun(r: Node) {
  return {
    schedule_id: r.scheduleId,
    status: r.status,
    outbox_id: r.outboxId,
    row_count: r.rowCount,
    reason: r.reason,
  };
}
