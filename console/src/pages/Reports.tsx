/**
 * Reports: a query builder driven by `reportSchema` (entities, their fields and the ops each allows,
 * the time buckets and aggregate functions), the result as a table and a chart, CSV export through the
 * REST export URL (`reportExportUrl`, streamed by the server, saved by the browser), saved reports and
 * their schedules (admins). Any user queries, exports and saves; changing or deleting a saved report is
 * for its owner or an admin (`canEdit`).
 */
import { useMemo, useState } from 'react';
import { gql, useClient, useMutation, useQuery, type CombinedError } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { ErrorView } from '../components/ErrorView';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { BarChart, LineChart, type Series } from '../components/Chart';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { when } from '../lib/format';

interface CatalogueField {
  name: string;
  type: string;
  ops: string[];
  description: string;
  values?: string[];
}
interface CatalogueEntity {
  entity: string;
  time_field: string;
  window_optional: boolean;
  labels: boolean;
  payload: boolean;
  default_columns: string[];
  fields: CatalogueField[];
}
interface ReportSchemaDoc {
  schema: { properties: { bucket: { enum: (string | null)[] } } } & Record<string, unknown>;
  catalogue: CatalogueEntity[];
  limits: { maxLimit: number; defaultLimit: number; defaultSinceHours: number; maxSinceHours: number } & Record<string, number>;
}
export interface ReportResultData {
  columns: { name: string; type: string }[];
  entity: string;
  rowCount: number;
  rows: Record<string, unknown>[];
  truncated: boolean;
}
interface SavedReport {
  id: string;
  name: string;
  description: string | null;
  entity: string;
  query: Record<string, unknown>;
  ownerId: string;
  canEdit: boolean;
  updatedAt: string;
}
interface Schedule {
  id: string;
  savedReportId: string | null;
  webhookId: string;
  cron: string;
  timezone: string;
  format: 'CSV' | 'JSON';
  enabled: boolean;
  disabledReason: string | null;
  lastRunAt: string | null;
  lastError: string | null;
}

const ReportSchemaQuery = gql<{ reportSchema: ReportSchemaDoc; reportExportUrl: string; savedReports: SavedReport[] }>`
  query ConsoleReportSchema {
    reportSchema
    reportExportUrl(format: CSV)
    savedReports { id name description entity query ownerId canEdit updatedAt }
  }
`;
const RunReportQuery = gql<{ reportQuery: ReportResultData }, { query: Record<string, unknown> }>`
  query ConsoleRunReport($query: JSON!) {
    reportQuery(query: $query) { entity columns { name type } rows rowCount truncated }
  }
`;
const TranslateReportQuery = gql<{ translateReport: { valid: boolean; query: Record<string, unknown> | null; explanation: string; errors: { loc: string[]; msg: string }[] } }, { text: string }>`
  query ConsoleTranslateReport($text: String!) {
    translateReport(text: $text) { valid query explanation errors { loc msg } }
  }
`;
const SchedulesQuery = gql<{ reportSchedules: Schedule[]; outboundWebhooks: { id: string; name: string }[] }>`
  query ConsoleReportSchedules {
    reportSchedules { id savedReportId webhookId cron timezone format enabled disabledReason lastRunAt lastError }
    outboundWebhooks { id name }
  }
`;
const CreateSavedReport = gql<{ createSavedReport: SavedReport }, { input: { name: string; description?: string; query: Record<string, unknown> } }>`
  mutation ConsoleCreateSavedReport($input: SavedReportInput!) { createSavedReport(input: $input) { id name } }
`;
const UpdateSavedReport = gql<unknown, { id: string; input: { query: Record<string, unknown> } }>`
  mutation ConsoleUpdateSavedReport($id: ID!, $input: SavedReportPatch!) { updateSavedReport(id: $id, input: $input) { id query updatedAt } }
`;
const DeleteSavedReport = gql<unknown, { id: string }>`
  mutation ConsoleDeleteSavedReport($id: ID!) { deleteSavedReport(id: $id) }
`;
const RunSavedReport = gql<{ runSavedReport: ReportResultData }, { id: string }>`
  mutation ConsoleRunSavedReport($id: ID!) { runSavedReport(id: $id) { entity columns { name type } rows rowCount truncated } }
`;
const CreateSchedule = gql<unknown, { input: Record<string, unknown> }>`
  mutation ConsoleCreateReportSchedule($input: ReportScheduleInput!) { createReportSchedule(input: $input) { id } }
`;
const UpdateSchedule = gql<unknown, { id: string; input: { enabled: boolean } }>`
  mutation ConsoleUpdateReportSchedule($id: ID!, $input: ReportSchedulePatch!) { updateReportSchedule(id: $id, input: $input) { id enabled disabledReason } }
`;
const RunSchedule = gql<{ runReportSchedule: { status: string; rowCount: number | null; reason: string | null } }, { id: string }>`
  mutation ConsoleRunReportSchedule($id: ID!) { runReportSchedule(id: $id) { scheduleId status rowCount reason } }
`;
const DeleteSchedule = gql<unknown, { id: string }>`
  mutation ConsoleDeleteReportSchedule($id: ID!) { deleteReportSchedule(id: $id) }
`;

interface FilterRow {
  field: string;
  op: string;
  value: string;
}
interface Builder {
  entity: string;
  sinceHours: string;
  bucket: string;
  groupBy: string;
  aggregate: string;
  aggregateField: string;
  limit: string;
  filters: FilterRow[];
}

const AGGREGATES = ['', 'count', 'count_distinct', 'sum', 'avg', 'min', 'max', 'p50', 'p95'];
const NUMERIC = new Set(['INTEGER', 'NUMBER']);

/** The builder's state → the query document (snake_case keys, lowercase values) the API takes. */
export function queryOf(b: Builder, fields: CatalogueField[]): Record<string, unknown> {
  const q: Record<string, unknown> = { entity: b.entity };
  q.since_hours = b.sinceHours === '' ? null : Number(b.sinceHours);
  if (b.bucket) q.bucket = b.bucket;
  if (b.groupBy) q.group_by = [b.groupBy];
  if (b.aggregate) q.aggregate = b.aggregateField && b.aggregate !== 'count' ? [{ fn: b.aggregate, field: b.aggregateField }] : b.aggregate === 'count' ? 'count' : [{ fn: b.aggregate }];
  if (b.limit) q.limit = Number(b.limit);
  const filters = b.filters
    .filter((f) => f.field && f.op)
    .map((f) => {
      const type = fields.find((x) => x.name === f.field)?.type ?? (f.field.startsWith('payload.') ? 'json' : 'string');
      const one = (v: string): unknown => (type === 'integer' || (type === 'json' && v !== '' && !Number.isNaN(Number(v))) ? Number(v) : type === 'boolean' ? v === 'true' : v);
      if (f.op === 'exists') return { field: f.field, op: f.op, value: f.value !== 'false' };
      if (f.op === 'in' || f.op === 'not_in') return { field: f.field, op: f.op, value: f.value.split(',').map((s) => one(s.trim())) };
      return { field: f.field, op: f.op, value: one(f.value) };
    });
  if (filters.length) q.filters = filters;
  return q;
}

/** A query document → the builder's state (loading a saved report). */
function builderOf(q: Record<string, unknown>): Builder {
  const agg = q.aggregate;
  const first = Array.isArray(agg) ? (agg[0] as { fn: string; field?: string }) : typeof agg === 'string' ? { fn: agg } : null;
  return {
    entity: String(q.entity ?? 'events'),
    sinceHours: q.since_hours === null ? '' : String(q.since_hours ?? 24),
    bucket: typeof q.bucket === 'string' ? q.bucket : '',
    groupBy: Array.isArray(q.group_by) ? String(q.group_by[0] ?? '') : '',
    aggregate: first?.fn ?? '',
    aggregateField: first?.field ?? '',
    limit: q.limit ? String(q.limit) : '',
    filters: Array.isArray(q.filters) ? (q.filters as { field: string; op: string; value: unknown }[]).map((f) => ({ field: f.field, op: f.op, value: Array.isArray(f.value) ? f.value.join(',') : String(f.value ?? '') })) : [],
  };
}

/** The chart of a result: x is `bucket` (time) or the first text column; one series per number column, or per group value with a bucket. */
export function ResultChart({ result, kind = 'auto', label }: { result: ReportResultData; kind?: 'auto' | 'LINE' | 'BAR'; label: string }) {
  const numeric = result.columns.filter((c) => NUMERIC.has(c.type));
  if (!numeric.length || !result.rows.length) return <p className="empty">Nothing to chart: the result has no number column (add an aggregate such as count).</p>;
  const bucket = result.columns.find((c) => c.name === 'bucket');
  const category = result.columns.find((c) => c !== bucket && !NUMERIC.has(c.type));
  const y = numeric[0].name;
  if (bucket && kind !== 'BAR') {
    let series: Series[];
    if (category) {
      const groups = new Map<string, Series>();
      for (const r of result.rows) {
        const g = String(r[category.name] ?? '—');
        if (!groups.has(g)) groups.set(g, { name: g, points: [] });
        groups.get(g)!.points.push({ x: Date.parse(String(r.bucket)), y: Number(r[y]) });
      }
      series = [...groups.values()];
    } else {
      series = numeric.map((c) => ({ name: c.name, points: result.rows.map((r) => ({ x: Date.parse(String(r.bucket)), y: r[c.name] === null ? null : Number(r[c.name]) })) }));
    }
    for (const s of series) s.points.sort((a, b) => a.x - b.x);
    return <LineChart label={label} series={series} />;
  }
  const labelOf = (r: Record<string, unknown>) => (category ? String(r[category.name] ?? '—') : bucket ? new Date(String(r.bucket)).toLocaleString() : y);
  if (kind === 'LINE') {
    const cats = result.rows.map(labelOf);
    return <LineChart label={label} time={false} categories={cats} series={[{ name: y, points: result.rows.map((r, i) => ({ x: i, y: Number(r[y]) })) }]} />;
  }
  return <BarChart label={label} bars={result.rows.slice(0, 60).map((r) => ({ label: labelOf(r), value: Number(r[y]) }))} />;
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function ResultTable({ result, caption }: { result: ReportResultData; caption: string }) {
  return (
    <>
      <DataTable
        caption={caption}
        rows={result.rows.map((r, i) => ({ r, i }))}
        rowKey={(x) => String(x.i)}
        empty="No rows matched."
        columns={result.columns.map((c) => ({ header: c.name, cell: (x: { r: Record<string, unknown> }) => cellText(x.r[c.name]) }))}
      />
      <p className="hint">
        {result.rowCount} row{result.rowCount === 1 ? '' : 's'}
        {result.truncated ? ' (more matched than the limit: export for all of them)' : ''}
      </p>
    </>
  );
}

/** The file name the server gave (Content-Disposition), else one made from the entity. */
function fileNameOf(header: string | null, entity: string): string {
  const m = header?.match(/filename="?([^";]+)"?/);
  return m ? m[1] : `${entity}.csv`;
}

export function Reports() {
  const me = useMe();
  const client = useClient();
  const [meta, refetchMeta] = useQuery({ query: ReportSchemaQuery, requestPolicy: 'cache-and-network' });
  const reloadMeta = () => refetchMeta({ requestPolicy: 'network-only' });
  const scheduleDenied = adminOnly(me);
  const [schedules, refetchSchedules] = useQuery({ query: SchedulesQuery, pause: !!scheduleDenied, requestPolicy: 'cache-and-network' });
  const [, createSaved] = useMutation(CreateSavedReport);
  const [, updateSaved] = useMutation(UpdateSavedReport);
  const [, deleteSaved] = useMutation(DeleteSavedReport);
  const [, runSaved] = useMutation(RunSavedReport);
  const [, createSchedule] = useMutation(CreateSchedule);
  const [, updateSchedule] = useMutation(UpdateSchedule);
  const [, runSchedule] = useMutation(RunSchedule);
  const [, deleteSchedule] = useMutation(DeleteSchedule);

  const [b, setB] = useState<Builder>({ entity: 'events', sinceHours: '24', bucket: '', groupBy: '', aggregate: '', aggregateField: '', limit: '', filters: [] });
  const [result, setResult] = useState<{ data: ReportResultData; title: string } | null>(null);
  const [runError, setRunError] = useState<CombinedError | Error | string | null>(null);
  const [running, setRunning] = useState(false);
  const [view, setView] = useState<'table' | 'chart'>('table');
  const [exportState, setExportState] = useState<{ error: string | null; done: string | null }>({ error: null, done: null });
  const [english, setEnglish] = useState('');
  const [explanation, setExplanation] = useState<string | null>(null);
  const [save, setSave] = useState({ name: '', description: '' });
  const [sched, setSched] = useState({ savedReportId: '', webhookId: '', cron: '0 8 * * 1', timezone: 'UTC', format: 'CSV' as 'CSV' | 'JSON' });
  const [runNote, setRunNote] = useState<string | null>(null);

  const doc = meta.data?.reportSchema;
  const entity = doc?.catalogue.find((e) => e.entity === b.entity);
  const fields = useMemo(() => entity?.fields ?? [], [entity]);
  const buckets = (doc?.schema.properties.bucket.enum ?? []).filter((x): x is string => !!x);
  const query = queryOf(b, fields);
  const savedName = (id: string | null) => meta.data?.savedReports.find((r) => r.id === id)?.name ?? (id ? id.slice(0, 8) : 'deleted report');
  const webhookName = (id: string) => schedules.data?.outboundWebhooks.find((w) => w.id === id)?.name ?? id.slice(0, 8);

  async function run() {
    setRunning(true);
    setRunError(null);
    const r = await client.query(RunReportQuery, { query }, { requestPolicy: 'network-only' }).toPromise();
    setRunning(false);
    if (r.error) return setRunError(r.error);
    if (r.data) setResult({ data: r.data.reportQuery, title: `${b.entity} report` });
  }

  async function exportCsv() {
    setExportState({ error: null, done: null });
    const url = meta.data?.reportExportUrl ?? '/api/v1/reports/query/export?format=csv';
    // The REST export streams; the session cookie authenticates it (same origin).
    const res = await fetch(url.replace('format=CSV', 'format=csv'), { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', accept: 'text/csv' }, body: JSON.stringify(query) });
    if (!res.ok) {
      // REST errors are {code, detail}; detail is a message or a list of {loc, msg} for invalid fields.
      const body = (await res.json().catch(() => null)) as { code?: string; detail?: string | { loc: (string | number)[]; msg: string }[] } | null;
      const detail = Array.isArray(body?.detail) ? body.detail.map((p) => `${p.loc.join('.')}: ${p.msg}`).join('; ') : (body?.detail ?? '');
      return setExportState({ error: `${res.status} ${body?.code ?? res.statusText}: ${detail}`, done: null });
    }
    const blob = await res.blob();
    const name = fileNameOf(res.headers.get('content-disposition'), b.entity);
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    setExportState({ error: null, done: `Exported ${name} (${blob.size} bytes).` });
  }

  async function translate() {
    setExplanation(null);
    const r = await client.query(TranslateReportQuery, { text: english }, { requestPolicy: 'network-only' }).toPromise();
    if (r.error) return setRunError(r.error);
    const t = r.data!.translateReport;
    if (t.valid && t.query) setB(builderOf(t.query));
    setExplanation(t.valid ? t.explanation : `${t.explanation} ${t.errors.map((e) => `${e.loc.join('.')}: ${e.msg}`).join('; ')}`);
  }

  const setFilter = (i: number, patch: Partial<FilterRow>) => setB({ ...b, filters: b.filters.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  const fieldOptions = [{ value: '', label: '—' }, ...fields.map((f) => ({ value: f.name, label: f.name }))];

  return (
    <Page title="Reports" error={meta.error} loading={meta.fetching && !meta.data}>
      <form
        className="card form"
        aria-label="Query builder"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <h2>Query builder</h2>
        <fieldset>
          <SelectField label="Entity" value={b.entity} onChange={(entity) => setB({ ...b, entity, groupBy: '', aggregateField: '', filters: [] })} options={(doc?.catalogue ?? []).map((e) => ({ value: e.entity, label: e.entity }))} />
          <TextField label="Window (hours)" type="number" value={b.sinceHours} onChange={(sinceHours) => setB({ ...b, sinceHours })} hint={entity?.window_optional ? 'empty: no window' : `over ${entity?.time_field ?? 'time'}`} />
          <SelectField label="Bucket" value={b.bucket} onChange={(bucket) => setB({ ...b, bucket })} options={[{ value: '', label: 'none' }, ...buckets.map((x) => ({ value: x, label: x }))]} />
          <SelectField label="Group by" value={b.groupBy} onChange={(groupBy) => setB({ ...b, groupBy })} options={[{ value: '', label: 'none' }, ...fields.map((f) => ({ value: f.name, label: f.name }))]} />
          <SelectField label="Aggregate" value={b.aggregate} onChange={(aggregate) => setB({ ...b, aggregate })} options={AGGREGATES.map((a) => ({ value: a, label: a || 'none (rows)' }))} />
          {b.aggregate && b.aggregate !== 'count' && <SelectField label="Of field" value={b.aggregateField} onChange={(aggregateField) => setB({ ...b, aggregateField })} options={fieldOptions} />}
          <TextField label="Limit" type="number" value={b.limit} onChange={(limit) => setB({ ...b, limit })} placeholder={String(doc?.limits.defaultLimit ?? 1000)} />
        </fieldset>
        <h3>Filters</h3>
        {b.filters.map((f, i) => {
          const def = fields.find((x) => x.name === f.field);
          return (
            <fieldset key={i} className="filter-row" aria-label={`Filter ${i + 1}`}>
              <SelectField label={`Filter ${i + 1} field`} value={f.field} onChange={(field) => setFilter(i, { field, op: fields.find((x) => x.name === field)?.ops[0] ?? 'eq' })} options={fieldOptions} />
              <SelectField label={`Filter ${i + 1} op`} value={f.op} onChange={(op) => setFilter(i, { op })} options={(def?.ops ?? ['eq']).map((o) => ({ value: o, label: o }))} />
              {def?.values && (f.op === 'eq' || f.op === 'ne') ? (
                <SelectField label={`Filter ${i + 1} value`} value={f.value} onChange={(value) => setFilter(i, { value })} options={[{ value: '', label: '—' }, ...def.values.map((v) => ({ value: v, label: v }))]} />
              ) : (
                <TextField label={`Filter ${i + 1} value`} value={f.value} onChange={(value) => setFilter(i, { value })} hint={f.op === 'in' || f.op === 'not_in' ? 'comma-separated' : def?.description} />
              )}
              <button type="button" className="plain" onClick={() => setB({ ...b, filters: b.filters.filter((_, j) => j !== i) })}>
                Remove filter {i + 1}
              </button>
            </fieldset>
          );
        })}
        <div className="form-actions">
          <button type="button" className="plain" onClick={() => setB({ ...b, filters: [...b.filters, { field: '', op: 'eq', value: '' }] })}>
            Add filter
          </button>
          <button type="submit" className="primary" disabled={running}>
            Run report
          </button>
          <button type="button" className="plain" onClick={() => void exportCsv()}>
            Export CSV
          </button>
        </div>
        {exportState.done && <p className="hint" role="status">{exportState.done}</p>}
        <ErrorView error={exportState.error ?? runError} />
        <details>
          <summary>Query document</summary>
          <pre aria-label="Query document">{JSON.stringify(query, null, 2)}</pre>
        </details>
      </form>

      <Card title="Ask in plain English">
        <div className="inline-form">
          <TextField label="Question" value={english} onChange={setEnglish} placeholder="critical alerts in the last 24 hours by source" />
          <button type="button" className="plain" onClick={() => void translate()} disabled={!english}>
            Translate
          </button>
        </div>
        {explanation && <p className="hint">{explanation}</p>}
      </Card>

      {result && (
        <Card title="Result">
          <div className="tabs" role="group" aria-label="Show the result as">
            <button type="button" className={view === 'table' ? 'primary' : 'plain'} aria-pressed={view === 'table'} onClick={() => setView('table')}>
              Table
            </button>
            <button type="button" className={view === 'chart' ? 'primary' : 'plain'} aria-pressed={view === 'chart'} onClick={() => setView('chart')}>
              Chart
            </button>
          </div>
          {view === 'table' ? <ResultTable result={result.data} caption="Report result" /> : <ResultChart result={result.data} label={`Chart of the ${result.title}`} />}
        </Card>
      )}

      <MutationForm
        title="Save this query"
        submitLabel="Save report"
        onSubmit={async () => {
          const r = await createSaved({ input: { name: save.name, description: save.description || undefined, query } });
          if (!r.error) setSave({ name: '', description: '' });
          return r;
        }}
        onDone={reloadMeta}
      >
        <TextField label="Report name" value={save.name} onChange={(name) => setSave({ ...save, name })} required />
        <TextField label="Report description" value={save.description} onChange={(description) => setSave({ ...save, description })} />
      </MutationForm>

      <DataTable
        caption="Saved reports"
        rows={meta.data?.savedReports}
        rowKey={(r) => r.id}
        empty="No saved reports yet."
        columns={[
          { header: 'Name', cell: (r) => r.name },
          { header: 'Entity', cell: (r) => r.entity.toLowerCase() },
          { header: 'Description', cell: (r) => r.description ?? '—', wide: true },
          { header: 'Updated', cell: (r) => when(r.updatedAt), wide: true },
          {
            header: 'Actions',
            cell: (r) => {
              const denied = r.canEdit ? null : 'Only its owner or an admin can change it.';
              return (
                <div className="row-actions" role="group" aria-label={`Actions for ${r.name}`}>
                  <button type="button" className="plain" onClick={() => setB(builderOf(r.query))}>
                    Load
                  </button>
                  <ActionButton
                    run={async () => {
                      const x = await runSaved({ id: r.id });
                      if (x.data) setResult({ data: x.data.runSavedReport, title: r.name });
                      return x;
                    }}
                  >
                    Run
                  </ActionButton>
                  <ActionButton run={() => updateSaved({ id: r.id, input: { query } })} deniedBecause={denied} onDone={reloadMeta}>
                    Replace query
                  </ActionButton>
                  <ActionButton variant="danger" confirm={`Delete the report ${r.name}? Its schedules are disabled.`} run={() => deleteSaved({ id: r.id })} deniedBecause={denied} onDone={reloadMeta}>
                    Delete
                  </ActionButton>
                </div>
              );
            },
          },
        ]}
      />

      <Card title="Schedules">
        {scheduleDenied ? (
          <p className="reason">Only admins can see and change report schedules.</p>
        ) : (
          <>
            <ErrorView error={schedules.error} />
            {runNote && <p role="status" className="hint">{runNote}</p>}
            <DataTable
              caption="Report schedules"
              rows={schedules.data?.reportSchedules}
              rowKey={(x) => x.id}
              empty="No schedules."
              columns={[
                { header: 'Report', cell: (x) => savedName(x.savedReportId) },
                { header: 'When', cell: (x) => `${x.cron} (${x.timezone})` },
                { header: 'To', cell: (x) => `${webhookName(x.webhookId)} as ${x.format.toLowerCase()}`, wide: true },
                { header: 'State', cell: (x) => (x.enabled ? <Badge value="active" /> : <span>disabled{x.disabledReason ? `: ${x.disabledReason}` : ''}</span>) },
                { header: 'Last run', cell: (x) => (x.lastError ? `${when(x.lastRunAt)} — ${x.lastError}` : when(x.lastRunAt)), wide: true },
                {
                  header: 'Actions',
                  cell: (x) => (
                    <div className="row-actions" role="group" aria-label={`Actions for schedule ${x.cron}`}>
                      <ActionButton
                        run={async () => {
                          const r = await runSchedule({ id: x.id });
                          if (r.data) setRunNote(`Run: ${r.data.runReportSchedule.status.toLowerCase()}${r.data.runReportSchedule.rowCount !== null ? `, ${r.data.runReportSchedule.rowCount} rows` : ''}${r.data.runReportSchedule.reason ? ` (${r.data.runReportSchedule.reason})` : ''}`);
                          return r;
                        }}
                        onDone={() => refetchSchedules({ requestPolicy: 'network-only' })}
                      >
                        Run now
                      </ActionButton>
                      <ActionButton run={() => updateSchedule({ id: x.id, input: { enabled: !x.enabled } })}>{x.enabled ? 'Disable' : 'Enable'}</ActionButton>
                      <ActionButton variant="danger" run={() => deleteSchedule({ id: x.id })} onDone={() => refetchSchedules({ requestPolicy: 'network-only' })}>
                        Delete
                      </ActionButton>
                    </div>
                  ),
                },
              ]}
            />
          </>
        )}
        <MutationForm
          title="New schedule"
          submitLabel="Create schedule"
          deniedBecause={scheduleDenied}
          onSubmit={() => createSchedule({ input: { savedReportId: sched.savedReportId, webhookId: sched.webhookId, cron: sched.cron, timezone: sched.timezone || undefined, format: sched.format } })}
          onDone={() => refetchSchedules({ requestPolicy: 'network-only' })}
        >
          <SelectField label="Saved report" value={sched.savedReportId} onChange={(savedReportId) => setSched({ ...sched, savedReportId })} options={[{ value: '', label: '—' }, ...(meta.data?.savedReports ?? []).map((r) => ({ value: r.id, label: r.name }))]} />
          <SelectField label="Deliver to webhook" value={sched.webhookId} onChange={(webhookId) => setSched({ ...sched, webhookId })} options={[{ value: '', label: '—' }, ...(schedules.data?.outboundWebhooks ?? []).map((w) => ({ value: w.id, label: w.name }))]} />
          <TextField label="Cron" value={sched.cron} onChange={(cron) => setSched({ ...sched, cron })} hint="5 or 6 fields, e.g. 0 8 * * 1 (Mondays 08:00)" required />
          <TextField label="Time zone" value={sched.timezone} onChange={(timezone) => setSched({ ...sched, timezone })} />
          <SelectField label="Format" value={sched.format} onChange={(format) => setSched({ ...sched, format })} options={['CSV', 'JSON'] as const} />
        </MutationForm>
      </Card>
    </Page>
  );
}
