/** The live timeline: the newest events, filtered, with new ones arriving over eventAdded. */
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { DataTable } from '../components/DataTable';
import { SelectField, TextField } from '../components/Field';
import { Badge, Page } from '../components/Page';
import { ErrorView } from '../components/ErrorView';
import { useLiveItems } from '../components/useLive';
import { useDebounced } from '../components/useDebounced';
import { when } from '../lib/format';
import { graphql, type ResultOf, type VariablesOf } from '../lib/graphql';

export type TimelineEvent = ResultOf<typeof EventAddedSubscription>['eventAdded'];
type EventFilter = NonNullable<VariablesOf<typeof EventsQuery>['filter']>;

const EventsQuery = graphql(`
  query ConsoleEvents($filter: EventFilter, $first: Int) {
    events(filter: $filter, first: $first) {
      edges { node { id type source severity module summary receivedAt receivedVia payload } }
    }
  }
`);
const EventAddedSubscription = graphql(`
  subscription ConsoleEventAdded($filter: EventFilter) {
    eventAdded(filter: $filter) { id type source severity module summary receivedAt receivedVia payload }
  }
`);

const SEVERITIES = ['', 'INFO', 'WARNING', 'CRITICAL'] as const;

export function Timeline() {
  const [module, setModule] = useState('');
  const [source, setSource] = useState('');
  const [type, setType] = useState('');
  const [search, setSearch] = useState('');
  const [severity, setSeverity] = useState<(typeof SEVERITIES)[number]>('');
  const typed = useDebounced({ module, source, type, search });
  const filter = useMemo<EventFilter>(() => {
    const { module, source, type, search } = typed;
    const f: EventFilter = {};
    if (module) f.module = module;
    if (source) f.source = source;
    if (type) f.type = type;
    if (search) f.search = search;
    if (severity) f.severities = [severity];
    return f;
  }, [typed, severity]);
  const [page] = useQuery({ query: EventsQuery, variables: { filter, first: 100 }, requestPolicy: 'cache-and-network' });
  const live = useLiveItems({ subscription: EventAddedSubscription, variables: { filter }, pick: (d) => d.eventAdded });
  const rows = useMemo(() => {
    const seen = new Set<string>();
    return [...live.items, ...(page.data?.events.edges.map((e) => e.node) ?? [])].filter((e) => !seen.has(e.id) && seen.add(e.id));
  }, [live.items, page.data]);
  return (
    <Page title="Timeline" error={page.error} actions={<span className="live" aria-live="polite">{live.error ? 'live updates stopped' : 'live'}</span>}>
      <div className="filters" role="search" aria-label="Filter events">
        <TextField label="Text" value={search} onChange={setSearch} placeholder="words in summary or payload" />
        <TextField label="Module" value={module} onChange={setModule} />
        <TextField label="Source" value={source} onChange={setSource} />
        <TextField label="Type" value={type} onChange={setType} placeholder="deploy.*" />
        <SelectField label="Severity" value={severity} onChange={setSeverity} options={SEVERITIES} />
      </div>
      <ErrorView error={live.error} />
      <DataTable
        caption="Events"
        rows={rows}
        rowKey={(e) => e.id}
        columns={[
          { header: 'Received', cell: (e) => when(e.receivedAt) },
          { header: 'Severity', cell: (e) => <Badge value={e.severity} /> },
          { header: 'Type', cell: (e) => <code>{e.type}</code> },
          { header: 'Source', cell: (e) => e.source },
          { header: 'Module', cell: (e) => e.module ?? '—', wide: true },
          { header: 'Summary', cell: (e) => e.summary ?? '' },
          { header: 'Via', cell: (e) => e.receivedVia.toLowerCase(), wide: true },
        ]}
      />
    </Page>
  );
}
