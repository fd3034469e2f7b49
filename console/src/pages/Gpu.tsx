/**
 * GPU overview: fleet totals and each GPU's verdict with its reasons and latest values (live on
 * `gpuHealthChanged`), a time-series chart of a chosen metric per GPU, hardware events, diagnostics
 * (admins start them; the checks are shown as they complete) and AIPerf load-test runs with their
 * latency percentiles (admins start and cancel them).
 */
import { useEffect, useState } from 'react';
import { gql, useMutation, useQuery } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { CheckboxField, MutationForm, SelectField, TextField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { LineChart } from '../components/Chart';
import { useLiveQuery } from '../components/useLive';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { when } from '../lib/format';

interface Gpu {
  id: string;
  uuid: string;
  index: number;
  node: string;
  model: string | null;
  source: string;
  lastSeenAt: string;
  lastXid: number | null;
  health: { status: string; reasons: string[] };
  latest: { utilization: number | null; temperatureC: number | null; powerW: number | null; powerLimitW: number | null; memUsedMib: number | null; memTotalMib: number | null; eccDbe: number | null };
}
interface Fleet {
  gpus: number;
  nodes: number;
  avgUtilization: number | null;
  powerW: number;
  memUsedMib: number;
  memTotalMib: number;
  byHealth: { healthy: number; warning: number; critical: number; missing: number; unknown: number };
}
interface Latency {
  p50: number | null;
  p90: number | null;
  p99: number | null;
  avg: number | null;
}
interface Run {
  id: string;
  status: string;
  model: string;
  endpointUrl: string;
  mode: string;
  concurrency: number | null;
  requestRate: number | null;
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
  results: { requests: number; errors: number; requestsPerS: number | null; outputTokensPerS: number | null; ttftMs: Latency; itlMs: Latency; requestLatencyMs: Latency } | null;
}
interface Diagnostic {
  id: string;
  status: string;
  result: string | null;
  level: number;
  gpu: string | null;
  node: string | null;
  createdAt: string;
  error: string | null;
  checks: { name: string; status: string; detail: string; gpuUuid: string | null }[];
}

const GpuQuery = gql<{ gpuSummary: { fleet: Fleet; gpus: Gpu[] }; gpuEvents: { id: string; type: string; severity: string; summary: string | null; source: string; receivedAt: string }[] }>`
  query ConsoleGpuOverview {
    gpuSummary {
      fleet { gpus nodes avgUtilization powerW memUsedMib memTotalMib byHealth { healthy warning critical missing unknown } }
      gpus { id uuid index node model source lastSeenAt lastXid health { status reasons } latest { utilization temperatureC powerW powerLimitW memUsedMib memTotalMib eccDbe } }
    }
    gpuEvents(limit: 50, sinceHours: 168) { id type severity summary source receivedAt }
  }
`;
const GpuHealthChanged = gql<{ gpuHealthChanged: { id: string; health: string } }>`
  subscription ConsoleGpuHealthChanged { gpuHealthChanged { id health } }
`;
const SeriesQuery = gql<{ gpuTimeseries: { metric: string; resolution: string; stepSeconds: number; series: { gpu: { id: string; index: number; node: string }; points: { t: string; v: number | null }[] }[] } }, { metric: string; sinceHours: number }>`
  query ConsoleGpuTimeseries($metric: GpuMetric!, $sinceHours: Float) {
    gpuTimeseries(metric: $metric, sinceHours: $sinceHours) { metric resolution stepSeconds series { gpu { id uuid index node } points { t v } } }
  }
`;
const RunsQuery = gql<{ aiperfRuns: Run[]; gpuDiagnostics: Diagnostic[] }>`
  query ConsoleGpuRuns {
    aiperfRuns(limit: 20) {
      id status model endpointUrl mode concurrency requestRate createdAt finishedAt error
      results { requests errors requestsPerS outputTokensPerS ttftMs { p50 p90 p99 avg } itlMs { p50 p90 p99 avg } requestLatencyMs { p50 p90 p99 avg } }
    }
    gpuDiagnostics(limit: 20) { id status result level gpu node createdAt error checks { name status detail gpuUuid } }
  }
`;
const StartDiagnostic = gql<unknown, { input: { gpu?: string; node?: string; level: number } }>`
  mutation ConsoleStartGpuDiagnostic($input: StartGpuDiagnosticInput!) { startGpuDiagnostic(input: $input) { id status } }
`;
const StartRun = gql<unknown, { input: Record<string, unknown> }>`
  mutation ConsoleStartAiperfRun($input: StartAiperfRunInput!) { startAiperfRun(input: $input) { id status } }
`;
const CancelRun = gql<unknown, { id: string }>`
  mutation ConsoleCancelAiperfRun($id: ID!) { cancelAiperfRun(id: $id) { id status } }
`;

const METRICS = [
  { value: 'UTILIZATION', label: 'utilization (%)', unit: ' %' },
  { value: 'TEMPERATURE_C', label: 'temperature (°C)', unit: ' °C' },
  { value: 'POWER_W', label: 'power (W)', unit: ' W' },
  { value: 'MEMORY_USED_MIB', label: 'memory used (MiB)', unit: ' MiB' },
  { value: 'SM_CLOCK_MHZ', label: 'SM clock (MHz)', unit: ' MHz' },
  { value: 'ECC_DBE', label: 'uncorrected ECC errors', unit: '' },
] as const;

/** Check and result statuses → the badge colours the stylesheet has. */
const CHECK_BADGE: Record<string, string> = { PASS: 'ok', WARN: 'warning', FAIL: 'failed', SKIP: 'skipped' };
const num = (v: number | null | undefined, digits = 0) => (v === null || v === undefined ? '—' : v.toFixed(digits));
const pct = (l: Latency) => `p50 ${num(l.p50, 1)} · p90 ${num(l.p90, 1)} · p99 ${num(l.p99, 1)} ms`;

export function GpuOverview() {
  const me = useMe();
  const denied = adminOnly(me);
  const { result, refetch } = useLiveQuery({ query: GpuQuery, variables: {}, subscription: GpuHealthChanged });
  const [metric, setMetric] = useState<(typeof METRICS)[number]['value']>('UTILIZATION');
  const [hours, setHours] = useState('6');
  const [series] = useQuery({ query: SeriesQuery, variables: { metric, sinceHours: Number(hours) }, requestPolicy: 'cache-and-network' });
  const [runs, refetchRuns] = useQuery({ query: RunsQuery, requestPolicy: 'cache-and-network' });
  const reloadRuns = () => refetchRuns({ requestPolicy: 'network-only' });
  // Diagnostics and load tests run as jobs with no subscription: poll while one is queued or running.
  const active = !!runs.data && [...runs.data.gpuDiagnostics, ...runs.data.aiperfRuns].some((x) => x.status === 'QUEUED' || x.status === 'RUNNING');
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => refetchRuns({ requestPolicy: 'network-only' }), 2000);
    return () => clearInterval(t);
  }, [active, refetchRuns]);
  const [, startDiagnostic] = useMutation(StartDiagnostic);
  const [, startRun] = useMutation(StartRun);
  const [, cancelRun] = useMutation(CancelRun);
  const [diag, setDiag] = useState({ target: '', level: '1' });
  const [run, setRun] = useState({ endpointUrl: '', model: '', mode: 'CONCURRENCY', concurrency: '1', requestRate: '', requestCount: '20', streaming: true });
  const fleet = result.data?.gpuSummary.fleet;
  const gpus = result.data?.gpuSummary.gpus ?? [];
  const nodes = [...new Set(gpus.map((g) => g.node))];
  const gpuName = (uuid: string) => {
    const g = gpus.find((x) => x.uuid === uuid);
    return g ? `${g.node} #${g.index}` : uuid;
  };
  const unit = METRICS.find((m) => m.value === metric)?.unit ?? '';

  return (
    <Page
      title="GPU overview"
      error={result.error}
      loading={result.fetching && !result.data}
      actions={
        <button type="button" className="plain" onClick={() => { refetch(); reloadRuns(); }}>
          Refresh
        </button>
      }
    >
      {fleet && (
        <dl className="stats" aria-label="Fleet">
          <div><dt>GPUs</dt><dd>{fleet.gpus}</dd></div>
          <div><dt>Nodes</dt><dd>{fleet.nodes}</dd></div>
          <div><dt>Avg utilization</dt><dd>{num(fleet.avgUtilization, 1)} %</dd></div>
          <div><dt>Power</dt><dd>{num(fleet.powerW)} W</dd></div>
          <div><dt>Memory</dt><dd>{num(fleet.memUsedMib / 1024, 1)} / {num(fleet.memTotalMib / 1024, 1)} GiB</dd></div>
          <div><dt>Health</dt><dd>{Object.entries(fleet.byHealth).filter(([k, v]) => !k.startsWith('__') && v).map(([k, v]) => `${v} ${k}`).join(' · ') || '—'}</dd></div>
        </dl>
      )}
      <DataTable
        caption="GPUs"
        rows={gpus}
        rowKey={(g) => g.id}
        empty="No GPU has reported yet: run the collector or add a dcgm integration."
        columns={[
          { header: 'GPU', cell: (g) => `${g.node} #${g.index}` },
          { header: 'Model', cell: (g) => g.model ?? '—', wide: true },
          { header: 'Health', cell: (g) => <span><Badge value={g.health.status} />{g.health.reasons.length > 0 && <small className="reason">{g.health.reasons.join('; ')}</small>}</span> },
          { header: 'Util', cell: (g) => `${num(g.latest.utilization)} %` },
          { header: 'Temp', cell: (g) => `${num(g.latest.temperatureC)} °C` },
          { header: 'Power', cell: (g) => `${num(g.latest.powerW)}${g.latest.powerLimitW ? ` / ${num(g.latest.powerLimitW)}` : ''} W`, wide: true },
          { header: 'Memory', cell: (g) => `${num(g.latest.memUsedMib)} / ${num(g.latest.memTotalMib)} MiB`, wide: true },
          { header: 'Last XID', cell: (g) => g.lastXid ?? '—', wide: true },
          { header: 'Last seen', cell: (g) => when(g.lastSeenAt), wide: true },
        ]}
      />
      <Card title="Over time">
        <div className="filters">
          <SelectField label="Metric" value={metric} onChange={setMetric} options={METRICS.map((m) => ({ value: m.value, label: m.label }))} />
          <SelectField label="Window" value={hours} onChange={setHours} options={[{ value: '1', label: '1 hour' }, { value: '6', label: '6 hours' }, { value: '24', label: '24 hours' }, { value: '168', label: '7 days' }]} />
        </div>
        {series.error ? (
          <p className="error">{series.error.message}</p>
        ) : series.data ? (
          <LineChart
            label={`GPU ${METRICS.find((m) => m.value === metric)?.label} per GPU`}
            unit={unit}
            series={series.data.gpuTimeseries.series.map((s) => ({ name: `${s.gpu.node} #${s.gpu.index}`, points: s.points.map((p) => ({ x: Date.parse(p.t), y: p.v })) }))}
          />
        ) : (
          <p>Loading…</p>
        )}
        {series.data && <small className="hint">resolution {series.data.gpuTimeseries.resolution}, one point per {series.data.gpuTimeseries.stepSeconds} s</small>}
      </Card>
      <DataTable
        caption="GPU events"
        rows={result.data?.gpuEvents}
        rowKey={(e) => e.id}
        empty="No hardware events in the last 7 days."
        columns={[
          { header: 'When', cell: (e) => when(e.receivedAt) },
          { header: 'Type', cell: (e) => <code>{e.type}</code> },
          { header: 'Severity', cell: (e) => <Badge value={e.severity} /> },
          { header: 'Summary', cell: (e) => e.summary ?? '—' },
          { header: 'Source', cell: (e) => e.source, wide: true },
        ]}
      />

      <Card title="Diagnostics">
        <DataTable
          caption="Diagnostics"
          rows={runs.data?.gpuDiagnostics}
          rowKey={(d) => d.id}
          empty="No diagnostics run yet."
          columns={[
            { header: 'When', cell: (d) => when(d.createdAt) },
            { header: 'Target', cell: (d) => `${d.gpu ?? d.node ?? '—'} (level ${d.level})` },
            { header: 'Status', cell: (d) => <span><Badge value={d.status} /> {d.result && <Badge value={CHECK_BADGE[d.result]} />}</span> },
            {
              header: 'Checks',
              cell: (d) =>
                d.error ? (
                  d.error
                ) : d.checks.length ? (
                  <ul className="checks" aria-label="Checks">
                    {d.checks.map((c, i) => (
                      <li key={i}>
                        <Badge value={CHECK_BADGE[c.status]} /> {c.gpuUuid ? <small className="hint">{gpuName(c.gpuUuid)} </small> : null}
                        {c.name}: {c.status.toLowerCase()}
                        {c.status !== 'PASS' && c.detail ? ` (${c.detail})` : ''}
                      </li>
                    ))}
                  </ul>
                ) : (
                  '—'
                ),
            },
          ]}
        />
        <MutationForm
          title="Run diagnostics"
          submitLabel="Start diagnostics"
          deniedBecause={denied}
          onSubmit={() => {
            const [kind, value] = diag.target.split(':', 2);
            return startDiagnostic({ input: { level: Number(diag.level), ...(kind === 'node' ? { node: value } : { gpu: value }) } });
          }}
          onDone={reloadRuns}
        >
          <SelectField label="Diagnose" value={diag.target} onChange={(target) => setDiag({ ...diag, target })} options={[{ value: '', label: '—' }, ...nodes.map((n) => ({ value: `node:${n}`, label: `every GPU of ${n}` })), ...gpus.map((g) => ({ value: `gpu:${g.id}`, label: `${g.node} #${g.index}` }))]} />
          <SelectField label="Level" value={diag.level} onChange={(level) => setDiag({ ...diag, level })} options={[{ value: '1', label: '1 (quick)' }, { value: '2', label: '2' }, { value: '3', label: '3 (long)' }]} />
        </MutationForm>
      </Card>

      <Card title="Load tests (AIPerf)">
        <DataTable
          caption="Load-test runs"
          rows={runs.data?.aiperfRuns}
          rowKey={(r) => r.id}
          empty="No load-test runs yet."
          columns={[
            { header: 'When', cell: (r) => when(r.createdAt) },
            { header: 'Model', cell: (r) => r.model },
            { header: 'Load', cell: (r) => (r.mode === 'REQUEST_RATE' ? `${r.requestRate} req/s` : `${r.concurrency ?? 1} clients`), wide: true },
            { header: 'Status', cell: (r) => <span><Badge value={r.status} />{r.error && <small className="reason">{r.error}</small>}</span> },
            { header: 'Throughput', cell: (r) => (r.results ? `${num(r.results.requestsPerS, 2)} req/s · ${num(r.results.outputTokensPerS, 1)} tok/s · ${r.results.errors}/${r.results.requests} errors` : '—') },
            { header: 'TTFT', cell: (r) => (r.results ? pct(r.results.ttftMs) : '—') },
            { header: 'Inter-token', cell: (r) => (r.results ? pct(r.results.itlMs) : '—'), wide: true },
            { header: 'Request latency', cell: (r) => (r.results ? pct(r.results.requestLatencyMs) : '—'), wide: true },
            {
              header: 'Actions',
              cell: (r) => (
                <ActionButton run={() => cancelRun({ id: r.id })} deniedBecause={denied ?? (r.status === 'QUEUED' || r.status === 'RUNNING' ? null : 'The run has ended.')} onDone={reloadRuns}>
                  Cancel
                </ActionButton>
              ),
            },
          ]}
        />
        <MutationForm
          title="Start a load test"
          submitLabel="Start load test"
          deniedBecause={denied}
          onSubmit={() => {
            const input: Record<string, unknown> = { endpointUrl: run.endpointUrl, model: run.model, mode: run.mode, streaming: run.streaming };
            if (run.concurrency) input.concurrency = Number(run.concurrency);
            if (run.mode === 'REQUEST_RATE' && run.requestRate) input.requestRate = Number(run.requestRate);
            if (run.requestCount) input.requestCount = Number(run.requestCount);
            return startRun({ input });
          }}
          onDone={reloadRuns}
        >
          <TextField label="Endpoint URL" type="url" value={run.endpointUrl} onChange={(endpointUrl) => setRun({ ...run, endpointUrl })} hint="OpenAI-compatible base URL; /v1/chat/completions is appended" required />
          <TextField label="Model" value={run.model} onChange={(model) => setRun({ ...run, model })} required />
          <SelectField label="Mode" value={run.mode} onChange={(mode) => setRun({ ...run, mode })} options={[{ value: 'CONCURRENCY', label: 'fixed clients' }, { value: 'REQUEST_RATE', label: 'request rate' }]} />
          <TextField label="Clients" type="number" value={run.concurrency} onChange={(concurrency) => setRun({ ...run, concurrency })} />
          {run.mode === 'REQUEST_RATE' && <TextField label="Requests per second" type="number" value={run.requestRate} onChange={(requestRate) => setRun({ ...run, requestRate })} />}
          <TextField label="Requests" type="number" value={run.requestCount} onChange={(requestCount) => setRun({ ...run, requestCount })} />
          <CheckboxField label="Streaming" checked={run.streaming} onChange={(streaming) => setRun({ ...run, streaming })} />
        </MutationForm>
      </Card>
    </Page>
  );
}
