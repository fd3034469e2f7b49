/**
 * Silences (Alertmanager's model): list them by state (active, pending, expired), create one from
 * matchers, a start, an end and a comment (optionally recurring inside a named time interval), and expire
 * one. An alert's "Silence…" link opens this page with its labels as the matchers (`?matchers=`).
 */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useSearchParams } from 'wouter';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Badge, Page } from '../components/Page';
import { useUrlFilters } from '../components/useUrlFilters';
import { when } from '../lib/format';
import { graphql } from '../lib/graphql';
import { matcherText, parseMatcherText } from '../lib/matchers';

const SilencesQuery = graphql(`
  query ConsoleSilences($state: SilenceState) {
    silences(state: $state, limit: 200) {
      id
      matchers {
        name
        type
        value
      }
      startsAt
      endsAt
      createdBy
      comment
      state
      timeInterval {
        id
        name
      }
    }
    timeIntervals {
      id
      name
    }
  }
`);
const CreateSilence = graphql(`
  mutation ConsoleCreateSilence($input: CreateSilenceInput!) {
    createSilence(input: $input) {
      id
      state
    }
  }
`);
const ExpireSilence = graphql(`
  mutation ConsoleExpireSilence($id: ID!) {
    expireSilence(id: $id) {
      id
      state
      endsAt
    }
  }
`);

const STATES = [
  { value: 'ACTIVE', label: 'active' },
  { value: 'PENDING', label: 'pending' },
  { value: 'EXPIRED', label: 'expired' },
  { value: '', label: 'all' },
] as const;
type StateFilter = (typeof STATES)[number]['value'];

/** `datetime-local` text for a time (the browser's zone), and back to an ISO instant. */
const localInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

export function Silences() {
  const [filters, setFilter] = useUrlFilters({ state: 'ACTIVE' });
  const state = filters.state as StateFilter;
  const [{ data, error, fetching }, refetch] = useQuery({
    query: SilencesQuery,
    variables: { state: state || null },
    requestPolicy: 'cache-and-network',
  });
  const [, create] = useMutation(CreateSilence);
  const [, expire] = useMutation(ExpireSilence);
  const [params] = useSearchParams();
  const [matchers, setMatchers] = useState(params.get('matchers') ?? '');
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState(() => localInput(new Date(Date.now() + 2 * 3600_000)));
  const [comment, setComment] = useState(params.get('comment') ?? '');
  const [intervalId, setIntervalId] = useState('');
  const refresh = () => refetch({ requestPolicy: 'network-only' });

  return (
    <Page title="Silences" error={error} loading={fetching && !data}>
      <MutationForm
        title="New silence"
        submitLabel="Create silence"
        onDone={refresh}
        onSubmit={async () => {
          const r = await create({
            input: {
              matchers: parseMatcherText(matchers),
              startsAt: instant(startsAt),
              endsAt: new Date(endsAt).toISOString(),
              comment,
              timeIntervalId: intervalId || undefined,
            },
          });
          if (!r.error) setComment('');
          return r;
        }}
      >
        <TextField
          label="Matchers"
          value={matchers}
          onChange={setMatchers}
          required
          placeholder='alertname="DiskFull", instance=~"db-.*"'
          hint="Alertmanager's syntax: =, !=, =~ and !~ over the alert's labels (and severity, source, rule)."
        />
        <TextField label="Starts at" type="datetime-local" value={startsAt} onChange={setStartsAt} hint="Empty: now." />
        <TextField label="Ends at" type="datetime-local" value={endsAt} onChange={setEndsAt} required />
        <TextField label="Comment" value={comment} onChange={setComment} required />
        <SelectField
          label="Only inside time interval"
          value={intervalId}
          onChange={setIntervalId}
          options={[
            { value: '', label: 'always (not recurring)' },
            ...(data?.timeIntervals ?? []).map((t) => ({ value: t.id, label: t.name })),
          ]}
        />
      </MutationForm>
      <div className="filters">
        <SelectField label="State" value={state} onChange={(v) => setFilter('state', v)} options={STATES} />
      </div>
      <DataTable
        caption="Silences"
        rows={data?.silences}
        rowKey={(s) => s.id}
        columns={[
          { header: 'Matchers', cell: (s) => <code>{matcherText(s.matchers)}</code> },
          { header: 'State', cell: (s) => <Badge value={s.state} /> },
          { header: 'Starts', cell: (s) => when(s.startsAt), wide: true },
          { header: 'Ends', cell: (s) => when(s.endsAt) },
          { header: 'Recurs', cell: (s) => s.timeInterval?.name ?? '—', wide: true },
          { header: 'By', cell: (s) => s.createdBy, wide: true },
          { header: 'Comment', cell: (s) => s.comment },
          {
            header: 'Actions',
            cell: (s) => (
              <ActionButton
                label={`Expire silence ${s.comment}`}
                run={() => expire({ id: s.id })}
                deniedBecause={s.state === 'EXPIRED' ? 'Already expired.' : null}
                onDone={refresh}
              >
                Expire
              </ActionButton>
            ),
          },
        ]}
      />
    </Page>
  );
}
