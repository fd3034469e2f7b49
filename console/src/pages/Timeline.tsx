/** The live timeline: the newest events, filtered, with new ones arriving over eventAdded. */
import { useMemo } from 'react';
import { Link } from 'wouter';
import { useQuery } from 'urql';
import { DataTable } from '../components/DataTable';
import { SelectField, TextField } from '../components/Field';
import { Badge, Page } from '../components/Page';
import { ErrorView } from '../components/ErrorView';
import { useLiveItems } from '../components/useLive';
import { useDebounced } from '../components/useDebounced';
import { OnCallNow } from './paging/OnCallNow';
import { useUrlFilters } from '../components/useUrlFilters';
import { parseLabelText } from '../lib/labels';
import { when } from '../lib/format';
import { graphql, type ResultOf, type VariablesOf } from '../lib/graphql';

export type TimelineEvent = ResultOf<typeof EventAddedSubscription>['eventAdded'];
type EventFilter = NonNullable<VariablesOf<typeof EventsQuery>['filter']>;

const EventsQuery = graphql(`
  query ConsoleEvents($filter: EventFilter, $first: Int) {
    events(filter: $filter, first: $first) {
      edges {
        node {
          id
          type
          source
          severity
          module
          summary
          receivedAt
          receivedVia
          payload
        }
      }
    }
  }
`);
const EventAddedSubscription = graphql(`
  subscription ConsoleEventAdded($filter: EventFilter) {
    eventAdded(filter: $filter) {
      id
      type
      source
      severity
      module
      summary
      receivedAt
      receivedVia
      payload
    }
  }
`);

const SEVERITIES = ['', 'INFO', 'WARNING', 'CRITICAL'] as const;

const FILTER_DEFAULTS = { search: '', module: '', source: '', type: '', label: '', severity: '' };

export function Timeline() {
  const [values, set] = useUrlFilters(FILTER_DEFAULTS);
  const severity = (SEVERITIES as readonly string[]).includes(values.severity)
    ? (values.severity as (typeof SEVERITIES)[number])
    : '';
  const typed = useDebounced({
    module: values.module,
    source: values.source,
    type: values.type,
    search: values.search,
    label: values.label,
  });
  const labelFilter = parseLabelText(values.label);
  const filter = useMemo<EventFilter>(() => {
    const { module, source, type, search } = typed;
    const f: EventFilter = {};
    if (module) f.module = module;
    if (source) f.source = source;
    if (type) f.type = type;
    if (search) f.search = search;
    if (severity) f.severities = [severity];
    const labels = parseLabelText(typed.label).labels;
    if (labels) f.labels = labels;
    return f;
  }, [typed, severity]);
  const [page] = useQuery({
    query: EventsQuery,
    variables: { filter, first: 100 },
    requestPolicy: 'cache-and-network',
  });
  const live = useLiveItems({ subscription: EventAddedSubscription, variables: { filter }, pick: (d) => d.eventAdded });
  const rows = useMemo(() => {
    const seen = new Set<string>();
    return [...live.items, ...(page.data?.events.edges.map((e) => e.node) ?? [])].filter(
      (e) => !seen.has(e.id) && seen.add(e.id),
    );
  }, [live.items, page.data]);
  return (
    <Page
      title="Timeline"
      error={page.error}
      actions={
        <span className="live" aria-live="polite">
          {live.error ? 'live updates stopped' : 'live'}
        </span>
      }
    >
      <OnCallNow />
      <div className="filters" role="search" aria-label="Filter events">
        <TextField
          label="Text"
          value={values.search}
          onChange={(v) => set('search', v)}
          placeholder="words in summary, type or source"
        />
        <TextField label="Module" value={values.module} onChange={(v) => set('module', v)} />
        <TextField label="Source" value={values.source} onChange={(v) => set('source', v)} />
        <TextField label="Type" value={values.type} onChange={(v) => set('type', v)} placeholder="deploy.*" />
        <TextField
          label="Labels"
          value={values.label}
          onChange={(v) => set('label', v)}
          placeholder="env=prod, team=gpu"
          hint={labelFilter.error ?? undefined}
        />
        <SelectField label="Severity" value={severity} onChange={(v) => set('severity', v)} options={SEVERITIES} />
      </div>
      <ErrorView error={live.error} />
      <DataTable
        caption="Events"
        rows={rows}
        rowKey={(e) => e.id}
        columns={[
          { header: 'Received', cell: (e) => when(e.receivedAt) },
          { header: 'Severity', cell: (e) => <Badge value={e.severity} /> },
          { header: 'Summary', cell: (e) => <Link href={`/events/${e.id}`}>{e.summary || e.type}</Link> },
          { header: 'Type', cell: (e) => <code>{e.type}</code>, wide: true },
          { header: 'Source', cell: (e) => e.source },
          { header: 'Module', cell: (e) => e.module ?? '—', wide: true },
          { header: 'Via', cell: (e) => e.receivedVia.toLowerCase(), wide: true },
        ]}
      />
    </Page>
  );
}
