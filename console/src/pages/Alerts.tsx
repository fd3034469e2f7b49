/**
 * Alerts: the live list with free-text search and filters by label, status ("any" included), severity
 * and source, all kept in the URL so a filtered view can be shared (details and actions on /alerts/:id).
 */
import { useMemo } from 'react';
import { Link } from 'wouter';
import { DataTable } from '../components/DataTable';
import { CheckboxField, SelectField, TextField } from '../components/Field';
import { Badge, Page } from '../components/Page';
import { useLiveQuery } from '../components/useLive';
import { useDebounced } from '../components/useDebounced';
import { useUrlFilters } from '../components/useUrlFilters';
import { LabelList } from '../components/Labels';
import { parseLabelText } from '../lib/labels';
import { Ago } from '../components/Ago';
import { graphql, type VariablesOf } from '../lib/graphql';

type AlertFilter = NonNullable<VariablesOf<typeof AlertsQuery>['filter']>;

const AlertsQuery = graphql(`
  query ConsoleAlerts($filter: AlertFilter, $first: Int) {
    alerts(filter: $filter, first: $first) {
      totalCount
      edges {
        node {
          id
          summary
          status
          severity
          source
          count
          suppressed
          lastSeenAt
          firstSeenAt
          labels
          assignee {
            email
          }
          rule {
            id
            name
          }
          device {
            id
            name
          }
        }
      }
    }
  }
`);
const AlertChangedSubscription = graphql(`
  subscription ConsoleAlertsChanged {
    alertChanged {
      change
      alert {
        id
        status
      }
    }
  }
`);

const STATUSES = [
  { value: 'live', label: 'open, acknowledged or snoozed' },
  { value: 'OPEN', label: 'open' },
  { value: 'ACKNOWLEDGED', label: 'acknowledged' },
  { value: 'SNOOZED', label: 'snoozed' },
  { value: 'RESOLVED', label: 'resolved' },
  { value: 'any', label: 'any' },
] as const;
const SEVERITIES = ['', 'INFO', 'WARNING', 'CRITICAL'] as const;
type Status = (typeof STATUSES)[number]['value'];
type SeverityChoice = (typeof SEVERITIES)[number];

/** Every filter lives in the URL (`/alerts?q=disk&label=env%3Dprod&severity=CRITICAL&status=any`), so a filtered view can be shared. */
const FILTER_DEFAULTS = { q: '', label: '', status: 'live', severity: '', source: '', suppressed: 'show' };
const PAGE = 100;

export function Alerts() {
  const [values, set] = useUrlFilters(FILTER_DEFAULTS);
  const status = (STATUSES.find((x) => x.value === values.status)?.value ?? 'live') as Status;
  const severity = (
    (SEVERITIES as readonly string[]).includes(values.severity) ? values.severity : ''
  ) as SeverityChoice;
  const typed = useDebounced({ q: values.q, source: values.source, label: values.label });
  const labelFilter = parseLabelText(values.label);
  const filter = useMemo<AlertFilter>(() => {
    const f: AlertFilter = {};
    if (status === 'live') f.status = ['OPEN', 'ACKNOWLEDGED', 'SNOOZED'];
    else if (status !== 'any') f.status = [status];
    if (severity) f.severity = severity;
    if (typed.source) f.source = typed.source;
    if (typed.q) f.search = typed.q;
    const labels = parseLabelText(typed.label).labels;
    if (labels) f.labels = labels;
    if (values.suppressed === 'hide') f.suppressed = false;
    return f;
  }, [status, severity, typed, values.suppressed]);
  const { result } = useLiveQuery({
    query: AlertsQuery,
    variables: { filter, first: PAGE },
    subscription: AlertChangedSubscription,
  });
  const total = result.data?.alerts.totalCount;
  return (
    <Page title="Alerts" error={result.error} loading={result.fetching && !result.data}>
      <div className="filters" role="search" aria-label="Filter alerts">
        <TextField
          label="Search"
          type="search"
          value={values.q}
          onChange={(v) => set('q', v)}
          placeholder="words in summary, source or dedup key"
        />
        <SelectField label="Status" value={status} onChange={(v) => set('status', v)} options={STATUSES} />
        <SelectField label="Severity" value={severity} onChange={(v) => set('severity', v)} options={SEVERITIES} />
        <TextField
          label="Labels"
          value={values.label}
          onChange={(v) => set('label', v)}
          placeholder="service=checkout, env=prod"
          hint={labelFilter.error ?? undefined}
        />
        <TextField label="Source" value={values.source} onChange={(v) => set('source', v)} />
        <CheckboxField
          label="Show suppressed (maintenance)"
          checked={values.suppressed !== 'hide'}
          onChange={(v) => set('suppressed', v ? 'show' : 'hide')}
        />
      </div>
      {total != null && (
        <p className="hint" role="status" aria-label="Alerts found">
          {total === 1 ? '1 alert' : `${total} alerts`}
          {total > PAGE ? ` (the newest ${PAGE} shown; narrow the filters to see the rest)` : ''}
        </p>
      )}
      <DataTable
        caption="Alerts"
        rows={result.data?.alerts.edges.map((e) => e.node)}
        rowKey={(a) => a.id}
        empty="No alerts match. Alerts open when an alert rule matches an event (see Alert rules)."
        columns={[
          { header: 'Summary', cell: (a) => <Link href={`/alerts/${a.id}`}>{a.summary}</Link> },
          { header: 'Status', cell: (a) => <Badge value={a.status} /> },
          { header: 'Severity', cell: (a) => <Badge value={a.severity} /> },
          { header: 'Age', cell: (a) => <Ago at={a.firstSeenAt} /> },
          { header: 'Source', cell: (a) => a.source ?? '—', wide: true },
          {
            header: 'Labels',
            cell: (a) => <LabelList labels={a.labels} name={`Labels of ${a.summary}`} />,
            wide: true,
          },
          { header: 'Count', cell: (a) => a.count, wide: true },
          { header: 'Rule', cell: (a) => a.rule?.name ?? '—', wide: true },
          {
            header: 'Device',
            cell: (a) => (a.device ? <Link href={`/devices/${a.device.id}`}>{a.device.name}</Link> : '—'),
            wide: true,
          },
          { header: 'Assignee', cell: (a) => a.assignee?.email ?? '—', wide: true },
          { header: 'Last seen', cell: (a) => <Ago at={a.lastSeenAt} /> },
          { header: 'Muted', cell: (a) => (a.suppressed ? 'suppressed' : ''), wide: true },
        ]}
      />
    </Page>
  );
}
