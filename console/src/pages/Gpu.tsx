/**
 * GPU overview: fleet totals and each GPU's verdict with its reasons and latest values (live on
 * `gpuHealthChanged`), a time-series chart of a chosen metric per GPU, hardware events, diagnostics
 * (admins start them; the checks are shown as they complete) and AIPerf load-test runs with their
 * latency percentiles (admins start and cancel them). The sections are in `gpu/`.
 */
import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { DataTable } from '../components/DataTable';
import { SelectField } from '../components/Field';
import { Badge, Card, Page } from '../components/Page';
import { LineChart } from '../components/Chart';
import { useLiveQuery } from '../components/useLive';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { when } from '../lib/format';
import { graphql, type VariablesOf } from '../lib/graphql';
import { FleetFields, FleetStats, GpuRowFields, GpuTable } from './gpu/Fleet';
import { DiagnosticFields, Diagnostics, DiagnosticTargetFields } from './gpu/Diagnostics';
import { AiperfRunFields, LoadTests } from './gpu/LoadTests';

const GpuQuery = graphql(
  `
    query ConsoleGpuOverview {
      gpuSummary {
        fleet {
          ...ConsoleGpuFleet
        }
        gpus {
          id
          ...ConsoleGpuRow
          ...ConsoleGpuDiagnosticTarget
        }
      }
      gpuEvents(limit: 50, sinceHours: 168) {
        id
        type
        severity
        summary
        source
        receivedAt
      }
    }
  `,
  [FleetFields, GpuRowFields, DiagnosticTargetFields],
);
const GpuHealthChanged = graphql(`
  subscription ConsoleGpuHealthChanged {
    gpuHealthChanged {
      id
      health
    }
  }
`);
const SeriesQuery = graphql(`
  query ConsoleGpuTimeseries($metric: GpuMetric!, $sinceHours: Float) {
    gpuTimeseries(metric: $metric, sinceHours: $sinceHours) {
      metric
      resolution
      stepSeconds
      series {
        gpu {
          id
          uuid
          index
          node
        }
        points {
          t
          v
        }
      }
    }
  }
`);
const RunsQuery = graphql(
  `
    query ConsoleGpuRuns {
      aiperfRuns(limit: 20) {
        id
        status
        ...ConsoleAiperfRun
      }
      gpuDiagnostics(limit: 20) {
        id
        status
        ...ConsoleGpuDiagnostic
      }
    }
  `,
  [AiperfRunFields, DiagnosticFields],
);

type Metric = VariablesOf<typeof SeriesQuery>['metric'];
const METRICS = [
  { value: 'UTILIZATION', label: 'utilization (%)', unit: ' %' },
  { value: 'TEMPERATURE_C', label: 'temperature (°C)', unit: ' °C' },
  { value: 'POWER_W', label: 'power (W)', unit: ' W' },
  { value: 'MEMORY_USED_MIB', label: 'memory used (MiB)', unit: ' MiB' },
  { value: 'SM_CLOCK_MHZ', label: 'SM clock (MHz)', unit: ' MHz' },
  { value: 'ECC_DBE', label: 'uncorrected ECC errors', unit: '' },
] as const satisfies readonly { value: Metric; label: string; unit: string }[];

export function GpuOverview() {
  const me = useMe();
  const denied = adminOnly(me);
  const { result, refetch } = useLiveQuery({ query: GpuQuery, variables: {}, subscription: GpuHealthChanged });
  const [metric, setMetric] = useState<Metric>('UTILIZATION');
  const [hours, setHours] = useState('6');
  const [series] = useQuery({
    query: SeriesQuery,
    variables: { metric, sinceHours: Number(hours) },
    requestPolicy: 'cache-and-network',
  });
  const [runs, refetchRuns] = useQuery({ query: RunsQuery, requestPolicy: 'cache-and-network' });
  const reloadRuns = () => refetchRuns({ requestPolicy: 'network-only' });
  // Diagnostics and load tests run as jobs with no subscription: poll while one is queued or running.
  const active =
    !!runs.data &&
    [...runs.data.gpuDiagnostics, ...runs.data.aiperfRuns].some((x) => x.status === 'QUEUED' || x.status === 'RUNNING');
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => refetchRuns({ requestPolicy: 'network-only' }), 2000);
    return () => clearInterval(t);
  }, [active, refetchRuns]);
  const summary = result.data?.gpuSummary;
  const chosen = METRICS.find((m) => m.value === metric);

  return (
    <Page
      title="GPU overview"
      error={result.error}
      loading={result.fetching && !result.data}
      actions={
        <button
          type="button"
          className="plain"
          onClick={() => {
            refetch();
            reloadRuns();
          }}
        >
          Refresh
        </button>
      }
    >
      {summary && <FleetStats fleet={summary.fleet} />}
      <GpuTable gpus={summary?.gpus ?? []} />
      <Card title="Over time">
        <div className="filters">
          <SelectField
            label="Metric"
            value={metric}
            onChange={setMetric}
            options={METRICS.map((m) => ({ value: m.value, label: m.label }))}
          />
          <SelectField
            label="Window"
            value={hours}
            onChange={setHours}
            options={[
              { value: '1', label: '1 hour' },
              { value: '6', label: '6 hours' },
              { value: '24', label: '24 hours' },
              { value: '168', label: '7 days' },
            ]}
          />
        </div>
        {series.error ? (
          <p className="error">{series.error.message}</p>
        ) : series.data ? (
          <LineChart
            label={`GPU ${chosen?.label} per GPU`}
            unit={chosen?.unit ?? ''}
            series={series.data.gpuTimeseries.series.map((s) => ({
              name: `${s.gpu.node} #${s.gpu.index}`,
              points: s.points.map((p) => ({ x: Date.parse(p.t), y: p.v })),
            }))}
          />
        ) : (
          <p>Loading…</p>
        )}
        {series.data && (
          <small className="hint">
            resolution {series.data.gpuTimeseries.resolution}, one point per {series.data.gpuTimeseries.stepSeconds} s
          </small>
        )}
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
      <Diagnostics
        diagnostics={runs.data?.gpuDiagnostics}
        gpus={summary?.gpus ?? []}
        denied={denied}
        onDone={reloadRuns}
      />
      <LoadTests runs={runs.data?.aiperfRuns} denied={denied} onDone={reloadRuns} />
    </Page>
  );
}
