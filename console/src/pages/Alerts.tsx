/**
 * Alerts: the live list with free-text search and filters by label, status ("any" included), severity
 * and source, and the order (sortable column headers), all kept in the URL so a view can be shared;
 * rows to select for "Acknowledge selected" / "Resolve selected" (alerts/AlertBulkActions.tsx). Details and
 * actions on /alerts/:id.
 */
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { DataTable, type TableSort } from '../components/DataTable';
import { AlertBulkActions } from './alerts/AlertBulkActions';
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
type AlertOrder = NonNullable<VariablesOf<typeof AlertsQuery>['orderBy']>;

const AlertsQuery = graphql(`
  query ConsoleAlerts($filter: AlertFilter, $first: Int, $orderBy: AlertOrder) {
    alerts(filter: $filter, first: $first, orderBy: $orderBy) {
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
const FILTER_DEFAULTS = { q: '', label: '', status: 'live', severity: '', source: '', suppressed: 'show', sort: '' };
const PAGE = 100;
/** The sortable columns: `sort=-last_seen_at` in the URL, as REST's `?sort=` spells it. */
const SORT_KEYS = ['last_seen_at', 'first_seen_at', 'severity', 'status', 'count', 'summary'] as const;
/** The same orders as a field, for narrow screens where the table has no header row. */
const SORT_CHOICES = [
  { value: '', label: 'newest first' },
  ...(
    [
      ['summary', 'summary'],
      ['status', 'status'],
      ['severity', 'severity'],
      ['first_seen_at', 'opened'],
      ['count', 'count'],
      ['last_seen_at', 'last seen'],
    ] as const
  ).flatMap(([key, name]) => [
    { value: `-${key}`, label: `${name}, descending` },
    { value: key, label: `${name}, ascending` },
  ]),
];

/** `-last_seen_at` → the table's sort and GraphQL's orderBy; anything else → the default order (newest first). */
function sortOf(raw: string): { table: TableSort; order: AlertOrder } | null {
  const key = raw.replace(/^-/, '');
  if (!(SORT_KEYS as readonly string[]).includes(key)) return null;
  const direction = raw.startsWith('-') ? 'desc' : 'asc';
  return {
    table: { key, direction },
    order: {
      field: key.toUpperCase() as AlertOrder['field'],
      direction: direction === 'desc' ? 'DESC' : 'ASC',
    },
  };
}

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
  const sort = sortOf(values.sort);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const { result } = useLiveQuery({
    query: AlertsQuery,
    variables: { filter, first: PAGE, orderBy: sort?.order ?? null },
    subscription: AlertChangedSubscription,
  });
  const total = result.data?.alerts.totalCount;
  const rows = result.data?.alerts.edges.map((e) => e.node);
  // Only rows on screen stay selected: a filter or a live change that hides a row takes it out of the action.
  const shown = new Set([...selected].filter((id) => rows?.some((a) => a.id === id)));
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
        <label className="field">
          <span className="field-label">Sort by</span>
          {/* Named by aria-label alone: its options (status, severity, …) must not enter the names of the other filters' fields. */}
          <select aria-label="Sort by" value={sort ? values.sort : ''} onChange={(e) => set('sort', e.target.value)}>
            {SORT_CHOICES.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <CheckboxField
          label="Show suppressed (maintenance)"
          checked={values.suppressed !== 'hide'}
          onChange={(v) => set('suppressed', v ? 'show' : 'hide')}
        />
      </div>
      {total != null && (
        <p className="hint" role="status" aria-label="Alerts found">
          {total === 1 ? '1 alert' : `${total} alerts`}
          {total > PAGE ? ` (the first ${PAGE} in this order shown; narrow the filters to see the rest)` : ''}
        </p>
      )}
      <AlertBulkActions
        selected={shown}
        onChange={setSelected}
        nameOf={(id) => rows?.find((a) => a.id === id)?.summary ?? id}
      />
      <DataTable
        caption="Alerts"
        dense
        rows={rows}
        rowKey={(a) => a.id}
        sort={sort?.table ?? null}
        onSort={(next) => set('sort', `${next.direction === 'desc' ? '-' : ''}${next.key}`)}
        selection={{ selected: shown, onChange: setSelected, label: (a) => a.summary }}
        empty="No alerts match. Alerts open when an alert rule matches an event (see Alert rules)."
        columns={[
          {
            header: 'Summary',
            cell: (a) => <Link href={`/alerts/${a.id}`}>{a.summary}</Link>,
            sortKey: 'summary',
          },
          { header: 'Status', cell: (a) => <Badge value={a.status} />, sortKey: 'status' },
          { header: 'Severity', cell: (a) => <Badge value={a.severity} />, sortKey: 'severity' },
          { header: 'Age', cell: (a) => <Ago at={a.firstSeenAt} />, sortKey: 'first_seen_at' },
          { header: 'Source', cell: (a) => a.source ?? '—', wide: true },
          {
            header: 'Labels',
            cell: (a) => <LabelList labels={a.labels} name={`Labels of ${a.summary}`} />,
            wide: true,
          },
          { header: 'Count', cell: (a) => a.count, wide: true, sortKey: 'count' },
          { header: 'Rule', cell: (a) => a.rule?.name ?? '—', wide: true },
          {
            header: 'Device',
            cell: (a) => (a.device ? <Link href={`/devices/${a.device.id}`}>{a.device.name}</Link> : '—'),
            wide: true,
          },
          { header: 'Assignee', cell: (a) => a.assignee?.email ?? '—', wide: true },
          { header: 'Last seen', cell: (a) => <Ago at={a.lastSeenAt} />, sortKey: 'last_seen_at' },
          { header: 'Muted', cell: (a) => (a.suppressed ? 'suppressed' : ''), wide: true },
        ]}
      />
    </Page>
  );
}
