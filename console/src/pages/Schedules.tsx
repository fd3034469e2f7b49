/**
 * On-call schedules: who is on call now in each, a 14-day timeline of every layer and of the final shifts
 * (overrides over layers, higher layers over lower), an override added from it, and a new schedule (admins).
 */
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { CheckboxField, MutationForm, SelectField, TextField } from '../components/Field';
import { Card, Page } from '../components/Page';
import { ShiftBar, personOf } from './paging/ShiftBar';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { when } from '../lib/format';
import { graphql } from '../lib/graphql';

const SchedulesQuery = graphql(`
  query ConsoleSchedules($from: DateTime!, $to: DateTime!) {
    schedules {
      id
      name
      timeZone
      onCall {
        userId
        start
        end
        user {
          name
          email
        }
      }
      layers {
        id
        position
        name
        rotation
        shifts(from: $from, to: $to) {
          userId
          start
          end
          user {
            name
            email
          }
        }
      }
      finalShifts(from: $from, to: $to) {
        userId
        start
        end
        overrideId
        user {
          name
          email
        }
      }
    }
  }
`);
const UsersQuery = graphql(`
  query ConsoleScheduleUsers {
    users {
      id
      name
      email
    }
  }
`);
const CreateSchedule = graphql(`
  mutation ConsoleCreateSchedule($input: CreateScheduleInput!) {
    createSchedule(input: $input) {
      id
    }
  }
`);
const CreateOverride = graphql(`
  mutation ConsoleCreateScheduleOverride($input: CreateScheduleOverrideInput!) {
    createScheduleOverride(input: $input) {
      id
    }
  }
`);

const DAY = 86400_000;
type Person = { id: string; name?: string | null; email: string };
const nameOf = (u: Person) => u.name || u.email;

/** The people the signed-in user may pick: every user for admins, themselves otherwise. */
export function usePeople(): Person[] {
  const me = useMe();
  const [users] = useQuery({ query: UsersQuery, pause: me.role !== 'ADMIN' });
  return users.data?.users ?? [{ id: me.id, name: me.name, email: me.email }];
}

function OverrideForm({ scheduleId, people, onDone }: { scheduleId: string; people: Person[]; onDone: () => void }) {
  const [, create] = useMutation(CreateOverride);
  const [userId, setUserId] = useState(people[0]?.id ?? '');
  const [start, setStart] = useState('');
  const [hours, setHours] = useState('4');
  return (
    <MutationForm
      title="Add an override"
      submitLabel="Add override"
      onSubmit={() => {
        const startsAt = new Date(start || Date.now());
        const endsAt = new Date(startsAt.getTime() + Number(hours) * 3600_000);
        return create({
          input: {
            scheduleId,
            userId: userId || people[0]!.id,
            startsAt: startsAt.toISOString(),
            endsAt: endsAt.toISOString(),
          },
        });
      }}
      onDone={onDone}
    >
      <SelectField
        label="Who"
        value={userId}
        onChange={setUserId}
        options={people.map((p) => ({ value: p.id, label: nameOf(p) }))}
      />
      <TextField label="From" type="datetime-local" value={start} onChange={setStart} hint="Empty: now." />
      <TextField label="Hours" type="number" value={hours} onChange={setHours} />
    </MutationForm>
  );
}

function NewSchedule({ people, onDone }: { people: Person[]; onDone: () => void }) {
  const me = useMe();
  const [, create] = useMutation(CreateSchedule);
  const [name, setName] = useState('');
  const [timeZone, setTimeZone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const [rotation, setRotation] = useState<'DAILY' | 'WEEKLY'>('WEEKLY');
  const [handoff, setHandoff] = useState('09:00');
  const [chosen, setChosen] = useState<string[]>([]);
  return (
    <MutationForm
      title="New schedule"
      submitLabel="Create schedule"
      deniedBecause={adminOnly(me)}
      onSubmit={() =>
        create({
          input: {
            name,
            timeZone,
            layers: [{ startsAt: new Date().toISOString(), rotation, handoffTime: handoff, userIds: chosen }],
          },
        })
      }
      onDone={() => {
        setName('');
        setChosen([]);
        onDone();
      }}
    >
      <TextField label="Schedule name" value={name} onChange={setName} required />
      <TextField label="Time zone" value={timeZone} onChange={setTimeZone} hint="IANA zone, e.g. Europe/Amsterdam." />
      <SelectField label="Rotation" value={rotation} onChange={setRotation} options={['WEEKLY', 'DAILY'] as const} />
      <TextField label="Handoff time" value={handoff} onChange={setHandoff} hint="HH:mm in the schedule's zone." />
      {people.map((p) => (
        <CheckboxField
          key={p.id}
          label={`In rotation: ${nameOf(p)}`}
          checked={chosen.includes(p.id)}
          onChange={(on) => setChosen(on ? [...chosen, p.id] : chosen.filter((x) => x !== p.id))}
        />
      ))}
    </MutationForm>
  );
}

export function Schedules() {
  const [from, to] = useMemo(() => {
    const start = new Date(Math.floor(Date.now() / 3600_000) * 3600_000);
    return [start, new Date(start.getTime() + 14 * DAY)];
  }, []);
  const [result, refetch] = useQuery({
    query: SchedulesQuery,
    variables: { from: from.toISOString(), to: to.toISOString() },
  });
  const people = usePeople();
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  const schedules = result.data?.schedules;
  return (
    <Page title="Schedules" error={result.error} loading={result.fetching && !schedules}>
      {schedules?.length === 0 && <p>No schedules yet.</p>}
      {schedules?.map((s) => (
        <Card key={s.id} title={s.name}>
          <p>
            On call now: <strong>{s.onCall ? `${personOf(s.onCall)} until ${when(s.onCall.end)}` : 'nobody'}</strong> ·{' '}
            {s.timeZone}
          </p>
          <p className="hint">
            {when(from.toISOString())} – {when(to.toISOString())}
          </p>
          {s.layers.map((l) => (
            <ShiftBar key={l.id} label={l.name || `Layer ${l.position + 1}`} shifts={l.shifts} from={from} to={to} />
          ))}
          <ShiftBar label="Final" shifts={s.finalShifts} from={from} to={to} />
          <OverrideForm scheduleId={s.id} people={people} onDone={refresh} />
        </Card>
      ))}
      <NewSchedule people={people} onDone={refresh} />
    </Page>
  );
}
