/** Alerts: the live list with filters (details and actions on /alerts/:id). */
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { DataTable } from '../components/DataTable';
import { CheckboxField, SelectField, TextField } from '../components/Field';
import { Badge, Page } from '../components/Page';
import { useLiveQuery } from '../components/useLive';
import { useDebounced } from '../components/useDebounced';
import { when } from '../lib/format';
import { graphql, type VariablesOf } from '../lib/graphql';

type AlertFilter = NonNullable<VariablesOf<typeof AlertsQuery>['filter']>;

const AlertsQuery = graphql(`
  query ConsoleAlerts($filter: AlertFilter, $first: Int) {
    alerts(filter: $filter, first: $first) {
      edges { node { id summary status severity source count suppressed lastSeenAt assignee { email } rule { id name } device { id name } } }
    }
  }
`);
const AlertChangedSubscription = graphql(`
  subscription ConsoleAlertsChanged { alertChanged { change alert { id status } } }
`);

const STATUSES = [
  { value: 'live', label: 'open, acknowledged or snoozed' },
  { value: 'OPEN', label: 'open' },
  { value: 'ACKNOWLEDGED', label: 'acknowledged' },
  { value: 'SNOOZED', label: 'snoozed' },
  { value: 'RESOLVED', label: 'resolved' },
  { value: '', label: 'any' },
] as const;
const SEVERITIES = ['', 'INFO', 'WARNING', 'CRITICAL'] as const;

export function Alerts() {
  const [status, setStatus] = useState<(typeof STATUSES)[number]['value']>('live');
  const [severity, setSeverity] = useState<(typeof SEVERITIES)[number]>('');
  const [source, setSource] = useState('');
  const [showSuppressed, setShowSuppressed] = useState(true);
  const typedSource = useDebounced(source);
  const filter = useMemo<AlertFilter>(() => {
    const f: AlertFilter = {};
    if (status === 'live') f.status = ['OPEN', 'ACKNOWLEDGED', 'SNOOZED'];
    else if (status) f.status = [status];
    if (severity) f.severity = severity;
    if (typedSource) f.source = typedSource;
    if (!showSuppressed) f.suppressed = false;
    return f;
  }, [status, severity, typedSource, showSuppressed]);
  const { result } = useLiveQuery({ query: AlertsQuery, variables: { filter, first: 100 }, subscription: AlertChangedSubscription });
  return (
    <Page title="Alerts" error={result.error} loading={result.fetching && !result.data}>
      <div className="filters" role="search" aria-label="Filter alerts">
        <SelectField label="Status" value={status} onChange={setStatus} options={STATUSES} />
        <SelectField label="Severity" value={severity} onChange={setSeverity} options={SEVERITIES} />
        <TextField label="Source" value={source} onChange={setSource} />
        <CheckboxField label="Show suppressed (maintenance)" checked={showSuppressed} onChange={setShowSuppressed} />
      </div>
      <DataTable
        caption="Alerts"
        rows={result.data?.alerts.edges.map((e) => e.node)}
        rowKey={(a) => a.id}
        empty="No alerts match. Alerts open when an alert rule matches an event (see Alert rules)."
        columns={[
          { header: 'Summary', cell: (a) => <Link href={`/alerts/${a.id}`}>{a.summary}</Link> },
          { header: 'Status', cell: (a) => <Badge value={a.status} /> },
          { header: 'Severity', cell: (a) => <Badge value={a.severity} /> },
          { header: 'Source', cell: (a) => a.source ?? '—', wide: true },
          { header: 'Count', cell: (a) => a.count, wide: true },
          { header: 'Rule', cell: (a) => a.rule?.name ?? '—', wide: true },
          { header: 'Device', cell: (a) => (a.device ? <Link href={`/devices/${a.device.id}`}>{a.device.name}</Link> : '—'), wide: true },
          { header: 'Assignee', cell: (a) => a.assignee?.email ?? '—', wide: true },
          { header: 'Last seen', cell: (a) => when(a.lastSeenAt) },
          { header: 'Maintenance', cell: (a) => (a.suppressed ? 'suppressed' : ''), wide: true },
        ]}
      />
    </Page>
  );
}
