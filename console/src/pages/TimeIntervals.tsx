/**
 * Named time intervals in Alertmanager's semantics (times, weekdays, days of month, months, years, and a
 * time zone), used by recurring silences. Members read; admins create (one spec from the form, or the
 * whole list as JSON) and delete.
 */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, TextField } from '../components/Field';
import { Badge, Page } from '../components/Page';
import { graphql } from '../lib/graphql';
import { adminOnly } from '../lib/permissions';
import { useMe } from '../lib/session';

const TimeIntervalsQuery = graphql(`
  query ConsoleTimeIntervals {
    timeIntervals {
      id
      name
      intervals
      activeNow
    }
  }
`);
const CreateTimeInterval = graphql(`
  mutation ConsoleCreateTimeInterval($input: CreateTimeIntervalInput!) {
    createTimeInterval(input: $input) {
      id
    }
  }
`);
const DeleteTimeInterval = graphql(`
  mutation ConsoleDeleteTimeInterval($id: ID!) {
    deleteTimeInterval(id: $id)
  }
`);

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** One spec from the form's fields; a field left empty matches everything. */
function specOf(f: Record<'weekdays' | 'start' | 'end' | 'days' | 'months' | 'location', string>) {
  const spec: Record<string, unknown> = {};
  if (f.start || f.end) spec.times = [{ start_time: f.start || '00:00', end_time: f.end || '24:00' }];
  if (f.weekdays) spec.weekdays = list(f.weekdays);
  if (f.days) spec.days_of_month = list(f.days);
  if (f.months) spec.months = list(f.months);
  if (f.location) spec.location = f.location;
  return spec;
}

/** A spec list as one line: `sunday 02:00–04:00 Europe/Berlin`. */
function describe(intervals: unknown): string {
  if (!Array.isArray(intervals)) return '';
  return intervals
    .map((s: Record<string, unknown>) =>
      [
        Array.isArray(s.weekdays) ? s.weekdays.join(',') : '',
        Array.isArray(s.days_of_month) ? `days ${s.days_of_month.join(',')}` : '',
        Array.isArray(s.months) ? s.months.join(',') : '',
        Array.isArray(s.times)
          ? s.times.map((t: { start_time?: string; end_time?: string }) => `${t.start_time}–${t.end_time}`).join(',')
          : '',
        typeof s.location === 'string' ? s.location : 'UTC',
      ]
        .filter(Boolean)
        .join(' '),
    )
    .join('; ');
}

export function TimeIntervals() {
  const me = useMe();
  const [{ data, error, fetching }, refetch] = useQuery({
    query: TimeIntervalsQuery,
    requestPolicy: 'cache-and-network',
  });
  const [, create] = useMutation(CreateTimeInterval);
  const [, remove] = useMutation(DeleteTimeInterval);
  const [name, setName] = useState('');
  const [fields, setFields] = useState({ weekdays: '', start: '', end: '', days: '', months: '', location: '' });
  const [json, setJson] = useState('');
  const set = (k: keyof typeof fields) => (v: string) => setFields((f) => ({ ...f, [k]: v }));
  const refresh = () => refetch({ requestPolicy: 'network-only' });

  return (
    <Page title="Time intervals" error={error} loading={fetching && !data}>
      <MutationForm
        title="New time interval"
        submitLabel="Create time interval"
        deniedBecause={adminOnly(me)}
        onDone={refresh}
        onSubmit={async () => {
          const intervals: unknown = json.trim() ? JSON.parse(json) : [specOf(fields)];
          const r = await create({ input: { name, intervals } });
          if (!r.error) setName('');
          return r;
        }}
      >
        <TextField label="Name" value={name} onChange={setName} required />
        <TextField
          label="Weekdays"
          value={fields.weekdays}
          onChange={set('weekdays')}
          placeholder="monday:friday, sunday"
        />
        <TextField label="From" type="time" value={fields.start} onChange={set('start')} />
        <TextField label="Until" type="time" value={fields.end} onChange={set('end')} />
        <TextField label="Days of month" value={fields.days} onChange={set('days')} placeholder="1:7, -1" />
        <TextField label="Months" value={fields.months} onChange={set('months')} placeholder="january:march" />
        <TextField
          label="Time zone"
          value={fields.location}
          onChange={set('location')}
          placeholder="Europe/Berlin (empty: UTC)"
        />
        <TextField
          label="Specs as JSON"
          value={json}
          onChange={setJson}
          multiline
          hint='Instead of the fields: [{"weekdays": ["saturday", "sunday"], "location": "Europe/Berlin"}, …]'
        />
      </MutationForm>
      <DataTable
        caption="Time intervals"
        rows={data?.timeIntervals}
        rowKey={(t) => t.id}
        columns={[
          { header: 'Name', cell: (t) => t.name },
          { header: 'When', cell: (t) => describe(t.intervals) },
          { header: 'Now', cell: (t) => <Badge value={t.activeNow ? 'inside' : 'outside'} /> },
          {
            header: 'Actions',
            cell: (t) => (
              <ActionButton
                label={`Delete time interval ${t.name}`}
                variant="danger"
                run={() => remove({ id: t.id })}
                deniedBecause={adminOnly(me)}
                onDone={refresh}
              >
                Delete
              </ActionButton>
            ),
          },
        ]}
      />
    </Page>
  );
}
